"""A finished match as a timeline: the state after any number of its actions.

A match is a seed plus its log, so step ``n`` of a replay is ``setup`` followed by the
first ``n`` actions, each applied at the time recorded in its row. Replaying from the seed
for every step would make stepping through a long match quadratic; a ``Timeline`` replays
the whole log once, keeps every ``every``-th state (a checkpoint) and the events of every
step, and answers ``state(n)`` from the nearest checkpoint at or before ``n`` (and from the
last state it answered, so stepping forward costs one ``apply``). Its ``weight`` is what it
keeps (checkpoints and events) as pickled bytes, so a cache of timelines can be bounded in
bytes: a long log makes a heavy timeline.
"""

from __future__ import annotations

import pickle
import threading
from dataclasses import dataclass
from typing import Any, Sequence

from .events import Event
from .game import Game
from .playout import Entry

CHECKPOINT_EVERY = 16


@dataclass(frozen=True)
class Step:
    """What one action of the log did: its time and its events (every audience)."""

    at_ms: int
    events: tuple[Event, ...]


class Timeline:
    """Every state of one finished match, cheap to visit in any order. Thread-safe: the
    cursor (the last state answered) is guarded by a lock."""

    def __init__(self, game: Game[Any, Any], players: Sequence[str], options: Any, seed: int,
                 start_ms: int, log: Sequence[Entry], every: int = CHECKPOINT_EVERY) -> None:
        if every < 1:
            raise ValueError("checkpoints need a positive interval")
        self.game = game
        self.start_ms = start_ms
        self._log = list(log)
        self._every = every
        state = game.setup(list(players), game.options(options), seed, start_ms)
        self._checkpoints: list[Any] = [state]
        steps: list[Step] = []
        for n, entry in enumerate(self._log, start=1):
            state, events = game.apply(state, entry.seat, entry.action, entry.at_ms)
            steps.append(Step(entry.at_ms, tuple(events)))
            if n % every == 0:
                self._checkpoints.append(state)
        self._steps = steps
        self.final = state
        self.weight = len(pickle.dumps((self._checkpoints, steps), pickle.HIGHEST_PROTOCOL))
        self._cursor = (len(steps), state)
        self._lock = threading.Lock()

    @property
    def steps(self) -> int:
        """How many actions the match had (the last step is the finished match)."""
        return len(self._steps)

    def at(self, step: int) -> int:
        """Game-clock ms of ``step`` (step 0: the start)."""
        self._check(step)
        return self._steps[step - 1].at_ms if step else self.start_ms

    def events(self, step: int) -> tuple[Event, ...]:
        """The events the action of ``step`` caused (step 0 has none)."""
        self._check(step)
        return self._steps[step - 1].events if step else ()

    def state(self, step: int) -> Any:
        """The state after the first ``step`` actions."""
        self._check(step)
        with self._lock:
            at, state = self._cursor
            base = step // self._every * self._every
            if not base <= at <= step:
                at, state = base, self._checkpoints[base // self._every]
            for entry in self._log[at:step]:
                state, _ = self.game.apply(state, entry.seat, entry.action, entry.at_ms)
            self._cursor = (step, state)
            return state

    def _check(self, step: int) -> None:
        if not 0 <= step <= len(self._steps):
            raise IndexError(f"step {step} is not between 0 and {len(self._steps)}")
