"""The store's limited attempts (sign-ins per name and per address), on each database: a
burst, then one per interval, with the wait it tells; the keys after a refused one are
untouched; racing writers cannot both have a key's last attempt; spent rows go away."""

from __future__ import annotations

import asyncio

from sqlalchemy import text

from server.store import Store
from server.store.attempts import Limit, digest

THREE_A_MINUTE = Limit(per_minute=3, burst=3)  # an attempt every 20 s, three at once


async def _rows(store: Store) -> dict[str, int]:
    rows = await store.db.read(lambda conn: conn.execute(text("SELECT key, tat FROM attempts")).all())
    return dict(rows)


async def test_a_burst_then_one_per_interval_with_the_wait(store: Store) -> None:
    take = store.attempts.take
    assert [await take([("k", THREE_A_MINUTE)], 1_000) for _ in range(3)] == [None, None, None]
    assert await take([("k", THREE_A_MINUTE)], 1_000) == 20  # the next one is due in 20 s
    assert await take([("k", THREE_A_MINUTE)], 11_000) == 10
    assert await take([("k", THREE_A_MINUTE)], 21_000) is None  # one came back
    assert await take([("k", THREE_A_MINUTE)], 21_000) == 20
    assert await take([("other", THREE_A_MINUTE)], 21_000) is None  # keys are apart


async def test_keys_are_taken_in_turn_up_to_the_first_refused(store: Store) -> None:
    one = Limit(per_minute=1, burst=1)
    assert await store.attempts.take([("a", one)], 0) is None
    assert await store.attempts.take([("b", one), ("a", one), ("c", one)], 0) == 60
    rows = await _rows(store)
    assert digest("b") in rows and digest("c") not in rows  # b was spent, c untouched
    assert await store.attempts.take([("c", one)], 0) is None
    assert await store.attempts.take([("c", Limit(per_minute=0, burst=1))], 0) is None  # 0: unlimited


async def test_racing_writers_share_one_budget(store: Store) -> None:
    results = await asyncio.gather(*(store.attempts.take([("race", THREE_A_MINUTE)], 5_000) for _ in range(12)))
    assert sum(r is None for r in results) == 3


async def test_rows_whose_time_has_passed_are_deleted(store: Store) -> None:
    await store.attempts.take([("old", THREE_A_MINUTE)], 0)  # due again at 20 s
    assert digest("old") in await _rows(store)
    await store.attempts.take([("new", THREE_A_MINUTE)], 60_000)
    assert set(await _rows(store)) == {digest("new")}
