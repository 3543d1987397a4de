"""Two server processes on one PostgreSQL database serve the same match: each action goes
to either process at random, and the log never forks (no gap, no duplicate seq, one
history that replays to the views both processes serve). With Redis, sockets on either
process hear every move."""

from __future__ import annotations

import asyncio
import os
import random

import httpx
import pytest

from .clients import Api, WsPlayer, check_log_replays, play_over_rest, play_over_websocket, public_part
from .processes import ServerProcess

REDIS_URL = os.environ.get("POTLUCK_TEST_REDIS", "redis://127.0.0.1:6379/0")


def _counter(metrics: str, name: str) -> float:
    return sum(float(line.split()[-1]) for line in metrics.splitlines() if line.startswith(name))


def _redis_reason() -> str | None:
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
        return None
    except Exception as exc:
        return f"Redis unreachable at {REDIS_URL}: {exc}"


async def test_two_processes_accept_actions_for_one_match_without_forking(postgres_url: str, tmp_path) -> None:
    servers = [ServerProcess(postgres_url, tmp_path / name) for name in ("a", "b")]
    rng = random.Random(5)
    try:
        async with httpx.AsyncClient(base_url=servers[0].url, timeout=10) as ca, \
                httpx.AsyncClient(base_url=servers[1].url, timeout=10) as cb:
            apis = [Api(ca), Api(cb)]
            match_id = await apis[0].create(players=3)
            tokens = [(await apis[i % 2].join(match_id, f"P{i}"))[1] for i in range(3)]
            plays = (play_over_rest(apis, match_id, t, rng) for t in tokens)
            played = await asyncio.wait_for(asyncio.gather(*plays), 150)
            acks = [seq for seqs in played for seq in seqs]
            finals = [await api.view(match_id) for api in apis]
            assert finals[0]["seq"] == finals[1]["seq"] and finals[0]["view"] == finals[1]["view"]
            assert len(acks) == len(set(acks)), "two actions were acknowledged with one seq"
            log = await check_log_replays(apis[1], match_id, finals[0]["view"])
            assert (await apis[0].log(match_id)).json() == log
            for api in apis:  # both processes really wrote to the log
                metrics = (await api.client.get("/metrics")).text
                assert _counter(metrics, 'potluck_actions_applied_total{source="player"}') > 0
    finally:
        for server in servers:
            server.kill()


async def test_sockets_on_two_processes_converge_through_redis(postgres_url: str, tmp_path) -> None:
    reason = _redis_reason()
    if reason:
        pytest.skip(reason)
    servers = [ServerProcess(postgres_url, tmp_path / name, REDIS_URL=REDIS_URL) for name in ("a", "b")]
    rng = random.Random(6)
    try:
        async with httpx.AsyncClient(base_url=servers[0].url, timeout=10) as client:
            api = Api(client)
            match_id, tokens = await api.seated(players=4)
        players = [await WsPlayer.connect(servers[i % 2].ws_url, match_id, t) for i, t in enumerate(tokens)]
        watchers = [await WsPlayer.connect(s.ws_url, match_id) for s in servers]

        await asyncio.wait_for(asyncio.gather(*(play_over_websocket(p, rng) for p in players)), 150)
        final_seq = max(p.state["seq"] for p in players)
        for p in players + watchers:
            await p.wait_seq(final_seq)
        views = [public_part(p.state["view"]) for p in players + watchers]
        assert all(v == views[0] for v in views), "sockets on the two processes disagree"
        for p in players + watchers:
            await p.close()
    finally:
        for server in servers:
            server.kill()
