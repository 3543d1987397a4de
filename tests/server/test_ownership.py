"""One owner per match, in one test process (several runtimes on one database stand for
several server processes):

- of processes claiming one match at once, exactly one wins; a dead owner's matches are
  orphans that the live processes share fairly;
- only the owner arms a match's timer and runs its bots; the others count the work they
  left to it, and a player's action reaching them when a timeout is due lets the owner log
  it (or logs it itself once the owner is past its grace: it is dead);
- a dead owner's match is taken over by a live process, which applies the due timeout;
- stand-ins are the owner's, and every process shows the same ones;
- the match list reads the store and loads no match;
- migration 0005 adds the lease tables to a database made by 0004, and takes them away.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from server.runtime import Runtime
from server.runtime.clock import Clock
from server.store import Database, Store
from server.store.leases import Leases
from server.store.migrate import upgrade

from .test_runtime import HandClock, _started, _until, runtime
from .test_store import _downgrade, empty_database_url  # noqa: F401 (a fixture)
from .test_two_processes import REDIS_URL, _redis_reason


async def _matches(store: Store, n: int) -> list[str]:
    ids = [f"m{i}-{time.monotonic_ns()}" for i in range(n)]
    for match_id in ids:
        await store.create_match(id=match_id, game="nutty-noodles", options={}, players=2,
                                 bot_names=["Bot 1", "Bot 2"], seed=1, now=1)
    return ids


async def test_of_processes_claiming_a_match_at_once_exactly_one_wins(database_url: str) -> None:
    db = Database(database_url)
    await upgrade(db)
    try:
        ids = await _matches(Store(db), 20)
        leases = [Leases(db, f"p{i}", 60_000) for i in range(3)]
        for lease in leases:
            await lease.heartbeat()
        claims = await asyncio.gather(*(lease.claim([match_id]) for match_id in ids for lease in leases))
        for match_id in ids:
            winners = [c.match_id for (c,) in claims if c.match_id == match_id and c.mine]
            assert len(winners) == 1, f"{match_id} has {len(winners)} owners"
        owners = await _owners(db, ids)
        again = await leases[0].claim(ids)  # nobody takes a live process's match
        assert [c.mine for c in again] == [owner == "p0" for owner in owners]
        assert await _owners(db, ids) == owners
    finally:
        await db.close()


async def _owners(db: Database, ids: list[str]) -> list[str | None]:
    from sqlalchemy import select

    from server.store.leases import owners

    rows = dict(await db.read(lambda conn: conn.execute(select(owners.c.match_id, owners.c.owner)).all()))
    return [rows.get(match_id) for match_id in ids]


async def test_a_dead_owners_matches_are_orphans_the_live_processes_share(database_url: str) -> None:
    db = Database(database_url)
    await upgrade(db)
    try:
        ids = await _matches(Store(db), 6)
        dead = Leases(db, "dead", 2000)  # stops beating: dead 2 s later
        await dead.heartbeat()
        assert all(c.mine for c in await dead.claim(ids))
        q, r = Leases(db, "q", 60_000), Leases(db, "r", 60_000)
        for lease in (q, r):
            await lease.heartbeat()
        assert (await q.share(50)).orphans == [], "the owner is alive"

        async def orphans() -> list[str]:
            return (await q.share(50)).orphans

        deadline = time.monotonic() + 30
        while not (found := await orphans()):
            assert time.monotonic() < deadline, "the dead process's matches never became orphans"
            await asyncio.sleep(0.05)
        assert len(found) == 3, "q's fair share: 6 matches over 2 live processes"
        taken = await q.claim(found)
        assert all(c.mine and c.taken_from == "dead" for c in taken)
        rest = (await r.share(50)).orphans
        assert sorted(rest + found) == sorted(ids)
        assert all(c.mine for c in await r.claim(rest)) and (await q.share(50)).orphans == []
    finally:
        await db.close()


async def test_only_the_owner_arms_the_timer_and_runs_the_bots(database_url: str) -> None:
    clock = HandClock()
    async with runtime(database_url, clock) as a, runtime(database_url, clock) as b:
        record = await a.create("nutty-noodles", 3, {}, 2)  # seats 1, 2: bots
        *_, live_a = await a.join(record.id, "Ann")
        live_b = await b.get(record.id)
        assert live_a.drives and not live_b.drives
        assert live_a.timer.armed and not live_b.timer.armed
        if live_a.state.thrower == 0:  # Ann throws: then both bots have a bowl to serve
            await live_b.act(0, {"type": "roll"})
            await live_a.sync()
        await _until(lambda: bool(live_a.bots.timers()))
        assert not live_b.bots.timers() and not live_b.bots.thinking()
        assert b.metrics.avoided.labels("timeout")._value.get() >= 1
        assert b.metrics.avoided.labels("bot")._value.get() >= 2
        assert a.metrics.avoided.labels("bot")._value.get() == 0
        assert [_gauge(rt.metrics.owned) for rt in (a, b)] == [1, 0]


def _gauge(gauge: Any) -> float:
    return gauge.collect()[0].samples[0].value


def _kill(rt: Runtime) -> None:
    """Stand for SIGKILL inside one test process: the heartbeat stops, every timer dies,
    nothing is handed over."""
    assert rt._beat is not None
    rt._beat.cancel()
    rt.ownership._valid_until = 0.0
    for live in rt.live.values():
        live.close()


async def test_a_players_action_through_another_process_leaves_the_due_timeout_to_the_owner(
        database_url: str) -> None:
    clock = HandClock()
    async with runtime(database_url, clock, owner_grace_s=30.0) as a, runtime(database_url, clock) as b:
        live_a, thrower = await _started(a, roll_timeout_ms=8000)
        live_b = await b.get(live_a.id)
        clock.t += 8000  # the throw timer is due; the owner's timer fires a moment later
        acting = asyncio.create_task(live_b.act(1 - thrower, {"type": "chat"}))
        await asyncio.sleep(0.2)
        assert not acting.done(), "b logged the owner's timeout"
        await live_a._on_deadline()
        with pytest.raises(Exception):
            await acting  # the timeout started the race: a chat is no action
        log = await a.store.actions(live_a.id)
        assert [(e.seq, e.seat) for e in log] == [(1, None)]
        assert a.metrics.applied.counts["timeout"] == 1
        assert b.metrics.applied.counts["timeout"] == 0
        assert a.metrics.refused.labels("timeout")._value.get() == 0


async def test_a_dead_owners_due_timeout_is_logged_by_whoever_acts_after_the_grace(database_url: str) -> None:
    clock = HandClock()
    async with runtime(database_url, clock, lease_s=600.0) as a, \
            runtime(database_url, clock, lease_s=600.0, owner_grace_s=0.3) as b:
        live_a, thrower = await _started(a, roll_timeout_ms=8000)
        live_b = await b.get(live_a.id)
        _kill(a)
        clock.t += 8000
        started = time.monotonic()
        with pytest.raises(Exception, match="already on the table"):
            await live_b.act(thrower, {"type": "roll"})  # the timeout threw the dice for them
        assert time.monotonic() - started >= 0.3, "b did not give the owner its grace"
        assert [(e.seq, e.seat) for e in await b.store.actions(live_a.id)] == [(1, None)]
        assert b.metrics.applied.counts["timeout"] == 1


async def test_a_dead_owners_match_is_taken_over_and_moved_on(database_url: str) -> None:
    # a's clock never moves (its timers never fire); b's runs: its timers fire once it owns the match
    async with runtime(database_url, HandClock(), lease_s=0.6) as a, runtime(database_url, Clock(), lease_s=0.6) as b:
        live_a, _ = await _started(a, roll_timeout_ms=1000)
        live_b = await b.get(live_a.id)
        assert not live_b.drives and not live_b.timer.armed
        _kill(a)
        await _until(lambda: live_b.drives, timeout=30)
        await _until(lambda: live_b.seq >= 1, timeout=30)  # the throw timer, armed by b
        log = await b.store.actions(live_a.id)
        assert log[0].seat is None and log[0].action == {"type": "timeout"}
        assert b.metrics.taken_over._value.get() == 1
        assert b.metrics.applied.counts["timeout"] >= 1


async def test_the_match_list_reads_the_store_and_loads_no_match(database_url: str) -> None:
    async with runtime(database_url) as a, runtime(database_url) as b:
        for bots in (0, 2):
            await a.create("nutty-noodles", 2, {}, bots)
        records, total = await b.list(None, None, 20, 0)
        assert total == 2 and {r.status for r in records} == {"open", "running"}
        assert b.live == {}, "listing loaded a match"


async def test_stand_ins_are_the_owners_and_every_process_shows_them(database_url: str) -> None:
    reason = _redis_reason()
    if reason:
        pytest.skip(reason)
    settings: dict[str, Any] = {"redis_url": REDIS_URL, "standin_after_s": 0.5}
    async with runtime(database_url, Clock(), **settings) as a, runtime(database_url, Clock(), **settings) as b:
        # b hears a's stand-ins over Redis: it must be listening before a decides them (on a
        # loaded machine its subscription can come later than half a second)
        await _until(lambda: not a.services.fanout.down and not b.services.fanout.down, timeout=30)
        live_a, _ = await _started(a, roll_timeout_ms=120_000, round_timeout_ms=600_000)
        live_b = await b.get(live_a.id)

        def standins(live: Any) -> list[bool]:
            return [s["standin"] for s in live.summary()["seats"]]

        # nobody has come: after half a second, stand-ins play both seats
        await _until(lambda: standins(live_a) == [True, True], timeout=30)
        await _until(lambda: standins(live_b) == [True, True], timeout=30)
        assert not live_b.drives and not live_b.bots.timers() and not live_b.bots.thinking()
        async with runtime(database_url, Clock(), **settings) as c:  # loads it later: reads them from the lease
            live_c = await c.get(live_a.id)
            assert not live_c.drives
            await _until(lambda: standins(live_c) == [True, True], timeout=30)


async def test_a_released_match_is_no_orphan_but_whoever_opens_it_owns_it(database_url: str) -> None:
    db = Database(database_url)
    await upgrade(db)
    try:
        (match_id,) = await _matches(Store(db), 1)
        p, q = Leases(db, "p", 60_000), Leases(db, "q", 60_000)
        for lease in (p, q):
            await lease.heartbeat()
        assert (await p.claim([match_id]))[0].mine
        await p.release(match_id)  # nothing to drive: left until somebody opens it
        assert (await q.share(50)).orphans == [] and match_id not in await p.heartbeat()
        (found,) = await q.claim([match_id])  # q loads it
        assert found.mine and found.taken_from is None
    finally:
        await db.close()


async def test_an_owner_whose_lease_lapsed_does_nothing_then_rearms_at_its_next_heartbeat(database_url: str) -> None:
    clock = HandClock()
    async with runtime(database_url, clock) as rt:
        live, _ = await _started(rt, roll_timeout_ms=8000)
        rt.ownership._valid_until = 0.0  # no heartbeat for a whole lease (the database was slow)
        clock.t += 8000
        await live._on_deadline()  # the throw timer fires: the lease may be another's by now
        assert live.seq == 0 and not live.drives
        rt.ownership._valid_until = time.monotonic() + 60  # the heartbeat under way began before it ran out…
        await rt._heartbeat()  # …and says the match is still ours: everything is armed again
        await _until(lambda: live.seq == 1)
        assert [(e.seat, e.action) for e in await rt.store.actions(live.id)] == [(None, {"type": "timeout"})]


async def test_a_running_match_that_never_had_an_owner_is_an_orphan_a_lease_after_its_start(
        database_url: str) -> None:
    """Matches the runtime starts are owned from the start; one made otherwise (before
    leases existed, or written by hand) is left alone for a lease, then resumed."""
    db = Database(database_url)
    await upgrade(db)
    try:
        store, q = Store(db), Leases(db, "q", 3000)
        await q.heartbeat()
        match_id = f"by-hand-{time.monotonic_ns()}"
        await store.create_match(id=match_id, game="nutty-noodles", options={}, players=1, bot_names=["Bot 1"],
                                 seed=1, now=int(time.time() * 1000))
        assert (await q.share(50)).orphans == []
        deadline = time.monotonic() + 30
        while (await q.share(50)).orphans != [match_id]:
            assert time.monotonic() < deadline, "never resumed"
            await asyncio.sleep(0.05)
    finally:
        await db.close()


async def test_migration_0005_adds_the_lease_tables_and_takes_them_away(empty_database_url: str) -> None:  # noqa: F811
    from sqlalchemy import inspect

    def tables(conn: Any) -> set[str]:
        return set(inspect(conn).get_table_names())

    db = Database(empty_database_url)
    try:
        assert await upgrade(db, "0004") == "0004"
        assert not {"processes", "match_owners"} & await db.read(tables)
        assert await upgrade(db, "0005") == "0005"
        assert {"processes", "match_owners"} <= await db.read(tables)
        await db.exclusive(_downgrade("0004"))
        assert not {"processes", "match_owners"} & await db.read(tables)
    finally:
        await db.close()
