"""What each seat sees. Everything a chef owns is public; hidden are the location picks
until the reveal, the dishes declared until they are served, every shelf and deck order,
and barter offers between other chefs. What lies in a hidden zone is shown through the
zone (``zones``): its cards to those who may know them, their backs to the others.

Components are described where they appear (``describe``), not in a catalogue of all 40
recipes, which would weigh more than half a state message, on every message. Prices are
the viewer's own (``your_price``), from the functions the rules charge with.

What SPORKS Out adds to the view (``sporks_out`` on; the base fields stay as they are):

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
    MISSILE_PARTS,
    PHASE_NAMES,
    RECIPES,
    UPGRADES,
)
from .cooking import cook_limit, plan_dishes
from .describe import INGREDIENT_CATALOGUE, action_view, chef_card, recipe_ref, recipe_view, restaurant_card
from .moments import reading
from .buying import counter_price, island_price
from .ops import garbage_supply
from .phase import PHASES, VIEW_PARTS
from .sporks import shaker_on
from .state import RivalState
from .zones import BOX_FACE_DOWN, HOT_SAUCE, MISSILE


def player_view(s: RivalState, seat: int, viewer: int | None) -> dict[str, Any]:
    return {**player_public(s, seat), **player_zones(s, seat, viewer)}


PLAYER_ZONES = {"hot_sauce": (HOT_SAUCE, "hot_sauce"), "missile": (MISSILE, "missile")}
"""The fields of ``player_view`` that show a zone, with the zone and the pantry's field."""


def player_zones(s: RivalState, seat: int, viewer: int | None) -> dict[str, Any]:
    """What of a chef's things lies in a zone, as ``viewer`` may see it (every other field
    of ``player_view`` is the same for every viewer)."""
    p = s.chefs[seat]
    return {key: zone.show(getattr(p, name), seat, viewer) for key, (zone, name) in PLAYER_ZONES.items()}


def players_seen(s: RivalState, public: list[dict[str, Any]], viewer: int | None) -> list[dict[str, Any]]:
    """Every chef as ``viewer`` sees them, given their spectator's views (``public``): a
    chef whose zones this viewer sees as a spectator does is that very same object."""
    return [shown if all(zone.sees(seat, viewer) == zone.sees(seat, None) for zone, _ in PLAYER_ZONES.values())
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
        "ring": list(p.ring),
        "gloves": list(p.gloves),
        "missile_parts": MISSILE_PARTS,
        "squad": [chef_card(c) for c in p.squad],  # Kitchen Squad: the 3 chefs ("chef" is today's)
        "runner": t.runner,  # Kitchen Squad: the runner's location, after the reveal
    }


def board_view(s: RivalState, seat: int | None) -> list[dict[str, Any]]:
    """The locations; a counter card shows its list ``price`` and ``your_price``: what the
    viewer pays for it as things stand (``market.counter_price``; None for a spectator)."""
    return board_priced(s, board_public(s), seat)


def board_priced(s: RivalState, board: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """The spectator's board (``board_public``) with ``seat``'s own prices; a location
    without a counter is that very same object. One price per ingredient and market: the
    same card costs a chef the same wherever it lies on that counter."""
    if seat is None:
        return board
    out = []
    for entry in board:
        counter = entry.get("counter")
        if counter is None:
            out.append(entry)
            continue
        prices: dict[str, int] = {}
        for card in counter:
            if card is not None and card["ingredient"] not in prices:
                prices[card["ingredient"]] = counter_price(s, seat, entry["id"], card["ingredient"])
        out.append({**entry, "counter": [None if card is None else {**card, "your_price": prices[card["ingredient"]]}
                                         for card in counter]})
    return out


def board_public(s: RivalState) -> list[dict[str, Any]]:
    """The locations as a spectator sees them (no ``your_price``)."""
    out = []
    for loc in LOCATIONS.values():
        entry: dict[str, Any] = {"id": loc.id, "name": loc.name, "position": list(loc.position),
                                 "corner": loc.corner, "market": loc.market,
                                 "chefs": [i for i, t in enumerate(s.today) if t.location == loc.id],
                                 "runners": [i for i, t in enumerate(s.today) if t.runner == loc.id]}
        if loc.id in MARKETS:
            m, state = MARKETS[loc.id], s.markets[loc.id]
            table = s.sporks
            entry.update({
                "category": m.category,
                "counter": [None if card is None else
                            {"slot": i, "ingredient": card, "name": INGREDIENTS[card].name,
                             "price": INGREDIENTS[card].price,
                             "your_price": None,
                             "shaker": shaker_on(s, loc.id, state.ids[i])}
                            for i, card in enumerate(state.counter)],
                "shelf": len(state.shelf),
                "discard": len(state.discard),
                "claims_resolved": state.claims_resolved,
                "luau": table is not None and table.luau == loc.id,
                "scraps": table is not None and table.scraps == loc.id,
                "dumpster": len(table.dumpster.get(loc.id, [])) if table is not None else 0,
            })
        out.append(entry)
    return out


def mine(s: RivalState, seat: int | None) -> dict[str, Any] | None:
    """What only this seat knows: its secret pick and its declared dishes."""
    if seat is None:
        return None
    t = s.today[seat]
    return {"pick": t.pick, "foresee": t.foresee, "runner": t.runner_pick, "dishes": [dict(d) for d in t.dishes],
            "cook_limit": cook_limit(s, seat),
            "cookable": {r: plan_dishes(s, seat, [{"recipe": r, "extras": []}]) is not None
                         for r in s.chefs[seat].recipes}}


def prompt(s: RivalState, seat: int | None) -> str:
    if s.phase == OVER:
        return "The game is over."
    return PHASES[s.phase].prompt(s, seat)


def island_view(s: RivalState, seat: int | None) -> dict[str, Any]:
    """The Island's shop, with list prices and the viewer's own (``market.island_price``)."""
    return island_priced(s, island_public(s), seat)


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


def island_priced(s: RivalState, island: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The spectator's Island (``island_public``) with ``seat``'s own prices."""
    if seat is None:
        return island
    return {**island,
            "upgrades": [{**u, "your_price": island_price(s, seat, "upgrade", u["id"])} for u in island["upgrades"]],
            "your_action_price": island_price(s, seat, "action"), "your_dump_price": island_price(s, seat, "dump")}


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
    return {seat: {
        **shared,
        "you": seat,
        "prompt": prompt(s, seat),
        "players": players_seen(s, players, seat),
        "board": board_priced(s, board, seat),
        "phase_view": phase.view(s, seat) if phase else {},
        "mine": mine(s, seat),
        "island": island_priced(s, island, seat),
        "expansion": {key: part(s, seat) for key, part in VIEW_PARTS.items()},
        "sporks": sporks_view(s, seat),
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


def sporks_view(s: RivalState, seat: int | None) -> dict[str, Any] | None:
    """SPORKS Out's table (see the module's table); the face-down Snackle card by its back."""
    table = s.sporks
    if table is None:
        return None
    return {
        "snackle_box": {"face_up": action_view(table.face_up) if table.face_up else None,
                        "face_down": bool(BOX_FACE_DOWN.show([table.face_down] if table.face_down else [], None, seat)),
                        "sold": list(table.sold)},
        "last_auction": dict(table.last_auction) if table.last_auction else None,
        "dumpster": {m: list(cards) for m, cards in sorted(table.dumpster.items()) if cards},
        "scraps": table.scraps,
        "shakers": {k: {"market": m, "slot": s.markets[m].ids.index(c) if c in s.markets[m].ids else None}
                    for k, (m, c) in sorted(table.shakers.items())},
        "luau": table.luau,
    }
