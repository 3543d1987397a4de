"""What idle matches by turns cost: 10,000 Sneaky Supper matches by turns (two humans each,
started, nobody connected), in one runtime on SQLite.

    python -m bench.turns_idle [--matches 10000] [--loaded 1000]

A first process leaves them in the store as a server leaves matches it put to sleep (seats
taken, started, owned, each lease noting the match's deadline), then retires, handing its
leases over. A fresh second process takes every one of them over without
loading any. Printed: the database's size; the memory (resident set) the second process
gained owning all of them asleep, per match; the memory per match once ``--loaded`` of them
are loaded (watched), to compare; and how long one lease heartbeat takes with all of them
owned (wall time: the machine may be busy).

No assertions: these are figures for the README.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from server.config import Settings
from server.engine import registry
from server.runtime import Runtime
from server.runtime.clock import Clock
from server.store import Database, Store
from server.store.leases import Leases
from server.store.migrate import upgrade

TURNS = {"pace": "turns", "move_hours": 24}
BATCH = 50


def rss_bytes() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def db_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))


async def _runtime(url: str, **settings: object) -> Runtime:
    db = Database(url)
    await upgrade(db)
    rt = Runtime(Settings(database_url=url, open_expires_after_s=0, **settings), Store(db), Clock())  # type: ignore[arg-type]
    await rt.start()
    return rt


async def _stop(rt: Runtime) -> None:
    await rt.stop()
    await rt.store.db.close()


async def make(path: Path, matches: int) -> None:
    """``matches`` matches by turns, started and asleep, as a server leaves them: their
    seats taken (the last join starts each, owned by this process), each put to sleep with
    its deadline (what the rules say of its first state); then this process retires,
    handing its leases over as a server does on SIGTERM."""
    db = Database(f"sqlite:///{path}")
    await upgrade(db)
    store, leases, game = Store(db), Leases(db, "bench-maker", 3_600_000), registry.get("sneaky-supper")
    await leases.heartbeat()
    now = int(time.time() * 1000)
    try:
        for i in range(matches):
            match_id = f"turns{i:06d}"
            await store.create_match(id=match_id, game=game.id, options=dict(game.options(TURNS).model_dump(mode="json")),
                                     players=2, bot_names=[], seed=i, now=now, owner="bench-maker")
            for name in ("Ann", "Bob"):
                _, record = await store.join(match_id, name, secrets.token_hex(16), now, owner="bench-maker")
            deadline = game.deadline(game.setup(record.seat_names(), game.options(record.options), record.seed, now))
            await leases.sleep(match_id, deadline, 0)
        await leases.retire()
    finally:
        await db.close()


async def measure(path: Path, matches: int, loaded: int) -> None:
    """A fresh process takes every sleeping match over (without loading one): its memory
    before and after, the database's size; then ``loaded`` of them are loaded."""
    gc.collect()
    before = rss_bytes()
    rt = await _runtime(f"sqlite:///{path}", evict_after_s=3600, lease_s=0.3)
    try:
        started = time.monotonic()
        while len(rt.ownership.owned) < matches // 10:
            await asyncio.sleep(0.02)
        gc.collect()
        tenth, owned_then = rss_bytes(), len(rt.ownership.owned)
        while len(rt.ownership.owned) < matches:
            await asyncio.sleep(0.1)
        took_s = time.monotonic() - started
        gc.collect()
        asleep = rss_bytes() - before
        per_match = (rss_bytes() - tenth) / (matches - owned_then)
        beat = time.monotonic()
        await rt._heartbeat()
        beat_s = time.monotonic() - beat
        print(f"database: {db_bytes(path):,} bytes ({db_bytes(path) / matches:,.0f} per match), the SQLite file "
              "with its WAL")
        print(f"memory of a fresh process owning all {matches} while they sleep ({len(rt.live)} in memory; taken "
              f"over in {took_s:.0f} s): {asleep / 1e6:,.1f} MB of resident set above its start, the runtime's own "
              f"included; {per_match:,.0f} bytes per match (the growth from {owned_then} owned to {matches})")
        print(f"one lease heartbeat with all of them owned: {beat_s * 1000:.0f} ms (wall time; busy machine)")
        gc.collect()
        base = rss_bytes()
        ids = sorted(rt.ownership.asleep)[:loaded]
        for match_id in ids:
            await rt.get(match_id)
        gc.collect()
        held = rss_bytes() - base
        print(f"memory once {loaded} of them are loaded (watched): {held:,} bytes more ({held / loaded:,.0f} per "
              f"match; all {matches} would take {held / loaded * matches / 1e6:,.0f} MB)")
    finally:
        await _stop(rt)


async def _settled(rt: Runtime) -> None:
    while rt.services.tasks:
        await asyncio.sleep(0.01)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--loaded", type=int, default=1_000)
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)  # the second process
    args = parser.parse_args()
    loaded = min(args.loaded, args.matches)
    if args.measure:
        asyncio.run(measure(args.measure, args.matches, loaded))
        return
    with tempfile.TemporaryDirectory(dir="/dev/shm" if Path("/dev/shm").is_dir() else None) as tmp:  # no fsync wait
        path = Path(tmp) / "potluck.db"
        started = time.monotonic()
        asyncio.run(make(path, args.matches))
        print(f"{args.matches} matches by turns started and asleep in the store in {time.monotonic() - started:.0f} s")
        subprocess.run([sys.executable, "-m", "bench.turns_idle", "--measure", str(path),
                        "--matches", str(args.matches), "--loaded", str(loaded)], check=True)


if __name__ == "__main__":
    main()
