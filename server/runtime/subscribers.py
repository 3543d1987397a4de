"""A connected client as the runtime sees it: a seat (or ``None`` for a spectator) and a
bounded queue of outgoing messages drained by its own task.

Publishing never waits for a socket: messages are queued. A socket that falls
``queue_size`` messages behind, or whose single send takes longer than ``send_timeout``
seconds, is closed (code 1013) so it cannot hold memory or delay anyone; its client
reconnects and receives the current state.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable

log = logging.getLogger(__name__)

SLOW_CLOSE_CODE = 1013


class Subscriber:
    def __init__(self, seat: int | None, send: Callable[[str], Awaitable[None]],
                 close: Callable[[int, str], Awaitable[None]], queue_size: int = 256,
                 send_timeout: float = 10.0) -> None:
        self.seat = seat
        self._send, self._close = send, close
        self._queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=queue_size)
        self._send_timeout = send_timeout
        self.closed = False
        self._task = asyncio.create_task(self._drain())

    def push(self, text: str, droppable: bool = False) -> bool:
        """Queue a message. A full queue drops a ``droppable`` one and otherwise closes the
        socket as too slow. Returns whether the message was queued."""
        if self.closed:
            return False
        try:
            self._queue.put_nowait(text)
            return True
        except asyncio.QueueFull:
            if not droppable:
                self._give_up("too slow: messages piled up")
            return False

    async def _drain(self) -> None:
        # asyncio.timeout, not wait_for: on 3.11 wait_for can swallow a cancellation
        while not self.closed:
            text = await self._queue.get()
            if text is None:
                return
            try:
                async with asyncio.timeout(self._send_timeout):
                    await self._send(text)
            except TimeoutError:
                self._give_up("too slow: a send timed out")
                return
            except Exception:  # the socket is gone; the receive loop will notice
                self.closed = True
                return

    def _give_up(self, reason: str) -> None:
        if self.closed:
            return
        self.closed = True
        log.info("closing slow socket (seat %s): %s", self.seat, reason)
        self._task.cancel()
        asyncio.get_running_loop().create_task(self._quiet_close(reason))

    async def _quiet_close(self, reason: str) -> None:
        try:
            async with asyncio.timeout(1.0):
                await self._close(SLOW_CLOSE_CODE, reason)
        except Exception:
            pass

    async def stop(self) -> None:
        """Stop sending (the connection is over); never waits more than a second."""
        self.closed = True
        self._task.cancel()
        await asyncio.wait([self._task], timeout=1.0)
