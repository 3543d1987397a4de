"""Whole Nutty Noodles matches: over REST by random clients, over WebSockets by several
concurrent clients. Both must reach a result, and the published log must replay to it."""

from __future__ import annotations

import asyncio
import random

from .clients import Api, WsPlayer, check_log_replays, play_over_rest, play_over_websocket, public_part
from .conftest import Served


async def test_random_rest_clients_finish_a_match(api: Api) -> None:
    match_id, tokens = await api.seated(players=3)
    rng = random.Random(3)
    await asyncio.wait_for(asyncio.gather(*(play_over_rest(api, match_id, t, rng, sharp=0.5) for t in tokens)), 120)
    final = await api.view(match_id)
    assert final["result"]["winners"] and final["legal"] == [] and final["deadline"] is None
    await check_log_replays(api, match_id, final["view"])


async def test_concurrent_websocket_clients_finish_a_match(api: Api, served: Served) -> None:
    match_id, tokens = await api.seated(players=4)
    players = [await WsPlayer.connect(served.ws_url, match_id, t) for t in tokens]
    watcher = await WsPlayer.connect(served.ws_url, match_id)
    rng = random.Random(4)

    await asyncio.wait_for(asyncio.gather(*(play_over_websocket(p, rng) for p in players)), 120)
    final = await api.view(match_id)
    await watcher.wait_seq(final["seq"])
    for p in players + [watcher]:
        await p.wait_seq(final["seq"])
        assert p.state["seq"] == final["seq"]
        assert public_part(p.state["view"]) == public_part(final["view"])
    assert all(s["legal"] == [] for s in watcher.states), "a spectator was offered actions"
    acked = [r["seq"] for p in players for r in p.replies.values() if r["type"] == "ack"]
    assert len(acked) == len(set(acked)), "two actions acknowledged with the same seq"
    log = await check_log_replays(api, match_id, final["view"])
    assert set(acked) <= {a["seq"] for a in log["actions"]}, "an acknowledged action is not in the log"
    for p in players + [watcher]:
        await p.close()
