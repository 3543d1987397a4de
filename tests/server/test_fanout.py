"""The Redis fan-out knows at once when Redis is away, however it fails: a Redis frozen or
cut off by the network closes no connection, so the listener PINGs a silent channel and a
publish gives up after ``ANSWER_S``; once Redis answers again, it listens again.

Redis here is the machine's, behind a relay of the test's own that can stop passing bytes
either way (a partition) without closing anything."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from typing import Any, AsyncIterator
from urllib.parse import urlparse

import pytest

from server.runtime.fanout import RedisFanout

from .test_two_processes import REDIS_URL, _redis_reason

pytestmark = pytest.mark.skipif(_redis_reason() is not None, reason=str(_redis_reason()))


class Relay:
    """A TCP relay to Redis on a free loopback port; ``cut`` stops every byte both ways
    (held, not dropped: the connections stay open), ``mend`` passes them on again."""

    def __init__(self) -> None:
        target = urlparse(REDIS_URL)
        self.target = (target.hostname or "127.0.0.1", target.port or 6379)
        self.flowing = asyncio.Event()
        self.flowing.set()
        self.tasks: set[asyncio.Task[None]] = set()
        self.server: asyncio.Server | None = None

    async def __aenter__(self) -> "Relay":
        self.server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        return self

    async def __aexit__(self, *exc: Any) -> None:
        assert self.server is not None
        self.server.close()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    @property
    def url(self) -> str:
        assert self.server is not None
        port = self.server.sockets[0].getsockname()[1]
        return f"redis://127.0.0.1:{port}/0"

    def cut(self) -> None:
        self.flowing.clear()

    def mend(self) -> None:
        self.flowing.set()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(*self.target)
        for a, b in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.create_task(self._pipe(a, b))
            self.tasks.add(task)

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError, asyncio.CancelledError):
            while data := await reader.read(65536):
                await self.flowing.wait()
                writer.write(data)
                await writer.drain()
        writer.close()


async def until(condition: Any, timeout: float = 20) -> None:
    """Wait for ``condition()`` (the timeout is a hang guard, not a speed limit)."""
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.05)


@contextlib.asynccontextmanager
async def fanout(url: str, channel: str, heard: list[dict[str, Any]]) -> AsyncIterator[RedisFanout]:
    async def on_message(message: dict[str, Any]) -> None:
        heard.append(message)

    f = RedisFanout(url, channel=channel)
    await f.start(on_message)
    try:
        yield f
    finally:
        await f.stop()


async def test_a_redis_cut_off_without_closing_a_connection_is_down_and_back_when_it_answers() -> None:
    channel = f"potluck:test:{secrets.token_hex(4)}"
    heard: list[dict[str, Any]] = []
    async with Relay() as relay, fanout(relay.url, channel, heard) as cut_off, \
            fanout(REDIS_URL, channel, []) as other:
        await until(lambda: not cut_off.down and not other.down)
        other.publish({"match": "m", "kind": "moved", "seq": 1})
        await until(lambda: len(heard) == 1)

        relay.cut()
        cut_off.publish({"match": "m", "kind": "moved", "seq": 2})
        await until(lambda: cut_off.down)  # before: it never knew (no connection had closed)
        await until(lambda: cut_off.failed_at > float("-inf"))  # the publish gave up, not hung

        relay.mend()
        await until(lambda: not cut_off.down)
        other.publish({"match": "m", "kind": "moved", "seq": 3})
        await until(lambda: heard[-1].get("seq") == 3)

