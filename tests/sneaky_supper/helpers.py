"""Building Sneaky Supper situations for tests: stack the decks, fill hands, act."""

from __future__ import annotations

from typing import Any

from server.engine import Event
from server.games.sneaky_supper import GAME
from server.games.sneaky_supper.cards import UTENSIL_DECK, card
from server.games.sneaky_supper.state import SneakySupperState, to_hand

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed"]


def new(players: int = 3, seed: int = 1, **options: Any) -> SneakySupperState:
    """A fresh game; Ana (seat 0) is about to make the compulsory first draw."""
    return GAME.setup(NAMES[:players], GAME.options(options), seed, now_ms=0)


def _take(s: SneakySupperState, type_id: str, utensil_deck: bool = False) -> str:
    """Remove a card of this type from wherever it lies outside the hands and the Floorplan."""
    c = f"{UTENSIL_DECK}{type_id}" if utensil_deck else type_id
    for zone in (s.deck, s.discard, s.udeck, s.udiscard):
        if c in zone:
            zone.remove(c)
            return c
    raise AssertionError(f"no {type_id} card left to take")


def as_dealt(s: SneakySupperState) -> None:
    """Cards arranged by a test lie where the table knows them to be, as dealt."""
    s.segments = [len(s.deck)]
    s.segments_known, s.segments_down, s.segments_up = [list(s.deck)], [[]], [[]]
    s.udeck_known, s.discard_known, s.udiscard_known = list(s.udeck), list(s.discard), list(s.udiscard)
    s.discard_down, s.udeck_down, s.udiscard_down = [], [], []
    s.discard_up, s.udeck_up, s.udiscard_up = [], [], []


def stack(s: SneakySupperState, *types: str) -> list[str]:
    """Put Search cards of these types on top of the deck: the first one is drawn first."""
    taken = [_take(s, t) for t in types]
    s.deck.extend(reversed(taken))
    as_dealt(s)
    return taken


def stack_utensils(s: SneakySupperState, *types: str) -> list[str]:
    taken = [_take(s, t, utensil_deck=True) for t in types]
    s.udeck.extend(reversed(taken))
    as_dealt(s)
    return taken


def give(s: SneakySupperState, seat: int, *types: str) -> list[str]:
    """Cards of these types go (face up, as every card does) into a hand."""
    taken = [_take(s, t) for t in types]
    for c in taken:
        to_hand(s, seat, c)
    as_dealt(s)
    return taken


def act(s: SneakySupperState, seat: int | None, action: dict[str, Any], now: int = 0
        ) -> tuple[SneakySupperState, list[Event]]:
    return GAME.apply(s, seat, action, now)


def run(s: SneakySupperState, *moves: tuple[int | None, dict[str, Any]]) -> SneakySupperState:
    for seat, action in moves:
        s, _ = act(s, seat, action)
    return s


def draws(s: SneakySupperState, n: int, seat: int = 0) -> SneakySupperState:
    for _ in range(n):
        s, _ = act(s, seat, {"type": "draw"})
    return s


def names(cards: list[str]) -> list[str]:
    return [card(c).id for c in cards]


def all_cards(s: SneakySupperState) -> list[str]:
    """Every card, wherever it lies (for the conservation checks)."""
    out = s.deck + s.discard + s.udeck + s.udiscard + s.turn.mat + s.turn.pool
    for hand in s.hands:
        out += hand
    return out


# ---- finding cards by what they are, so tests survive a rebalance of the card data ------

def types_where(**want: Any) -> list[str]:
    """Search-deck card types whose fields equal ``want`` (e.g. ``kind="food", noise=0``),
    one entry per copy in the deck, in data order."""
    from server.games.sneaky_supper.cards import SEARCH_COUNTS, TYPE

    return [t for t, n in SEARCH_COUNTS.items() for _ in range(n)
            if all(getattr(TYPE[t], k) == v for k, v in want.items())]


def a_type(**want: Any) -> str:
    return types_where(**want)[0]


def quiet_food(n: int) -> list[str]:
    """``n`` food cards (by type) making as little Noise as the deck allows."""
    from server.games.sneaky_supper.cards import TYPE

    foods = sorted(types_where(kind="food"), key=lambda t: TYPE[t].noise)
    return foods[:n]


def ingredients(needs: Any) -> list[str]:
    """Card types that fill ``needs`` exactly (different types where a need says so)."""
    from server.games.sneaky_supper.cards import TYPE

    out: list[str] = []
    for need in needs:
        if need.what in TYPE:
            out += [need.what] * need.count
        else:
            copies = sorted(types_where(group=need.what), key=lambda t: TYPE[t].noise)
            if need.different:
                copies = sorted(set(copies), key=lambda t: (TYPE[t].noise, t))
            out += copies[: need.count]
    return out


def pass_turn(s: SneakySupperState) -> SneakySupperState:
    """Let the timers play out the active player's turn (and any bust picks)."""
    from server.engine import TIMEOUT

    number = s.turn_number
    while s.turn_number == number and s.phase not in ("over", "last_call"):
        due = GAME.deadline(s)
        assert due is not None
        s, _ = act(s, None, dict(TIMEOUT), due)
    return s


def draw_until_busted(s: SneakySupperState, seat: int = 0) -> SneakySupperState:
    """``seat`` keeps drawing, and accepts the bust if tokens could hush it."""
    for _ in range(7):
        s, events = act(s, seat, {"type": "bust" if s.phase == "noisy" else "draw"})
        if any(e.type == "busted" for e in events):
            return s
    raise AssertionError("drew 7 cards without being Busted")


def retreat_with(s: SneakySupperState, *types: str, seat: int = 0) -> SneakySupperState:
    """``seat`` draws cards of these types (quiet enough not to bust) and Retreats."""
    stack(s, *types)
    s = draws(s, len(types), seat)
    s, _ = act(s, seat, {"type": "retreat"})
    assert s.phase == "retreat"
    return s
