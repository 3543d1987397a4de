"""The legal actions as a delta: a socket opened with ``legal=delta`` is sent, in each
patch, a JSON Patch of the legal list it holds (``legal_ops``) instead of the whole list;
one that does not ask (every client written before) still gets ``legal`` whole; both end
up holding the same list. The first state is whole either way."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
import websockets

from .clients import Api, WsPlayer, play_over_websocket
from .conftest import Served


async def test_a_delta_socket_holds_the_list_a_whole_socket_is_sent(api: Api, served: Served) -> None:
    match_id, tokens = await api.seated(players=2)
    delta = await WsPlayer.connect(served.ws_url, match_id, tokens[0], legal="delta")
    whole = await WsPlayer.connect(served.ws_url, match_id, tokens[0])  # an old client: no legal=
    other = await WsPlayer.connect(served.ws_url, match_id, tokens[1], legal="delta")
    rng = random.Random(5)
    await asyncio.wait_for(asyncio.gather(play_over_websocket(delta, rng), play_over_websocket(other, rng)), 120)
    final = (await api.view(match_id, tokens[0]))["seq"]
    for p in (delta, whole):
        await p.wait_seq(final)
    assert delta.patches and not whole.gaps and not delta.gaps
    assert all("legal_ops" in m and "legal" not in m for m in delta.patches)
    assert all("legal" in m and "legal_ops" not in m for m in whole.patches)
    assert "legal" in delta.states[0], "the first state is whole"
    held = {s["seq"]: s["legal"] for s in whole.states}
    assert [(s["seq"], s["legal"]) for s in delta.states] == [(s["seq"], held[s["seq"]]) for s in delta.states]
    assert any(m["legal_ops"] == [] for m in delta.patches), "an unchanged list is sent as no operation"
    for p in (delta, whole, other):
        await p.close()


async def test_a_compact_socket_holds_what_a_full_socket_is_sent_at_every_seq(api: Api, served: Served) -> None:
    """``updates=compact``: operations as arrays, the legal list as a delta or recalled by
    seq, unchanged fields left out — read by the browser's rule, it is the same state."""
    match_id, tokens = await api.seated(players=2)
    compact = await WsPlayer.connect(served.ws_url, match_id, tokens[0], updates="compact")
    full = await WsPlayer.connect(served.ws_url, match_id, tokens[0])
    other = await WsPlayer.connect(served.ws_url, match_id, tokens[1], updates="compact")
    rng = random.Random(7)
    await asyncio.wait_for(asyncio.gather(play_over_websocket(compact, rng), play_over_websocket(other, rng)), 120)
    final = (await api.view(match_id, tokens[0]))["seq"]
    for p in (compact, full):
        await p.wait_seq(final)
    assert compact.patches and not compact.gaps and not full.gaps
    fields = ("view", "legal", "status", "deadline", "result")
    sent = {s["seq"]: [s[f] for f in fields] for s in full.states}
    assert [[s[f] for f in fields] for s in compact.states] == [sent[s["seq"]] for s in compact.states]
    assert all(isinstance(op, list) for m in compact.patches for op in m["ops"])
    assert any("legal_at" in m for m in compact.patches), "a race list seen before is named, not sent"
    assert any("legal_ops" not in m and "legal_at" not in m for m in compact.patches), "unchanged: left out"
    assert all("status" not in m for m in compact.patches[:-1]), "the status is sent only when it changes"
    assert sum(map(len, map(json.dumps, compact.patches))) < sum(map(len, map(json.dumps, full.patches))) / 2
    for p in (compact, full, other):
        await p.close()


@pytest.mark.parametrize("query, named", [("legal=sometimes", "delta"), ("updates=tiny", "compact")])
async def test_an_unknown_way_of_reading_patches_is_refused_with_the_reason(api: Api, served: Served, query: str,
                                                                            named: str) -> None:
    match_id, tokens = await api.seated(players=2)
    async with websockets.connect(f"{served.ws_url}/ws/matches/{match_id}?token={tokens[0]}&{query}") as ws:
        try:
            await asyncio.wait_for(ws.recv(), 10)
        except websockets.ConnectionClosed as closed:
            assert closed.rcvd is not None and closed.rcvd.code == 4400 and named in closed.rcvd.reason
        else:
            raise AssertionError("the socket stayed open")
