"""Instructions of one WebSocket text message from a socket's ``send`` to the transport,
counted by valgrind's callgrind (the sockets of ``bench.action_path`` are fakes: this is
the part of a real send they leave out).

    .venv/bin/python -m bench.frame_send [--game nutty-noodles] [--players 2] [--messages 2000]
    .venv/bin/python -m bench.frame_send --check

A real uvicorn ``WebSocketsSansIOProtocol`` (the server ``potluck serve`` runs) is opened
with a real handshake on a transport that keeps nothing; then ``--messages`` texts — the
ones ``bench.action_path``'s sockets are sent playing ``--game`` (a first state each, then
patches) — are sent through ``server.api.websocket.frame_sender`` as a ``Subscriber``
sends them (the coroutine run to its end at once). Only those sends are counted (they run
inside ``operator.call``, where callgrind collects), divided by the messages: instructions
per message. ``--check`` prints instead whether the bytes written are the frames
websockets itself writes for those texts.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import operator
import os
import re
import subprocess
import sys
import tempfile
from typing import Any

from uvicorn.config import Config
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.frames import Frame, Opcode

from bench import action_path
from server.api.websocket import SERVER_SEND, frame_sender
from server.engine import registry

HANDSHAKE = (b"GET /ws HTTP/1.1\r\nHost: bench\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n")  # + headers, CRLF


class Transport(asyncio.Transport):
    """A transport that keeps what is written to it (``written``)."""

    def __init__(self) -> None:
        super().__init__()
        self.written: list[bytes] = []

    def write(self, data: Any) -> None:
        self.written.append(data)

    def is_closing(self) -> bool:
        return False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 5000), "sockname": ("127.0.0.1", 8000)}.get(name, default)

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def close(self) -> None:
        pass


class Socket:
    """What ``frame_sender`` reads of a Starlette WebSocket: its scope."""

    def __init__(self, scope: dict[str, Any]) -> None:
        self.scope = scope


def texts(game_id: str, players: int, messages: int) -> list[str]:
    """The texts ``bench.action_path``'s sockets are sent playing ``game_id`` (seeded, so
    the same every run), in turn, ``messages`` of them."""
    game, options = registry.get(game_id), action_path.OPTIONS.get(game_id, {})
    kept: list[str] = []
    actions = max(1, messages // players)
    plans = action_path.planned(game, players, options, actions)
    asyncio.run(action_path.through_the_runtime(game_id, players, options, plans, actions, kept))
    return [kept[i % len(kept)] for i in range(messages)]


async def opened(deflate: bool = False) -> tuple[WebSocketsSansIOProtocol, Transport, dict[str, Any]]:
    """A uvicorn sans-I/O protocol after a real handshake and accept (``deflate``: with
    per-message compression), its transport (emptied) and the app's scope."""
    ready: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        scope[SERVER_SEND] = send
        ready.set_result(scope)
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.Future()  # the socket stays open

    config = Config(app, ws="websockets-sansio", ws_per_message_deflate=deflate, log_level="warning")
    config.load()
    protocol = WebSocketsSansIOProtocol(config, ServerState(), {})
    transport = Transport()
    protocol.connection_made(transport)
    asked = b"Sec-WebSocket-Extensions: permessage-deflate\r\n" if deflate else b""
    protocol.data_received(HANDSHAKE + asked + b"\r\n")
    scope = await ready
    transport.written.clear()
    return protocol, transport, scope


def send_all(sender: Any, batch: list[str]) -> None:
    """Send each text as ``Subscriber`` does: the send coroutine run at once to its end."""
    for text in batch:
        sending = sender(text)
        try:
            sending.send(None)
        except StopIteration:
            continue
        raise RuntimeError("a send waited on a transport that never pushes back")


async def inside(batch: list[str], check: bool) -> None:
    _, transport, scope = await opened()
    sender = frame_sender(Socket(scope))  # type: ignore[arg-type]
    operator.call(send_all, sender, batch)  # the counted call
    if check:
        expected = [Frame(Opcode.TEXT, text.encode()).serialize(mask=False) for text in batch]
        same = transport.written == expected
        print(f"{sender.__qualname__}: {'the same frames' if same else 'DIFFERENT frames'}")


def count(game: str, players: int, messages: int) -> int:
    """Instructions of the counted sends."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=_operator_call",
             f"--callgrind-out-file={out}", sys.executable, "-m", "bench.frame_send", "--game", game,
             "--players", str(players), "--messages", str(messages), "--inside"],
            capture_output=True, text=True, check=True, env={**os.environ, "PYTHONHASHSEED": "0"})
        total = re.search(r"Collected : (\d+)", run.stderr)
        assert total, run.stderr[-2000:]
        return int(total.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.frame_send", description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="nutty-noodles")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--check", action="store_true", help="compare the bytes written with websockets' frames")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inside or args.check:
        batch = texts(args.game, args.players, args.messages)
        asyncio.run(inside(batch, args.check))
        return
    print(f"frame_sender: {count(args.game, args.players, args.messages) / args.messages:,.0f} instructions per "
          f"message ({args.messages} messages of {args.game} at {args.players} seats)")


if __name__ == "__main__":
    main()
