"""Nutty Noodles' one secret — the order of the monster deck — stays out of views,
events and error messages (the contract's leak test, with events and errors)."""

from __future__ import annotations

from typing import Any

import pytest

from server.engine import TIMEOUT, IllegalAction, Rng, for_seat
from server.engine.playout import Entry, play, random_bots
from server.games.nutty_noodles import GAME


def sample_states(players: int, options: dict, seed: int, limit: int = 12) -> list[Any]:
    found: list[Any] = []

    def keep(state: Any, entry: Entry, _events: list) -> None:
        if len(found) < limit and entry.at_ms % 3 == 0:
            found.append(state)

    play(GAME, players, options, seed, bots=random_bots, on_step=keep)
    return found


def outcome(s: Any, seat: int | None, action: dict[str, Any], now: int):
    try:
        return GAME.apply(s, seat, action, now)
    except IllegalAction as exc:
        return exc.reason


def said(events: list, seat: int) -> list[tuple[str, str, Any]]:
    return [(e.type, e.text, e.to) for e in for_seat(events, seat)]


@pytest.mark.parametrize("variant", sorted(GAME.variants))
def test_leak_events_and_errors_of_determinized_states(variant: str) -> None:
    """For a state and a re-deal ``d`` of what seat ``p`` cannot see (with the same future
    dice): every move in both, and time's, tells ``p`` the same events unless it shows
    ``p`` something new (a monster from the deck: its view then differs); every bad move
    ``p`` tries is refused with the same words; and the re-deal really differs."""
    rng = Rng(4)
    compared = refused = differed = 0
    for players in (2, 4):
        for s in sample_states(players, GAME.variants[variant], seed=players):
            for p in range(players):
                d = GAME.determinize(s, p, rng)
                assert GAME.view(d, p) == GAME.view(s, p) and GAME.legal(d, p) == GAME.legal(s, p)
                differed += d.deck != s.deck
                due = GAME.deadline(s)
                moves = [(None, TIMEOUT, due)] + [(q, a, due - 1) for q in range(players) for a in GAME.legal(s, q)[::11]]
                for q, action, now in moves:
                    s2, ev_s = GAME.apply(s, q, action, now)
                    d2, ev_d = GAME.apply(d, q, action, now)
                    if GAME.view(s2, p) == GAME.view(d2, p):
                        assert said(ev_s, p) == said(ev_d, p), (q, action)
                        compared += 1
                bad = [{"type": "roll"}, {"type": "place", "table": 9, "bowl": "miso"}, {"type": "takeaway"},
                       {"type": "place", "table": 0, "bowl": "nope"}, {"type": "nonsense"},
                       *[a for q in range(players) if q != p for a in GAME.legal(s, q)[:3]]]
                for action in bad:
                    for now in (due - 1, due + 1):
                        said_s, said_d = outcome(s, p, action, now), outcome(d, p, action, now)
                        if isinstance(said_s, str) or isinstance(said_d, str):
                            assert said_s == said_d, action
                            refused += 1
    assert compared > 50 and refused > 50 and differed > 10
