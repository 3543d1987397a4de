"""Whole Nutty Noodles matches: over REST by random clients, over WebSockets by several
concurrent clients. Both must reach a result, and the published log must replay to it."""

from __future__ import annotations

import asyncio
import random

from server.engine import registry
from server.engine.playout import Entry, replay

from .clients import Api, WsPlayer, answer, public_part
from .conftest import Served


def _choose(rng: random.Random, legal: list[dict], view: dict, sharp: float) -> dict:
    """A random legal action; with probability ``sharp`` the right bowl when there is one."""
    right = answer(view)
    if right in legal and rng.random() < sharp:
        return right
    return rng.choice(legal)


async def _check_log_replays(api: Api, match_id: str, final_view: dict) -> dict:
    r = await api.log(match_id)
    assert r.status_code == 200, r.text
    log = r.json()
    seqs = [a["seq"] for a in log["actions"]]
    assert seqs == list(range(1, len(seqs) + 1)), "the log has a gap or a duplicate"
    game = registry.get(log["game"])
    state = replay(game, log["players"], log["options"], log["seed"],
                   [Entry(a["seat"], a["action"], a["at"]) for a in log["actions"]], log["started_at"])
    assert game.view(state, None) == final_view
    assert game.result(state).to_json() == log["result"]
    return log


async def test_random_rest_clients_finish_a_match(api: Api) -> None:
    match_id, tokens = await api.seated(players=3)
    rng = random.Random(3)

    async def player(token: str) -> None:
        while True:
            v = await api.view(match_id, token)
            if v["status"] == "finished":
                return
            if not v["legal"]:
                await asyncio.sleep(0.005)
                continue
            r = await api.act(match_id, token, _choose(rng, v["legal"], v["view"], sharp=0.5))
            assert r.status_code in (200, 409, 422), r.text  # 422: the race moved on meanwhile

    await asyncio.wait_for(asyncio.gather(*(player(t) for t in tokens)), 120)
    final = await api.view(match_id)
    assert final["result"]["winners"] and final["legal"] == [] and final["deadline"] is None
    await _check_log_replays(api, match_id, final["view"])


async def test_concurrent_websocket_clients_finish_a_match(api: Api, served: Served) -> None:
    match_id, tokens = await api.seated(players=4)
    players = [await WsPlayer.connect(served.ws_url, match_id, t) for t in tokens]
    watcher = await WsPlayer.connect(served.ws_url, match_id)
    rng = random.Random(4)

    async def play(p: WsPlayer) -> None:
        seen = -1
        while True:
            state = await p.wait(lambda: p.states and p.state["seq"] > seen and p.state)
            seen = state["seq"]
            if state["status"] == "finished":
                return
            if state["legal"]:
                await asyncio.sleep(rng.random() * 0.02)
                reply = await p.act(_choose(rng, state["legal"], state["view"], sharp=0.6))
                assert reply["type"] == "ack" or reply["code"] in ("illegal", "stale"), reply

    await asyncio.wait_for(asyncio.gather(*(play(p) for p in players)), 120)
    final = await api.view(match_id)
    await watcher.wait_seq(final["seq"])
    for p in players + [watcher]:
        await p.wait_seq(final["seq"])
        assert p.state["seq"] == final["seq"]
        assert public_part(p.state["view"]) == public_part(final["view"])
    assert all(s["legal"] == [] for s in watcher.states), "a spectator was offered actions"
    acked = [r["seq"] for p in players for r in p.replies.values() if r["type"] == "ack"]
    assert len(acked) == len(set(acked)), "two actions acknowledged with the same seq"
    log = await _check_log_replays(api, match_id, final["view"])
    assert set(acked) <= {a["seq"] for a in log["actions"]}, "an acknowledged action is not in the log"
    for p in players + [watcher]:
        await p.close()
