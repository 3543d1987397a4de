"""Telling other server processes that a match changed.

``LocalFanout`` (no ``REDIS_URL``) tells nobody: one process serves everything, and REST
requests still read the log, so several processes stay correct, only their sockets hear
of other processes' moves late. ``RedisFanout`` publishes ``{"origin", "match", "kind",
…}`` on one channel; each process hands other processes' messages to ``on_message``,
which catches up from the log (the log, not the message, is the truth). While it cannot
listen (``down``), the hub catches up from the log every match with sockets here at each
lease heartbeat instead.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from typing import Any, Awaitable, Callable

log = logging.getLogger(__name__)

CHANNEL = "potluck:matches"
Handler = Callable[[dict[str, Any]], Awaitable[None]]


class LocalFanout:
    origin = "local"
    down = False  # nobody to hear: nothing to miss
    failed_at = float("-inf")  # monotonic time of the last failed publish

    async def start(self, on_message: Handler) -> None:
        pass

    def publish(self, message: dict[str, Any]) -> None:
        pass

    async def stop(self) -> None:
        pass


class RedisFanout:
    def __init__(self, url: str, channel: str = CHANNEL, origin: str | None = None) -> None:
        import redis.asyncio as redis

        self.origin = origin or secrets.token_hex(8)
        self.channel = channel
        self._redis = redis.from_url(url)
        self._listener: asyncio.Task[None] | None = None
        self._pending: set[asyncio.Task[Any]] = set()
        self.down = True  # not listening (yet, or Redis is away): other processes' news is missed
        # the last publish that failed: Redis is away, though the listener may not know yet
        # (its client retries the lost connection with a backoff, seconds, before it says so)
        self.failed_at = float("-inf")

    async def start(self, on_message: Handler) -> None:
        """Listen in the background; an unreachable Redis is retried every second (the
        server works without it: other processes' sockets just hear of moves later)."""
        self._listener = asyncio.create_task(self._listen(on_message))

    async def _listen(self, on_message: Handler) -> None:
        while True:
            pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel)
                self.down = False
                async for raw in pubsub.listen():
                    try:
                        message = json.loads(raw["data"])
                    except (TypeError, ValueError, KeyError):
                        continue
                    if isinstance(message, dict) and message.get("origin") != self.origin:
                        await on_message(message)
            except asyncio.CancelledError:
                await pubsub.aclose()
                raise
            except Exception as exc:
                self.down = True
                log.warning("Redis fan-out unavailable (%s); retrying in 1 s", exc)
                try:
                    await pubsub.aclose()
                except Exception:
                    pass
                await asyncio.sleep(1)

    def publish(self, message: dict[str, Any]) -> None:
        """Send without waiting; a lost message only delays other processes' sockets."""
        task = asyncio.get_running_loop().create_task(self._publish(dict(message, origin=self.origin)))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _publish(self, message: dict[str, Any]) -> None:
        try:
            await self._redis.publish(self.channel, json.dumps(message))
        except Exception as exc:
            self.failed_at = time.monotonic()
            log.warning("Redis publish failed: %s", exc)

    async def stop(self) -> None:
        if self._listener:
            self._listener.cancel()
            try:
                await self._listener
            except BaseException:
                pass
        for task in list(self._pending):
            task.cancel()
        await self._redis.aclose()


def make_fanout(redis_url: str | None, origin: str | None = None) -> LocalFanout | RedisFanout:
    """``origin``: this process's id (the one its leases carry)."""
    return RedisFanout(redis_url, origin=origin) if redis_url else LocalFanout()
