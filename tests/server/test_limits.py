"""Limits, so one client cannot take the server down: WebSockets per client address and in
all (below the process's file limit, so plain requests and ``/healthz`` are still
answered), matches created per address (429 with ``Retry-After``), matches of bots alone
running at once, matches whose seats never filled, and snapshots kept.

Addresses: the loopback network is 127.0.0.0/8, so clients bound to 127.0.0.2, .3… are
other addresses to the server, on this machine."""

from __future__ import annotations

import asyncio
import json
import resource
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import text
from websockets.exceptions import InvalidMessage, InvalidStatus

from server.runtime import AtCapacity
from server.runtime.limits import CreationRate, SocketCount, socket_budget
from server.runtime.rate import Repeats

from .clients import Api, answer
from .conftest import serve
from .processes import ServerProcess
from .test_runtime import HandClock, _until, rt_view, runtime, sink

SLOW = {"roll_timeout_ms": 120_000, "round_timeout_ms": 600_000}


async def _open(ws_url: str, match_id: str, address: str) -> Any:
    """A WebSocket from ``address``, or the error that refused or dropped it."""
    try:
        return await websockets.connect(f"{ws_url}/ws/matches/{match_id}", local_addr=(address, 0),
                                        open_timeout=20)
    except (InvalidStatus, InvalidMessage, OSError, TimeoutError) as refused:
        return refused


def _status(opened: list[Any]) -> list[int]:
    """101 for each socket opened, the HTTP status of each refusal, 0 for each dropped."""
    return [o.response.status_code if isinstance(o, InvalidStatus) else 0 if isinstance(o, Exception) else 101
            for o in opened]


async def _answer(request: Any) -> int:
    try:
        return (await request).status_code
    except httpx.HTTPError:
        return 0


async def test_sockets_are_capped_per_address_and_in_all_and_health_still_answers(tmp_path) -> None:
    async with serve(f"sqlite:///{tmp_path / 'db.sqlite'}", max_sockets_per_address=5, max_sockets=12) as served, \
            httpx.AsyncClient(base_url=served.url, timeout=20) as client:
        match_id = await Api(client).create(players=2, **SLOW)
        ann = [await _open(served.ws_url, match_id, "127.0.0.1") for _ in range(7)]
        assert _status(ann) == [101] * 5 + [429, 429]
        assert ann[5].response.headers["retry-after"].isdigit()
        assert b"Too many connections from your address" in ann[5].response.body
        bob = [await _open(served.ws_url, match_id, "127.0.0.2") for _ in range(5)]
        cy = [await _open(served.ws_url, match_id, "127.0.0.3") for _ in range(3)]
        assert _status(bob) == [101] * 5 and _status(cy) == [101, 101, 503]
        assert (await client.get("/healthz")).status_code == 200
        assert (await client.get(f"/api/matches/{match_id}")).status_code == 200

        await ann[0].close()  # a closed socket frees its place, for its address and in all
        await _until(lambda: served.runtime.limits.sockets.count == 11)
        assert _status([await _open(served.ws_url, match_id, "127.0.0.3")]) == [101]
        for ws in ann[1:5] + bob + cy[:2]:
            await ws.close()


@pytest.mark.skipif(resource.getrlimit(resource.RLIMIT_NOFILE)[0] < 1024, reason="the test needs ~600 descriptors")
def test_a_socket_flood_at_the_file_limit_leaves_room_for_http(tmp_path) -> None:
    """A server process with 400 descriptors, and 450 sockets from 30 addresses: those past
    the budget are refused, and health checks, creating and joining still work."""

    def few_files() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (400, 400))

    server = ServerProcess(f"sqlite:///{tmp_path / 'db.sqlite'}", tmp_path, preexec_fn=few_files,
                           POTLUCK_MAX_SOCKETS_PER_ADDRESS="1000")
    try:
        match_id = httpx.post(f"{server.url}/api/matches", json={"game": "nutty-noodles", "players": 2},
                              timeout=20).json()["id"]

        async def flood() -> list[int]:
            opened: list[Any] = []
            for wave in range(9):  # 50 at a time: the refused ones are closed as they come
                opened += await asyncio.gather(*(_open(server.ws_url, match_id, f"127.0.1.{i % 30 + 1}")
                                                 for i in range(wave * 50, wave * 50 + 50)))
            async with httpx.AsyncClient(base_url=server.url, timeout=5) as client:
                health = await _answer(client.get("/healthz"))
                created = await _answer(client.post("/api/matches", json={"game": "nutty-noodles", "players": 2}))
                joined = await _answer(client.post(f"/api/matches/{match_id}/join", json={"name": "Ann"}))
            for o in opened:
                if not isinstance(o, Exception):
                    await o.close()
            return [health, created, joined, *_status(opened)]

        health, created, joined, *statuses = asyncio.run(flood())
        assert (health, created, joined) == (200, 201, 200)
        assert statuses.count(101) == socket_budget(0, 400) and set(statuses) == {101, 503}
    finally:
        server.stop()


async def test_creating_matches_is_limited_per_address(tmp_path) -> None:
    async with serve(f"sqlite:///{tmp_path / 'db.sqlite'}", create_burst=3, create_per_minute=2) as served:
        body = {"game": "nutty-noodles", "players": 2}
        async with httpx.AsyncClient(base_url=served.url) as ann:
            answers = [await ann.post("/api/matches", json=body) for _ in range(4)]
            assert [r.status_code for r in answers] == [201, 201, 201, 429]
            refused = answers[3]
            assert refused.json()["code"] == "rate_limited" and 1 <= int(refused.headers["retry-after"]) <= 30
        other = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
        async with httpx.AsyncClient(base_url=served.url, transport=other) as bob:
            assert (await bob.post("/api/matches", json=body)).status_code == 201
        assert (await httpx.AsyncClient(base_url=served.url).get("/api/matches")).json()["total"] == 4


def test_a_creation_bucket_refills_and_forgets_full_buckets() -> None:
    t = [0.0]
    rate = CreationRate(per_minute=60, burst=2, clock=lambda: t[0])
    assert rate.take("a") is None and rate.take("a") is None
    assert rate.take("a").retry_after == 1
    t[0] += 1.0
    assert rate.take("a") is None and rate.take("a") is not None
    t[0] += 100
    rate._forget(t[0])
    assert rate.buckets == {}


def test_socket_count_and_budget() -> None:
    count = SocketCount(per_address=2, total=3)
    assert [count.admit("a"), count.admit("a")] == [None, None]
    assert count.admit("a").per_address and count.admit("b") is None
    assert not count.admit("c").per_address
    count.release("a")
    assert count.admit("c") is None and count.count == 3
    assert socket_budget(50) == 50 and socket_budget(0, 400) == 144 and socket_budget(0, 100_000) == 90_000


async def test_matches_of_bots_alone_are_capped(database_url: str) -> None:
    async with runtime(database_url, max_bot_matches=2) as rt:
        for _ in range(2):
            await rt.create("nutty-noodles", 2, SLOW, 2)
        with pytest.raises(AtCapacity) as refused:
            await rt.create("nutty-noodles", 2, SLOW, 2)
        assert refused.value.retry_after > 0
        await rt.create("nutty-noodles", 2, SLOW, 1)  # with a human seat: not capped
        ended = next(live for live in rt.live.values() if live.running)
        ended.record = ended.record.__class__(**{**ended.record.__dict__, "status": "finished"})
        await rt.create("nutty-noodles", 2, SLOW, 2)  # one ended: room for another


async def test_a_match_whose_humans_left_it_to_stand_ins_counts_as_bots_alone(database_url: str) -> None:
    clock = HandClock()
    async with runtime(database_url, clock, max_bot_matches=1, standin_after_s=60) as rt:
        record = await rt.create("nutty-noodles", 2, SLOW, 1)
        await rt.join(record.id, "Ann")  # and never comes
        await rt.create("nutty-noodles", 2, SLOW, 0)  # humans only: not a bots' table
        clock.t += 60_000  # Ann's seat is a stand-in's now
        with pytest.raises(AtCapacity):
            await rt.create("nutty-noodles", 2, SLOW, 2)


async def test_over_http_the_bot_cap_is_503_with_retry_after(tmp_path) -> None:
    async with serve(f"sqlite:///{tmp_path / 'db.sqlite'}", max_bot_matches=1) as served, \
            httpx.AsyncClient(base_url=served.url) as client:
        body = {"game": "nutty-noodles", "players": 2, "bots": 2, "options": SLOW}
        assert (await client.post("/api/matches", json=body)).status_code == 201
        r = await client.post("/api/matches", json=body)
        assert (r.status_code, r.json()["code"]) == (503, "at_capacity") and int(r.headers["retry-after"]) > 0


async def test_matches_whose_seats_never_filled_end(database_url: str) -> None:
    clock = HandClock()
    async with runtime(database_url, clock, open_expires_after_s=3600) as rt:
        lonely = await rt.create("nutty-noodles", 2, SLOW, 0)
        _, _, half = await rt.join(lonely.id, "Ann")
        got: list[dict] = []
        half.subscribe(sink(None, got), [])
        clock.t += 1800_000
        fresh = await rt.create("nutty-noodles", 2, SLOW, 0)
        full = await rt.create("nutty-noodles", 2, SLOW, 0)
        for name in ("Ann", "Bob"):
            await rt.join(full.id, name)
        mine = {lonely.id, fresh.id, full.id}  # (a shared database may hold others' matches)
        assert mine.isdisjoint(await rt.expire_unfilled())
        clock.t += 1800_001
        assert mine & set(await rt.expire_unfilled()) == {lonely.id}
        stored = await rt.store.get_match(lonely.id)
        assert stored.status == "finished" and "within 1 hour" in stored.result["reason"]
        await _until(lambda: half.status == "finished")
        await _until(lambda: any(m.get("match", {}).get("status") == "finished" for m in got))
        assert (await rt.store.get_match(fresh.id)).status == "open"
        assert (await rt.store.get_match(full.id)).status == "running"
        with pytest.raises(Exception, match="over"):
            await rt.join(lonely.id, "Bob")


async def test_only_the_newest_snapshot_is_kept(database_url: str) -> None:
    clock = HandClock()
    async with runtime(database_url, clock, snapshot_every=2) as rt:
        record = await rt.create("nutty-noodles", 3, {"tie_window_ms": 0}, 0)
        for i in range(3):
            _, _, live = await rt.join(record.id, f"P{i}")
        while live.seq < 9:
            view = rt_view(live)
            await live.act(view["thrower"] if view["phase"] == "roll" else live.seq % 3,
                           {"type": "roll"} if view["phase"] == "roll" else answer(view))
            clock.t += 500
        await _until(lambda: not rt.services.tasks)
        rows = await rt.store.db.read(lambda conn: conn.execute(
            text("SELECT seq FROM snapshots WHERE match_id = :m"), {"m": live.id}).all())
        assert [r[0] for r in rows] == [8]


async def test_finding_13_spectators_of_a_match_are_capped_with_a_clear_refusal(tmp_path) -> None:
    """Issue 23, finding 13: every spectator costs every change a send, so a match takes
    ``max_spectators``; the next one is closed with 4429 and the reason, the seated players
    still connect, and a place freed is taken again."""
    async with serve(f"sqlite:///{tmp_path / 'db.sqlite'}", max_spectators=2) as served, \
            httpx.AsyncClient(base_url=served.url, timeout=20) as client:
        api = Api(client)
        match_id, tokens = await api.seated(players=2)
        url = f"{served.ws_url}/ws/matches/{match_id}"
        watching = [await websockets.connect(url) for _ in range(2)]
        for ws in watching:
            assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "state"
        async with websockets.connect(url) as refused:
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(refused.recv(), 10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        assert "2 spectators" in closed.value.rcvd.reason
        async with websockets.connect(f"{url}?token={tokens[0]}") as seated:  # a player is never refused
            assert json.loads(await asyncio.wait_for(seated.recv(), 10))["type"] == "state"
        await watching.pop().close()
        live = served.runtime.live[match_id]
        await _until(lambda: sum(s.seat is None for s in live.subscribers) == 1)
        async with websockets.connect(url) as again:
            assert json.loads(await asyncio.wait_for(again.recv(), 10))["type"] == "state"
        for ws in watching:
            await ws.close()


async def test_finding_12_messages_are_rated_per_seat_not_per_socket(tmp_path) -> None:
    """Issue 23, finding 12: the sockets of one seat share its rate (16 sockets buy no more
    messages than one); a spectator's socket has its own."""
    async with serve(f"sqlite:///{tmp_path / 'db.sqlite'}", rate_per_second=0.01, rate_burst=3) as served, \
            httpx.AsyncClient(base_url=served.url, timeout=20) as client:
        match_id, tokens = await Api(client).seated(players=2)
        url = f"{served.ws_url}/ws/matches/{match_id}"

        async def answers(ws: Any, n: int) -> list[str]:
            for i in range(n):
                await ws.send(json.dumps({"type": "ping", "id": i}))
            got: list[str] = []
            while len(got) < n:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if msg.get("id") is not None:
                    got.append(msg["type"] if msg["type"] == "pong" else msg["code"])
            return got

        async with websockets.connect(f"{url}?token={tokens[0]}") as one, \
                websockets.connect(f"{url}?token={tokens[0]}") as two, websockets.connect(url) as watching:
            assert await answers(one, 2) == ["pong", "pong"]
            assert await answers(two, 2) == ["pong", "rate_limited"], "the seat's second socket shares its rate"
            assert await answers(watching, 1) == ["pong"]


def test_finding_12_a_seat_repeating_one_move_with_nobody_else_moving_is_capped() -> None:
    """Issue 23, finding 12: an offer made and withdrawn again and again (by one seat, nobody
    else acting) may come ``max_repeats`` times; then it waits for another seat to move."""
    repeats = Repeats(3)
    for n in range(3):
        assert repeats.allowed(0, '{"type":"offer"}')
        repeats.played(0, '{"type":"offer"}')
        repeats.played(0, f'{{"type":"withdraw","offer":{n}}}')
    assert not repeats.allowed(0, '{"type":"offer"}')
    assert repeats.allowed(0, '{"type":"buy"}') and repeats.allowed(1, '{"type":"offer"}')
    repeats.played(1, '{"type":"pass"}')  # someone else moved
    assert repeats.allowed(0, '{"type":"offer"}')
    assert Repeats(0).allowed(0, "x"), "0: no cap"


async def test_finding_10_the_bot_cap_weighs_tables_by_size_and_level(database_url: str) -> None:
    """Issue 23, finding 10: a table of bots alone weighs half a match a seat, a hard bot's
    seat a whole one — four normal bots fill a cap of 2, as do two hard ones."""
    async with runtime(database_url, max_bot_matches=2) as rt:
        big = await rt.create("nutty-noodles", 4, SLOW, 4)
        with pytest.raises(AtCapacity, match="worth 2 matches"):
            await rt.create("nutty-noodles", 2, SLOW, 2)
        rt.live[big.id].close()
        rt.live.pop(big.id)
        await rt.create("nutty-noodles", 2, SLOW, ["hard", "hard"])
        with pytest.raises(AtCapacity):
            await rt.create("nutty-noodles", 2, SLOW, ["easy", "easy"])
