"""A connected client as the runtime sees it: a seat (or ``None`` for a spectator), how it
reads patches (``reads``: ``"whole"`` legal lists, ``"delta"``: a patch of the list held, or
``"compact"`` patches; see ``seat_views``), and a bounded queue of outgoing messages.

Publishing never waits for a socket. A message is sent at once when nothing waits before
it: the send runs here up to its first wait, and a socket that takes the frame at once (the
usual case) costs no task; a send that must wait (the kernel's buffer is full) is finished
by a task, and later messages are queued behind it. The queue is bounded in messages
(``queue_size``) and in bytes (``queue_bytes``); a whole state supersedes every state and
patch queued before it (the client would only apply them to reach the view it brings), so
a socket that does not read holds at most one whole view however often it asks. A socket
that falls past a bound, or whose single send takes longer than ``send_timeout`` seconds,
is closed (code 1013) so it cannot hold memory or delay anyone; its client reconnects and
receives the current state.

A send that the socket takes at once costs no timer either: one watchdog per socket, armed
while a send waits, looks at the send in progress every ``send_timeout`` seconds at most.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import Any, Awaitable, Callable

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
        self._task: asyncio.Task[None] | None = None  # finishes a send that waits, then drains the queue
        self._sending_since: float | None = None
        self._watchdog: asyncio.TimerHandle | None = None
        self.closed = False

    def push(self, text: str, droppable: bool = False, view: str | None = None) -> bool:
        """Send a message, or queue it behind a send that waits; ``view``: ``"patch"`` or
        ``"state"`` for a message of the view (a state drops the states and patches queued
        before it). A full queue drops a ``droppable`` message and otherwise closes the
        socket as too slow. Returns whether the message was sent or queued."""
        if self.closed:
            return False
        if self._task is None:  # nothing waits: send it now
            self._send_at_once(text)
            return True
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
        return True

    def _send_at_once(self, text: str) -> None:
        """Run the send up to its first wait, here (a socket that takes the frame at once —
        the usual case — costs no task and no timer); a send that must wait is finished by
        a task, which then sends what was queued meanwhile."""
        sending = self._send(text)
        try:
            waits_for = sending.send(None)  # type: ignore[attr-defined]
        except StopIteration:
            return
        except Exception:  # the socket is gone; the receive loop will notice
            self.closed = True
            return
        self._sending_since = self._loop.time()
        self._task = self._loop.create_task(self._drain(sending, waits_for))
        if self._watchdog is None:
            self._watchdog = self._loop.call_later(self._send_timeout, self._watch)

    async def _drain(self, sending: Any, waits_for: Any) -> None:
        try:
            await _finish(sending, waits_for)
            while self._queue and not self.closed:
                text, _ = self._queue.popleft()
                self._bytes -= len(text)
                self._sending_since = self._loop.time()
                await self._send(text)
        except asyncio.CancelledError:
            raise
        except Exception:  # the socket is gone; the receive loop will notice
            self.closed = True
        finally:
            self._sending_since = None
            self._task = None

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
        if self._task is not None:
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
        if self._task is not None:
            self._task.cancel()
            await asyncio.wait([self._task], timeout=1.0)


async def _finish(sending: Any, waits_for: Any) -> None:
    """Go on with a send coroutine that was run up to a wait (``waits_for``: the future it
    waits on, or ``None`` for a bare yield) until it is done; its own outcome (an error)
    is raised from it when it is resumed."""
    try:
        while True:
            if waits_for is None:
                await asyncio.sleep(0)
            else:
                waits_for._asyncio_future_blocking = False  # taken, as a task takes what a coroutine yields
                try:
                    await waits_for
                except asyncio.CancelledError:
                    if asyncio.current_task().cancelling():  # type: ignore[union-attr]  # this task is stopped
                        raise
                except Exception:
                    pass  # the send sees it when resumed
            try:
                waits_for = sending.send(None)
            except StopIteration:
                return
    except asyncio.CancelledError:
        sending.close()
        raise
