"""A connected client as the runtime sees it: a seat (or ``None`` for a spectator), how it
reads patches (``reads``: ``"whole"`` legal lists, ``"delta"``: a patch of the list held, or
``"compact"`` patches; see ``seat_views``), and a bounded queue of outgoing messages drained by its own task.

Publishing never waits for a socket: messages are queued. The queue is bounded in messages
(``queue_size``) and in bytes (``queue_bytes``); a whole state supersedes every state and
patch queued before it (the client would only apply them to reach the view it brings), so
a socket that does not read holds at most one whole view however often it asks. A socket
that falls past a bound, or whose single send takes longer than ``send_timeout`` seconds,
is closed (code 1013) so it cannot hold memory or delay anyone; its client reconnects and
receives the current state.

A send that the socket takes at once (the usual case) costs no timer: one watchdog per
socket, armed while it has something to send, looks at the send in progress every
``send_timeout`` seconds at most.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import Awaitable, Callable

log = logging.getLogger(__name__)

SLOW_CLOSE_CODE = 1013


class Subscriber:
    def __init__(self, seat: int | None, send: Callable[[str], Awaitable[None]],
                 close: Callable[[int, str], Awaitable[None]], queue_size: int = 256,
                 send_timeout: float = 10.0, reads: str = "whole", queue_bytes: int = 4 << 20) -> None:
        self.seat = seat
        self.reads = reads
        self._send, self._close = send, close
        self._queue: deque[tuple[str, bool]] = deque()  # (text, part of the view: a state or a patch)
        self._queue_size, self._queue_bytes = queue_size, queue_bytes
        self._bytes = 0  # queued
        self._send_timeout = send_timeout
        self._loop = asyncio.get_running_loop()
        self._waiting: asyncio.Future[None] | None = None  # the drain task waits for a message
        self._sending_since: float | None = None
        self._watchdog: asyncio.TimerHandle | None = None
        self.closed = False
        self._task = asyncio.create_task(self._drain())

    def push(self, text: str, droppable: bool = False, view: str | None = None) -> bool:
        """Queue a message; ``view``: ``"patch"`` or ``"state"`` for a message of the view (a
        state drops the states and patches queued before it). A full queue drops a
        ``droppable`` message and otherwise closes the socket as too slow. Returns whether
        the message was queued."""
        if self.closed:
            return False
        if view == "state" and any(part for _, part in self._queue):
            kept = [(t, part) for t, part in self._queue if not part]
            self._queue = deque(kept)
            self._bytes = sum(len(t) for t, _ in kept)
        if len(self._queue) >= self._queue_size or self._bytes + len(text) > self._queue_bytes:
            if not droppable:
                self._give_up("too slow: messages piled up")
            return False
        self._queue.append((text, view is not None))
        self._bytes += len(text)
        if self._waiting is not None and not self._waiting.done():
            self._waiting.set_result(None)
        if self._watchdog is None:
            self._watchdog = self._loop.call_later(self._send_timeout, self._watch)
        return True

    async def _drain(self) -> None:
        while not self.closed:
            if not self._queue:
                self._waiting = self._loop.create_future()
                await self._waiting
                self._waiting = None
                continue
            text, _ = self._queue.popleft()
            self._bytes -= len(text)
            self._sending_since = self._loop.time()
            try:
                await self._send(text)
            except Exception:  # the socket is gone; the receive loop will notice
                self.closed = True
                return
            finally:
                self._sending_since = None

    def _watch(self) -> None:
        """A send in progress for ``send_timeout`` closes the socket; otherwise look again
        while there is something to send."""
        self._watchdog = None
        if self.closed:
            return
        since = self._sending_since
        if since is not None and self._loop.time() - since >= self._send_timeout:
            self._give_up("too slow: a send timed out")
        elif since is not None or self._queue:
            wait = self._send_timeout if since is None else since + self._send_timeout - self._loop.time()
            self._watchdog = self._loop.call_later(max(wait, 0.001), self._watch)

    def _give_up(self, reason: str) -> None:
        if self.closed:
            return
        self.closed = True
        log.info("closing slow socket (seat %s): %s", self.seat, reason)
        self._task.cancel()
        self._loop.create_task(self._quiet_close(reason))

    async def _quiet_close(self, reason: str) -> None:
        try:
            async with asyncio.timeout(1.0):
                await self._close(SLOW_CLOSE_CODE, reason)
        except Exception:
            pass

    async def stop(self) -> None:
        """Stop sending (the connection is over); never waits more than a second."""
        self.closed = True
        if self._watchdog is not None:
            self._watchdog.cancel()
        self._task.cancel()
        await asyncio.wait([self._task], timeout=1.0)
