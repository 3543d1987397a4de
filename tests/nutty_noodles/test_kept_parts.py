"""The kept parts of Nutty Noodles' views and legal lists (``parts``) are exactly what is
built with nothing kept, for every seat and the spectator, over many reachable states: a
part's key that left out a fact it reads would hand one state's part to another."""

from __future__ import annotations

from typing import Any

import pytest

from server.engine.playout import Entry, play, random_bots
from server.games.nutty_noodles import GAME, parts

KEPT = ("variants", "grid", "player", "bowls", "tables", "throw", "place", "takeaway", "race")


def reachable(seeds: int = 3) -> list[Any]:
    """Every state of random games played to their end: every variant, 2 to 4 players."""
    found: list[Any] = []

    def keep(state: Any, _entry: Entry, _events: list) -> None:
        found.append(state)

    for variant in sorted(GAME.variants):
        for players in (2, 3, 4):
            for seed in range(seeds):
                play(GAME, players, GAME.variants[variant], seed=seed * 97 + players, bots=random_bots, on_step=keep)
    return found + [moved for state in found if state.phase == "race" and not state.placements
                    for dealt in redealt(state) for moved in played(dealt)]


def redealt(state: Any) -> list[Any]:
    """States (of a race with no token down) that a different deal reaches, rare in random
    play: the tables in reverse order (the same placements then right or wrong the other
    way), and the deck used up with the
    first table emptied (the end of a game that runs out of monsters)."""
    reverse, used_up = state.clone(), state.clone()
    reverse.tables.reverse()
    used_up.deck, used_up.tables[0] = [], None
    return [reverse, used_up]


def played(state: Any) -> list[Any]:
    """``state`` and what each seat's first and last legal actions lead to."""
    moves = [(seat, a) for seat in range(len(state.players)) for a in GAME.legal(state, seat)[::-1][:1]]
    return [state] + [GAME.apply(state, seat, a, state.phase_since)[0] for seat, a in moves]


def seen(state: Any) -> tuple[dict[Any, Any], dict[int, Any]]:
    seats = list(range(len(state.players)))
    return GAME.views(state, [*seats, None]), {seat: GAME.legal(state, seat) for seat in seats}


@pytest.fixture
def nothing_kept(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Every part built afresh each time it is asked for."""
    def unkept() -> None:
        for name in KEPT:
            monkeypatch.setattr(parts, name, getattr(parts, name).__wrapped__)
        monkeypatch.setattr(parts, "listed", lambda *items: list(items))
    return unkept


def test_kept_views_and_legal_lists_are_the_ones_built_afresh(nothing_kept: Any) -> None:
    states = reachable()
    kept = [seen(s) for s in states]
    nothing_kept()
    afresh = [seen(s) for s in states]
    assert len(states) > 10_000
    for state, got, want in zip(states, kept, afresh):
        assert got == want, (state.phase, state.throws)


def test_kept_parts_are_shared_between_states() -> None:
    """Two states with the same facts give the very same parts (what the runtime's diff skips)."""
    states = reachable(seeds=1)[:60]
    before, after = states[-2], states[-1]
    a, b = GAME.view(before, 0), GAME.view(after, 0)
    assert a["bowls"] is b["bowls"] and a["variants"] is b["variants"] and a["grid"] is b["grid"]
