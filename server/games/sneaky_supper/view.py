"""What each seat of Sneaky Supper sees: JSON-ready, exactly what that seat may know.

Public: the Floorplan (cards drawn this turn, in order, with their Noise and Careful
cancellations), the bust pick, tokens, scores and their sources, recipes available and
claimed, deck sizes, hand sizes and the cards everyone saw go into each hand (``hand_known``
when the whole hand is known, else ``hand_maybe``: the hand is ``hand_size`` of those).
Private to the seat: its hand and its Craving.
"""

from __future__ import annotations

from typing import Any, Sequence

from server.engine import Game

from .cards import (
    BUST_NOISE, CRAVING, GOAL, HAND_LIMIT, MAX_DRAWN, MAX_TOKENS, RECIPE, RECIPES, Need, card,
    from_utensil_deck,
)
from .matching import ways
from .state import SneakySupperState, can_draw_utensil, craving_ways


def card_json(c: str) -> dict[str, Any]:
    """A card, as the renderer draws it: ``id`` is how actions name it (copies alike)."""
    t = card(c)
    return {"id": c, "type": t.id, "name": t.name, "kind": t.kind, "group": t.group,
            "noise": t.noise, "points": t.points, "icon": t.icon, "text": t.text,
            "deck": "utensil" if from_utensil_deck(c) else "search"}


def cards_json(cards: Sequence[str]) -> list[dict[str, Any]]:
    return [card_json(c) for c in cards]


def describe_needs(needs: Sequence[Need]) -> str:
    labels = [n.label for n in needs]
    return ", ".join(labels[:-1]) + " and " + labels[-1] if len(labels) > 1 else labels[0]


def needs_json(needs: Sequence[Need]) -> list[dict[str, Any]]:
    return [{"what": n.what, "count": n.count, "different": n.different, "label": n.label} for n in needs]


def craving_json(cid: str) -> dict[str, Any]:
    c = CRAVING[cid]
    return {"id": c.id, "name": c.name, "points": c.points, "snacks": list(c.snacks),
            "needs": needs_json(c.needs), "label": describe_needs(c.needs)}


def render(game: Game[SneakySupperState, Any], s: SneakySupperState, seat: int | None) -> dict[str, Any]:
    return render_all(game, s, [seat])[seat]


def render_all(game: Game[SneakySupperState, Any], s: SneakySupperState,
               seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
    """Every seat's view at once: what all seats see alike is built once and is the very
    same object in every view; only the seat's own hand, Craving, prompt and which recipes
    it can complete are built per seat."""
    shared = _shared(game, s)
    recipes = _recipes(s)
    out = {}
    for seat in seats:
        me = seat if isinstance(seat, int) and 0 <= seat < s.n else None
        mine = me is not None
        out[seat] = {
            **shared,
            "you": me,
            "prompt": prompt(s, me),
            "recipes": _recipes_for(s, recipes, me),
            "hand": cards_json(s.hands[me]) if mine else None,
            "craving": craving_json(s.cravings[me]) if mine and s.cravings[me] else None,  # type: ignore[index]
            "craving_ready": bool(craving_ways(s, me)) if mine else False,  # type: ignore[arg-type]
        }
    return out


def _shared(game: Game[SneakySupperState, Any], s: SneakySupperState) -> dict[str, Any]:
    """The fields of a view that are the same for every seat."""
    return {
        "game": game.id,
        "phase": s.phase,
        "options": {"mish_mash": s.options.mish_mash},
        "limits": {"bust_noise": BUST_NOISE, "max_cards": MAX_DRAWN, "hand": HAND_LIMIT,
                   "tokens": MAX_TOKENS, "goal": GOAL},
        "active": s.active,
        "turn": s.turn_number,
        "players": [_player(s, q) for q in range(s.n)],
        "floorplan": _floorplan(s),
        "bust": _bust(s),
        "decks": {"search": len(s.deck), "utensil": len(s.udeck), "discard": len(s.discard),
                  "utensil_discard": len(s.udiscard), "cravings": len(s.craving_deck)},
        "end": {"triggered_by": s.triggered_by, "final_turns_left": list(s.final_left or []),
                "last_call": list(s.last_call), "reason": s.end_reason},
        "last_turn": s.last_turn,
        "tally": _tally(s) if s.phase == "over" else None,
    }


def _player(s: SneakySupperState, q: int) -> dict[str, Any]:
    known = len(s.seen[q]) == len(s.hands[q])
    return {
        "name": s.name(q),
        "score": s.score(q),
        "points": dict(s.points[q]),
        "tokens": s.tokens[q],
        "hand_size": len(s.hands[q]),
        "hand_known": cards_json(s.seen[q]) if known else [],
        "hand_maybe": [] if known else cards_json(s.seen[q]),
        "recipes": list(s.completed[q]),
        "cravings": [craving_json(c) for c in s.scored_cravings[q]],
        "has_craving": s.cravings[q] is not None,
        "turns": s.turns[q],
        "active": q == s.active and s.phase not in ("last_call", "over"),
        "final_turn_pending": s.final_left is not None and q in s.final_left,
    }


def _floorplan(s: SneakySupperState) -> dict[str, Any]:
    """The sneak so far: step ``i`` is the ``i``-th card drawn this turn."""
    t = s.turn
    return {
        "steps": MAX_DRAWN,
        "path": [
            {"step": i + 1, "card": card_json(c), "cancelled": i in t.cancelled,
             "noise": noise, "on_mat": c in t.mat}
            for i, (c, noise) in enumerate(zip(t.path, t.noises()))
        ],
        "noise": t.noise(),
        "utensil_drawn": t.utensil_drawn,
        "can_draw_utensil": s.phase == "turn" and can_draw_utensil(s),
        "outcome": t.outcome,
    }


def _bust(s: SneakySupperState) -> dict[str, Any] | None:
    t = s.turn
    if t.outcome != "busted":
        return None
    return {"order": list(t.order), "next": t.picker() if s.phase == "pick" else None,
            "pool": cards_json(t.pool),
            "picks": [{"seat": q, "card": card_json(c)} for q, c in t.picks], "icon": t.icon}


def _recipes_for(s: SneakySupperState, public: list[dict[str, Any]], me: int | None) -> list[dict[str, Any]]:
    """The recipes as seat ``me`` sees them, from the spectator's (``public``): a recipe this
    seat cannot complete is the spectator's very object."""
    if me is None or not s.hands[me]:
        return public
    hand, tokens = s.hands[me], s.tokens[me]
    return [{**entry, "you_can_complete": True}
            if entry["left"] > 0 and ways(RECIPE[entry["id"]].needs, hand, tokens, s.options.mish_mash, 1) else entry
            for entry in public]


def _recipes(s: SneakySupperState) -> list[dict[str, Any]]:
    """The recipes as a spectator sees them (nobody's hand: none it can complete)."""
    out = []
    for r in RECIPES:
        left = s.recipes_left[r.id]
        out.append({"id": r.id, "name": r.name, "points": r.points, "needs": needs_json(r.needs),
                    "label": describe_needs(r.needs), "copies": r.copies, "left": left,
                    "claimed_by": [q for q in range(s.n) for rid in s.completed[q] if rid == r.id],
                    "you_can_complete": False})
    return out


def _tally(s: SneakySupperState) -> list[dict[str, Any]]:
    return [{"seat": q, "name": s.name(q), **s.points[q], "total": s.score(q)} for q in range(s.n)]


# ---- the one-line prompt ---------------------------------------------------------------------

def prompt(s: SneakySupperState, me: int | None) -> str:
    """What this seat should do now, in one line."""
    if s.phase == "over":
        return "The game is over: " + _winners(s)
    if s.phase == "last_call":
        if me in s.last_call:
            return "Last call: complete your Craving now if you can, or pass."
        return "Last call: waiting for players who can still complete a Craving."
    if s.phase == "pick":
        picker = s.turn.picker()
        if picker == me:
            return f"{s.name(s.active)} was Busted! Choose one of the drawn cards for your hand."
        return f"{s.name(s.active)} was Busted: {s.name(picker) if picker is not None else '—'} is choosing a card."
    if me != s.active:
        who = s.name(s.active)
        if s.phase == "after_bust":
            return f"{who} was Busted and may complete a Craving before the turn ends."
        extra = " You can complete your Craving now!" if me is not None and craving_ways(s, me, 1) else ""
        return f"{who} is sneaking to the kitchen (Noise {s.turn.noise()}).{extra}"
    return _active_prompt(s)


def _active_prompt(s: SneakySupperState) -> str:
    t = s.turn
    if s.phase == "turn" and not t.path:
        return "Your turn: draw the first Search card."
    if s.phase == "turn":
        utensil = ", try the Utensil deck" if can_draw_utensil(s) else ""
        return f"Noise {t.noise()} of {BUST_NOISE} after {len(t.path)} card{'s' if len(t.path) != 1 else ''}: draw again{utensil}, or Retreat."
    if s.phase == "noisy":
        return f"Noise {t.noise()}! Use Careful tokens to snuff it out, or accept being Busted."
    if s.phase == "after_bust":
        return "Busted! Complete your Craving now if you can, then end your turn."
    if s.phase == "retreat":
        eat = "" if t.consumed else ", consume one card"
        return f"Safe! Complete Recipes{eat}, then end your turn."
    extra = len(s.hands[s.active]) - HAND_LIMIT
    return f"Hand limit: discard {extra} more card{'s' if extra > 1 else ''}."


def _winners(s: SneakySupperState) -> str:
    best = max(s.score(q) for q in range(s.n))
    names = [s.name(q) for q in range(s.n) if s.score(q) == best]
    return f"{' and '.join(names)} {'win' if len(names) > 1 else 'wins'} with {best} points."
