"""`potluck simulate`: same seed, same figures."""

from __future__ import annotations

import json
import subprocess
import sys

from server.engine import registry
from server.engine.simulation import simulate


def test_same_seed_gives_the_same_figures_other_seed_other_figures() -> None:
    game = registry.get("nutty-noodles")
    a = simulate(game, 3, 30, seed=7).to_json(timing=False)
    b = simulate(game, 3, 30, seed=7).to_json(timing=False)
    c = simulate(game, 3, 30, seed=8).to_json(timing=False)
    assert a == b and a != c
    assert abs(sum(a["wins"]) - 1.0) < 0.5 and a["unfinished"] == 0


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "server.cli", "simulate", *args],
                          capture_output=True, text=True, timeout=120)


def test_cli_prints_json_figures_reproducibly() -> None:
    args = ("nutty-noodles", "--players", "2", "--games", "20", "--seed", "3",
            "--option", "mode=advanced", "--json")
    first, second = json.loads(_cli(*args).stdout), json.loads(_cli(*args).stdout)
    first.pop("games_per_second"), second.pop("games_per_second")
    assert first == second
    assert first["options"] == {"mode": "advanced"} and first["games"] == 20
    assert first["figures"]["rounds"]["mean"] > 0


def test_cli_text_output_names_the_figures() -> None:
    out = _cli("nutty-noodles", "--players", "4", "--games", "5").stdout
    assert "wins by seat" in out and "games per second" in out and "rounds per game" in out


def test_cli_rejects_unknown_game_and_bad_options_with_exit_code_2() -> None:
    unknown = _cli("no-such-game")
    assert unknown.returncode == 2 and "Unknown game" in unknown.stderr
    bad = _cli("nutty-noodles", "--option", "mode=expert")
    assert bad.returncode == 2 and "mode" in bad.stderr
    players = _cli("nutty-noodles", "--players", "7")
    assert players.returncode == 2 and "2–4 players" in players.stderr


def test_cli_bots_sets_each_seats_level_and_reports_wins_per_seat() -> None:
    out = _cli("nutty-noodles", "--bots", "easy,hard", "--games", "12", "--seed", "2", "--json")
    figures = json.loads(out.stdout)
    assert figures["players"] == 2 and figures["bots"] == ["easy", "hard"]
    assert figures["wins"][1] > figures["wins"][0]  # the quicker, surer bot wins the race
    text = _cli("nutty-noodles", "--bots", "easy,hard", "--games", "2").stdout
    assert "seat 1 (easy)" in text and "seat 2 (hard)" in text


def test_cli_rejects_an_unknown_level_or_a_level_count_that_is_not_the_table() -> None:
    unknown = _cli("nutty-noodles", "--bots", "hard,expert")
    assert unknown.returncode == 2 and "expert" in unknown.stderr
    mismatch = _cli("nutty-noodles", "--bots", "hard,easy", "--players", "3")
    assert mismatch.returncode == 2 and "one per seat" in mismatch.stderr
