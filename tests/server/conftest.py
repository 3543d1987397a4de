"""Fixtures for the server tests: a database of each kind (a fresh SQLite file per test;
PostgreSQL when reachable, else skipped with the reason), and a real uvicorn server.

PostgreSQL: ``POTLUCK_TEST_POSTGRES`` (default ``postgresql://postgres@127.0.0.1:5432/test``)
names a server where each test run creates its own database ``potluck_test_…`` and drops
it at the end; tests share it, emptied before each test (the tables are kept): every
server process takes over the running matches nobody drives, so one test's leftover
matches would otherwise be driven by the next test's servers.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, AsyncIterator, Iterator

import httpx
import pytest
import uvicorn
from fastapi import FastAPI

from server.app import create_app, server_config
from server.config import Settings
from server.runtime import Runtime
from server.store import Database, Store
from server.store.migrate import upgrade

from .clients import Api

ADMIN_URL = os.environ.get("POTLUCK_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


async def _admin(sql: str, url: str = ADMIN_URL) -> None:
    import asyncpg

    conn = await asyncpg.connect(url, timeout=3)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@pytest.fixture(scope="session")
def postgres_session_url() -> Iterator[str | None]:
    """This run's PostgreSQL database, or ``None`` (then ``postgres_skip_reason`` says why)."""
    global _SKIP_REASON
    name = f"potluck_test_{secrets.token_hex(6)}"
    try:
        asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    except Exception as exc:  # any failure to reach the server means: skip those tests
        _SKIP_REASON = f"PostgreSQL unreachable at {ADMIN_URL}: {type(exc).__name__}: {exc}"
        yield None
        return
    base = ADMIN_URL.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}".replace("postgresql://", "postgresql+asyncpg://", 1)
    finally:
        asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


_SKIP_REASON = ""


EMPTY_EVERY_TABLE = """
DO $$ DECLARE names text; BEGIN
  SELECT string_agg(format('%I', tablename), ', ') INTO names
    FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'alembic_version';
  IF names IS NOT NULL THEN EXECUTE 'TRUNCATE ' || names || ' CASCADE'; END IF;
END $$"""


@pytest.fixture
def postgres_url(postgres_session_url: str | None) -> str:
    """This run's PostgreSQL database, empty (tests that only make sense there)."""
    if postgres_session_url is None:
        pytest.skip(_SKIP_REASON)
    asyncio.run(_admin(EMPTY_EVERY_TABLE, postgres_session_url.replace("+asyncpg", "", 1)))
    return postgres_session_url


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path) -> str:
    """A database of each kind: a fresh SQLite file, and this run's PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'potluck.db'}"
    return request.getfixturevalue("postgres_url")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Served:
    url: str
    app: FastAPI

    @property
    def ws_url(self) -> str:
        return self.url.replace("http://", "ws://", 1)

    @property
    def runtime(self) -> Runtime:
        return self.app.state.runtime


@asynccontextmanager
async def serve(database_url: str, send_buffer: int | None = None, host: str = "127.0.0.1",
                **settings: Any) -> AsyncIterator[Served]:
    """Run the real app on uvicorn, in this event loop, on a free port of ``host`` (its URL
    is on 127.0.0.1 whatever ``host`` is; ``send_buffer``: the kernel's send buffer for
    every accepted socket, to make slow readers felt early)."""
    app = create_app(Settings(database_url=database_url, **settings))
    sock = socket.socket()
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # else ~40 ms per request (delayed ACK)
    if send_buffer:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
    sock.bind((host, 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(server_config(app, host, port, access_log=False, log_level="warning"))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        while not server.started:
            if task.done():
                task.result()
                raise RuntimeError("server stopped during start-up")
            await asyncio.sleep(0.01)
        yield Served(f"http://127.0.0.1:{port}", app)
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 10)
        sock.close()


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    """The repository on a database of each kind, migrated."""
    db = Database(database_url)
    await upgrade(db)
    yield Store(db)
    await db.close()


@pytest.fixture
async def served(database_url: str) -> AsyncIterator[Served]:
    async with serve(database_url) as s:
        yield s


@pytest.fixture
async def api(served: Served) -> AsyncIterator[Api]:
    async with httpx.AsyncClient(base_url=served.url, timeout=20) as client:
        yield Api(client)
