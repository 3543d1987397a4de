"""Building Snollygoster tables for tests: a seeded game, then the exact situation."""

from __future__ import annotations

from typing import Any

from server.engine import Event
from server.games.snollygoster import GAME
from server.games.snollygoster.state import SnollygosterState

S = SnollygosterState
NOW = 10_000


def table(n: int = 3, seed: int = 7, **options: Any) -> S:
    """A game just past seeding (everyone seeded a safe Food in their own stash, or the
    next one with room), at the first player's Action stage; hands emptied."""
    s = GAME.setup([f"P{i}" for i in range(n)], GAME.options(options), seed, 0)
    while s.phase == "seed":
        seat = s.seeding[0]
        stash = seat if s.room(seat) else next(p for p in range(n) if s.room(p))
        s, _ = GAME.apply(s, seat, {"type": "seed", "kind": "safe", "stash": stash}, 0)
    for seat in range(n):
        set_hand(s, seat, [])
    return s


def act(s: S, seat: int | None, action: dict[str, Any], now: int = NOW) -> tuple[S, list[Event]]:
    return GAME.apply(s, seat, action, now)


def run(s: S, *moves: tuple[int | None, dict[str, Any]], now: int = NOW) -> tuple[S, list[Event]]:
    """Apply several moves; return the last state and all events."""
    events: list[Event] = []
    for seat, action in moves:
        s, ev = GAME.apply(s, seat, action, now)
        events += ev
    return s, events


def everyone_passes(s: S, now: int = NOW) -> tuple[S, list[Event]]:
    """Every seat asked to answer the window (or acknowledge a Food) passes."""
    events: list[Event] = []
    while True:
        waiting = s.window.waiting if s.window else (s.eating.waiting if s.eating and s.eating.food is not None else [])
        if not waiting:
            return s, events
        s, ev = GAME.apply(s, waiting[0], {"type": "pass"}, now)
        events += ev


def window_passes(s: S, now: int = NOW) -> tuple[S, list[Event]]:
    """Every seat asked to answer the card window passes (an acknowledgement under it stays)."""
    events: list[Event] = []
    while s.window is not None:
        s, ev = GAME.apply(s, s.window.waiting[0], {"type": "pass"}, now)
        events += ev
    return s, events


def set_hand(s: S, seat: int, cards: list[str]) -> None:
    s.action_deck += s.hands[seat]
    for c in cards:
        if c in s.action_deck:
            s.action_deck.remove(c)
    s.hands[seat] = list(cards)


def take(s: S, kind: str) -> int:
    """An Event card of this kind out of the deck (or the discard pile)."""
    for pile in (s.event_deck, s.event_discard):
        for c in pile:
            if s.kinds[c] == kind:
                pile.remove(c)
                return c
    raise AssertionError(f"no {kind} left")


def put_food(s: S, stash: int, kind: str, placer: int | None = None) -> int:
    food = take(s, kind)
    s.stashes[stash].append(food)
    s.public_food[food] = True
    placer = stash if placer is None else placer
    s.learn(food, placer, "placed")
    s.placed_by[food] = placer
    return food


def clear_stash(s: S, seat: int) -> None:
    for food in s.stashes[seat]:
        s.known[food] = {}
        s.public_food[food] = False
        s.event_deck.insert(0, food)
    s.stashes[seat] = []


def set_fuel(s: S, seat: int, count: int) -> None:
    while len(s.fuel[seat]) > count:
        s.event_deck.insert(0, s.fuel[seat].pop())
    while len(s.fuel[seat]) < count:
        card = take(s, "fuel")
        s.public_kind[card] = True
        s.fuel[seat].append(card)


def stack(s: S, *kinds: str) -> None:
    """The next Event cards drawn will be these, in this order."""
    cards = [take(s, k) for k in kinds]
    for c in reversed(cards):
        s.event_deck.append(c)


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def draw_next(s: S, *kinds: str, now: int = NOW) -> S:
    """End the Action stage with these Event cards on top of the deck: they are drawn."""
    stack(s, *kinds)
    return to_event_stage(s, now)


def to_event_stage(s: S, now: int = NOW) -> S:
    s, _ = act(s, s.turn, {"type": "end_actions"}, now)
    return s
