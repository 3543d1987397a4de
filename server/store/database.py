"""The database: every operation is one plain function of a SQLAlchemy ``Connection``,
run without blocking the event loop.

- **PostgreSQL** (``postgresql+asyncpg``): ``AsyncConnection.run_sync`` — the function runs
  on the event loop and every statement awaits asyncpg.
- **SQLite**: the function runs in a worker thread on the standard ``sqlite3`` driver, so
  a whole transaction costs one thread hop (aiosqlite's hop per call cost ~0.5 ms each,
  far more under load). Writes go through a single writer thread that commits whatever
  has queued up meanwhile in one transaction, each write in its own SAVEPOINT (group
  commit: one fsync for many matches; one write failing does not sink the others; a write
  alone in its batch needs no savepoint: its transaction rolls back without it). A
  write's future resolves only after the COMMIT.

SQLite runs in WAL mode with ``synchronous=FULL`` (a committed action survives a crash of
the process and of the machine), foreign keys on and a 30 s busy timeout, with explicit
``BEGIN``s (SQLAlchemy's documented recipe) so transactions mean what they say. The WAL is
kept small (it must not swallow a nearly full disk): checkpointed every 256 pages, truncated
to 1 MiB when it restarts, and checkpointed (passively) whenever the writer falls idle. The
writer refuses to commit into a WAL that is no longer the file at its path (deleted or
replaced under the running server: what it acknowledged would vanish at the next crash).

Nothing waits on the database without bound: on PostgreSQL a connection, a checkout from
the pool and each statement give up after ``timeout_s`` (the error is a store error, which
the API answers with 503 and ``Retry-After``). ``write_trouble`` says why writes are
failing, if the latest failed recently (``/healthz`` reports it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import queue
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, TypeVar

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool

log = logging.getLogger(__name__)

T = TypeVar("T")
Work = Callable[[Connection], T]
Outcome = tuple["asyncio.Future[Any]", Any, BaseException | None]  # a write's future and how it ended

SQLITE_PRAGMAS = ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON", "busy_timeout=30000",
                  "wal_autocheckpoint=256", "journal_size_limit=1048576")
MAX_GROUP = 256
READ_THREADS = 4
STORE_TIMEOUT_S = 10.0  # PostgreSQL: connect, pool checkout, each statement
IDLE_CHECKPOINT_S = 1.0  # the SQLite writer checkpoints after this long without writes
PROBE_EVERY_S = 1.0  # PostgreSQL found away: how often a call finds out whether it is back
TROUBLE_WINDOW_S = 60.0  # a failed write is news this long (unless a later write succeeded)

# what a store that is away raises (not a client's mistake, nor a lost race: IntegrityError)
STORE_AWAY: tuple[type[BaseException], ...] = (DBAPIError, PoolTimeout, sqlite3.Error, OSError)


def store_away(exc: BaseException) -> bool:
    """``exc`` says the database is away or failing (503), not that a write lost a race."""
    return isinstance(exc, STORE_AWAY) and not isinstance(exc, (IntegrityError, sqlite3.IntegrityError))


def away_line(exc: BaseException) -> str:
    """A store's failure in one line for the log (``TimeoutError: …``): while the database
    is away every request meets it, and a traceback each says nothing more."""
    text = str(exc)
    return f"{type(exc).__name__}: {text.splitlines()[0][:200] if text else ''}"


class WalGone(OSError):
    """The SQLite WAL this server writes into is no longer the file at its path."""


class StoreAway(OSError):
    """PostgreSQL was found away a moment ago and another call is finding out if it is back."""


def _connection_trouble(exc: BaseException) -> bool:
    """A timeout or a lost connection (the server away), not an error of one statement."""
    return (isinstance(exc, (TimeoutError, PoolTimeout, OSError))
            or (isinstance(exc, DBAPIError) and exc.connection_invalidated))


class StoreUnusable(RuntimeError):
    """The database cannot be opened as it is; the message names the file and what to do."""


class Database:
    """One database URL: ``read``, ``write`` and ``exclusive`` run functions of a
    ``Connection`` in a transaction and return their result."""

    def __init__(self, url: str, timeout_s: float = STORE_TIMEOUT_S) -> None:
        self.url = make_url(url)
        self.is_sqlite = self.url.get_backend_name() == "sqlite"
        self.timeout_s = timeout_s
        self._trouble: tuple[float, str] | None = None  # (monotonic time, why) of the latest failed write
        self._away: tuple[str, float] | None = None  # PostgreSQL away: why, and when to probe (``_pg``)
        self._probing = False
        self._sync: Engine | None = None
        self._async: AsyncEngine | None = None
        self._writer: _GroupCommitWriter | None = None
        self._readers: ThreadPoolExecutor | None = None
        if self.is_sqlite:
            _create_sqlite_folder(self.url.database)
            check_sqlite_files(self.url.database)
            self.url = self.url.set(drivername="sqlite")
            self._sync = create_engine(self.url,
                                       connect_args={"check_same_thread": False, "timeout": 30},
                                       pool_size=8, max_overflow=8)
            _sqlite_transactions(self._sync)
        else:
            self._async = create_async_engine(self.url, pool_size=10, max_overflow=20, pool_pre_ping=True,
                                              pool_timeout=timeout_s, connect_args=self._pg_timeouts(timeout_s))

    def _pg_timeouts(self, statement_s: float | None) -> dict[str, Any]:
        """asyncpg's connect timeout, and its client-side statement timeout (it also bounds a
        server that is frozen, which PostgreSQL's own ``statement_timeout`` cannot)."""
        return {"timeout": self.timeout_s, "command_timeout": statement_s}

    @property
    def safe_url(self) -> str:
        return self.url.render_as_string(hide_password=True)

    async def read(self, work: Work[T]) -> T:
        """Run ``work`` in a read transaction (rolled back afterwards)."""
        if self._sync is not None:
            if self._readers is None:  # its own threads: bots thinking elsewhere never queue reads
                self._readers = ThreadPoolExecutor(READ_THREADS, thread_name_prefix="sqlite-read")
            return await asyncio.get_running_loop().run_in_executor(self._readers, self._sqlite_read, work)
        return await self._pg(work, begin=False)

    async def write(self, work: Work[T]) -> T:
        """Run ``work`` in a transaction and commit it; if ``work`` raises, none of its
        writes are kept and the exception is raised here."""
        try:
            result = await (self._submit(work) if self._sync is not None else self._pg(work, begin=True))
        except Exception as exc:
            if store_away(exc):
                self._trouble = (time.monotonic(), f"{type(exc).__name__}: {exc}"[:300])
            raise
        self._trouble = None
        return result

    def _submit(self, work: Work[T]) -> asyncio.Future[T]:
        """SQLite: ``work`` queued for the writer thread; the future resolves after its COMMIT."""
        if self._writer is None:
            assert self._sync is not None
            self._writer = _GroupCommitWriter(self._sync, self.url.database)
        return self._writer.submit(work)

    async def _pg(self, work: Work[T], begin: bool) -> T:
        """Run ``work`` on PostgreSQL, its whole transaction bounded (handing the connection
        back included: after a statement timed out, asyncpg waits without bound for the
        server to confirm the cancel; cancelled, the pool terminates that connection).

        Once the server is found away (a timeout, a lost connection), one call a second
        probes it and the others fail at once (``StoreAway``) instead of queueing behind
        their own timeouts; the first probe that succeeds ends that."""
        assert self._async is not None
        probe = self._away is not None
        if probe:
            why, next_probe = self._away  # type: ignore[misc]
            if self._probing or time.monotonic() < next_probe:
                raise StoreAway(f"the database is away ({why}); not waiting for it")
            self._probing = True
        try:
            async with asyncio.timeout(3 * self.timeout_s):
                async with (self._async.begin() if begin else self._async.connect()) as conn:
                    result = await conn.run_sync(work)
        except Exception as exc:
            if _connection_trouble(exc):
                self._away = (type(exc).__name__, time.monotonic() + PROBE_EVERY_S)
            raise
        finally:
            if probe:
                self._probing = False
        self._away = None
        return result

    def write_trouble(self) -> str | None:
        """Why writes fail, if the latest write failed in the last minute; else ``None``."""
        if self._trouble is None or time.monotonic() - self._trouble[0] > TROUBLE_WINDOW_S:
            return None
        return self._trouble[1]

    async def exclusive(self, work: Work[T]) -> T:
        """Run ``work`` alone in one committed transaction (schema migrations): SQLite takes
        the write lock at ``BEGIN IMMEDIATE``; PostgreSQL work should take an advisory lock."""
        if self._sync is not None:
            return await asyncio.to_thread(self._sqlite_exclusive, work)
        # its own connection, without the statement timeout: a migration may take a while
        engine = create_async_engine(self.url, poolclass=NullPool, connect_args=self._pg_timeouts(None))
        try:
            async with engine.begin() as conn:
                return await conn.run_sync(work)
        finally:
            await engine.dispose()

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
    connection it keeps (a checkout from the pool per batch cost more than the write).
    SQLAlchemy's transaction on that connection stays open for good (it emits no BEGIN:
    ``sqlite_begin=None``); each batch is begun and committed on the driver, with one kept
    cursor (SQLAlchemy's begin and commit cost more than the write's own statements)."""

    def __init__(self, engine: Engine, database: str | None) -> None:
        self.engine = engine
        self.conn: Connection | None = None
        self.driver: sqlite3.Connection | None = None
        self.cursor: sqlite3.Cursor | None = None
        self.wal = _wal_path(database)
        self.wal_id: tuple[int, int] | None = None  # (device, inode) of the WAL this connection writes
        self.wal_gone: str | None = None  # set once the WAL was seen gone: every write is refused
        self.queue: queue.SimpleQueue[tuple[Work[Any], asyncio.Future[Any]] | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name="sqlite-writer", daemon=True)
        self.thread.start()

    def submit(self, work: Work[T]) -> asyncio.Future[T]:
        """Queue ``work``; its future resolves after the COMMIT of its batch."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self.queue.put((work, future))
        return future

    def stop(self) -> None:
        self.queue.put(None)
        self.thread.join(30)

    def _run(self) -> None:
        dirty = False
        pending = self.queue
        while True:
            try:
                first = pending.get(timeout=IDLE_CHECKPOINT_S if dirty else None)
            except queue.Empty:  # idle: move the WAL into the database while nothing is waiting
                dirty = False
                self._checkpoint()
                continue
            dirty = True
            if first is None:
                self._close()
                return
            batch = [first]
            while len(batch) < MAX_GROUP and not pending.empty():  # (the only reader: it is there)
                item = pending.get_nowait()
                if item is None:
                    pending.put(None)
                    break
                batch.append(item)
            self._commit(batch)

    def _commit(self, batch: list[tuple[Work[Any], asyncio.Future[Any]]]) -> None:
        try:
            if self.cursor is None:
                self._connect()
            assert self.conn is not None and self.driver is not None and self.cursor is not None
            cursor = self.cursor
            cursor.execute("BEGIN IMMEDIATE")
            try:
                self._check_wal()
                outcomes = [_alone(self.conn, *batch[0])] if len(batch) == 1 else _in_savepoints(self.conn, batch)
                cursor.execute("COMMIT")
            except BaseException:
                if self.driver.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        cursor.execute("ROLLBACK")
                raise
        except _AloneFailed as failed:  # rolled back with its transaction; the connection is sound
            outcomes = [(batch[0][1], None, failed.error)]
        except Exception as exc:  # the COMMIT (or BEGIN) failed: nothing of the batch is kept
            outcomes = [(future, None, exc) for _, future in batch]
            if not isinstance(exc, WalGone):  # (said once; its connection holds the orphaned WAL)
                log.error("SQLite group commit failed: %s", exc)
                self._close()  # the next batch starts on a fresh connection
        _settle_all(outcomes)

    def _connect(self) -> None:
        conn = self.engine.connect().execution_options(sqlite_begin=None)
        conn.begin()  # open for good (see the class docstring)
        self.conn, self.driver = conn, conn.connection.driver_connection
        self.cursor = self.driver.cursor()

    def _check_wal(self) -> None:
        """Refuse to commit into a WAL that is not the file at its path any more (someone
        deleted or replaced it): those commits would be lost at the next crash. The frames
        already in it are checkpointed into the database first, so what was acknowledged
        is kept; the server must then be restarted."""
        if self.wal is None:
            return
        if self.wal_gone is None:
            try:
                st = os.stat(self.wal)
                now = (st.st_dev, st.st_ino)
            except FileNotFoundError:
                now = None
            if self.wal_id is None and now is not None:
                self.wal_id = now
            if now != self.wal_id:
                self.wal_gone = (f"the SQLite WAL {self.wal} was deleted or replaced while the server ran; "
                                 "writes are refused: restart the server (what it acknowledged was kept)")
                log.critical("%s", self.wal_gone)
                self._save_the_orphaned_wal()
        if self.wal_gone is not None:
            raise WalGone(self.wal_gone)

    def _save_the_orphaned_wal(self) -> None:
        assert self.cursor is not None
        try:
            self.cursor.execute("ROLLBACK")  # a checkpoint cannot run inside a transaction
            self.cursor.execute("PRAGMA wal_checkpoint(FULL)")
            self.cursor.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            log.critical("the orphaned WAL could not be checkpointed: %s", exc)

    def _checkpoint(self) -> None:
        if self.cursor is None or self.wal_gone is not None:
            return
        try:
            self.cursor.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error as exc:  # a full disk, say: the next batch reports it
            log.warning("SQLite checkpoint failed: %s", exc)

    def _close(self) -> None:
        """Close the connection (the next batch, if any, opens a fresh one)."""
        conn, cursor = self.conn, self.cursor
        self.conn = self.driver = self.cursor = None
        self.wal_id = None  # a new connection may find a new WAL (the last one closing removes it)
        for done in (cursor, conn):
            if done is not None:
                try:
                    done.close()
                except Exception:
                    pass


class _AloneFailed(Exception):
    """The one write of a batch raised ``error`` (and its transaction is to be rolled back)."""

    def __init__(self, error: Exception) -> None:
        self.error = error


def _alone(conn: Connection, work: Work[Any], future: asyncio.Future[Any]) -> Outcome:
    """A write alone in its batch: its transaction is its savepoint (two statements fewer)."""
    try:
        return future, work(conn), None
    except Exception as exc:
        if not conn.connection.driver_connection.in_transaction:  # SQLite rolled it back itself
            raise  # (a full disk, an I/O error): as a failed COMMIT
        raise _AloneFailed(exc) from exc


def _in_savepoints(conn: Connection, batch: list[tuple[Work[Any], asyncio.Future[Any]]]) -> list[Outcome]:
    """Each write of a batch in its own savepoint (straight on the driver: SQLAlchemy's
    statement machinery cost more than the savepoint itself): one failing is rolled back
    alone."""
    outcomes: list[Outcome] = []
    driver = conn.connection.driver_connection
    for work, future in batch:
        driver.execute("SAVEPOINT potluck_write")
        try:
            result = work(conn)
            driver.execute("RELEASE potluck_write")
            outcomes.append((future, result, None))
        except Exception as exc:
            if not driver.in_transaction:  # SQLite rolled it all back (a full disk, an I/O error)
                raise
            driver.execute("ROLLBACK TO potluck_write")
            driver.execute("RELEASE potluck_write")
            outcomes.append((future, None, exc))
    return outcomes


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


def _wal_path(database: str | None) -> str | None:
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return str(Path(database).expanduser().resolve()) + "-wal"


def check_sqlite_files(database: str | None) -> None:
    """Raise ``StoreUnusable`` naming the file, if the database, its ``-wal`` or ``-shm``
    cannot be written by this user (SQLite's own error names none of them)."""
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    main = Path(database).expanduser().resolve()
    for path in (main, Path(f"{main}-wal"), Path(f"{main}-shm")):
        if path.exists() and not os.access(path, os.R_OK | os.W_OK):
            raise StoreUnusable(
                f"{path} is not readable and writable by this user (uid {os.getuid()}, mode "
                f"{path.stat().st_mode & 0o777:o}): make it so (chmod u+rw {path}, or chown it to the "
                "server's user) and start again; do not delete a -wal file, it holds recent writes")
    if not os.access(main.parent, os.W_OK | os.X_OK):
        raise StoreUnusable(f"the folder {main.parent} is not writable by this user (uid {os.getuid()}): SQLite "
                            "creates its -wal and -shm files there; make it writable and start again")


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
        if mode is not None:  # (None: the caller begins on the driver itself, as the writer does)
            conn.connection.driver_connection.execute(f"BEGIN {mode}".strip())  # straight to the driver: cheaper
