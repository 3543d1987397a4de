"""Issue 27, "Also": the contributing guide gives today's API — ``Bot.decide(seen)`` with a
``BotInput``, ``Game.variants``, secrets kept in zones and the events-and-errors leak test —
and every file, function and test it names exists."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from server.engine import bots, game
from server.games.rival_restaurants import expansion, state

ROOT = Path(__file__).resolve().parent.parent
GUIDE = (ROOT / "docs" / "CONTRIBUTING-games.md").read_text(encoding="utf-8")
CONTRACT = (ROOT / "tests" / "engine" / "test_contract.py").read_text(encoding="utf-8")


def test_the_contributing_guide_gives_the_bot_api_of_today() -> None:
    assert "decide(state, seat, now_ms)" not in GUIDE
    params = list(inspect.signature(bots.Bot.decide).parameters)[1:]
    assert f"Bot.decide({params[0]}: BotInput)" in GUIDE, params
    for name in ("view", "legal", "sample", "now_ms", "deadline", "seat"):
        assert hasattr(bots.BotInput, name) and f"seen.{name}" in GUIDE, name
    assert "SampleBot" in GUIDE and hasattr(bots, "SampleBot")


def test_the_contributing_guide_says_what_variants_and_zones_are() -> None:
    assert "Game.variants" in GUIDE and hasattr(game.Game, "variants")
    assert "zone" in GUIDE.lower() and "everyone, its" in GUIDE


def test_the_contributing_guide_names_the_leak_tests_that_exist() -> None:
    named = set(re.findall(r"`(test_\w+)`", GUIDE))
    assert "test_leak_events_and_errors_of_determinized_state_equal" in named
    for test in named:
        assert f"def {test}(" in CONTRACT or any(f"def {test}(" in p.read_text(encoding="utf-8")
                                                 for p in (ROOT / "tests").rglob("test_*.py")), test


def test_every_path_the_contributing_guide_names_exists() -> None:
    paths = set(re.findall(r"`((?:server|tests|web|docs|bench)/[\w./-]+?)(?:::\w+)?`", GUIDE))
    assert paths
    missing = [p for p in paths if "<" not in p and not (ROOT / p).exists()]
    assert missing == []


def test_the_contributing_guide_names_every_seam_an_expansion_hooks() -> None:
    """Issue 21: the guide says how an expansion hooks the base game as the code does it —
    every ``Expansion`` seam is named, the record lives in ``RivalState.expansions``, and the
    base records it says hold no expansion field hold none."""
    seams = [name for name, _ in inspect.getmembers(expansion.Expansion)
             if not name.startswith("_") and name not in ("id", "record")]
    assert seams and [s for s in seams if f"`{s}`" not in GUIDE] == []
    assert "RivalState.expansions" in GUIDE and "expansions" in state.RivalState.__dataclass_fields__
    base = {f for record in (state.Pantry, state.Today, state.RivalState) for f in record.__dataclass_fields__}
    assert not base & {"hot_sauce", "ring", "gloves", "missile", "squad", "bid", "choice", "squad_pick",
                       "runner_pick", "runner", "sporks", "expansion"}
