"""Telling other server processes that a match changed.

``LocalFanout`` (no ``REDIS_URL``) tells nobody: one process serves everything, and REST
requests still read the log, so several processes stay correct, only their sockets hear
of other processes' moves late. ``RedisFanout`` publishes ``{"origin", "match", "kind",
…}`` on one channel; each process hands other processes' messages to ``on_message``,
which catches up from the log (the log, not the message, is the truth). While it cannot
listen (``down``), the hub catches up from the log every match with sockets here instead.

"Down" is known within about a second, whichever way Redis fails: no client retries with
a backoff (redis-py's default retries a lost connection for seconds before it says so),
a publish gives up after ``ANSWER_S`` (``failed_at``), and the listener PINGs a channel
silent for ``PING_EVERY_S`` and counts Redis as away when nothing answers within
``ANSWER_S`` — a Redis frozen or cut off by the network closes no connection.
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
PING_EVERY_S = 0.5  # a silent subscription is checked this often
ANSWER_S = 1.0  # Redis is away when a PING or a publish is not answered this soon
RETRY_S = 0.5  # how often an unreachable Redis is tried again
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
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        self.origin = origin or secrets.token_hex(8)
        self.channel = channel
        # one immediate retry (a pooled connection Redis closed when it restarted), no backoff
        self._redis = redis.from_url(url, socket_timeout=ANSWER_S, socket_connect_timeout=ANSWER_S,
                                     retry=Retry(NoBackoff(), 1))
        self._listener: asyncio.Task[None] | None = None
        self._pending: set[asyncio.Task[Any]] = set()
        self._publish_failing = False  # said once per outage, not once per move
        self.down = True  # not listening (yet, or Redis is away): other processes' news is missed
        # the last publish that failed: Redis is away, though the listener may not know yet
        self.failed_at = float("-inf")

    async def start(self, on_message: Handler) -> None:
        """Listen in the background; an unreachable Redis is retried every ``RETRY_S`` (the
        server works without it: other processes' sockets catch up from the log)."""
        self._listener = asyncio.create_task(self._listen(on_message))

    async def _listen(self, on_message: Handler) -> None:
        while True:
            pubsub = self._redis.pubsub()
            try:
                await self._subscribed(pubsub, on_message)
            except asyncio.CancelledError:
                await pubsub.aclose()
                raise
            except Exception as exc:
                if not self.down:
                    log.warning("Redis fan-out unavailable (%s); sockets catch up from the database", exc)
                self.down = True
                try:
                    await pubsub.aclose()
                except Exception:
                    pass
                await asyncio.sleep(RETRY_S)

    async def _subscribed(self, pubsub: Any, on_message: Handler) -> None:
        """Hand on every message of the channel; up once Redis confirms the subscription,
        down (raises) when the connection breaks or a PING goes unanswered."""
        await pubsub.subscribe(self.channel)
        loop = asyncio.get_running_loop()
        heard, pinged = loop.time(), None
        while True:
            raw = await pubsub.get_message(timeout=PING_EVERY_S)
            now = loop.time()
            if raw is not None:
                heard, pinged = now, None
                if raw["type"] == "subscribe":
                    if self.down:
                        log.info("Redis fan-out listening")
                    self.down = False
                elif raw["type"] == "message":
                    await self._hand_on(raw["data"], on_message)
            elif pinged is not None and now - pinged > ANSWER_S:
                raise ConnectionError(f"Redis did not answer a PING within {ANSWER_S:g} s")
            elif pinged is None and now - heard >= PING_EVERY_S:
                await pubsub.ping()
                pinged = now

    async def _hand_on(self, data: Any, on_message: Handler) -> None:
        try:
            message = json.loads(data)
        except (TypeError, ValueError):
            return
        if isinstance(message, dict) and message.get("origin") != self.origin:
            await on_message(message)

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
            if not self._publish_failing:
                log.warning("Redis publish failed (%s); other processes catch up from the database", exc)
            self._publish_failing = True
        else:
            self._publish_failing = False

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
