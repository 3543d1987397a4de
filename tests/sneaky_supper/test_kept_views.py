"""Kept view parts are the parts a fresh build makes: over the states of random games,
every seat's and the spectator's view, built with the parts kept from the states before,
reads the same as one built for that seat alone with nothing kept (each kept function
called through to its body); so does every seat's legal list, made of kept moves. A key
that leaves out a fact its part reads shows up here: a part kept for one seat or state is
served to another."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

import orjson
import pytest

from server.engine import Rng
from server.engine.playout import play
from server.games.sneaky_supper import GAME, matching, rules, state, view

MODULES = (view, state, matching, rules)
JSON = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


@contextmanager
def nothing_kept() -> Iterator[None]:
    """Every kept function of the game's modules replaced by its body while inside."""
    saved = [(m, name, fn) for m in MODULES for name, fn in vars(m).items() if hasattr(fn, "__wrapped__")]
    for m, name, fn in saved:
        setattr(m, name, fn.__wrapped__)
    try:
        yield
    finally:
        for m, name, fn in saved:
            setattr(m, name, fn)


def random_states(players: int, mish_mash: bool, seed: int) -> list[Any]:
    states: list[Any] = []
    play(GAME, players, {"mish_mash": mish_mash}, seed, bots=lambda game, seat, rng: game.random_bot(seat, rng),
         max_steps=400, on_step=lambda s, entry, events: states.append(s))
    return states


@pytest.mark.parametrize("mish_mash", [False, True])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_kept_views_are_fresh_views(players: int, mish_mash: bool) -> None:
    seats: list[int | None] = [*range(players), None]
    for seed in range(3):
        for s in random_states(players, mish_mash, Rng(seed * 10 + players).below(1 << 30)):
            kept = GAME.views(s, seats)
            with nothing_kept():
                fresh = {seat: GAME.views(s, [seat])[seat] for seat in seats}
            for seat in seats:
                assert orjson.dumps(kept[seat], option=JSON) == orjson.dumps(fresh[seat], option=JSON), (
                    f"seat {seat}, turn {s.turn_number}, phase {s.phase}")


@pytest.mark.parametrize("mish_mash", [False, True])
@pytest.mark.parametrize("players", [2, 5])
def test_kept_legal_lists_are_fresh_lists(players: int, mish_mash: bool) -> None:
    seats = list(range(players))
    for seed in range(3):
        for s in random_states(players, mish_mash, Rng(seed * 10 + players + 7).below(1 << 30)):
            kept = GAME.legals(s, seats)
            with nothing_kept():
                fresh = {seat: GAME.legal(s, seat) for seat in seats}
            for seat in seats:
                assert kept[seat] == fresh[seat], f"seat {seat}, turn {s.turn_number}, phase {s.phase}"


def test_a_recipe_used_up_is_no_longer_listed() -> None:
    """The same hand in a Retreat with one of its Recipes gone: the kept moves are those
    of the Recipes left (random play seldom takes the last copy of one a hand can make)."""
    retreats = [(s, a["recipe"]) for players in (2, 5) for s in random_states(players, False, players + 11)
                if s.phase == "retreat" for a in GAME.legal(s, s.active) if a["type"] == "recipe"]
    assert retreats, "no Retreat with a Recipe to complete"
    for s, recipe in retreats[:30]:
        gone = s.clone()
        gone.recipes_left[recipe] = 0
        kept = GAME.legal(gone, gone.active)
        with nothing_kept():
            assert kept == GAME.legal(gone, gone.active)
        assert all(a.get("recipe") != recipe for a in kept)


def test_a_ready_craving_is_not_ready_once_the_game_is_over() -> None:
    """The same table with the game over (as after a last call passed): nobody's Craving
    is ready any more, though the hand, tokens and Craving are the same facts."""
    ready = [(s, q) for s in random_states(3, False, 7) for q in range(3) if GAME.view(s, q)["craving_ready"]]
    assert ready, "no state with a Craving ready"
    for s, q in ready[:20]:
        over = s.clone()
        over.phase = "over"
        kept = GAME.views(over, [q])[q]
        with nothing_kept():
            fresh = GAME.views(over, [q])[q]
        assert kept["craving_ready"] is fresh["craving_ready"] is False
        assert orjson.dumps(kept, option=JSON) == orjson.dumps(fresh, option=JSON)
