"""A Nutty Noodles bot: it always finds the right bowl and monster, after a human-like
reaction time, and now and then fumbles."""

from __future__ import annotations

from typing import Any

from server.engine import Bot, Decision, Rng, SampleBot
from server.engine.bots import EASY, HARD, NORMAL, check_level

from .rules import NuttyNoodlesState, answer


class NuttyNoodlesBot(SampleBot):
    """``reaction_ms`` ± ``jitter_ms`` after the dice land it serves; with probability
    ``mistake_rate`` it serves the right bowl to the wrong table instead."""

    def __init__(self, rng: Rng, reaction_ms: int = 1800, jitter_ms: int = 700,
                 mistake_rate: float = 0.05, throw_ms: int = 700) -> None:
        self.rng = rng
        self.reaction_ms, self.jitter_ms = reaction_ms, jitter_ms
        self.mistake_rate, self.throw_ms = mistake_rate, throw_ms
        self._plans: dict[int, Decision] = {}  # per throw: what and when

    def play(self, state: NuttyNoodlesState, seat: int, now_ms: int) -> Decision | None:
        if state.phase == "ready":
            return None if seat in state.ready else Decision({"type": "ready"}, max(now_ms, state.phase_since + 300))
        if state.phase == "roll":
            if seat != state.thrower:
                return None
            return Decision({"type": "roll"}, max(now_ms, state.phase_since + self.throw_ms))
        if state.phase not in ("race", "closing") or any(p.seat == seat for p in state.placements):
            return None
        plan = self._plans.get(state.throws)
        if plan is None:
            plan = self._plan(state)
            self._plans = {state.throws: plan}
        return plan

    def _plan(self, state: NuttyNoodlesState) -> Decision:
        action = answer(state)
        if self.rng.random() < self.mistake_rate and len(state.tables) > 1:
            wrong = [t for t, m in enumerate(state.tables) if m is not None and t != action.get("table")]
            if wrong:
                action = {"type": "place", "table": self.rng.choice(wrong), "bowl": action["bowl"]}
        delay = max(150, self.reaction_ms + self.rng.randint(-self.jitter_ms, self.jitter_ms))
        return Decision(action, state.phase_since + delay)


# A level is a reaction time and an error rate: how fast it serves, how often it fumbles.
LEVELS: dict[str, dict[str, Any]] = {
    EASY: {"reaction_ms": 2700, "jitter_ms": 900, "mistake_rate": 0.15},
    NORMAL: {},
    HARD: {"reaction_ms": 1200, "jitter_ms": 400, "mistake_rate": 0.02},
}


def bot_at(game: Any, rng: Rng, level: str = NORMAL, **params: Any) -> Bot:
    """This game's bot at ``level``."""
    return NuttyNoodlesBot(rng, **{**LEVELS[check_level(level)], **params})
