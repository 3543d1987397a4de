"""A match by turns whose owning server process is killed (SIGKILL) moves on at its
deadline on another process, with nobody connected: the match was asleep (out of the
owner's memory, its deadline in its lease); the other process takes the dead owner's lease
without loading the match, loads it at its deadline and lets time make the move."""

from __future__ import annotations

import asyncio
import time

import httpx
from sqlalchemy import select

from server.engine import HOUR_MS
from server.store import Database, Store
from server.store.leases import owners

from .processes import ServerProcess

ENV = {"POTLUCK_LEASE_S": "1", "POTLUCK_TEST_CLOCK": "1", "POTLUCK_EVICT_AFTER_S": "0"}


async def test_a_killed_owners_turns_match_moves_on_at_its_deadline_elsewhere(database_url: str, tmp_path) -> None:
    a = ServerProcess(database_url, tmp_path / "a", **ENV)
    b = ServerProcess(database_url, tmp_path / "b", **ENV)
    db = Database(database_url)
    try:
        async with httpx.AsyncClient(base_url=a.url, timeout=20) as client:
            made = await client.post("/api/matches", json={"game": "sneaky-supper", "players": 2, "bots": 0,
                                                           "options": {"pace": "turns", "move_hours": 12}})
            assert made.status_code == 201, made.text
            match_id = made.json()["id"]
            for name in ("Ann", "Bob"):
                assert (await client.post(f"/api/matches/{match_id}/join", json={"name": name})).status_code == 200
        store = Store(db)
        assert await store.actions(match_id) == []
        await _asleep_within(db, match_id, 180)  # a's sweep (every 10 s) put it to sleep
        a.kill()  # the owner: it started the match
        async with httpx.AsyncClient(base_url=b.url, timeout=20) as client:
            moved = await client.post("/api/test/clock", json={"ms": 12 * HOUR_MS})
            assert moved.status_code == 200
        log = await _log_within(store, match_id, 180)
        assert (log[0].seat, log[0].action) == (None, {"type": "timeout"})
    finally:
        a.kill()
        b.stop()
        await db.close()


async def _asleep_within(db: Database, match_id: str, seconds: float) -> None:
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        wake = await db.read(lambda conn: conn.execute(
            select(owners.c.wake_at).where(owners.c.match_id == match_id)).scalar())
        if wake is not None:
            return
        await asyncio.sleep(0.2)
    raise AssertionError(f"match {match_id} never went to sleep")


async def _log_within(store: Store, match_id: str, seconds: float) -> list:
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        log = await store.actions(match_id)
        if log:
            return log
        await asyncio.sleep(0.2)
    raise AssertionError(f"nobody moved match {match_id} on after its owner died")
