"""Presence during play: every socket of a match (players and spectators) is sent the
public summary (a ``match`` message) when a seat's first socket opens or its last one
closes, and when a stand-in bot takes an absent player's seat over or hands it back.
Changes made together go out as one message; a spectator coming and going changes
nothing anyone is told. With several processes (and Redis), a player connected to another
process is present too: shown connected, and never stood in for."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

import httpx
import pytest


from .clients import Api, WsPlayer
from .conftest import serve
from .test_runtime import _started, _until, runtime, sink
from .test_two_processes import REDIS_URL, _redis_reason


def _seat(summary: dict[str, Any], seat: int) -> dict[str, Any]:
    return next((s for s in summary.get("seats", []) if s["seat"] == seat), {})


def shows(p: WsPlayer, seat: int, connected: bool, standin: bool) -> Any:
    """The last summary ``p`` was sent shows ``seat`` so."""
    s = _seat(p.summary, seat)
    return s.get("connected") == connected and s.get("standin") == standin


async def test_a_socket_hears_when_another_seat_leaves_comes_back_or_is_stood_in_for(database_url: str) -> None:
    async with serve(database_url, standin_after_s=3.0) as served, \
            httpx.AsyncClient(base_url=served.url, timeout=20) as client:
        api = Api(client)
        match_id = await api.create(players=2)
        (ann_seat, ann), (bob_seat, bob) = [await api.join(match_id, name) for name in ("Ann", "Bob")]
        ann_ws = await WsPlayer.connect(served.ws_url, match_id, ann)
        bob_ws = await WsPlayer.connect(served.ws_url, match_id, bob)
        watcher = await WsPlayer.connect(served.ws_url, match_id)

        for p in (bob_ws, watcher):
            await p.wait(lambda: shows(p, ann_seat, True, False) and shows(p, bob_seat, True, False))
        assert bob_ws.state["status"] == "running"

        await ann_ws.close()  # Ann's only socket: she is away…
        for p in (bob_ws, watcher):
            await p.wait(lambda: shows(p, ann_seat, False, False))
        for p in (bob_ws, watcher):  # …and after the grace period a bot plays for her
            await p.wait(lambda: shows(p, ann_seat, False, True), timeout=30)
        assert shows(bob_ws, bob_seat, True, False)

        ann_ws = await WsPlayer.connect(served.ws_url, match_id, ann)  # back: the bot hands over
        for p in (bob_ws, watcher, ann_ws):
            await p.wait(lambda: shows(p, ann_seat, True, False))
        for p in (ann_ws, bob_ws, watcher):
            await p.close()


async def test_presence_changes_made_together_are_one_message_and_spectators_change_nothing(
        database_url: str) -> None:
    async with runtime(database_url) as rt:
        live, _ = await _started(rt)
        seen: list[dict[str, Any]] = []
        live.subscribe(sink(None, seen), [])

        def summaries() -> list[dict[str, Any]]:
            return [m["match"] for m in seen if m["type"] == "match"]

        await _until(lambda: len(summaries()) == 1)  # the summary every socket gets at once
        # Ann's seat connects, Bob's connects and drops, Ann opens a second socket: one push
        ann, bob = sink(0, []), sink(1, [])
        live.subscribe(ann, [])
        live.subscribe(bob, [])
        live.unsubscribe(bob)
        live.subscribe(sink(0, []), [])
        await _until(lambda: len(summaries()) == 2)
        assert not live.presence.pending, "nothing else is due"
        assert [(s["seat"], s["connected"]) for s in summaries()[1]["seats"]] == [(0, True), (1, False)]
        # one of Ann's two sockets closes: she is still here; a spectator comes and goes
        live.unsubscribe(ann)
        spectator = sink(None, [])
        live.subscribe(spectator, [])
        live.unsubscribe(spectator)
        assert not live.presence.pending, "no change of presence, nothing to push"


ANN, BOB = 0, 1


@asynccontextmanager
async def ann_and_bob_on_two_servers(database_url: str, **settings: Any) -> AsyncIterator[tuple[Any, ...]]:
    """Two servers on one database and one Redis; a started match of Ann and Bob (joined
    through the first). Yields the servers' ws URLs, the match id and both seats' tokens."""
    reason = _redis_reason()
    if reason:
        pytest.skip(reason)
    async with serve(database_url, redis_url=REDIS_URL, **settings) as a, \
            serve(database_url, redis_url=REDIS_URL, **settings) as b, \
            httpx.AsyncClient(base_url=a.url, timeout=20) as client:
        api = Api(client)
        match_id = await api.create(players=2)
        (ann_seat, ann), (bob_seat, bob) = [await api.join(match_id, name) for name in ("Ann", "Bob")]
        assert (ann_seat, bob_seat) == (ANN, BOB)  # seats are taken in order
        yield a.ws_url, b.ws_url, match_id, ann, bob


async def test_a_player_connected_to_another_process_is_present_there_too(database_url: str) -> None:
    async with ann_and_bob_on_two_servers(database_url, standin_after_s=3.0, presence_every_s=0.2) as (
            a, b, match_id, ann, bob):  # fifteen heartbeats a grace period: one late under load changes nothing
        ann_ws = await WsPlayer.connect(a, match_id, ann)
        bob_ws = await WsPlayer.connect(b, match_id, bob)
        for p in (ann_ws, bob_ws):  # each process shows the other's player connected…
            await p.wait(lambda: shows(p, ANN, True, False) and shows(p, BOB, True, False))
        await asyncio.sleep(6.0)  # …and, for two grace periods with nobody acting, no stand-in comes
        for p in (ann_ws, bob_ws):
            summaries = [m["match"] for m in p.other if m["type"] == "match"]
            assert not any(s["standin"] for m in summaries for s in m["seats"]), "a present player was stood in for"
            assert shows(p, ANN, True, False) and shows(p, BOB, True, False)

        await bob_ws.close()  # Bob leaves process b: process a hears it, and a stand-in plays for him in time
        await ann_ws.wait(lambda: shows(ann_ws, BOB, False, False))
        await ann_ws.wait(lambda: _seat(ann_ws.summary, BOB).get("standin"), timeout=30)
        await ann_ws.close()


async def test_a_process_that_loads_a_match_asks_the_others_who_is_connected(database_url: str) -> None:
    async with ann_and_bob_on_two_servers(database_url, standin_after_s=0.0, presence_every_s=600.0) as (
            a, b, match_id, ann, bob):  # no heartbeat comes in time: only the question can tell b
        ann_ws = await WsPlayer.connect(a, match_id, ann)
        await ann_ws.wait(lambda: shows(ann_ws, ANN, True, False))
        bob_ws = await WsPlayer.connect(b, match_id, bob)  # b loads the match now, after Ann said hello
        await bob_ws.wait(lambda: shows(bob_ws, ANN, True, False) and shows(bob_ws, BOB, True, False))
        for p in (ann_ws, bob_ws):
            await p.close()


async def test_a_player_playing_over_rest_through_another_process_is_never_stood_in_for(database_url: str) -> None:
    async with ann_and_bob_on_two_servers(database_url, standin_after_s=3.0, presence_every_s=0.2) as (
            a, b, match_id, ann, bob):
        bob_ws = await WsPlayer.connect(b, match_id, bob)
        async with httpx.AsyncClient(base_url=a.replace("ws", "http", 1), timeout=20) as client:
            api = Api(client)
            for _ in range(24):  # Ann only reads her view over REST, through process a, for two grace periods
                assert (await api.view(match_id, ann))["view"]["you"] == ANN
                await asyncio.sleep(0.25)
        summaries = [m["match"] for m in bob_ws.other if m["type"] == "match"]
        assert summaries and not any(_seat(m, ANN)["standin"] for m in summaries), "Ann was stood in for"
        await bob_ws.close()


async def test_a_process_that_missed_the_stand_ins_message_learns_of_them_at_the_next_heartbeat(
        database_url: str) -> None:
    reason = _redis_reason()
    if reason:
        pytest.skip(reason)
    settings = {"redis_url": REDIS_URL, "standin_after_s": 3.0, "presence_every_s": 0.2}
    async with serve(database_url, **settings) as a, serve(database_url, **settings) as b, \
            httpx.AsyncClient(base_url=a.url, timeout=20) as client:
        api = Api(client)
        match_id = await api.create(players=2)
        (_, ann), _ = [await api.join(match_id, name) for name in ("Ann", "Bob")]  # a owns it
        ann_ws = await WsPlayer.connect(a.ws_url, match_id, ann)  # only Bob is away
        watcher = await WsPlayer.connect(b.ws_url, match_id)  # b holds it now
        await watcher.wait(lambda: watcher.states)
        live_b = b.runtime.live[match_id]
        heard, missed = live_b.heard_standins, []

        def miss_the_first(seats: Any) -> None:  # Redis lost that one message
            if not missed:
                missed.append(list(seats))
                return
            heard(seats)

        live_b.heard_standins = miss_the_first  # type: ignore[method-assign]
        await ann_ws.wait(lambda: shows(ann_ws, BOB, False, True), timeout=30)  # Bob never came: stood in for
        await _until(lambda: missed == [[BOB]], timeout=30)
        await watcher.wait(lambda: shows(watcher, BOB, False, True), timeout=30)  # before: only once b reloaded it
        for p in (ann_ws, watcher):
            await p.close()
