"""``Timeline``: the state after any number of a finished match's actions, visited in any
order, is the state a replay from the seed gives; each step keeps its events."""

from __future__ import annotations

import random

import pytest

from server.engine import registry
from server.engine.playout import play, replay
from server.engine.timeline import Timeline


@pytest.mark.parametrize("game_id", sorted(registry.games()))
def test_any_step_in_any_order_is_the_replayed_state(game_id: str) -> None:
    game = registry.get(game_id)
    names = [f"P{i}" for i in range(game.min_players)]
    steps: list[list] = []
    out = play(game, names, seed=5, start_ms=500, on_step=lambda _s, _e, events: steps.append(events))
    timeline = Timeline(game, names, None, 5, 500, out.log, every=4)
    assert timeline.steps == len(out.log) and timeline.final == out.state
    rng = random.Random(1)
    order = [0, timeline.steps, *rng.sample(range(timeline.steps + 1), min(25, timeline.steps + 1)), 3, 4, 5, 2]
    for step in order:
        assert timeline.state(step) == replay(game, names, None, 5, out.log[:step], 500), step
        assert timeline.events(step) == (tuple(steps[step - 1]) if step else ())
        assert timeline.at(step) == (out.log[step - 1].at_ms if step else 500)


def test_steps_outside_the_match_are_refused() -> None:
    game = registry.get("nutty-noodles")
    out = play(game, 2, seed=1)
    timeline = Timeline(game, ["Player 1", "Player 2"], None, 1, 0, out.log)
    for step in (-1, timeline.steps + 1):
        for ask in (timeline.state, timeline.events, timeline.at):
            with pytest.raises(IndexError):
                ask(step)
