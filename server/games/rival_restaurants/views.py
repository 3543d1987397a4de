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

from typing import Any

from server.engine import OVER

from .cards import (
    ACTION_PRICE,
    BID_STEP,
    DUMP_PRICE,
    INGREDIENTS,
    LOCATIONS,
    MARKETS,
    PHASE_NAMES,
    RECIPES,
    UPGRADES,
)
from .cooking import cook_limit, cookable
from .describe import INGREDIENT_CATALOGUE, action_view, chef_card, recipe_ref, recipe_view, restaurant_card
from .expansion import merged
from .moments import acting, reading
from .buying import counter_price, island_price
from .ops import garbage_supply
from .phase import PHASES
from .state import RivalState
from .zones import OWNER, Zone


def player_view(s: RivalState, seat: int, viewer: int | None) -> dict[str, Any]:
    return {**player_public(s, seat), **player_zones(s, seat, viewer)}


def player_zone_fields() -> dict[str, tuple[Zone, Any]]:
    """The fields of ``player_view`` that show a zone (an expansion's: ``Expansion.zones``),
    with the zone and the function finding a seat's cards in it."""
    return merged(lambda x: x.zones)


def player_zones(s: RivalState, seat: int, viewer: int | None) -> dict[str, Any]:
    """What of a chef's things lies in a zone, as ``viewer`` may see it (every other field
    of ``player_view`` is the same for every viewer)."""
    return {key: zone.show(cards(s, seat), seat, viewer) for key, (zone, cards) in player_zone_fields().items()}


def players_seen(s: RivalState, public: list[dict[str, Any]], viewer: int | None) -> list[dict[str, Any]]:
    """Every chef as ``viewer`` sees them, given their spectator's views (``public``): a
    chef whose zones this viewer sees as a spectator does is that very same object."""
    zones = player_zone_fields()
    if not any(zone.visibility == OWNER for zone, _ in zones.values()):
        return public  # every viewer sees these zones as a spectator does
    return [shown if all(zone.sees(seat, viewer) == zone.sees(seat, None) for zone, _ in zones.values())
            else {**shown, **player_zones(s, seat, viewer)} for seat, shown in enumerate(public)]


def player_public(s: RivalState, seat: int) -> dict[str, Any]:
    """A chef as everyone sees them, but for their zones (``player_zones``)."""
    p, t = s.chefs[seat], s.today[seat]
    revealed = t.location is not None
    return {
        "name": s.players[seat],
        "score": p.popularity,
        "popularity": p.popularity,
        "chef": chef_card(p.chef),
        "restaurant": restaurant_card(s, seat),
        "money": p.money,
        "reserved": s.reserved(seat),
        "ingredients": dict(sorted(p.ingredients.items())),
        "recipes": [recipe_view(r) for r in p.recipes],
        "actions": [action_view(a) for a in p.actions],
        "garbage": p.garbage,
        "upgrades": list(p.upgrades),
        "gourmet_cooked": p.gourmet_cooked,
        "cooked": [recipe_ref(r) for r in p.cooked],
        "location": t.location,
        "picked": t.pick is not None,
        "foresee": t.foresee if revealed else None,
        "claimed": t.claimed,
        "claim": t.claim,
        "done": t.done,
        "ready": t.ready,
        "played_today": action_view(t.played) if t.played is not None else None,
        "power_used": t.power_used,
        "uses_today": dict(t.uses),
        **merged(lambda x: x.player_fields(s, seat)),
    }


def board_priced(s: RivalState, board: list[dict[str, Any]], seat: int | None,
                 shared: dict[Any, list[dict[str, Any]]] | None = None) -> list[dict[str, Any]]:
    """The spectator's board (``board_public``) with ``seat``'s own prices; a location
    without a counter is that very same object. One price per ingredient and market: the
    same card costs a chef the same wherever it lies on that counter. Seats paying the same
    prices get the very same board (``shared``: kept across the seats of one build)."""
    if seat is None:
        return board
    prices: dict[tuple[str, str], int] = {}
    listed = not acting(s, seat, "price")  # no effect on this chef's prices: the list prices
    for entry in board:
        for card in entry.get("counter") or ():
            if card is not None and (entry["id"], card["ingredient"]) not in prices:
                prices[(entry["id"], card["ingredient"])] = (
                    max(0, card["price"]) if listed else counter_price(s, seat, entry["id"], card["ingredient"]))
    key = tuple(prices.values())
    if shared is not None and key in shared:
        return shared[key]
    out = []
    for entry in board:
        counter = entry.get("counter")
        if counter is None:
            out.append(entry)
            continue
        here = entry["id"]
        out.append({**entry, "counter": [None if card is None else
                                         {**card, "your_price": prices[(here, card["ingredient"])]}
                                         for card in counter]})
    if shared is not None:
        shared[key] = out
    return out


def board_public(s: RivalState) -> list[dict[str, Any]]:
    """The locations as a spectator sees them (no ``your_price``)."""
    out = []
    for loc in LOCATIONS.values():
        entry: dict[str, Any] = {"id": loc.id, "name": loc.name, "position": list(loc.position),
                                 "corner": loc.corner, "market": loc.market,
                                 "chefs": [i for i, t in enumerate(s.today) if t.location == loc.id],
                                 **merged(lambda x: x.location_fields(s, loc.id))}
        if loc.id in MARKETS:
            m, state = MARKETS[loc.id], s.markets[loc.id]
            entry.update({
                "category": m.category,
                "counter": [None if card is None else
                            {"slot": i, "ingredient": card, "name": INGREDIENTS[card].name,
                             "price": INGREDIENTS[card].price,
                             "your_price": None,
                             **merged(lambda x: x.counter_fields(s, loc.id, state.ids[i]))}
                            for i, card in enumerate(state.counter)],
                "shelf": len(state.shelf),
                "discard": len(state.discard),
                "claims_resolved": state.claims_resolved,
                **merged(lambda x: x.market_fields(s, loc.id)),
            })
        out.append(entry)
    return out


def mine(s: RivalState, seat: int | None) -> dict[str, Any] | None:
    """What only this seat knows: its secret pick and its declared dishes."""
    if seat is None:
        return None
    t = s.today[seat]
    return {"pick": t.pick, "foresee": t.foresee, "dishes": [d.to_json() for d in t.dishes],
            "cook_limit": cook_limit(s, seat),
            "cookable": cookable(s, seat),
            **merged(lambda x: x.mine_fields(s, seat))}


def prompt(s: RivalState, seat: int | None) -> str:
    if s.phase == OVER:
        return "The game is over."
    return PHASES[s.phase].prompt(s, seat)


def island_public(s: RivalState) -> dict[str, Any]:
    """The Island's shop as a spectator sees it (no ``your_…`` prices)."""
    return {
        "upgrades": [{"id": u.id, "name": u.name, "price": u.price, "your_price": None, "text": u.text}
                     for u in UPGRADES.values()],
        "action_price": ACTION_PRICE, "your_action_price": None,
        "dump_price": DUMP_PRICE, "your_dump_price": None,
        "action_deck": len(s.action_deck), "action_discard": len(s.action_discard),
        "garbage_supply": garbage_supply(s),
    }


def island_priced(s: RivalState, island: dict[str, Any], seat: int | None,
                  shared: dict[Any, dict[str, Any]] | None = None) -> dict[str, Any]:
    """The spectator's Island (``island_public``) with ``seat``'s own prices; seats paying
    the same prices get the very same Island (``shared``: kept across one build)."""
    if seat is None:
        return island
    upgrades = [island_price(s, seat, "upgrade", u["id"]) for u in island["upgrades"]]
    key = (*upgrades, island_price(s, seat, "action"), island_price(s, seat, "dump"))
    if shared is not None and key in shared:
        return shared[key]
    out = {**island, "upgrades": [{**u, "your_price": p} for u, p in zip(island["upgrades"], upgrades)],
           "your_action_price": key[-2], "your_dump_price": key[-1]}
    if shared is not None:
        shared[key] = out
    return out


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
    players = [{**player_public(s, i), **player_zones(s, i, None)} for i in range(len(s.players))]
    board, island = board_public(s), island_public(s)
    phase = PHASES.get(s.phase)
    boards: dict[Any, list[dict[str, Any]]] = {}
    islands: dict[Any, dict[str, Any]] = {}
    return {seat: {
        **shared,
        "you": seat,
        "prompt": prompt(s, seat),
        "players": players_seen(s, players, seat),
        "board": board_priced(s, board, seat, boards),
        "phase_view": phase.view(s, seat) if phase else {},
        "mine": mine(s, seat),
        "island": island_priced(s, island, seat, islands),
        **merged(lambda x: x.view_fields(s, seat)),
    } for seat in seats}


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
        "day_plan": [p for p in s.day_plan if PHASES[p].listed(s)],
        "deadline": game.deadline(s),
        "phase_started": s.phase_since,  # game-clock ms
        "phase_length": phase.length(s) if phase else None,  # ms; a phase may end sooner
        "ingredients": INGREDIENT_CATALOGUE,
        "recipe_decks": {k: len(d) for k, d in s.decks.items()},
        "recipe_discards": {k: [recipe_ref(r) for r in d] for k, d in s.recipe_discards.items()},
        "bid_step": BID_STEP,
        "last_cook": [{**r, "name": RECIPES[r["recipe"]].name} for r in s.last_cook],
        "result": result.to_json() if result else None,
    }

