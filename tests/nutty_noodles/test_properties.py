"""Nutty Noodles: invariants over many random games (random legal actions for every seat)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from server.engine.playout import play, random_bots, replay
from server.games.nutty_noodles import GAME
from server.games.nutty_noodles.cards import MODES, monsters_for

OPTION_SETS = [
    {},
    {"mode": "advanced"},
    {"order_please": True, "tie_window_ms": 0},
    {"mode": "advanced", "order_please": True, "panic_in_the_kitchen": True, "scrambled": True},
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "defaults")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_conserve_monsters_and_end_with_one_winner_set(players: int, options: dict) -> None:
    deck = Counter(monsters_for(MODES[options.get("mode", "basic")]))
    for seed in range(3):
        throws_with_placement: Counter[tuple[int, int]] = Counter()

        def check(state, entry, events) -> None:
            held = Counter([m for m in state.tables if m] + state.deck + [m for w in state.won for m in w])
            assert held == deck, "a monster appeared or vanished"
            if entry.action["type"] in ("place", "takeaway"):
                throws_with_placement[(state.throws, entry.seat)] += 1
            wins = sum(e.type == "win" for e in events)
            assert wins <= players

        out = play(GAME, players, options, seed, bots=random_bots, on_step=check)
        assert max(throws_with_placement.values()) == 1, "a seat placed twice in one throw"
        result = GAME.result(out.state)
        assert result is not None and result.winners
        best = max(result.scores)
        assert result.winners == [i for i, s in enumerate(result.scores) if s == best]
        names = [f"Player {i + 1}" for i in range(players)]
        assert replay(GAME, names, options, seed, out.log) == out.state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bot_games_end_by_reaching_the_goal(players: int) -> None:
    goal = {2: 7, 3: 6, 4: 5}[players]
    for seed in range(10):
        out = play(GAME, players, None, seed)
        result = GAME.result(out.state)
        assert result is not None and max(result.scores) >= goal


def test_rules_page_figures_add_up() -> None:
    """Each line of the rules page's figures: the seats' win shares make 100 % plus the
    extra winners of the shared victories (at least one more per shared game, at most one
    per other player)."""
    page = (Path(__file__).parents[2] / "docs/rules/nutty-noodles.md").read_text()
    lines = re.findall(r"^\| (\d) \| (basic|advanced) \| [^|]+\| ([\d.]+) % \| ([\d./ ]+) % \|$", page, re.M)
    assert {(int(n), mode) for n, mode, _, _ in lines} == {(n, m) for n in (2, 3, 4) for m in ("basic", "advanced")}
    for players, mode, shared, wins in lines:
        total, extra = sum(float(w) for w in wins.split("/")), float(shared)
        assert len(wins.split("/")) == int(players)
        assert 100 + extra - 0.2 <= total <= 100 + (int(players) - 1) * extra + 0.2, (players, mode)
