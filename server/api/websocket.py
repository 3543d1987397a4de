"""The live protocol: ``/ws/matches/{id}?token=…&legal=delta`` (no token: the seat of the
signed-in account whose session cookie the handshake carries, else a spectator).

The server sends ``state`` (the seat's whole view and legal actions) at once, then a
``patch`` of that view after every change (see ``server.runtime.messages``): with
``legal=delta`` the patch carries ``legal_ops``, a JSON Patch of the legal list the client
holds, instead of the whole list in ``legal`` (``legal=whole``, the default, for clients
that read the list whole from every message); with ``updates=compact`` (the browser's) it is
the compact patch, which leaves out what did not change (``messages.compact_patch_message``),
``match`` (the public summary) at once and whenever it changes — seats taken, a seat's
connection, a stand-in bot, a rematch — and ``chat`` lines. The client sends

- ``{"type": "action", "id": any, "action": {...}, "expect_seq"?: int}`` → ``ack`` or ``error``;
- ``{"type": "chat", "id"?: any, "text": str}`` → broadcast ``chat`` (or ``error``);
- ``{"type": "resync", "id"?: any}`` → ``state``: the whole view again (a client whose seq is
  not a patch's ``prev_seq`` missed something);
- ``{"type": "ping", "id"?: any}`` → ``pong``.

Every mistake — malformed JSON, an unknown type, a frame over the limit, an illegal or
stale action, a spectator acting, too many messages — is answered with ``error`` (codes:
``bad_json``, ``bad_message``, ``unknown_type``, ``too_large``, ``rate_limited``, and the
runtime's ``illegal``, ``stale``, ``forbidden``, ``finished``, ``not_started``, ``busy``…)
and the connection stays open (a ``resync`` answered, for one seat's sockets together, at
most ``RESYNCS_PER_S`` a second: ``rate_limited`` past that). A bad token or unknown match
closes the socket right after accepting it, with code 4403 or 4404 and a reason, and an
unknown ``legal`` or ``updates`` with 4400; a spectator of a match that has
``max_spectators`` already is closed with 4429 and the reason (it may try again later). Before accepting, a handshake from a page of another site
(``Origin``, see ``origins``) is refused with 403, and one past the socket limits
(``server.runtime.limits``) with 429 (this address) or 503 (the server), each with
``Retry-After``.

A socket's messages take a direct path to the server: every middleware here (and
Starlette's own) only looks at HTTP answers and the handshake and passes a
``websocket.send`` through unchanged, so ``DirectSend`` keeps the server's own ``send`` in
the scope and the socket's frames are handed to it, not through each layer's wrapper; on
uvicorn's sans-I/O protocol (``potluck serve``'s) an open socket's text is written as a
frame straight to its transport (``direct_frames``).
"""

from __future__ import annotations

import json
import logging
import math
from struct import Struct
from typing import Any, Awaitable, Callable

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

from server.runtime import AtCapacity, LiveMatch, NotYourSeat, Problem, Runtime, Subscriber, UnknownMatch
from server.runtime import messages
from server.store import STORE_AWAY, away_line
from server.runtime.rate import TokenBucket

from . import strict_json
from .auth import MATCH_ID_MAX, account_seat, client_address
from .origins import allowed_list, origin_allowed
from .sessions import account_of

log = logging.getLogger(__name__)
router = APIRouter()

CLOSE_BAD_REQUEST = 4400
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_AT_CAPACITY = 4429  # a spectator of a match that has as many as it takes
LEGAL_READINGS = {"whole": "whole", "delta": "delta"}  # ``legal=`` → how the patches carry the legal list
UPDATES = ("full", "compact")  # ``updates=``: compact patches (their legal list always as a delta)
ID_MAX = 128
SERVER_SEND = "potluck.server_send"  # the scope's key for the server's own ``send`` (``DirectSend``)


class DirectSend:
    """ASGI middleware, outside every other one of the app's: keeps a WebSocket scope's
    ``send`` — the server's — in the scope, for ``frame_sender``. Nothing else changes."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":
            scope[SERVER_SEND] = send
        await self.app(scope, receive, send)


def frame_sender(ws: WebSocket) -> Callable[[str], Awaitable[None]]:
    """How the socket's text messages are sent once it is accepted: straight to the
    server's ``send`` (``DirectSend``; what Starlette's ``send_text`` hands down, without
    the layers between) — on uvicorn's sans-I/O protocol, as frames written to its
    transport (``direct_frames``) — or ``send_text`` in an app without it."""
    send = ws.scope.get(SERVER_SEND)
    if send is None:
        return ws.send_text
    protocol = getattr(send, "__self__", None)
    if type(protocol) is WebSocketsSansIOProtocol and not protocol.conn.extensions:
        return direct_frames(protocol)

    async def send_text(text: str) -> None:
        await send({"type": "websocket.send", "text": text})

    return send_text


def direct_frames(protocol: WebSocketsSansIOProtocol) -> Callable[[str], Awaitable[None]]:
    """A sender that writes each text as one frame (``text_frame``) to the transport of an
    open uvicorn ``WebSocketsSansIOProtocol`` (no compression) — the bytes its ``send`` would
    write, without its ``Frame`` and buffers. Whenever that ``send`` would do more than
    write — the transport pushes back, the connection is closing or gone, frames are
    logged at debug level — the message goes through it instead, to wait or raise as it
    does."""
    conn, writable, send = protocol.conn, protocol.writable, protocol.send

    async def send_text(text: str) -> None:
        if writable.is_set() and conn.state is State.OPEN and not protocol.disconnected and not conn.debug:
            protocol.transport.write(text_frame(text.encode()))
        else:
            await send({"type": "websocket.send", "text": text})

    return send_text


_HEAD, _HEAD16, _HEAD64 = Struct("!BB"), Struct("!BBH"), Struct("!BBQ")


def text_frame(data: bytes) -> bytes:
    """A server's WebSocket frame of one whole text message (RFC 6455 §5.2: FIN and the
    text opcode, the payload's length in 7, 16 or 64 bits, no mask) around ``data``."""
    size = len(data)
    if size < 126:
        return _HEAD.pack(0x81, size) + data
    if size < 65536:
        return _HEAD16.pack(0x81, 126, size) + data
    return _HEAD64.pack(0x81, 127, size) + data


@router.websocket("/ws/matches/{match_id}")
async def play(ws: WebSocket, match_id: str, token: str | None = None, legal: str = "whole",
               updates: str = "full") -> None:
    """Refused before the handshake is accepted (an HTTP answer, no socket kept): a page of
    another site (403), too many sockets from this address (429) or in all (503)."""
    runtime: Runtime = ws.app.state.runtime
    allowed = allowed_list(runtime.settings.allowed_origins)
    if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), allowed):
        await _deny(ws, 403, "forbidden", "This page may not open a connection to this server.")
        return
    address = client_address(ws)
    refusal = runtime.limits.sockets.admit(address)
    if refusal is not None:
        await _deny(ws, 429 if refusal.per_address else 503,
                    "rate_limited" if refusal.per_address else "at_capacity", refusal.reason, refusal.retry_after)
        return
    try:
        await _play(ws, runtime, match_id, token, legal, updates)
    finally:
        runtime.limits.sockets.release(address)


async def _deny(ws: WebSocket, status: int, code: str, detail: str, retry_after: int | None = None) -> None:
    headers = {"Retry-After": str(retry_after)} if retry_after is not None else None
    try:
        await ws.send_denial_response(JSONResponse({"detail": detail, "code": code}, status, headers))
    except RuntimeError:  # a server without denial responses: a plain 403
        await ws.close(1008, detail[:120])


async def _play(ws: WebSocket, runtime: Runtime, match_id: str, token: str | None, legal: str,
                updates: str) -> None:
    settings = runtime.settings
    await ws.accept()
    if legal not in LEGAL_READINGS:
        await ws.close(CLOSE_BAD_REQUEST, "legal= is whole (the default) or delta.")
        return
    if updates not in UPDATES:
        await ws.close(CLOSE_BAD_REQUEST, "updates= is full (the default) or compact.")
        return
    try:
        if len(match_id) > MATCH_ID_MAX:
            raise UnknownMatch("There is no such match.")
        live = await runtime.get(match_id)
    except UnknownMatch as exc:
        await ws.close(CLOSE_NOT_FOUND, exc.message[:120])
        return
    seat = await live.seat_for(token) if token else await account_seat(live, await account_of(ws))
    if token and seat is None:
        await ws.close(CLOSE_FORBIDDEN, "This token is not for a seat of this match.")
        return
    sub = Subscriber(seat, frame_sender(ws), lambda code, reason: ws.close(code, reason),
                     queue_size=settings.send_queue, send_timeout=settings.send_timeout_s,
                     reads="compact" if updates == "compact" else LEGAL_READINGS[legal], queue_bytes=settings.send_queue_bytes)
    try:
        await live.join(sub)
    except AtCapacity as exc:  # too many spectators
        await sub.stop()
        await ws.close(CLOSE_AT_CAPACITY, exc.message[:120])
        return
    limit = live.message_rate(seat)
    try:
        while not sub.closed:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            raw = message.get("text")
            if raw is None and message.get("bytes") is not None:
                raw = message["bytes"].decode("utf-8", "replace")
            await _handle(live, sub, raw or "", limit, settings.max_frame_bytes)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        live.unsubscribe(sub)
        await sub.stop()


async def _handle(live: LiveMatch, sub: Subscriber, raw: str, limit: TokenBucket, max_bytes: int) -> None:
    """Answer one client message; nothing a client sends can end the connection. A refusal
    carries the message's ``id`` whenever the message could be read, so a client always
    learns what became of each action (a rate-limited one may be sent again later)."""
    allowed = limit.allow()
    if len(raw) > max_bytes or (4 * len(raw) > max_bytes and len(raw.encode("utf-8", "replace")) > max_bytes):
        sub.push(messages.error_message(None, "too_large", f"Messages are limited to {max_bytes} bytes."))
        return
    try:
        msg = strict_json.loads(raw)
    except strict_json.Unreadable as exc:
        sub.push(messages.error_message(_readable_id(raw), "bad_json", str(exc)))
        return
    if not isinstance(msg, dict):
        sub.push(messages.error_message(None, "bad_message", "A message is a JSON object with a \"type\"."))
        return
    msg_id = _message_id(msg.get("id"))
    if not allowed:
        sub.push(messages.error_message(msg_id, "rate_limited", "Slow down: too many messages."), droppable=True)
        return
    kind = msg.get("type")
    try:
        if kind == "action":
            sub.push(messages.ack_message(msg_id, await _action(live, sub, msg)))
        elif kind == "chat":
            await live.chat(sub.seat, msg.get("text"))
        elif kind == "resync":
            live.resync(sub, asked=True)
        elif kind == "ping":
            sub.push(messages.pong_message(msg_id))
        else:
            sub.push(messages.error_message(msg_id, "unknown_type",
                                            "Unknown message type; use action, chat, resync or ping."))
    except Problem as exc:
        sub.push(messages.error_message(msg_id, exc.code, exc.message))
    except STORE_AWAY as exc:  # one line each, as REST logs it: a traceback says nothing more
        log.warning("WebSocket message refused: the database is unavailable (%s)", away_line(exc))
        sub.push(messages.error_message(msg_id, "unavailable", "The database is unavailable; try again soon."))
    except Exception:
        log.exception("WebSocket message failed")
        sub.push(messages.error_message(msg_id, "unavailable", "The server could not do that; try again."))


async def _action(live: LiveMatch, sub: Subscriber, msg: dict[str, Any]) -> int:
    if sub.seat is None:
        raise NotYourSeat("Spectators cannot act; join the match to play.")
    action, expect = msg.get("action"), msg.get("expect_seq")
    if not isinstance(action, dict):
        raise _BadMessage("An action message needs \"action\": a JSON object with a \"type\".")
    if expect is not None and (not isinstance(expect, int) or isinstance(expect, bool)):
        raise _BadMessage("\"expect_seq\" is an integer.")
    return await live.act(sub.seat, action, expect)


class _BadMessage(Problem):
    code = "bad_message"


def _readable_id(raw: str) -> Any:
    """The id of a message refused as unreadable, when Python's lenient reader finds one
    that is itself clean JSON (so the client learns which message it was)."""
    try:
        msg = json.loads(raw)
        msg_id = _message_id(msg.get("id")) if isinstance(msg, dict) else None
        strict_json.check(msg_id)
    except (ValueError, RecursionError, strict_json.Unreadable):
        return None
    return None if isinstance(msg_id, float) and not math.isfinite(msg_id) else msg_id


def _message_id(raw: Any) -> Any:
    """The client's id, echoed back: a string, number or null (long strings cut)."""
    if isinstance(raw, str):
        return raw[:ID_MAX]
    if isinstance(raw, (int, float)) and not isinstance(raw, bool):
        return raw
    return None
