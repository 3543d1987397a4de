"""Kept view parts are the parts a fresh build makes: over the states of random games and
their re-deals, every seat's and the spectator's view, built with the parts kept from the
states before, reads the same as one built for that seat alone with nothing kept (each
kept function called through to its body). A key that leaves out a fact its part reads
shows up here: a part kept for one seat or state is served to another."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from server.engine import Rng
from server.engine.playout import play, random_bots
from server.games.snollygoster import GAME, view

JSON = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def fresh_views(monkeypatch: pytest.MonkeyPatch, s: Any, seats: list[int | None]) -> dict[int | None, Any]:
    """Each seat's view built alone, every kept function of ``view`` called through to its body."""
    with monkeypatch.context() as m:
        for name, fn in list(vars(view).items()):
            if hasattr(fn, "__wrapped__"):
                m.setattr(view, name, fn.__wrapped__)
        return {seat: GAME.view(s, seat) for seat in seats}


def random_states(players: int, options: dict[str, Any], seed: int) -> list[Any]:
    """Every state of a random game, each followed by a re-deal for one seat (other kinds
    under the same public facts: a Food a seat knows may be another kind there)."""
    states: list[Any] = []
    play(GAME, players, options, seed, bots=random_bots, max_steps=500,
         on_step=lambda s, entry, events: states.append(s))
    rng = Rng(seed)
    return [d for s in states for d in (s, GAME.determinize(s, rng.below(players), rng))]


def as_json(value: Any) -> bytes:
    return orjson.dumps(value, option=JSON)


@pytest.mark.parametrize("variant", sorted(GAME.variants))
@pytest.mark.parametrize("players", [2, 4, 6])
def test_kept_views_are_fresh_views(players: int, variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if players < 4 and variant == "team_game":
        pytest.skip("the team game needs four or more players")
    seats: list[int | None] = [*range(players), None]
    for seed in range(2):
        for s in random_states(players, GAME.variants[variant], Rng(seed * 10 + players).below(1 << 30)):
            kept = GAME.views(s, seats)
            fresh = fresh_views(monkeypatch, s, seats)
            for seat in seats:
                assert as_json(kept[seat]) == as_json(fresh[seat]), f"seat {seat}, turn {s.turn_no}, phase {s.phase}"
