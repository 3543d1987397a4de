"""Bad input over the WebSocket: every mistake is answered with an ``error`` message, the
match is untouched, and the connection stays open (proved by a good action afterwards).
Only a bad token, an unknown match or a frame past the hard limit closes the socket."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import websockets

from .clients import Api, WsPlayer
from .conftest import serve

SLOW = {"roll_timeout_ms": 120_000, "round_timeout_ms": 600_000}


async def _error(p: WsPlayer, code: str, count_before: int) -> dict:
    """The first error message (without an id) after ``count_before`` others."""
    msg = await p.wait(lambda: len(_errors(p)) > count_before and _errors(p)[count_before])
    assert msg["code"] == code, msg
    return msg


def _errors(p: WsPlayer) -> list[dict]:
    return [m for m in p.other if m["type"] == "error"]


async def test_each_bad_message_gets_an_error_and_the_socket_stays_open(api: Api, served) -> None:
    match_id, tokens = await api.seated(players=2, **SLOW)
    players = [await WsPlayer.connect(served.ws_url, match_id, t) for t in tokens]
    start = await players[0].wait_seq(0)
    thrower = start["view"]["thrower"]
    p, waiter = players[thrower], players[1 - thrower]
    watcher = await WsPlayer.connect(served.ws_url, match_id)

    await p.send("{not json")
    await _error(p, "bad_json", 0)
    await p.send("[1, 2, 3]")
    await _error(p, "bad_message", 1)
    await p.send(b'\xff\xfe binary garbage')
    await _error(p, "bad_json", 2)
    await p.send(json.dumps({"type": "action", "id": "x", "action": {"type": "roll"}, "pad": "x" * 20_000}))
    await _error(p, "too_large", 3)
    await p.send("[" * 5000 + "]" * 5000)
    await _error(p, "bad_json", 4)

    async def refused(player: WsPlayer, message: dict, code: str, *words: str) -> None:
        await player.send(message)
        reply = await player.reply(message["id"])
        assert reply["type"] == "error" and reply["code"] == code, reply
        for word in words:
            assert word.lower() in reply["message"].lower(), reply

    await refused(p, {"type": "dance", "id": 1}, "unknown_type")
    await refused(p, {"type": "action", "id": 2}, "bad_message")
    await refused(p, {"type": "action", "id": 3, "action": "roll"}, "bad_message")
    await refused(p, {"type": "action", "id": 4, "action": {"type": "roll"}, "expect_seq": "soon"}, "bad_message")
    await refused(p, {"type": "action", "id": 5, "action": {"type": "moonwalk"}}, "illegal", "unknown action")
    await p.send('{"type": "action", "id": 55, "action": {"type": "roll", "x": Infinity}}')
    assert (await p.reply(55))["code"] == "bad_json"
    await refused(waiter, {"type": "action", "id": 6, "action": {"type": "roll"}}, "illegal", "turn to throw")
    await refused(p, {"type": "action", "id": 7, "action": {"type": "roll"}, "expect_seq": 3}, "stale")
    await refused(watcher, {"type": "action", "id": 8, "action": {"type": "roll"}}, "forbidden", "spectator")
    await refused(watcher, {"type": "chat", "id": 9, "text": "hi"}, "forbidden")
    await refused(p, {"type": "chat", "id": 10, "text": "x" * 501}, "invalid", "500")
    await refused(p, {"type": "chat", "id": 11, "text": "  "}, "invalid")

    assert all(len(q.states) == 1 for q in players + [watcher]), "a refused message changed the match"
    await p.send({"type": "ping", "id": "still-there"})
    await p.wait(lambda: any(m.get("id") == "still-there" for m in p.other))
    ack = await p.act({"type": "roll"})
    assert ack == {"type": "ack", "id": ack["id"], "seq": 1}
    for q in players + [watcher]:
        assert (await q.wait_seq(1))["seq"] == 1
        await q.close()


async def test_a_flood_is_rate_limited_without_closing(api: Api, served) -> None:
    match_id, tokens = await api.seated(players=2, **SLOW)
    p = await WsPlayer.connect(served.ws_url, match_id, tokens[0])
    await p.wait_seq(0)
    for i in range(150):
        await p.send({"type": "ping", "id": i})
    # each refused message is named by its id, so a client knows which to send again
    limited = await p.wait(lambda: [i for i, e in p.replies.items() if e["code"] == "rate_limited"])
    assert set(limited) <= set(range(150)) and 0 not in limited
    await asyncio.sleep(0.3)  # the bucket refills (20 a second)
    await p.send({"type": "ping", "id": "after"})
    await p.wait(lambda: any(m.get("id") == "after" and m["type"] == "pong" for m in p.other))
    assert len(p.states) == 1
    await p.close()


async def test_bad_tokens_and_unknown_matches_close_with_a_reason(api: Api, served) -> None:
    match_id, _ = await api.seated(players=2, **SLOW)
    other_id, other_tokens = await api.seated(players=2, **SLOW)
    for path, code in [(f"{match_id}?token=forged", 4403), (f"{match_id}?token={other_tokens[0]}", 4403),
                       ("no-such-match", 4404)]:
        async with websockets.connect(f"{served.ws_url}/ws/matches/{path}") as ws:
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 5)
            assert closed.value.rcvd.code == code and closed.value.rcvd.reason


async def test_chat_is_stored_broadcast_and_rate_limited(api: Api, served) -> None:
    match_id, tokens = await api.seated(players=2, **SLOW)
    ann, bob = [await WsPlayer.connect(served.ws_url, match_id, t) for t in tokens]
    await ann.send({"type": "chat", "text": "  good luck!  "})
    line = await bob.wait(lambda: next((m for m in bob.other if m["type"] == "chat"), None))
    assert (line["seat"], line["name"], line["text"]) == (0, "P0", "good luck!")
    for i in range(10):
        await ann.send({"type": "chat", "id": f"c{i}", "text": f"spam {i}"})
    await ann.wait(lambda: any(e.get("code") == "rate_limited" for e in ann.replies.values()))
    stored = (await api.client.get(f"/api/matches/{match_id}/chat")).json()
    assert stored[0]["text"] == "good luck!" and len(stored) < 11
    late = await WsPlayer.connect(served.ws_url, match_id)
    await late.wait(lambda: len([m for m in late.other if m["type"] == "chat"]) == len(stored))
    r = await api.client.post(f"/api/matches/{match_id}/chat", json={"text": "over REST"},
                              headers={"Authorization": f"Bearer {tokens[1]}"})
    assert r.status_code == 200 and r.json()["name"] == "P1"
    assert (await api.client.post(f"/api/matches/{match_id}/chat", json={"text": "anon"})).status_code == 401
    for p in (ann, bob, late):
        await p.close()


async def test_frames_past_the_hard_limit_close_the_socket(tmp_path) -> None:
    async with serve(f"sqlite:///{tmp_path / 'db.sqlite'}", max_frame_bytes=1000, hard_frame_bytes=4000) as served:
        async with httpx.AsyncClient(base_url=served.url) as client:
            match_id, tokens = await Api(client).seated(players=2, **SLOW)
        p = await WsPlayer.connect(served.ws_url, match_id, tokens[0])
        await p.send("x" * 2000)
        await _error(p, "too_large", 0)
        await p.send("x" * 5000)
        with pytest.raises(ConnectionError):
            await p.wait(lambda: False, timeout=5)
        assert p.ws.close_code == 1009
