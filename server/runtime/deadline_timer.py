"""The deadline timer of one match: armed for the moment time moves the match on, and kept
as it is while that moment does not move.

The match says when (``arm(due)``, game time) and what to do then (``fire``, run as a
background task); arming it for the deadline it is armed for already changes nothing
(most actions leave the deadline where it was). ``retry`` runs ``fire`` again a little
later, after it failed. The timer knows nothing of the match: whether this process should
arm it at all (it drives the match) is the match's to decide.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable, Coroutine

from .clock import Clock

Spawn = Callable[[Coroutine[Any, Any, Any], str], Any]


class DeadlineTimer:
    def __init__(self, clock: Clock, spawn: Spawn, fire: Callable[[], Coroutine[Any, Any, Any]], what: str) -> None:
        self._clock, self._spawn, self._fire, self._what = clock, spawn, fire, what
        self._handle: asyncio.TimerHandle | None = None
        self.due: int | None = None  # the deadline it is armed for (None: a retry, or not armed)

    @property
    def armed(self) -> bool:
        return self._handle is not None

    def holds(self, due: int | None) -> bool:
        """Armed for ``due`` already (a retry counts as armed for no deadline)."""
        return self._handle is not None and due == self.due

    def arm(self, due: int) -> None:
        """Fire at ``due`` (game ms), unless armed for it already."""
        if not self.holds(due):
            self._at(self._clock.seconds_until(due), due)

    def retry(self, after_s: float) -> None:
        """Fire again ``after_s`` seconds from now (``fire`` failed)."""
        self._at(after_s, None)

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
        self._handle = self.due = None

    def _at(self, delay_s: float, due: int | None) -> None:
        self.cancel()
        self._handle = asyncio.get_running_loop().call_later(delay_s, self._fired)
        self.due = due

    def _fired(self) -> None:
        self._spawn(self._run(), self._what)

    async def _run(self) -> None:
        self.cancel()  # it fired
        await self._fire()
