"""Snollygoster: what one seat sees (``view``), shaped for the table renderer.

Public: tags (claims, with who tagged), who placed each Food, stash sizes, Fuel,
Quarantine, Lockout, deaths, hand sizes, Tag cards left, offers, the response window and
its deadline, every revealed Food, the Action discard pile (every card in it was shown
going there). Private to the seat: its hand, its agenda, the Event
cards it drew, and its knowledge of Food (``you_know`` with ``how``: placed, inspected or
seen). Never another seat's agenda (until the Sleuth's reveal or the end) nor the safety
of a Food the seat has not seen.
"""

from __future__ import annotations

from typing import Any

from .cards import ACTION_CARDS, AGENDA_NAMES, AGENDAS, CHARACTERS, EVENT_CARDS, FUEL_CAP, POD_FUEL, STASH_SIZE
from .flow import name
from .scoring import outcome
from .state import SnollygosterState

S = SnollygosterState


def food_view(s: S, food: int, viewer: int | None) -> dict[str, Any]:
    tag = s.tags.get(food)
    how = "revealed" if s.public_kind[food] else s.known[food].get(viewer) if viewer is not None else None
    return {
        "id": food,
        "tag": {"by": tag[0], "by_name": name(s, tag[0]), "claim": tag[1]} if tag else None,
        "placed_by": s.placed_by.get(food),
        "antidote": s.antidote.get(food) == s.turn_no,
        "you_know": s.kinds[food] if how else None,
        "how": how,
    }


def agenda_view(s: S, seat: int) -> dict[str, Any]:
    a = AGENDAS[s.agendas[seat]]
    return {"id": a.id, "name": a.name, "team": a.team, "text": a.text}


def player_view(s: S, p: int, viewer: int | None, scores: list[float] | None) -> dict[str, Any]:
    character = CHARACTERS[s.characters[p]]
    waiting = s.window.waiting if s.window else (s.eating.waiting if s.eating else [])
    return {
        "seat": p,
        "name": s.players[p],
        "score": scores[p] if scores else None,
        "character": {"id": character.id, "name": character.name, "color": character.color},
        "fuel": len(s.fuel[p]),
        "hand": len(s.hands[p]),
        "tags_left": s.tags_left[p],
        "stash": [food_view(s, f, viewer) for f in s.stashes[p]],
        "quarantined": s.quarantined[p],
        "dead": s.dead[p],
        "locked_by": s.locked.get(p),
        "active": s.phase == "play" and p == s.turn,
        "waiting_on": p in waiting,
        "agenda": agenda_view(s, p) if p in s.revealed_agendas or p == viewer else None,
    }


def window_view(s: S) -> dict[str, Any] | None:
    w = s.window
    if w is None:
        return None
    chain = [{"seat": w.play.seat, "card": w.play.card}] + [{"seat": p, "card": "denied"} for p in w.chain]
    return {"card": w.play.card, "by": w.play.seat, "args": dict(w.play.args), "chain": chain,
            "stands": len(w.chain) % 2 == 0, "waiting": list(w.waiting), "deadline": w.deadline}


def eating_view(s: S) -> dict[str, Any] | None:
    e = s.eating
    if e is None:
        return None
    return {"eater": e.eater, "remaining": e.remaining, "source": e.source, "by": e.by, "food": e.food,
            "waiting": list(e.waiting), "deadline": e.deadline}


def card_view(kind: str) -> dict[str, Any]:
    card = ACTION_CARDS.get(kind) or EVENT_CARDS[kind]
    return {"card": kind, "name": card.name, "text": card.text, "any_time": card.any_time}


def prompt(s: S, seat: int | None) -> str:
    """One line telling this seat what to do now."""
    if s.phase == "over":
        return "The game is over: every agenda is revealed."
    if s.phase == "seed":
        who = s.seeding[0]
        return ("Seed a Food: choose safe or unsafe and the stash to hide it in." if seat == who
                else f"Waiting for {name(s, who)} to seed a Food.")
    if s.phase == "guess":
        if seat in s.guessing:
            return "You are the Sleuth: guess the others' agendas, then say done."
        return "The Sleuth is guessing agendas."
    if seat is not None and s.dead[seat]:
        return "You died — but you can still win on points. Watch the others."
    if s.window is not None:
        w = s.window
        last = w.play.seat if not w.chain else w.chain[-1]
        what = "Denied" if w.chain else ACTION_CARDS[w.play.card].name
        if seat in w.waiting:
            return f"{name(s, last)} played {what}: answer with Denied or let it go."
        return f"Waiting for answers to {name(s, last)}'s {what}."
    e = s.eating
    if e is not None and e.food is not None:
        if seat in e.waiting:
            return f"{name(s, e.eater)} will eat Food #{e.food}: acknowledge it (or play an Antidote)."
        return f"Waiting for everyone to acknowledge the Food {name(s, e.eater)} will eat."
    offers = [name(s, o.by) for o in s.offers if o.to == seat]
    extra = f" {', '.join(offers)} offer{'s' if len(offers) == 1 else ''} you a trade." if offers else ""
    return step_prompt(s, seat) + extra


def step_prompt(s: S, seat: int | None) -> str:
    who = name(s, s.turn)
    if s.step == "eat" and s.eating is not None:
        if seat == s.eating.eater:
            return f"Choose a Food from your stash to eat ({s.eating.remaining} to go)."
        return f"{name(s, s.eating.eater)} is choosing a Food to eat."
    mine = seat == s.turn
    lines = {
        "action": ("Your Action stage: play or discard cards, trade, then end it.", f"{who}'s Action stage."),
        "event": ("Keep one of the two Event cards you drew; the other goes to the bottom.",
                  f"{who} is choosing an Event card."),
        "tag": (f"Tag Food #{s.inspecting} safe or unsafe — you may lie.", f"{who} is tagging a Food."),
    }
    return lines.get(s.step, ("", ""))[0 if mine else 1] or f"{who}'s turn."


def build_view(s: S, seat: int | None, deadline: int | None) -> dict[str, Any]:
    over = s.phase == "over"
    result = outcome(s) if over else None
    v: dict[str, Any] = {
        "game": "snollygoster",
        "you": seat,
        "phase": s.phase,
        "step": s.step if s.phase == "play" else None,
        "prompt": prompt(s, seat),
        "deadline": deadline,
        "since": s.step_since,
        "timers": {"window_ms": s.options.window_ms, "turn_ms": s.options.turn_ms,
                   "step_ms": s.options.step_ms},
        "turn": s.turn, "turn_no": s.turn_no, "round": s.round_no,
        "round_limit": s.options.round_limit, "dealer": s.dealer, "team_game": s.options.team_game,
        "players": [player_view(s, p, seat, result.scores if result else None) for p in range(s.n)],
        "limits": {"stash": STASH_SIZE, "fuel": FUEL_CAP},
        "escape_pod": {"fuel_table": [{"people": k, "fuel": POD_FUEL[k]} for k in range(1, s.n + 1)],
                       "launch": s.launch},
        "decks": {"action": len(s.action_deck), "action_discard": len(s.action_discard),
                  "event": len(s.event_deck), "event_discard": len(s.event_discard)},
        "action_discard": [card_view(c) for c in s.action_discard],
        "window": window_view(s),
        "eating": eating_view(s),
        "offers": [o.to_json() for o in s.offers],
        "drawn": {"count": len(s.drawn),
                  "cards": [card_view(s.kinds[c]) for c in s.drawn] if seat == s.turn else None},
        "inspecting": s.inspecting,
        "eaten": [dict(e) for e in s.eaten],
        "hand": [card_view(c) for c in s.hands[seat]] if seat is not None else [],
        "agenda": agenda_view(s, seat) if seat is not None else None,
        "guessing": {"sleuths": list(s.guessing), "agendas": list(AGENDA_NAMES),
                     "guesses": {str(k): {str(o): g for o, g in v.items()} for k, v in s.guesses.items()}},
        "result": result.to_json() if result else None,
    }
    return v
