"""How often a client may do something: a token bucket (``rate`` events per second on
average, bursts up to ``burst``), and ``Repeats``, which counts a seat playing one action
again and again (an offer made and withdrawn…) with nobody else acting between."""

from __future__ import annotations

import time


class TokenBucket:
    def __init__(self, rate: float, burst: float, clock=time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = float(burst)
        self.last = clock()

    def allow(self) -> bool:
        """Take one token if there is one."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Repeats:
    """A seat's repetitions: the same action (canonical JSON) played again and again by one
    seat with no other seat (nor the clock) acting between — an offer made, withdrawn and
    made again, a card picked and put back. Each action may come ``limit`` times so; the
    next is refused until someone else acts: the log of a match cannot be filled with moves
    that change nothing."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._seat: int | None = None
        self._counts: dict[str, int] = {}  # the seat's actions since another seat acted

    def allowed(self, seat: int | None, text: str) -> bool:
        return not self.limit or seat != self._seat or self._counts.get(text, 0) < self.limit

    def played(self, seat: int | None, text: str) -> None:
        """``seat`` played ``text`` (logged)."""
        if seat != self._seat:
            self._seat, self._counts = seat, {}
        self._counts[text] = self._counts.get(text, 0) + 1
