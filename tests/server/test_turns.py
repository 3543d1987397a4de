"""Matches played by turns, in the runtime (several runtimes on one database stand for
several server processes; the game clock is moved by hand, ``Clock.advance``):

- a move not made in its hours is made by time like any timeout; absence never calls a
  stand-in, but missing ``standin_after_misses`` moves in a row does;
- the seats whose move it has become are told once (``YourMove``);
- an idle match by turns sleeps (leaves memory, its owner keeps the lease and the deadline)
  and wakes at its deadline, with nobody connected, and moves on;
- a dead owner's sleeping match is taken over without loading it, and the new owner wakes
  it at its deadline.
"""

from __future__ import annotations

import asyncio
import time

from sqlalchemy import select

from server.engine import HOUR_MS
from server.runtime import Runtime
from server.runtime.clock import Clock
from server.store.leases import owners

from .test_ownership import _kill
from .test_runtime import _until, runtime

TURNS = {"pace": "turns", "move_hours": 12}


async def _turns_match(rt: Runtime, game: str = "sneaky-supper") -> str:
    record = await rt.create(game, 2, TURNS, 0)
    for i in range(2):
        await rt.join(record.id, f"P{i}")
    return record.id


async def test_a_missed_move_is_made_by_time_and_missing_twice_in_a_row_calls_a_stand_in(database_url: str) -> None:
    clock = Clock()
    async with runtime(database_url, clock, standin_after_misses=2, standin_after_s=0.01) as rt:
        live = rt.live[await _turns_match(rt)]
        first = live.state.active
        assert live.by_turns and live.deadline is not None and live.deadline - clock.now_ms() > 11 * HOUR_MS
        assert live.waiting == {first}
        await _until(lambda: (live.id, first) in rt.services.your_move.told)
        assert not live.players.controllers(clock.now_ms()), "absence called a stand-in by turns"
        clock.advance(12 * HOUR_MS)
        await _until(lambda: live.seq >= 1)
        log = await rt.store.actions(live.id)
        assert (log[0].seat, log[0].action) == (None, {"type": "timeout"})
        assert live.players.misses[first] == 1 and live.waiting == {1 - first}
        told = rt.services.your_move.told
        assert (live.id, first) not in told and (live.id, 1 - first) in told
        for n in range(2, 5):  # each misses again
            clock.advance(12 * HOUR_MS)
            await _until(lambda: live.seq >= n)
        assert set(live.players.controllers(clock.now_ms())) == {0, 1}  # two misses in a row each
        live.touch(first)  # the player is back: their seat is theirs again
        assert set(live.players.standins) == {1 - first} and live.players.misses[first] == 0


async def test_an_idle_match_by_turns_sleeps_and_wakes_at_its_deadline_with_nobody_connected(
        database_url: str) -> None:
    clock = Clock()
    async with runtime(database_url, clock, lease_s=1.5, evict_after_s=0) as rt:
        match_id = await _turns_match(rt, "snollygoster")
        deadline = rt.live[match_id].deadline
        assert rt.sweep(time.monotonic() + 1) == [match_id]
        assert match_id not in rt.live and match_id in rt.ownership.owned
        await _until_stored(rt, match_id, deadline)
        await _beats(rt, 2)
        assert match_id not in rt.live, "woke before its deadline"
        clock.advance(12 * HOUR_MS)
        await _until(lambda: match_id in rt.live and rt.live[match_id].seq >= 1, timeout=30)
        log = await rt.store.actions(match_id)
        assert (log[0].seat, log[0].action) == (None, {"type": "timeout"})


async def test_a_dead_owners_sleeping_match_is_taken_over_unloaded_and_moved_on_at_its_deadline(
        database_url: str) -> None:
    async with runtime(database_url, Clock(), lease_s=1.5, evict_after_s=0) as a:
        match_id = await _turns_match(a)
        deadline = a.live[match_id].deadline
        assert a.sweep(time.monotonic() + 1) == [match_id]
        await _until_stored(a, match_id, deadline)
        clock_b = Clock()
        async with runtime(database_url, clock_b, lease_s=1.5) as b:
            _kill(a)
            await _until(lambda: match_id in b.ownership.owned, timeout=30)
            assert match_id not in b.live, "the sleeping match was loaded before its deadline"
            clock_b.advance(12 * HOUR_MS)
            await _until(lambda: match_id in b.live and b.live[match_id].seq >= 1, timeout=30)
            assert (await b.store.actions(match_id))[0].action == {"type": "timeout"}


async def _until_stored(rt: Runtime, match_id: str, deadline: int | None) -> None:
    async def stored() -> tuple[int | None, str | None]:
        row = await rt.store.db.read(lambda conn: conn.execute(
            select(owners.c.wake_at, owners.c.owner).where(owners.c.match_id == match_id)).one())
        return row.wake_at, row.owner

    until = time.monotonic() + 30
    while time.monotonic() < until:
        if await stored() == (deadline, rt.process_id):
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"the lease never said {match_id} wakes at {deadline}")


async def _beats(rt: Runtime, n: int) -> None:
    for _ in range(n):
        await rt._heartbeat()
