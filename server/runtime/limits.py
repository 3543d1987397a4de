"""Limits that keep one client from taking the server down.

- **Sockets**: at most ``max_sockets_per_address`` open WebSockets per client address, and
  ``max_sockets`` in all — by default the process's open-file limit less a reserve for
  HTTP requests, the database and the rest, so plain requests (``/healthz`` first) are
  still answered when every socket is taken.
- **Creating matches**: ``create_burst`` at once per client address, then
  ``create_per_minute``.

A refusal says when to try again (``retry_after`` seconds). Addresses are whatever the
server sees as the client (behind a reverse proxy: the forwarded address, when uvicorn
is told to trust the proxy — see the README).
"""

from __future__ import annotations

import math
import resource
import time
from collections import Counter
from dataclasses import dataclass
from typing import Callable

from server.config import Settings

FILE_RESERVE = 256  # descriptors kept for HTTP requests, the database, logs…
MAX_TRACKED_ADDRESSES = 10_000  # creation buckets remembered at once (full ones are forgotten first)


def open_file_limit() -> int:
    """The process's soft limit on open files."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


def raise_open_file_limit() -> int:
    """Raise the soft limit on open files to the hard one (``ulimit -n`` is often 1024
    while the system allows far more); returns the limit in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):  # some systems cap it lower than they say
            pass
    return open_file_limit()


def socket_budget(configured: int, file_limit: int | None = None) -> int:
    """How many WebSockets may be open at once: ``configured``, or (0) the open-file limit
    less a reserve (a tenth of it, at least ``FILE_RESERVE``)."""
    if configured > 0:
        return configured
    limit = open_file_limit() if file_limit is None else file_limit
    return max(1, limit - max(FILE_RESERVE, limit // 10))


@dataclass(frozen=True)
class Refusal:
    """Why a client must wait, and for how long (seconds, for ``Retry-After``)."""

    reason: str
    retry_after: int
    per_address: bool


class SocketCount:
    """Open WebSockets, per client address and in all."""

    def __init__(self, per_address: int, total: int) -> None:
        self.per_address, self.total = per_address, total
        self.open: Counter[str] = Counter()
        self.count = 0

    def admit(self, address: str) -> Refusal | None:
        """Count a new socket from ``address``, or say why not."""
        if self.per_address > 0 and self.open[address] >= self.per_address:
            return Refusal(f"Too many connections from your address (at most {self.per_address}).", 5, True)
        if self.count >= self.total:
            return Refusal("The server has as many connections as it can take; try again soon.", 5, False)
        self.open[address] += 1
        self.count += 1
        return None

    def release(self, address: str) -> None:
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]
        self.count -= 1


class CreationRate:
    """Token buckets per client address: ``burst`` matches at once, then ``per_minute``."""

    def __init__(self, per_minute: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = per_minute / 60.0, max(1, burst), clock
        self.buckets: dict[str, tuple[float, float]] = {}  # address → (tokens, when)

    def take(self, address: str) -> Refusal | None:
        """Spend one creation of ``address``, or say how long until it has one."""
        if self.rate <= 0:
            return None
        now = self.clock()
        tokens, then = self.buckets.get(address, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.rate)
        if tokens < 1:
            self.buckets[address] = (tokens, now)
            wait = math.ceil((1 - tokens) / self.rate)
            return Refusal(f"You are creating matches too fast; try again in {wait} s.", wait, True)
        self.buckets[address] = (tokens - 1, now)
        if len(self.buckets) > MAX_TRACKED_ADDRESSES:
            self._forget(now)
        return None

    def _forget(self, now: float) -> None:
        """Drop the buckets that have filled up again (they are as good as new)."""
        for address, (tokens, then) in list(self.buckets.items()):
            if tokens + (now - then) * self.rate >= self.burst:
                del self.buckets[address]


class Limits:
    def __init__(self, settings: Settings) -> None:
        self.sockets = SocketCount(settings.max_sockets_per_address, socket_budget(settings.max_sockets))
        self.creation = CreationRate(settings.create_per_minute, settings.create_burst)
