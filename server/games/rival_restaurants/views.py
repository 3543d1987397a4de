"""What each seat sees. Everything a chef owns is public; hidden are the location picks
until the reveal, the dishes declared until they are served, every shelf and deck order,
and barter offers between other chefs.

Components are described where they appear (``describe``), not in a catalogue of all 40
recipes, which would weigh more than half a state message, on every message. Prices are
the viewer's own (``your_price``), from the functions the rules charge with."""

from __future__ import annotations

from typing import Any

from server.engine import OVER

from .cards import (
    ACTION_PRICE,
    BID_STEP,
    CHEFS,
    CUISINES,
    DUMP_PRICE,
    INGREDIENTS,
    LOCATIONS,
    MARKETS,
    PHASE_NAMES,
    RECIPES,
    RESTAURANTS,
    UPGRADES,
)
from .cooking import cook_limit, plan_dishes
from .describe import INGREDIENT_CATALOGUE, action_view, play_view, recipe_ref, recipe_view
from .market import counter_price, island_price
from .phase import PHASES, VIEW_PARTS
from .state import RivalState


def chef_card(chef_id: str) -> dict[str, Any]:
    c = CHEFS[chef_id]
    return {"id": c.id, "name": c.name, "title": c.title, "phase": c.phase, "power": c.power, "text": c.text,
            "active": c.play is not None, "play": play_view(c.play) if c.play is not None else None}


def restaurant_card(s: RivalState, seat: int) -> dict[str, Any]:
    p = s.chefs[seat]
    r = RESTAURANTS[p.restaurant]
    return {"id": r.id, "name": r.name, "cuisine": r.cuisine, "cuisine_name": CUISINES[r.cuisine],
            "levels": [{"threshold": lv.threshold, "name": lv.name, "text": lv.text,
                        "reached": lv.threshold in p.levels} for lv in r.levels]}


def player_view(s: RivalState, seat: int, viewer: int | None) -> dict[str, Any]:
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
    }


def board_view(s: RivalState, seat: int | None) -> list[dict[str, Any]]:
    """The locations; a counter card shows its list ``price`` and ``your_price``: what the
    viewer pays for it as things stand (``market.counter_price``; None for a spectator)."""
    out = []
    for loc in LOCATIONS.values():
        entry: dict[str, Any] = {"id": loc.id, "name": loc.name, "position": list(loc.position),
                                 "corner": loc.corner, "market": loc.market,
                                 "chefs": [i for i, t in enumerate(s.today) if t.location == loc.id]}
        if loc.id in MARKETS:
            m, state = MARKETS[loc.id], s.markets[loc.id]
            entry.update({
                "category": m.category,
                "counter": [None if card is None else
                            {"slot": i, "ingredient": card, "name": INGREDIENTS[card].name,
                             "price": INGREDIENTS[card].price,
                             "your_price": None if seat is None else counter_price(s, seat, loc.id, card)}
                            for i, card in enumerate(state.counter)],
                "shelf": len(state.shelf),
                "discard": len(state.discard),
                "claims_resolved": state.claims_resolved,
            })
        out.append(entry)
    return out


def mine(s: RivalState, seat: int | None) -> dict[str, Any] | None:
    """What only this seat knows: its secret pick and its declared dishes."""
    if seat is None:
        return None
    t = s.today[seat]
    return {"pick": t.pick, "foresee": t.foresee, "dishes": [dict(d) for d in t.dishes],
            "cook_limit": cook_limit(s, seat),
            "cookable": {r: plan_dishes(s, seat, [{"recipe": r, "extras": []}]) is not None
                         for r in s.chefs[seat].recipes}}


def prompt(s: RivalState, seat: int | None) -> str:
    if s.phase == OVER:
        return "The game is over."
    return PHASES[s.phase].prompt(s, seat)


def island_view(s: RivalState, seat: int | None) -> dict[str, Any]:
    """The Island's shop, with list prices and the viewer's own (``market.island_price``)."""
    def yours(item: str, ident: str | None = None) -> int | None:
        return None if seat is None else island_price(s, seat, item, ident)

    return {
        "upgrades": [{"id": u.id, "name": u.name, "price": u.price, "your_price": yours("upgrade", u.id),
                      "text": u.text} for u in UPGRADES.values()],
        "action_price": ACTION_PRICE, "your_action_price": yours("action"),
        "dump_price": DUMP_PRICE, "your_dump_price": yours("dump"),
        "action_deck": len(s.action_deck), "action_discard": len(s.action_discard),
    }


def build_view(game: Any, s: RivalState, seat: int | None) -> dict[str, Any]:
    result = game.result(s)
    phase = PHASES.get(s.phase)
    return {
        "game": game.id,
        "you": seat,
        "day": s.day,
        "closing_day": s.options.max_days,
        "goal": s.options.goal,
        "phase": s.phase,
        "phase_name": PHASE_NAMES.get(s.phase, "Game over" if s.phase == OVER else s.phase),
        "day_plan": list(s.day_plan),
        "prompt": prompt(s, seat),
        "deadline": game.deadline(s),
        "phase_started": s.phase_since,  # game-clock ms
        "phase_length": phase.length(s) if phase else None,  # ms; a phase may end sooner
        "players": [player_view(s, i, seat) for i in range(len(s.players))],
        "board": board_view(s, seat),
        "phase_view": phase.view(s, seat) if phase else {},
        "mine": mine(s, seat),
        "island": island_view(s, seat),
        "ingredients": INGREDIENT_CATALOGUE,
        "recipe_decks": {k: len(d) for k, d in s.decks.items()},
        "recipe_discards": {k: [recipe_ref(r) for r in d] for k, d in s.recipe_discards.items()},
        "bid_step": BID_STEP,
        "last_cook": [{**r, "name": RECIPES[r["recipe"]].name} for r in s.last_cook],
        "result": result.to_json() if result else None,
        "expansion": {key: part(s, seat) for key, part in VIEW_PARTS.items()},
    }
