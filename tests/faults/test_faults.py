"""The fault suite (issue 23): real services failing under real server processes.

Its own PostgreSQL and Redis (``services``), two ``potluck serve`` processes on them,
all-bot matches and human-paced ones (``traffic``); in turn PostgreSQL is restarted,
frozen (SIGSTOP) past the pool timeout, and Redis is killed for a minute. Then a SQLite
server's disk fills up (a small tmpfs; where mounting is impossible, a file-size limit
on the server process). Throughout and after:

- no answer is a 5xx other than 503 with ``Retry-After``, and every request is answered;
- every acknowledged action is in the final log at its seq, and the log has no gap;
- every match moves again within 5 s of the fault's end (bots included);
- while Redis is down, a socket on either server shows each move within 2 s of its ack
  (each server finds the matches with sockets on it that moved, four times a second, and
  catches them up from the log); the figures printed say how soon they did;
- ``/healthz`` answers 503 while writes fail (and while PostgreSQL is frozen).

Everything is on free ports in fresh temporary folders, so the suite runs beside other
tests (pytest-xdist). ``POTLUCK_FAULT_REDIS_S`` shortens the Redis outage for a quick run.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import signal
import sqlite3
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

import asyncpg
import httpx
import pytest

from tests.server.disks import fill
from tests.server.processes import ServerProcess

from .services import OwnPostgres, OwnRedis, missing_binaries
from .traffic import Traffic

pytestmark = pytest.mark.skipif(missing_binaries() is not None, reason=f"fault suite: {missing_binaries()}")

MOVING_AGAIN_S = 5.0
STORE_TIMEOUT_S = "2"
FROZEN_S = 8.0  # past the pool timeout, and past the bound of a whole transaction (3 × 2 s)
REDIS_AWAY_S = float(os.environ.get("POTLUCK_FAULT_REDIS_S", "60"))
ENV = {"POTLUCK_STORE_TIMEOUT_S": STORE_TIMEOUT_S, "POTLUCK_LEASE_S": "2", "POTLUCK_CLOCK_SPEED": "1.5",
       "POTLUCK_PRESENCE_EVERY_S": "1"}


async def start_servers(count: int, database_url: str, **env: str) -> list[ServerProcess]:
    work = Path(tempfile.mkdtemp(prefix="potluck-faults-"))
    return list(await asyncio.gather(*(asyncio.to_thread(ServerProcess, database_url, work / f"s{i}", **ENV, **env)
                                       for i in range(count))))


async def not_moving(traffic: Traffic, fault_ended: float) -> list[str]:
    """The running matches that did not move within ``MOVING_AGAIN_S`` of the fault's end
    (a first reading after the end, then a higher seq, or the end of the match), each
    with its kind and its (seq, status) read afterwards."""
    deadline = fault_ended + MOVING_AGAIN_S

    async def moved(match_id: str) -> bool:
        base = None
        while time.monotonic() < deadline:
            now = await traffic.seq_of(match_id)
            if now is not None:
                seq, status = now
                if status == "finished" or (base is not None and seq > base):
                    return True
                base = seq if base is None else base
            await asyncio.sleep(0.1)
        return False

    ids = traffic.running()
    results = await asyncio.gather(*(moved(m) for m in ids))
    return [f"{m} ({'all-bot' if m in traffic.bot_matches else 'human-paced'}, at {await traffic.seq_of(m)})"
            for m, ok in zip(ids, results) if not ok]


def gaps_and_losses(traffic: Traffic, logs: dict[str, list[tuple[int, int | None]]]) -> list[str]:
    """Every acknowledged action at its seq (the same seat), every log without a gap."""
    wrong = []
    for match_id, rows in logs.items():
        seqs = [seq for seq, _ in rows]
        if seqs != list(range(1, len(seqs) + 1)):
            wrong.append(f"{match_id}: the log has a gap ({seqs[:5]}…)")
        logged = dict(rows)
        lost = {seq: seat for seq, seat in traffic.acks.get(match_id, {}).items() if logged.get(seq, -1) != seat}
        if lost:
            wrong.append(f"{match_id}: acknowledged but not in the log: {lost}")
    return wrong


async def healthz_answers(servers: list[ServerProcess]) -> list[int]:
    async with httpx.AsyncClient(timeout=5) as client:  # answered in 2 s: no hanging
        return [(await client.get(f"{s.url}/healthz")).status_code for s in servers]


async def test_postgres_restarted_and_frozen_and_redis_killed_under_two_servers() -> None:
    pg, redis = await asyncio.to_thread(OwnPostgres), await asyncio.to_thread(OwnRedis)
    servers: list[ServerProcess] = []
    traffic: Traffic | None = None
    try:
        servers = await start_servers(2, pg.url, REDIS_URL=redis.url)
        traffic = Traffic(servers)
        await traffic.keep_bots_busy(3)
        traffic.start_humans(2)
        await asyncio.sleep(3)

        # 1. PostgreSQL restarted (fast shutdown, started again)
        await asyncio.to_thread(pg.restart)
        assert not await not_moving(traffic, time.monotonic()), f"matches still after PostgreSQL's restart {traffic.broken[-3:]}"

        # 2. PostgreSQL frozen past the pool timeout: /healthz answers 503 (fast), no 500
        await traffic.keep_bots_busy(3)
        frozen = pg.freeze()
        try:
            await asyncio.sleep(FROZEN_S / 2)
            during = await healthz_answers(servers)
            await asyncio.sleep(FROZEN_S / 2)
        finally:
            pg.thaw(frozen)
        assert during == [503, 503], f"/healthz while PostgreSQL was frozen: {during}"
        assert not await not_moving(traffic, time.monotonic()), f"matches still after PostgreSQL thawed {traffic.broken[-3:]}"

        # 3. Redis killed for a minute: sockets on either server stay current
        await traffic.keep_bots_busy(3)
        acks_before = sum(len(book) for book in traffic.acks.values())
        redis.kill()
        traffic.redis_down, traffic.down_at = True, time.monotonic()
        await asyncio.sleep(REDIS_AWAY_S)
        traffic.redis_down = False
        await asyncio.to_thread(redis.start)
        assert sum(len(book) for book in traffic.acks.values()) > acks_before, "nobody could play without Redis"
        assert not await not_moving(traffic, time.monotonic()), f"matches still after Redis came back {traffic.broken[-3:]}"

        await traffic.stop()
        print(f"Redis away {REDIS_AWAY_S} s: {traffic.figures()}")  # the figures, whether or not a bound held
        assert not traffic.late, f"sockets late while Redis was down: {traffic.late[:10]}"
        assert not traffic.broken, f"answers that broke the rules: {traffic.broken[:10]}"
        conn = await asyncpg.connect(pg.url)
        try:
            logs = {m: [(r["seq"], r["seat"]) for r in await conn.fetch(
                        "SELECT seq, seat FROM actions WHERE match_id = $1 ORDER BY seq", m)]
                    for m in traffic.running()}
        finally:
            await conn.close()
        assert not (wrong := gaps_and_losses(traffic, logs)), wrong
        print(f"PostgreSQL restarted and frozen {FROZEN_S} s, Redis away {REDIS_AWAY_S} s: {traffic.figures()}")
    finally:
        if traffic is not None and not traffic.stopping:
            await traffic.stop()
        for s in servers:
            s.kill()
        redis.close()
        pg.close()


@contextlib.contextmanager
def disk_to_fill() -> Iterator[tuple[Path, Any]]:
    """A folder and ``fill(server) -> free()``: a small tmpfs filled by a file (root), or
    else a file-size limit put on the server process (``prlimit``), lifted to free it."""
    folder = Path(tempfile.mkdtemp(prefix="potluck-faults-disk-"))
    mounted = os.getuid() == 0 and subprocess_ok("mount", "-t", "tmpfs", "-o", "size=6m", "tmpfs", str(folder))
    try:
        if mounted:
            def fill_tmpfs(_server: ServerProcess) -> Any:
                return fill(folder).unlink
            yield folder, fill_tmpfs
        else:
            def limit_files(server: ServerProcess) -> Any:
                biggest = max(p.stat().st_size for p in folder.glob("potluck.db*"))
                _, hard = resource.prlimit(server.process.pid, resource.RLIMIT_FSIZE)
                resource.prlimit(server.process.pid, resource.RLIMIT_FSIZE, (biggest, hard))
                return lambda: resource.prlimit(server.process.pid, resource.RLIMIT_FSIZE, (hard, hard))
            yield folder, limit_files
    finally:
        if mounted:
            subprocess_ok("umount", "-l", str(folder))


def mounted(folder: Path) -> bool:
    return os.path.ismount(folder)


def subprocess_ok(*command: str) -> bool:
    return subprocess.run(command, capture_output=True).returncode == 0


def _ignore_sigxfsz() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG), as on a full disk


async def test_a_full_sqlite_disk_is_503_and_healthz_says_so_until_space_returns() -> None:
    with disk_to_fill() as (folder, fill_up):
        database = folder / "potluck.db"
        server = await asyncio.to_thread(ServerProcess, f"sqlite:///{database}", Path(tempfile.mkdtemp()),
                                         _ignore_sigxfsz, **ENV)
        traffic = Traffic([server])
        try:
            await traffic.keep_bots_busy(1)
            traffic.start_humans(1)
            await asyncio.sleep(2)
            free = fill_up(server)

            async def until_healthz(status: int) -> None:
                while (await healthz_answers([server])) != [status]:
                    await asyncio.sleep(0.2)

            await asyncio.wait_for(until_healthz(503), 60)  # writes fail, and /healthz says so
            acks = sum(len(b) for b in traffic.acks.values())
            await asyncio.sleep(1)
            still_failing = sum(len(b) for b in traffic.acks.values()) == acks
            if still_failing:
                assert await healthz_answers([server]) == [503]
            free()
            ended = time.monotonic()
            assert not await not_moving(traffic, ended), "matches still after the disk had room again"
            await asyncio.wait_for(until_healthz(200), 60)
            await traffic.stop()
            assert not traffic.broken, f"answers that broke the rules: {traffic.broken[:10]}"
        finally:
            if not traffic.stopping:
                await traffic.stop()
            server.stop()
        with sqlite3.connect(database) as conn:
            logs = {m: conn.execute("SELECT seq, seat FROM actions WHERE match_id = ? ORDER BY seq", (m,)).fetchall()
                    for m in traffic.running()}
        assert not (wrong := gaps_and_losses(traffic, logs)), wrong
        print(f"SQLite disk filled ({'tmpfs' if mounted(folder) else 'file-size limit'}): {traffic.figures()}")
