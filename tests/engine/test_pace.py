"""The pace option: Sneaky Supper and Snollygoster can be played by turns (their timers
scale to the time per move, their quick windows to a quarter of it); Nutty Noodles and
Rival Restaurants refuse it with the reason, and accept ``pace: "live"``."""

from __future__ import annotations

import pytest

from server.engine import HOUR_MS, InvalidOptions, registry

PLAYERS = ["Ann", "Bob", "Cy", "Di"]


@pytest.mark.parametrize("hours", [12, 24, 72])
def test_sneaky_supper_by_turns_gives_a_move_its_hours_and_a_bust_pick_a_quarter(hours: int) -> None:
    game = registry.get("sneaky-supper")
    state = game.setup(PLAYERS[:3], game.options({"pace": "turns", "move_hours": hours}), 7, 1000)
    assert game.deadline(state) == 1000 + hours * HOUR_MS
    assert state.options.pick_timer_ms == hours * HOUR_MS // 4
    assert game.waiting_for(state) == {state.active}


def test_sneaky_supper_live_keeps_its_own_timers() -> None:
    game = registry.get("sneaky-supper")
    state = game.setup(PLAYERS[:2], game.options({}), 7, 1000)
    assert state.options.pace == "live" and game.deadline(state) == 1000 + 120_000


@pytest.mark.parametrize("hours", [12, 24, 72])
def test_snollygoster_by_turns_gives_each_choice_its_hours_and_windows_a_quarter(hours: int) -> None:
    game = registry.get("snollygoster")
    state = game.setup(PLAYERS, game.options({"pace": "turns", "move_hours": hours}), 3, 0)
    assert game.deadline(state) == hours * HOUR_MS  # the first seeding choice
    o = state.options
    assert (o.turn_ms, o.step_ms, o.window_ms) == (hours * HOUR_MS, hours * HOUR_MS, hours * HOUR_MS // 4)
    assert game.waiting_for(state) == {state.seeding[0]}
    assert game.view(state, 0)["timers"]["window_ms"] == hours * HOUR_MS // 4


def test_a_time_per_move_other_than_12_24_or_72_hours_is_refused() -> None:
    with pytest.raises(InvalidOptions, match="move_hours"):
        registry.get("sneaky-supper").options({"pace": "turns", "move_hours": 5})


@pytest.mark.parametrize("game_id, why", [("nutty-noodles", "real-time race"), ("rival-restaurants", "60-second")])
def test_the_real_time_games_refuse_turns_and_say_why(game_id: str, why: str) -> None:
    game = registry.get(game_id)
    with pytest.raises(InvalidOptions, match=f"cannot be played by turns: .*{why}"):
        game.options({"pace": "turns"})
    assert game.options({"pace": "live"}) == game.options({})
    entry = game.catalogue_entry()
    assert entry["turns"] is False and why in entry["live_only"]


def test_the_turn_games_say_so_in_the_catalogue() -> None:
    for game_id in ("sneaky-supper", "snollygoster"):
        entry = registry.get(game_id).catalogue_entry()
        assert entry["turns"] is True and entry["live_only"] is None
