"""The game clock: milliseconds since the epoch, the ``now_ms`` the rules receive.

``speed`` > 1 makes game time run faster than real time (tests, demos): deadlines and bot
reaction times then pass sooner in real seconds while the rules see ordinary figures.
"""

from __future__ import annotations

import time


class Clock:
    def __init__(self, speed: float = 1.0) -> None:
        if speed <= 0:
            raise ValueError("clock speed must be positive")
        self.speed = speed
        self._wall0 = time.time()
        self._mono0 = time.monotonic()

    def now_ms(self) -> int:
        return int((self._wall0 + (time.monotonic() - self._mono0) * self.speed) * 1000)

    def seconds_until(self, at_ms: int) -> float:
        """Real seconds from now until the game time ``at_ms`` (0 if it has passed)."""
        return max(0.0, (at_ms - self.now_ms()) / 1000 / self.speed)

    def real_seconds(self, game_ms: float) -> float:
        return game_ms / 1000 / self.speed
