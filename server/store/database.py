"""The async database: one SQLAlchemy engine per process, SQLite or PostgreSQL.

SQLite runs in WAL mode with a busy timeout, foreign keys on and ``synchronous=FULL`` (a
committed action survives a crash of the process and of the machine). The driver's own
implicit transactions are replaced by explicit ``BEGIN``s so transactions mean what they
say (SQLAlchemy's documented recipe); a connection can ask for ``BEGIN IMMEDIATE`` with
the execution option ``sqlite_begin="IMMEDIATE"``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine


class Database:
    """An async engine plus a session factory for one database URL."""

    def __init__(self, url: str, **engine_args: Any) -> None:
        self.url = make_url(url)
        self.is_sqlite = self.url.get_backend_name() == "sqlite"
        if self.is_sqlite:
            _create_sqlite_folder(self.url.database)
            engine_args.setdefault("connect_args", {"timeout": 30})
        else:
            engine_args.setdefault("pool_size", 10)
            engine_args.setdefault("max_overflow", 20)
            engine_args.setdefault("pool_pre_ping", True)
        self.engine: AsyncEngine = create_async_engine(self.url, **engine_args)
        if self.is_sqlite:
            _sqlite_transactions(self.engine)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)

    async def close(self) -> None:
        await self.engine.dispose()


def _create_sqlite_folder(database: str | None) -> None:
    if database and database != ":memory:" and not database.startswith("file:"):
        Path(database).expanduser().resolve().parent.mkdir(parents=True, exist_ok=True)


def _sqlite_transactions(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we emit BEGIN ourselves
        cursor = dbapi_connection.cursor()
        for pragma in ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON", "busy_timeout=30000"):
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Any) -> None:
        mode = conn.get_execution_options().get("sqlite_begin", "")
        conn.exec_driver_sql(f"BEGIN {mode}".strip())
