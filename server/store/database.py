"""The database: every operation is one plain function of a SQLAlchemy ``Connection``,
run without blocking the event loop.

- **PostgreSQL** (``postgresql+asyncpg``): ``AsyncConnection.run_sync`` — the function runs
  on the event loop and every statement awaits asyncpg.
- **SQLite**: the function runs in a worker thread on the standard ``sqlite3`` driver, so
  a whole transaction costs one thread hop (aiosqlite's hop per call cost ~0.5 ms each,
  far more under load). Writes go through a single writer thread that commits whatever
  has queued up meanwhile in one transaction, each write in its own SAVEPOINT (group
  commit: one fsync for many matches; one write failing does not sink the others). A
  write's future resolves only after the COMMIT.

SQLite runs in WAL mode with ``synchronous=FULL`` (a committed action survives a crash of
the process and of the machine), foreign keys on and a 30 s busy timeout, with explicit
``BEGIN``s (SQLAlchemy's documented recipe) so transactions mean what they say.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, TypeVar

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

log = logging.getLogger(__name__)

T = TypeVar("T")
Work = Callable[[Connection], T]
Outcome = tuple["asyncio.Future[Any]", Any, BaseException | None]  # a write's future and how it ended

SQLITE_PRAGMAS = ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON", "busy_timeout=30000")
MAX_GROUP = 256
READ_THREADS = 4


class Database:
    """One database URL: ``read``, ``write`` and ``exclusive`` run functions of a
    ``Connection`` in a transaction and return their result."""

    def __init__(self, url: str) -> None:
        self.url = make_url(url)
        self.is_sqlite = self.url.get_backend_name() == "sqlite"
        self._sync: Engine | None = None
        self._async: AsyncEngine | None = None
        self._writer: _GroupCommitWriter | None = None
        self._readers: ThreadPoolExecutor | None = None
        if self.is_sqlite:
            _create_sqlite_folder(self.url.database)
            self.url = self.url.set(drivername="sqlite")
            self._sync = create_engine(self.url,
                                       connect_args={"check_same_thread": False, "timeout": 30},
                                       pool_size=8, max_overflow=8)
            _sqlite_transactions(self._sync)
        else:
            self._async = create_async_engine(self.url, pool_size=10, max_overflow=20, pool_pre_ping=True)

    @property
    def safe_url(self) -> str:
        return self.url.render_as_string(hide_password=True)

    async def read(self, work: Work[T]) -> T:
        """Run ``work`` in a read transaction (rolled back afterwards)."""
        if self._sync is not None:
            if self._readers is None:  # its own threads: bots thinking elsewhere never queue reads
                self._readers = ThreadPoolExecutor(READ_THREADS, thread_name_prefix="sqlite-read")
            return await asyncio.get_running_loop().run_in_executor(self._readers, self._sqlite_read, work)
        assert self._async is not None
        async with self._async.connect() as conn:
            return await conn.run_sync(work)

    async def write(self, work: Work[T]) -> T:
        """Run ``work`` in a transaction and commit it; if ``work`` raises, none of its
        writes are kept and the exception is raised here."""
        if self._sync is not None:
            if self._writer is None:
                self._writer = _GroupCommitWriter(self._sync)
            return await self._writer.submit(work)
        assert self._async is not None
        async with self._async.begin() as conn:
            return await conn.run_sync(work)

    async def exclusive(self, work: Work[T]) -> T:
        """Run ``work`` alone in one committed transaction (schema migrations): SQLite takes
        the write lock at ``BEGIN IMMEDIATE``; PostgreSQL work should take an advisory lock."""
        if self._sync is not None:
            return await asyncio.to_thread(self._sqlite_exclusive, work)
        assert self._async is not None
        async with self._async.begin() as conn:
            return await conn.run_sync(work)

    def _sqlite_read(self, work: Work[T]) -> T:
        assert self._sync is not None
        with self._sync.connect() as conn:
            return work(conn)

    def _sqlite_exclusive(self, work: Work[T]) -> T:
        assert self._sync is not None
        with self._sync.connect().execution_options(sqlite_begin="IMMEDIATE") as conn:
            result = work(conn)
            conn.commit()
            return result

    async def close(self) -> None:
        if self._writer is not None:
            await asyncio.to_thread(self._writer.stop)
        if self._readers is not None:
            self._readers.shutdown(wait=False)
        if self._sync is not None:
            self._sync.dispose()
        if self._async is not None:
            await self._async.dispose()


class _GroupCommitWriter:
    """The one thread that writes to a SQLite file (see the module docstring), through one
    connection it keeps (a checkout from the pool per batch cost more than the write)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.conn: Connection | None = None
        self.queue: queue.SimpleQueue[tuple[Work[Any], asyncio.Future[Any]] | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name="sqlite-writer", daemon=True)
        self.thread.start()

    async def submit(self, work: Work[T]) -> T:
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self.queue.put((work, future))
        return await future

    def stop(self) -> None:
        self.queue.put(None)
        self.thread.join(30)

    def _run(self) -> None:
        while True:
            first = self.queue.get()
            if first is None:
                if self.conn is not None:
                    self.conn.close()
                return
            batch = [first]
            while len(batch) < MAX_GROUP:
                try:
                    item = self.queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    self.queue.put(None)
                    break
                batch.append(item)
            self._commit(batch)

    def _commit(self, batch: list[tuple[Work[Any], asyncio.Future[Any]]]) -> None:
        outcomes: list[Outcome] = []
        try:
            if self.conn is None:
                self.conn = self.engine.connect().execution_options(sqlite_begin="IMMEDIATE")
            conn = self.conn
            with conn.begin():
                # savepoints straight on the driver: SQLAlchemy's statement machinery cost
                # more than the savepoint itself
                driver = conn.connection.driver_connection
                for work, future in batch:
                    driver.execute("SAVEPOINT potluck_write")
                    try:
                        result = work(conn)
                        driver.execute("RELEASE potluck_write")
                        outcomes.append((future, result, None))
                    except Exception as exc:
                        driver.execute("ROLLBACK TO potluck_write")
                        driver.execute("RELEASE potluck_write")
                        outcomes.append((future, None, exc))
        except Exception as exc:  # the COMMIT (or BEGIN) failed: nothing of the batch is kept
            log.error("SQLite group commit failed: %s", exc)
            outcomes = [(future, None, exc) for _, future in batch]
            self._reconnect()
        _settle_all(outcomes)

    def _reconnect(self) -> None:
        """After a failed batch, the next one starts on a fresh connection."""
        conn, self.conn = self.conn, None
        if conn is not None:
            try:
                conn.close()
            except Exception:
                pass


def _settle_all(outcomes: list[Outcome]) -> None:
    """Resolve the futures of a batch: one wake-up of each waiting event loop, not one a write."""
    by_loop: dict[asyncio.AbstractEventLoop, list[Outcome]] = {}
    for outcome in outcomes:
        by_loop.setdefault(outcome[0].get_loop(), []).append(outcome)
    for loop, settled in by_loop.items():
        try:
            loop.call_soon_threadsafe(_settle, settled)
        except RuntimeError:  # that caller's event loop is gone; nobody is waiting
            pass


def _settle(outcomes: list[Outcome]) -> None:
    for future, result, error in outcomes:
        if future.done():
            continue
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)


def _create_sqlite_folder(database: str | None) -> None:
    if database and database != ":memory:" and not database.startswith("file:"):
        Path(database).expanduser().resolve().parent.mkdir(parents=True, exist_ok=True)


def _sqlite_transactions(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we emit BEGIN ourselves
        cursor = dbapi_connection.cursor()
        for pragma in SQLITE_PRAGMAS:
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        mode = conn.get_execution_options().get("sqlite_begin", "")
        conn.connection.driver_connection.execute(f"BEGIN {mode}".strip())  # straight to the driver: cheaper
