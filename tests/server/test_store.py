"""The repository's promises, on each database: concurrent joins take distinct seats and
start the match once; a seq can be written only once; writes in one group commit do not
sink each other; a finished match gets one rematch, whose joins give players their old
seats; and the migrations carry an existing database forward (and back)."""

from __future__ import annotations

import asyncio
import secrets
from typing import AsyncIterator

import pytest
from alembic import command
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection

from server.problems import MatchFull, MatchOver, NotFinished, NotYourSeat, SeatsHeld
from server.store import ChatRecord, Database, SeqTaken, Store
from server.store.migrate import alembic_config, current_revision, head_revision, upgrade

from .conftest import _admin


async def _match(store: Store, id: str, players: int = 4, bots: int = 0):
    return await store.create_match(id=id, game="nutty-noodles", options={}, players=players,
                                    bot_names=[f"Bot {i}" for i in range(bots)], seed=2**62 + 1, now=1)


async def test_migrations_reach_head_and_are_idempotent(store: Store) -> None:
    assert await current_revision(store.db) == head_revision()
    assert await upgrade(store.db) == head_revision()


async def test_concurrent_joins_take_distinct_seats_and_start_the_match_once(store: Store) -> None:
    match = await _match(store, "join-race", players=5, bots=1)
    outcomes = await asyncio.gather(*(store.join(match.id, f"P{i}", f"h{i}", 10 + i) for i in range(12)),
                                    return_exceptions=True)
    seated = [o for o in outcomes if not isinstance(o, BaseException)]
    refused = [o for o in outcomes if isinstance(o, BaseException)]
    assert sorted(seat for seat, _ in seated) == [0, 1, 2, 3]
    assert all(isinstance(e, MatchFull) for e in refused) and len(refused) == 8
    final = await store.get_match(match.id)
    assert final.status == "running" and final.started_at is not None
    assert [s.seat for s in final.seats] == [0, 1, 2, 3, 4] and final.seats[4].bot
    assert final.seed == 2**62 + 1


async def test_a_seq_is_written_once_even_by_concurrent_writers(store: Store) -> None:
    match = await _match(store, "seq-race", players=2, bots=2)
    outcomes = await asyncio.gather(*(store.append_action(match.id, 1, seat % 2, {"type": "roll", "by": seat}, 5)
                                      for seat in range(6)), return_exceptions=True)
    assert sum(o is None for o in outcomes) == 1
    assert all(isinstance(o, SeqTaken) for o in outcomes if o is not None)
    await store.append_action(match.id, 2, None, {"type": "timeout"}, 6, result={"winners": [1]})
    log = await store.actions(match.id)
    assert [e.seq for e in log] == [1, 2]
    assert (await store.actions(match.id, after=1))[0].action == {"type": "timeout"}
    finished = await store.get_match(match.id)
    assert (finished.status, finished.finished_at, finished.result) == ("finished", 6, {"winners": [1]})


async def test_listing_filters_and_pages(store: Store) -> None:
    for i in range(5):
        await store.create_match(id=f"list-{i}", game="paging-test", options={}, players=2, bot_names=[],
                                 seed=i, now=100 + i)
    page, total = await store.list_matches(game="paging-test", limit=2, offset=1)
    assert total == 5 and [m.id for m in page] == ["list-3", "list-2"]
    running, _ = await store.list_matches(game="paging-test", status="running")
    assert running == []


async def test_snapshots_and_chat_round_trip(store: Store) -> None:
    match = await _match(store, "snap", players=2, bots=2)
    await store.save_snapshot(match.id, 3, "code-a", b"state-3", 30)
    await store.save_snapshot(match.id, 3, "code-a", b"again", 31)  # ignored
    assert await store.latest_snapshot(match.id, "code-a") == (3, b"state-3", 30)
    await store.save_snapshot(match.id, 6, "code-b", b"state-6", 60)  # only the newest is kept
    await store.save_snapshot(match.id, 5, "code-b", b"late", 61)  # an older one arriving late: ignored
    assert await store.latest_snapshot(match.id, "code-a") is None
    assert await store.latest_snapshot(match.id, "code-b") == (6, b"state-6", 60)
    assert await store.latest_snapshot(match.id, "code-c") is None
    for i in range(3):
        await store.add_chat(match.id, ChatRecord(0, "Bot 0", f"line {i}", i))
    assert [c.text for c in await store.chat(match.id, limit=2)] == ["line 1", "line 2"]


async def test_snapshots_saved_at_once_keep_only_the_newest(store: Store) -> None:
    """Two saves of one match racing (the runtime spawns them): whichever commits last, only
    the newer snapshot is kept (on PostgreSQL, each once missed the other's row and both stayed)."""
    match = await _match(store, "snap-race", players=2, bots=2)
    for seq in range(2, 42, 2):
        await asyncio.gather(store.save_snapshot(match.id, seq, "code", b"older", seq),
                             store.save_snapshot(match.id, seq + 1, "code", b"newer", seq + 1))
        kept = await store.db.read(lambda conn: conn.execute(
            text("SELECT seq FROM snapshots WHERE match_id = :m"), {"m": match.id}).scalars().all())
        assert kept == [seq + 1], f"after saving {seq} and {seq + 1} at once"


async def test_a_finished_match_gets_one_rematch_and_its_players_their_old_seats(store: Store) -> None:
    match = await _match(store, "before", players=4, bots=1)
    for i, name in enumerate(["Ann", "Bob", "Cy"]):
        await store.join(match.id, name, f"h{i}", 2)

    def rematch(id: str):
        return store.create_rematch(match.id, id=id, game="nutty-noodles", options={"mode": "advanced"},
                                    players=4, bot_names=["Bot 0"], seed=5, now=9)

    with pytest.raises(NotFinished):
        await rematch("too-early")
    await store.append_action(match.id, 1, 0, {"type": "roll"}, 5, result={"winners": [0]})
    outcomes = await asyncio.gather(*(rematch(f"again-{i}") for i in range(5)))
    assert sum(created for _, created in outcomes) == 1
    again = {record.id for record, _ in outcomes}
    assert len(again) == 1 and (await store.get_match(match.id)).rematch_id in again
    new = outcomes[0][0]
    assert (new.status, new.players, new.bots, new.options, new.rematch_id) == ("open", 4, 1, {"mode": "advanced"}, None)
    assert [(s.seat, s.name, s.bot) for s in new.seats] == [(3, "Bot 0", True)]
    # each previous player proves who they are with their old token's hash and gets their
    # seat back; the seats are held for them (here 100 ms after the rematch was made, at 9):
    # a newcomer, or a stranger using an old name, waits; a token of no previous seat is refused
    hold = {"hold_ms": 100}
    assert (await store.join(new.id, "Cy", "n2", 10, previous_hash="h2", **hold))[0] == 2
    with pytest.raises(SeatsHeld) as held:
        await store.join(new.id, "Dee", "n3", 11, **hold)
    assert held.value.until == 109
    with pytest.raises(SeatsHeld):
        await store.join(new.id, "Bob", "n3", 11, **hold)
    with pytest.raises(NotYourSeat):
        await store.join(new.id, "Eve", "n4", 11, previous_hash="n2", **hold)
    assert (await store.join(new.id, "Robert", "n1", 12, previous_hash="h1", **hold))[0] == 1
    assert (await store.join(new.id, "Dee", "n3", 109, **hold))[0] == 0  # the hold is over: any free seat
    with pytest.raises(MatchFull, match="has started"):
        await store.join(new.id, "Ann", "n0", 113, previous_hash="h0", **hold)


@pytest.fixture
async def empty_database_url(request: pytest.FixtureRequest, database_url: str) -> AsyncIterator[str]:
    """A database of each kind with no tables at all (PostgreSQL: one made for the test)."""
    if database_url.startswith("sqlite"):
        yield database_url
        return
    name = f"potluck_test_empty_{secrets.token_hex(6)}"
    await _admin(f'CREATE DATABASE "{name}"')
    try:
        yield database_url.rsplit("/", 1)[0] + f"/{name}"
    finally:
        await _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _downgrade(revision: str):
    def run(conn: Connection) -> None:
        config = alembic_config()
        config.attributes["connection"] = conn
        command.downgrade(config, revision)
    return run


def _columns(conn: Connection) -> set[str]:
    return {c["name"] for c in inspect(conn).get_columns("matches")}


async def test_migration_0002_links_rematches_in_a_database_made_by_0001(empty_database_url: str) -> None:
    db = Database(empty_database_url)
    try:
        assert await upgrade(db, "0001") == "0001"
        await db.write(lambda conn: conn.execute(text(
            "INSERT INTO matches (id, game, options, players, bots, humans_joined, seed, status, created_at, "
            "started_at, finished_at) VALUES ('old', 'nutty-noodles', '{}', 2, 1, 1, 7, 'finished', 1, 1, 2)")))
        assert await upgrade(db) == head_revision()
        store = Store(db)
        assert (await store.get_match("old")).rematch_id is None
        new, created = await store.create_rematch("old", id="new", game="nutty-noodles", options={}, players=2,
                                                  bot_names=["Bot 1"], seed=8, now=3)
        assert created and (await store.get_match("old")).rematch_id == "new"

        await db.exclusive(_downgrade("0001"))
        assert await current_revision(db) == "0001"
        assert "rematch_id" not in await db.read(_columns)
        count = await db.read(lambda conn: conn.execute(text(
            "SELECT (SELECT count(*) FROM matches) + (SELECT count(*) FROM seats)")).scalar())
        assert count == 3, "the downgrade kept every match and seat"
        assert await upgrade(db) == head_revision() and (await store.get_match("old")).rematch_id is None
    finally:
        await db.close()


async def test_migration_0004_keeps_only_the_newest_snapshot_of_each_match(empty_database_url: str) -> None:
    db = Database(empty_database_url)
    try:
        assert await upgrade(db, "0003") == "0003"
        for match_id in ("a", "b"):  # by hand: the store of today needs the columns of later revisions
            await db.write(lambda conn: conn.execute(text(
                "INSERT INTO matches (id, game, options, players, bots, humans_joined, seed, status, created_at) "
                "VALUES (:m, 'nutty-noodles', '{}', 2, 2, 0, 1, 'running', 1)"), {"m": match_id}))
        rows = [("a", 100), ("a", 200), ("a", 300), ("b", 100)]
        for match_id, seq in rows:
            await db.write(lambda conn: conn.execute(text(
                "INSERT INTO snapshots (match_id, seq, code, state, at) VALUES (:m, :s, 'c', :b, 1)"),
                {"m": match_id, "s": seq, "b": b"x"}))
        assert await upgrade(db, "0004") == "0004"
        kept = await db.read(lambda conn: conn.execute(text(
            "SELECT match_id, seq FROM snapshots ORDER BY match_id")).all())
        assert [tuple(r) for r in kept] == [("a", 300), ("b", 100)]
    finally:
        await db.close()
