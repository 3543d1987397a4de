"""A slow or dead socket never delays the others: publishing only queues; a socket whose
queue overflows (in messages or in bytes), or whose single send stalls past the timeout, is
closed (1013); a whole state supersedes the view's messages queued before it, and the
whole states the sockets of a seat ask for are rated together."""

from __future__ import annotations

import asyncio
import base64
import os
import socket

import httpx

from server.runtime import Subscriber
from server.runtime.live_match import RESYNC_BURST
from server.runtime.subscribers import SLOW_CLOSE_CODE

from .clients import Api, WsPlayer, answer
from .conftest import Served, serve


class Sink:
    def __init__(self, stalled: bool = False) -> None:
        self.got: list[str] = []
        self.closed: tuple[int, str] | None = None
        self.stalled = stalled

    async def send(self, text: str) -> None:
        if self.stalled:
            await asyncio.Event().wait()  # a peer that never reads
        self.got.append(text)

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


async def test_a_full_queue_closes_only_the_slow_socket() -> None:
    slow, quick = Sink(stalled=True), Sink()
    subs = [Subscriber(0, slow.send, slow.close, queue_size=5, send_timeout=60),
            Subscriber(1, quick.send, quick.close, queue_size=5, send_timeout=60)]
    for i in range(50):
        for sub in subs:
            sub.push(f"state {i}")  # never awaits: a publisher is never held up
        await asyncio.sleep(0)
    await asyncio.sleep(0.05)
    assert quick.got == [f"state {i}" for i in range(50)] and quick.closed is None
    assert subs[0].closed and slow.closed and slow.closed[0] == SLOW_CLOSE_CODE
    assert not subs[0].push("more")
    for sub in subs:
        await sub.stop()


async def test_a_socket_that_does_not_read_holds_one_whole_state_however_often_it_asks() -> None:
    slow = Sink(stalled=True)
    sub = Subscriber(0, slow.send, slow.close, queue_size=1000, send_timeout=60, queue_bytes=10_000)
    sub.push("first")  # taken by the send that never ends
    await asyncio.sleep(0)
    for i in range(200):  # patches, chat, and a whole state of 5 KB asked for again and again
        sub.push(f"patch {i}", view="patch")
        sub.push(f"chat {i}", droppable=True)
        sub.push("S" * 5000 + str(i), view="state")
    assert not sub.closed
    queued = [text for text, _ in sub._queue]
    assert [t for t in queued if t.startswith("S")] == ["S" * 5000 + "199"]
    assert not any(t.startswith("patch") for t in queued), "a patch before the newest state is kept"
    sub.push("x" * 6000)  # past the bytes
    await asyncio.sleep(0.05)
    assert sub.closed and slow.closed and slow.closed[0] == SLOW_CLOSE_CODE
    await sub.stop()


async def test_whole_states_asked_for_by_the_sockets_of_one_seat_are_rated_together(api: Api, served: Served) -> None:
    match_id, _ = await api.seated(players=2)
    sockets = [await WsPlayer.connect(served.ws_url, match_id) for _ in range(4)]  # spectators: one seat
    for p in sockets:
        await p.wait(lambda p=p: p.states)
    for round_ in range(5):  # 20 asked at once: each socket is well within its own rate
        for i, p in enumerate(sockets):
            await p.send({"type": "resync", "id": f"r{round_}-{i}"})

    def refused() -> int:
        return sum(r.get("code") == "rate_limited" for p in sockets for r in p.replies.values())

    await sockets[0].wait(lambda: refused() >= 20 - RESYNC_BURST - 1)  # a token may come back meanwhile
    await asyncio.gather(*(p.wait(lambda p=p: len(p.states) > 1) for p in sockets))  # the others were answered
    assert refused() <= 20 - RESYNC_BURST
    for p in sockets:
        await p.close()


async def test_a_stalled_send_times_out_and_closes_the_socket() -> None:
    slow = Sink(stalled=True)
    sub = Subscriber(0, slow.send, slow.close, queue_size=100, send_timeout=0.1)
    sub.push("state 1")
    await asyncio.sleep(0.3)
    assert sub.closed and slow.closed and "timed out" in slow.closed[1]
    await sub.stop()


async def _non_reading_socket(ws_url: str, path: str) -> socket.socket:
    """A WebSocket client that completes the handshake, then never reads again."""
    loop = asyncio.get_running_loop()
    host, port = ws_url.removeprefix("ws://").split(":")
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await loop.sock_connect(sock, (host, int(port)))
    key = base64.b64encode(os.urandom(16)).decode()
    await loop.sock_sendall(sock, (f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
                                   f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                                   "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    assert b" 101 " in await loop.sock_recv(sock, 1024)
    return sock


async def test_a_socket_that_never_reads_does_not_hold_up_a_match(tmp_path) -> None:
    slow_timers = {"roll_timeout_ms": 120_000, "round_timeout_ms": 600_000}
    async with serve(f"sqlite:///{tmp_path / 'db.sqlite'}", send_buffer=4096, send_queue=4) as served, \
            httpx.AsyncClient(base_url=served.url) as client:
        api = Api(client)
        match_id, tokens = await api.seated(players=2, **slow_timers)
        dead = await _non_reading_socket(served.ws_url, f"/ws/matches/{match_id}")
        watcher = await WsPlayer.connect(served.ws_url, match_id)
        for _ in range(60):  # rounds where both serve the wrong bowl: ~180 states of ~4 KB
            view = (await api.view(match_id))["view"]
            assert (await api.act(match_id, tokens[view["thrower"]], {"type": "roll"})).status_code == 200
            view = (await api.view(match_id))["view"]
            wrong = next(b["id"] for b in view["bowls"] if b["id"] != answer(view)["bowl"])
            for token in tokens:
                assert (await api.act(match_id, token, {"type": "takeaway", "bowl": wrong})).status_code == 200
        final_seq = (await api.view(match_id))["seq"]
        await watcher.wait_seq(final_seq)
        seqs = [s["seq"] for s in watcher.states]
        assert seqs == list(range(seqs[0], final_seq + 1)), "the watcher missed a state"
        assert served.runtime.metrics.sockets._value.get() == 1, "the dead socket was not dropped"
        await watcher.close()
        dead.close()
