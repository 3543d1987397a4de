"""The repository's promises, on each database: concurrent joins take distinct seats and
start the match once; a seq can be written only once; writes in one group commit do not
sink each other."""

from __future__ import annotations

import asyncio
from typing import AsyncIterator

import pytest

from server.store import ChatRecord, Database, MatchFull, MatchNotOpen, SeqTaken, Store
from server.store.migrate import current_revision, head_revision, upgrade


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    db = Database(database_url)
    await upgrade(db)
    yield Store(db)
    await db.close()


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
    assert all(isinstance(e, (MatchFull, MatchNotOpen)) for e in refused) and len(refused) == 8
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
    await store.save_snapshot(match.id, 6, "code-b", b"state-6", 60)
    assert await store.latest_snapshot(match.id, "code-a") == (3, b"state-3", 30)
    assert await store.latest_snapshot(match.id, "code-c") is None
    for i in range(3):
        await store.add_chat(match.id, ChatRecord(0, "Bot 0", f"line {i}", i))
    assert [c.text for c in await store.chat(match.id, limit=2)] == ["line 1", "line 2"]
