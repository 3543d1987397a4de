"""What each seat sees. Everything a chef owns is public; hidden are the location picks
until the reveal, the dishes declared until they are served, every shelf and deck order,
and barter offers between other chefs. What lies in a hidden zone is shown through the
zone (``zones``): its cards to those who may know them, their backs to the others.

Components are described where they appear (``describe``), not in a catalogue of all 40
recipes, which would weigh more than half a state message, on every message. Prices are
the viewer's own (``your_price``), from the functions the rules charge with.

What SPORKS Out adds to the view, through its seams (``expansion``; ``sporks_out`` on; the base
fields stay as they are):

| where | field | what |
|---|---|---|
| view | ``sporks`` | None without the expansion; else the table below |
| ``sporks`` | ``snackle_box`` | ``face_up``: the face-up action card (``action_view``) or None; ``face_down``: true when a face-down card lies beside it (never which); ``sold``: prices paid so far |
| ``sporks`` | ``last_auction`` | the last reveal: ``day``, ``bids`` (by seat), ``winner``, ``price`` (None on a tie) |
| ``sporks`` | ``dumpster`` | Joe's Dumpster: market → ingredient ids (public, nobody's) |
| ``sporks`` | ``scraps`` | the market Scraps the Raccoon watches, or None |
| ``sporks`` | ``shakers`` | shaker ("salt"/"pepper") → ``{market, slot}`` of the counter card it sits on |
| ``sporks`` | ``luau`` | today's Luau market, or None |
| ``phase_view`` (Action Auction) | ``bids`` | by seat: has this chef bid (never how much); ``your_bid``: the viewer's own; ``ends``: the deadline |
| player | ``hot_sauce`` | the chef's face-down cards, by their backs only: ``[{market}]`` — nobody sees their faces, their holder included |
| player | ``gloves`` | Pam's Boxing Gloves held ("knockout", "rob"); ``ring``: corner markets marked on her ring |
| player | ``missile`` | Papa Tio's missile parts (ingredient ids); ``missile_parts``: how many make it |
| player | ``uses_today`` | chef power uses made today, by use id (base chefs too) |
| chef card | ``uses`` | every active power: ``id``, ``name``, ``text``, ``play`` (``play_view``), ``per_day`` (None: no daily limit); ``spork``: a SPORKS Out chef |
| board location | ``counter[i].shaker`` | the shaker on that counter card, or None |
| board location | ``luau``, ``scraps`` | true where the Luau is / Scraps waits; ``dumpster``: that market's Dumpster card count |

The match options add (the fields are there, empty, without them):

| where | field | what |
|---|---|---|
| view | ``island.garbage_supply`` | garbage tokens left of the box's 32 |
| player | ``restaurant`` | None while restaurants are being chosen (option ``restaurants: "chosen"``) |
| ``phase_view`` (Choose restaurants) | ``free`` | the restaurants still free (cards); ``choosing``: seats still choosing; ``chosen``: by seat, has this chef chosen (never what); ``your_choice`` |
| player | ``squad`` | Kitchen Squad: the 3 chef cards (``chef`` is today's); ``runner``: the runner's location after the reveal |
| ``phase_view`` (Kitchen Squad) | ``chosen`` | by seat, has this player chosen today's chef (never whom); ``your_choice`` |
| ``mine`` | ``runner`` | Kitchen Squad: where the viewer's runner goes, until the reveal |
| board location | ``runners`` | Kitchen Squad: seats whose runner stands there |
"""

from __future__ import annotations

from typing import Any, Callable

import orjson

from server.engine import OVER
from server.engine.kept import alike, derived, interned, kept, listed

from .cards import (
    ACTION_PRICE,
    BID_STEP,
    DUMP_PRICE,
    INGREDIENTS,
    LOCATIONS,
    MARKETS,
    PHASE_NAMES,
    RECIPES,
    RESTAURANTS,
    UPGRADES,
)
from .cooking import cook_limit, cookable
from .describe import INGREDIENT_CATALOGUE, action_view, chef_card, recipe_ref, recipe_view, restaurant_view
from .expansion import EXPANSIONS, merged, unplayed
from .moments import acting, answers_key, read_once, reading
from .buying import LISTED, counter_price, island_price
from .ops import garbage_supply
from .phase import PHASES
from .state import Dish, RivalState
from .zones import OWNER, Zone


JSON = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


NO_FIELDS = orjson.dumps({})


def fields(found: dict[str, Any]) -> bytes:
    """An expansion's fields as a fact (their JSON), so that a part showing them is kept by it."""
    return orjson.dumps(found, option=JSON) if found else NO_FIELDS


def fields_at(seam: str, s: RivalState, arg: Any) -> bytes:
    """The expansions' fields at a view seam (``merged``), as a fact (kept: ``unplayed``)."""
    return unplayed(seam, s, ("json", seam, arg), _fields_at, seam, s, arg)


def _fields_at(seam: str, s: RivalState, arg: Any) -> bytes:
    return fields(merged(seam, s, arg))


def player_zone_fields() -> dict[str, tuple[Zone, Any]]:
    """The fields of a chef's view that show a zone (an expansion's: ``Expansion.zones``),
    with the zone and the function finding a seat's cards in it."""
    return EXPANSIONS.joined("zones")


def _zone_facts(s: RivalState, seat: int, viewer: int | None) -> tuple[Any, ...]:
    """What of a chef's things lies in a zone, as facts: each zone's cards and whether
    ``viewer`` sees them (kept where the match plays no expansion showing a zone: ``unplayed``)."""
    return unplayed("zones", s, ("zones", seat, viewer), _zones_of, s, seat, viewer)


def _zones_of(s: RivalState, seat: int, viewer: int | None) -> tuple[Any, ...]:
    return tuple((key, tuple(cards(s, seat)), zone.sees(seat, viewer))
                 for key, (zone, cards) in player_zone_fields().items())


def players_seen(s: RivalState, viewer: int | None) -> list[dict[str, Any]]:
    """Every chef as ``viewer`` sees them: a chef whose zones every viewer sees alike is the
    very same object in every view, and the list is too when all of them are."""
    public = read_once(s, "players", _players, s, None)
    zones = player_zone_fields()
    if not any(zone.visibility == OWNER for zone, _ in zones.values()) or all(
            zone.sees(seat, viewer) == zone.sees(seat, None) for seat in range(len(s.players)) for zone, _ in zones.values()):
        return public
    return _players(s, viewer)


def _players(s: RivalState, viewer: int | None) -> list[dict[str, Any]]:
    facts = read_once(s, "player facts", _players_facts, s)
    return listed(*(_player(f, _zone_facts(s, seat, viewer)) for seat, f in enumerate(facts)))


def _players_facts(s: RivalState) -> list[tuple[Any, ...]]:
    return [_player_facts(s, seat) for seat in range(len(s.players))]


def _player_facts(s: RivalState, seat: int) -> tuple[Any, ...]:
    """What ``_public`` shows of a chef, as hashable facts (in its order)."""
    p, t = s.chefs[seat], s.today[seat]
    return (s.players[seat], p.popularity, p.chef, p.restaurant, tuple(p.levels), p.money, s.reserved(seat),
            tuple(sorted(p.ingredients.items())), tuple(p.recipes), tuple(p.actions), p.garbage,
            tuple(p.upgrades), p.gourmet_cooked, tuple(p.cooked), t.location, t.pick is not None,
            t.foresee if t.location is not None else None, t.claimed, t.claim, t.done, t.ready, t.played,
            tuple(t.uses.items()), fields_at("player_fields", s, seat))


HELD = 7  # where a chef's ingredients are in their facts: (id, count) pairs, sorted


@interned(size=4096)
def _player(facts: tuple[Any, ...], zones: tuple[Any, ...]) -> dict[str, Any]:
    """A chef as a viewer sees them, from their facts (``_player_facts``, ``_zone_facts``)."""
    shown = player_zone_fields()
    return {**_public(*facts), **{key: shown[key][0].faces(list(cards), seen) for key, cards, seen in zones}}


def _public(name: str, popularity: int, chef: str, restaurant: str, levels: tuple[int, ...], money: int,
            reserved: int, ingredients: tuple[tuple[str, int], ...], recipes: tuple[str, ...],
            actions: tuple[str, ...], garbage: int, upgrades: tuple[str, ...], gourmet_cooked: int,
            cooked: tuple[str, ...], location: str | None, picked: bool, foresee: int | None, claimed: bool,
            claim: int | None, done: bool, ready: bool, played: str | None, uses: tuple[tuple[str, int], ...],
            more: bytes) -> dict[str, Any]:
    """A chef as everyone sees them, but for their zones."""
    return {
        "name": name,
        "score": popularity,
        "popularity": popularity,
        "chef": chef_card(chef),
        "restaurant": _restaurant(restaurant, levels) if restaurant in RESTAURANTS else None,
        "money": money,
        "reserved": reserved,
        "ingredients": dict(ingredients),
        "recipes": [recipe_view(r) for r in recipes],
        "actions": [action_view(a) for a in actions],
        "garbage": garbage,
        "upgrades": list(upgrades),
        "gourmet_cooked": gourmet_cooked,
        "cooked": [recipe_ref(r) for r in cooked],
        "location": location,
        "picked": picked,
        "foresee": foresee,
        "claimed": claimed,
        "claim": claim,
        "done": done,
        "ready": ready,
        "played_today": action_view(played) if played is not None else None,
        "power_used": bool(uses),
        "uses_today": dict(uses),
        **orjson.loads(more),
    }


@interned()
def _restaurant(restaurant: str, levels: tuple[int, ...]) -> dict[str, Any]:
    return restaurant_view(restaurant, levels)


def board_priced(s: RivalState, seat: int | None) -> list[dict[str, Any]]:
    """The locations as ``seat`` sees them: the spectator's with the seat's own prices
    (``your_price``). One price per ingredient and market: the same card costs a chef the
    same wherever it lies on that counter. A location is the very same object for every
    seat paying the same prices there, and from one state to the next while its facts and
    those prices stay; so is the board when all its locations are."""
    if seat is None:
        return read_once(s, "board", _spectators_board, s)
    if not acting(s, seat, "price"):  # no effect on this chef's prices: the list prices
        return _listed_board(board_priced(s, None))
    kept_by = answers_key(s, seat, "price")
    if kept_by is None:
        return _board_at(s, lambda market, ingredient: counter_price(s, seat, market, ingredient))
    return listed(*(_location(*f) if f[3] is None else _priced_by(f, kept_by, s, seat) for f in _board_facts(s)))


@kept(lambda facts, kept_by, s, seat: (facts, kept_by), None)
def _priced_by(facts: tuple[Any, ...], kept_by: tuple[Any, ...], s: RivalState, seat: int) -> dict[str, Any]:
    """A market as ``seat`` sees it, kept by its facts and by what the seat's prices follow
    from (``answers_key``): asked again, the very same object, no card priced again."""
    market, counter = facts[0], facts[3]
    return _priced_location(facts, tuple(None if card is None else counter_price(s, seat, market, card)
                                         for card in counter))


def _spectators_board(s: RivalState) -> list[dict[str, Any]]:
    return listed(*(_location(*f) for f in _board_facts(s)))


@derived()
def _listed_board(board: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The spectator's ``board`` at the list prices: what a chef no effect changes a price
    for sees (kept by that very board, which is kept while its locations are)."""
    return listed(*(entry if entry.get("counter") is None else _at_list_prices(entry) for entry in board))


@derived(size=4096)
def _at_list_prices(entry: dict[str, Any]) -> dict[str, Any]:
    return {**entry, "counter": [None if card is None else {**card, "your_price": LISTED[card["ingredient"]]}
                                 for card in entry["counter"]]}


def _board_at(s: RivalState, price: Callable[[str, str], int]) -> list[dict[str, Any]]:
    """The board with ``price(market, ingredient)`` as every counter card's ``your_price``."""
    out = []
    for f in _board_facts(s):
        counter = f[3]
        if counter is None:
            out.append(_location(*f))
            continue
        prices: dict[str, int] = {}
        for card in counter:
            if card is not None and card not in prices:
                prices[card] = price(f[0], card)
        out.append(_priced_location(f, tuple(prices[c] if c is not None else None for c in counter)))
    return listed(*out)


def _board_facts(s: RivalState) -> list[tuple[Any, ...]]:
    """Each location's facts (``_location``), made once while the state is read."""
    return read_once(s, "board facts", _locations_facts, s)


def _locations_facts(s: RivalState) -> list[tuple[Any, ...]]:
    chefs: dict[str | None, list[int]] = {}
    for i, t in enumerate(s.today):
        chefs.setdefault(t.location, []).append(i)
    out = []
    for loc in LOCATIONS.values():
        here = (loc.id, tuple(chefs.get(loc.id, ())), fields_at("location_fields", s, loc.id))
        if loc.id not in MARKETS:
            out.append((here[0], here[1], here[2], None))
            continue
        state = s.markets[loc.id]
        out.append((here[0], here[1], here[2], tuple(state.counter), fields_at("counter_fields", s, loc.id),
                    len(state.shelf), len(state.discard), state.claims_resolved,
                    fields_at("market_fields", s, loc.id)))
    return out


@interned(size=4096)
def _location(id: str, chefs: tuple[int, ...], more: bytes, counter: tuple[Any, ...] | None,
              *market: Any) -> dict[str, Any]:
    """A location as a spectator sees it, from its facts (``_locations_facts``)."""
    loc = LOCATIONS[id]
    entry: dict[str, Any] = {"id": loc.id, "name": loc.name, "position": list(loc.position),
                             "corner": loc.corner, "market": loc.market, "chefs": list(chefs),
                             **orjson.loads(more)}
    if counter is None:
        return entry
    slots, shelf, discard, claims_resolved, market_more = market
    on_cards = orjson.loads(slots)
    entry.update({
        "category": MARKETS[id].category,
        "counter": [None if card is None else
                    {"slot": i, "ingredient": card, "name": INGREDIENTS[card].name,
                     "price": INGREDIENTS[card].price, "your_price": None,
                     **{key: values[i] for key, values in on_cards.items()}}
                    for i, card in enumerate(counter)],
        "shelf": shelf,
        "discard": discard,
        "claims_resolved": claims_resolved,
        **orjson.loads(market_more),
    })
    return entry


@interned(size=4096)
def _priced_location(facts: tuple[Any, ...], prices: tuple[int | None, ...]) -> dict[str, Any]:
    """A market as a chef paying ``prices`` (by slot) sees it."""
    entry = _location(*facts)
    return {**entry, "counter": [None if card is None else {**card, "your_price": price}
                                 for card, price in zip(entry["counter"], prices)]}


def mine(s: RivalState, seat: int | None) -> dict[str, Any] | None:
    """What only this seat knows: its secret pick and its declared dishes."""
    if seat is None:
        return None
    t = s.today[seat]
    held = read_once(s, "player facts", _players_facts, s)[seat][HELD]
    return _mine(t.pick, t.foresee, tuple(t.dishes), cook_limit(s, seat), tuple(cookable(s, seat, held).items()),
                 fields_at("mine_fields", s, seat))


@interned(size=4096)
def _mine(pick: str | None, foresee: int | None, dishes: tuple[Dish, ...], limit: int,
          can_cook: tuple[tuple[str, bool], ...], more: bytes) -> dict[str, Any]:
    """What only a seat knows, from its facts (``mine``)."""
    return {"pick": pick, "foresee": foresee, "dishes": [d.to_json() for d in dishes], "cook_limit": limit,
            "cookable": dict(can_cook), **orjson.loads(more)}


def prompt(s: RivalState, seat: int | None) -> str:
    if s.phase == OVER:
        return "The game is over."
    return PHASES[s.phase].prompt(s, seat)


def _island_facts(s: RivalState) -> tuple[int, int, int]:
    return len(s.action_deck), len(s.action_discard), garbage_supply(s)


@interned()
def _island(action_deck: int, action_discard: int, garbage: int) -> dict[str, Any]:
    """The Island's shop as a spectator sees it (no ``your_…`` prices)."""
    return {
        "upgrades": [{"id": u.id, "name": u.name, "price": u.price, "your_price": None, "text": u.text}
                     for u in UPGRADES.values()],
        "action_price": ACTION_PRICE, "your_action_price": None,
        "dump_price": DUMP_PRICE, "your_dump_price": None,
        "action_deck": action_deck, "action_discard": action_discard,
        "garbage_supply": garbage,
    }


def island_priced(s: RivalState, seat: int | None) -> dict[str, Any]:
    """The Island with ``seat``'s own prices: the very same object for every seat paying
    the same prices, and from one state to the next while they stay."""
    facts = read_once(s, "island", _island_facts, s)
    if seat is None:
        return _island(*facts)
    if not acting(s, seat, "island_price"):  # the list prices
        prices = LIST_PRICES
    else:
        prices = (tuple(island_price(s, seat, "upgrade", u) for u in UPGRADES),
                  island_price(s, seat, "action"), island_price(s, seat, "dump"))
    return _priced_island(facts, prices)


LIST_PRICES = (tuple(max(0, u.price) for u in UPGRADES.values()), max(0, ACTION_PRICE), max(0, DUMP_PRICE))


@interned()
def _priced_island(facts: tuple[int, int, int], prices: tuple[Any, ...]) -> dict[str, Any]:
    island = _island(*facts)
    upgrades, action, dump = prices
    return {**island, "upgrades": [{**u, "your_price": p} for u, p in zip(island["upgrades"], upgrades)],
            "your_action_price": action, "your_dump_price": dump}


def build_view(game: Any, s: RivalState, seat: int | None) -> dict[str, Any]:
    return build_views(game, s, [seat])[seat]


def build_views(game: Any, s: RivalState, seats: list[int | None]) -> dict[int | None, dict[str, Any]]:
    """Every seat's view at once: what all seats see alike (the fields of ``shared_view``,
    the chefs, the board and the Island as a spectator sees them) is built once and is the
    very same object in every view; only what depends on the viewer is built per seat."""
    with reading(s):
        return _assemble(game, s, seats)


def _assemble(game: Any, s: RivalState, seats: list[int | None]) -> dict[int | None, dict[str, Any]]:
    shared = shared_view(game, s)
    phase = PHASES.get(s.phase)
    return {seat: {
        **shared,
        "you": seat,
        "prompt": prompt(s, seat),
        "players": players_seen(s, seat),
        "board": board_priced(s, seat),
        "phase_view": alike(phase.view(s, seat)) if phase else NOTHING,
        "mine": mine(s, seat),
        "island": island_priced(s, seat),
        **{key: alike(value) if isinstance(value, (dict, list)) else value
           for key, value in merged("view_fields", s, seat).items()},
    } for seat in seats}


NOTHING: dict[str, Any] = {}  # an empty part, never changed


def shared_view(game: Any, s: RivalState) -> dict[str, Any]:
    """The fields of a view that are the same for every viewer."""
    result = game.result(s)
    phase = PHASES.get(s.phase)
    return {
        "game": game.id,
        "day": s.day,
        "closing_day": s.options.max_days,
        "goal": s.options.goal,
        "phase": s.phase,
        "phase_name": PHASE_NAMES.get(s.phase, "Game over" if s.phase == OVER else s.phase),
        "day_plan": _listed_values(tuple(p for p in s.day_plan if PHASES[p].listed(s))),
        "deadline": game.deadline(s),
        "phase_started": s.phase_since,  # game-clock ms
        "phase_length": phase.length(s) if phase else None,  # ms; a phase may end sooner
        "ingredients": INGREDIENT_CATALOGUE,
        "recipe_decks": _recipe_decks(tuple((k, len(d)) for k, d in s.decks.items())),
        "recipe_discards": _recipe_discards(tuple((k, tuple(d)) for k, d in s.recipe_discards.items())),
        "bid_step": BID_STEP,
        "last_cook": alike([{**r, "name": RECIPES[r["recipe"]].name} for r in s.last_cook]) if s.last_cook else [],
        "result": alike(result.to_json()) if result else None,
    }


@interned()
def _listed_values(values: tuple[Any, ...]) -> list[Any]:
    return list(values)


@interned()
def _recipe_decks(sizes: tuple[tuple[str, int], ...]) -> dict[str, int]:
    return dict(sizes)


@interned()
def _recipe_discards(piles: tuple[tuple[str, tuple[str, ...]], ...]) -> dict[str, list[dict[str, Any]]]:
    return {k: [recipe_ref(r) for r in pile] for k, pile in piles}

