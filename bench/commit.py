"""What a durable SQLite write costs the server: CPU and wait per write.

    .venv/bin/python -m bench.commit [--rates 200,850,2000] [--tables 500] [--seconds 8]

``--tables`` tables each write a row (one action's size) at random times, together
``--rates`` writes a second, through ``Database.write`` (the group-commit writer thread,
``synchronous=FULL``), for ``--seconds``; it prints the process's CPU per write (the
writer thread, the event loop and these tables' own sleeping included) and each write's
wait, p50 and p99. Then the floor: a bare ``BEGIN``/insert/``COMMIT`` on the driver alone,
with ``synchronous=FULL`` and ``NORMAL``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import tempfile
import time
from pathlib import Path

from server.store.database import Database

ROW = '{"type":"throw","bowl":3}'
CREATE = "CREATE TABLE log (match_id TEXT, seq INTEGER, action TEXT, PRIMARY KEY (match_id, seq))"
INSERT = "INSERT INTO log VALUES (?, ?, ?)"


async def open_loop(rate: float, tables: int, seconds: float, folder: Path) -> str:
    db = Database(f"sqlite:///{folder}/open-{rate}.db")
    await db.write(lambda conn: conn.connection.driver_connection.execute(CREATE))
    waits: list[float] = []
    stop = time.perf_counter() + seconds

    async def table(name: str) -> None:
        seq = 0
        while True:
            await asyncio.sleep(random.expovariate(rate / tables))
            if time.perf_counter() >= stop:
                return
            seq += 1
            began = time.perf_counter()
            await db.write(lambda conn, seq=seq: conn.connection.driver_connection.execute(INSERT, (name, seq, ROW)))
            waits.append(time.perf_counter() - began)

    cpu = time.process_time()
    await asyncio.gather(*(table(f"m{i}") for i in range(tables)))
    cpu = time.process_time() - cpu
    await db.close()
    waits.sort()
    return (f"{rate:>6,.0f} writes/s asked, {len(waits) / seconds:>6,.0f} done: {cpu / len(waits) * 1e3:.3f} ms CPU "
            f"a write, wait p50 {waits[len(waits) // 2] * 1e3:.2f} ms, p99 {waits[int(len(waits) * 0.99)] * 1e3:.2f} ms")


def bare(folder: Path, synchronous: str, writes: int = 3000) -> str:
    conn = sqlite3.connect(folder / f"bare-{synchronous}.db", isolation_level=None)
    for pragma in ("journal_mode=WAL", f"synchronous={synchronous}"):
        conn.execute(f"PRAGMA {pragma}")
    conn.execute(CREATE)
    cpu = time.process_time()
    for seq in range(writes):
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(INSERT, ("m", seq, ROW))
        conn.execute("COMMIT")
    cpu = time.process_time() - cpu
    conn.close()
    return f"bare BEGIN/insert/COMMIT, synchronous={synchronous}: {cpu / writes * 1e3:.3f} ms CPU a write"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rates", default="200,850,2000")
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=8.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for rate in (float(r) for r in args.rates.split(",")):
            print(asyncio.run(open_loop(rate, args.tables, args.seconds, folder)))
        for synchronous in ("FULL", "NORMAL"):
            print(bare(folder, synchronous))


if __name__ == "__main__":
    main()
