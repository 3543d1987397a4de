"""The game clock: milliseconds since the epoch, the ``now_ms`` the rules receive.

``speed`` > 1 makes game time run faster than real time (tests, demos): deadlines and bot
reaction times then pass sooner in real seconds while the rules see ordinary figures.
``advance`` moves game time forward at once (tests of matches played by turns over days:
``POTLUCK_TEST_CLOCK``); whoever armed a timer by the old time hears of it (``on_jump``) and
arms it again.
"""

from __future__ import annotations

import time
from typing import Callable


class Clock:
    def __init__(self, speed: float = 1.0) -> None:
        if speed <= 0:
            raise ValueError("clock speed must be positive")
        self.speed = speed
        self._wall0 = time.time()
        self._mono0 = time.monotonic()
        self._ahead_ms = 0
        self._jumped: list[Callable[[], None]] = []

    def now_ms(self) -> int:
        return int((self._wall0 + (time.monotonic() - self._mono0) * self.speed) * 1000) + self._ahead_ms

    def seconds_until(self, at_ms: int) -> float:
        """Real seconds from now until the game time ``at_ms`` (0 if it has passed)."""
        return max(0.0, (at_ms - self.now_ms()) / 1000 / self.speed)

    def real_seconds(self, game_ms: float) -> float:
        return game_ms / 1000 / self.speed

    def advance(self, ms: int) -> None:
        """Game time jumps ``ms`` forward (never back: the log's times only grow)."""
        if ms < 0:
            raise ValueError("the clock only moves forward")
        self._ahead_ms += ms
        for listener in list(self._jumped):
            listener()

    def on_jump(self, listener: Callable[[], None]) -> None:
        self._jumped.append(listener)
