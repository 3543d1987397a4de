"""What every live match of a hub shares: the store, the clock, the fan-out, metrics,
settings, the leases (who drives which match), "your move" notices, and a place for fire-and-forget tasks that
must not be garbage-collected."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any, Coroutine

from server.config import Settings
from server.store import Store

from .clock import Clock
from .fanout import LocalFanout, RedisFanout
from .metrics import Metrics
from .ownership import Ownership
from .your_move import YourMove

log = logging.getLogger(__name__)


@dataclass
class Services:
    store: Store
    clock: Clock
    fanout: LocalFanout | RedisFanout
    metrics: Metrics
    settings: Settings
    ownership: Ownership
    your_move: YourMove
    tasks: set[asyncio.Task[Any]] = field(default_factory=set)

    def spawn(self, coro: Coroutine[Any, Any, Any], what: str) -> asyncio.Task[Any]:
        """Run ``coro`` in the background; an exception is logged, never lost or raised."""
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(lambda t: self._done(t, what))
        return task

    def _done(self, task: asyncio.Task[Any], what: str) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task failed: %s", what, exc_info=task.exception())
