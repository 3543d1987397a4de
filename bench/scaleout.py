"""Scale-out benchmark: several ``potluck serve`` processes on one PostgreSQL and one Redis.

    python -m bench.scaleout [--processes 3] [--matches 12] [--lease 5]

It needs the PostgreSQL server of ``POTLUCK_TEST_POSTGRES`` (default
``postgresql://postgres@127.0.0.1:5432/test``; a database is made for each run and dropped)
and the Redis of ``POTLUCK_TEST_REDIS`` (default ``redis://127.0.0.1:6379/0``). Three runs,
each with ``--matches`` all-bot Nutty Noodles matches created round-robin through the
processes and one spectator socket per match on *every* process (so every process holds
every match in memory, as when friends reach a match through different replicas):

1. **before** — no leases (``POTLUCK_LEASE_S=0``): every process drives every match it
   holds. Printed: timeouts and bot moves made, and those refused as duplicates of another
   process's (the database's ``seq`` stops them reaching the log: that work was wasted).
2. **after** — leases (``--lease`` seconds): one owner per match. The same figures, the
   work each process left to the owners, and the matches each process owns.
3. **takeover** — the process owning the most matches is SIGKILLed mid-play: the seconds
   until every one of its unfinished matches has a live owner and has moved on, and the
   matches each survivor owns afterwards.

No timing assertions: these are figures for the README.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

from bench.load import Process, free_port

ADMIN_URL = os.environ.get("POTLUCK_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("POTLUCK_TEST_REDIS", "redis://127.0.0.1:6379/0")


async def admin(sql: str, url: str = ADMIN_URL) -> Any:
    import asyncpg

    conn = await asyncpg.connect(url, timeout=5)
    try:
        return await conn.fetch(sql)
    finally:
        await conn.close()


class Server:
    def __init__(self, database: str, lease: float, workdir: Path) -> None:
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        env = {"DATABASE_URL": database, "REDIS_URL": REDIS_URL, "POTLUCK_LEASE_S": str(lease),
               "POTLUCK_STANDIN_AFTER_S": "0"}
        workdir.mkdir(parents=True, exist_ok=True)
        self.process = Process([sys.executable, "-m", "server.cli", "serve", "--port", str(port), "--no-access-log"],
                               f"{self.url}/healthz", env, workdir)
        self.id = httpx.get(f"{self.url}/healthz", timeout=10).json()["process"]

    def metrics(self) -> dict[str, float]:
        """Counters and gauges summed over their labels, and per label as ``name{…}``."""
        out: dict[str, float] = {}
        for line in httpx.get(f"{self.url}/metrics", timeout=10).text.splitlines():
            if line and not line.startswith("#"):
                key, value = line.rsplit(" ", 1)
                out[key] = float(value)
                name = key.split("{")[0]
                if name != key:
                    out[name] = out.get(name, 0.0) + float(value)
        return out

    def kill(self) -> None:
        self.process.proc.kill()
        self.process.proc.wait()


async def spectate(url: str, match_id: str, done: asyncio.Event) -> None:
    """A spectator socket: keeps the match in that process's memory until it ends."""
    async with websockets.connect(f"{url.replace('http', 'ws', 1)}/ws/matches/{match_id}", max_size=None) as ws:
        async for raw in ws:
            if '"status": "finished"' in raw or '"status":"finished"' in raw:
                done.set()
                return


async def owners(database: str, ids: list[str]) -> dict[str, str | None]:
    rows = await admin(f"SELECT match_id, owner FROM match_owners WHERE match_id IN "
                       f"({', '.join(repr(i) for i in ids)})", database)
    return {i: None for i in ids} | {r["match_id"]: r["owner"] for r in rows}


def seqs(server: Server, ids: list[str]) -> dict[str, tuple[int, str]]:
    out = {}
    for match_id in ids:
        v = httpx.get(f"{server.url}/api/matches/{match_id}/view", timeout=10).json()
        out[match_id] = (v["seq"], v["status"])
    return out


async def play(servers: list[Server], matches: int) -> tuple[list[str], list[asyncio.Event], list[asyncio.Task]]:
    ids = []
    async with httpx.AsyncClient(timeout=30) as client:
        for i in range(matches):
            r = await client.post(f"{servers[i % len(servers)].url}/api/matches",
                                  json={"game": "nutty-noodles", "players": 4, "bots": 4})
            ids.append(r.json()["id"])
    ends = [asyncio.Event() for _ in ids]
    tasks = [asyncio.create_task(spectate(s.url, m, e)) for m, e in zip(ids, ends) for s in servers]
    return ids, ends, tasks


def work(figures: list[dict[str, float]]) -> dict[str, float]:
    def total(key: str) -> float:
        return sum(f.get(key, 0.0) for f in figures)

    return {
        "timeouts": total('potluck_actions_applied_total{source="timeout"}'),
        "bot moves": total('potluck_actions_applied_total{source="bot"}'),
        "duplicates refused": total("potluck_duplicate_work_refused_total"),
        "seq races lost": total("potluck_seq_conflicts_total"),
        "work left to the owner": total("potluck_duplicate_work_avoided_total"),
    }


async def run_to_the_end(servers: list[Server], matches: int, database: str) -> tuple[list[int], float]:
    """Play the matches to the end; returns the matches each process drove (a second in)."""
    started = time.monotonic()
    ids, ends, tasks = await play(servers, matches)
    await asyncio.sleep(1)
    by_owner = await owners(database, ids)
    owned = [sum(o == s.id for o in by_owner.values()) for s in servers]
    await asyncio.wait_for(asyncio.gather(*(e.wait() for e in ends)), 600)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return owned, time.monotonic() - started


def duplicates(database: str, lease: float, args: argparse.Namespace, tmp: Path, label: str) -> None:
    servers = [Server(database, lease, tmp / f"{label}{i}") for i in range(args.processes)]
    try:
        owned, seconds = asyncio.run(run_to_the_end(servers, args.matches, database))
        figures = [s.metrics() for s in servers]
        print(f"{label:>6}: {args.matches} all-bot matches on {args.processes} processes in {seconds:.0f} s; "
              + ", ".join(f"{k} {v:.0f}" for k, v in work(figures).items())
              + (f"; matches driven per process {owned}" if lease else ""))
    finally:
        for s in servers:
            s.process.stop()


async def takeover(database: str, args: argparse.Namespace, tmp: Path) -> None:
    servers = [Server(database, args.lease, tmp / f"take{i}") for i in range(args.processes)]
    try:
        ids, ends, tasks = await play(servers, args.matches)
        await asyncio.sleep(3)  # under way
        by_owner = await owners(database, ids)
        victim = max(servers, key=lambda s: sum(o == s.id for o in by_owner.values()))
        orphans = [m for m, o in by_owner.items() if o == victim.id]
        survivors = [s for s in servers if s is not victim]
        before = seqs(survivors[0], orphans)
        victim.kill()
        killed = time.monotonic()
        live = {s.id for s in survivors}
        while True:
            now = seqs(survivors[0], orphans)
            owned = await owners(database, orphans)
            if all(now[m][1] == "finished" or (owned[m] in live and now[m][0] > before[m][0]) for m in orphans):
                break
            await asyncio.sleep(0.05)
        took = time.monotonic() - killed
        after = await owners(database, ids)
        held = [sum(o == s.id for o in after.values()) for s in survivors]
        print(f"takeover: SIGKILL of the owner of {len(orphans)} of {len(ids)} running matches "
              f"(lease {args.lease:g} s): all driven again and moved on after {took:.1f} s; "
              f"matches per survivor {held}")
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in ends)), 600)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        for s in servers:
            s.process.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--matches", type=int, default=12)
    parser.add_argument("--lease", type=float, default=5.0)
    args = parser.parse_args()
    name = f"potluck_bench_{secrets.token_hex(4)}"
    asyncio.run(admin(f'CREATE DATABASE "{name}"'))
    database = f"{ADMIN_URL.rsplit('/', 1)[0]}/{name}"
    try:
        with tempfile.TemporaryDirectory() as tmp:
            duplicates(database, 0, args, Path(tmp), "before")
            duplicates(database, args.lease, args, Path(tmp), "after")
            asyncio.run(takeover(database, args, Path(tmp)))
    finally:
        asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


if __name__ == "__main__":
    main()
