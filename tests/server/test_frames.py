"""A socket's text messages written as frames straight to uvicorn's transport
(``websocket.direct_frames``) are the bytes uvicorn's own ``send`` writes, and whenever that
``send`` would do more than write — the transport pushes back, the connection closes or is
gone — the message goes through it, so it waits or raises exactly as before."""

from __future__ import annotations

import asyncio

import pytest
from uvicorn.protocols.utils import ClientDisconnected
from websockets.frames import Frame, Opcode

from bench.frame_send import Socket, opened
from server.api.websocket import SERVER_SEND, frame_sender, text_frame

TEXTS = ["", "x", "a" * 125, "b" * 126, "é" * 70, "— a dash —" * 9_000, '{"type":"patch","seq":3,"ops":[]}']


def test_a_text_frame_is_the_one_websockets_writes_for_every_length_class() -> None:
    for size in (0, 1, 125, 126, 127, 65_535, 65_536, 70_000):
        data = b"a" * size
        assert text_frame(data) == Frame(Opcode.TEXT, data).serialize(mask=False), size


async def test_the_frames_written_are_those_uvicorns_send_writes() -> None:
    direct, direct_out, scope = await opened()
    plain, plain_out, plain_scope = await opened()
    sender = frame_sender(Socket(scope))  # type: ignore[arg-type]
    assert sender.__qualname__.startswith("direct_frames")
    for text in TEXTS:
        await sender(text)
        await plain_scope[SERVER_SEND]({"type": "websocket.send", "text": text})
    assert direct_out.written == plain_out.written
    assert direct.conn.data_to_send() == []


async def test_a_socket_with_compression_is_sent_through_uvicorn() -> None:
    _, _, scope = await opened(deflate=True)
    assert not frame_sender(Socket(scope)).__qualname__.startswith("direct_frames")  # type: ignore[arg-type]


async def test_a_transport_that_pushes_back_makes_the_send_wait_until_it_drains() -> None:
    protocol, transport, scope = await opened()
    sender = frame_sender(Socket(scope))  # type: ignore[arg-type]
    protocol.pause_writing()
    sending = asyncio.ensure_future(sender("later"))
    await asyncio.sleep(0)
    assert not sending.done() and transport.written == []
    protocol.resume_writing()
    await sending
    assert transport.written == [text_frame(b"later")]


async def test_a_closed_or_lost_connection_raises_as_uvicorn_does() -> None:
    protocol, transport, scope = await opened()
    sender = frame_sender(Socket(scope))  # type: ignore[arg-type]
    await scope[SERVER_SEND]({"type": "websocket.close", "code": 1000})
    with pytest.raises(RuntimeError, match="after sending 'websocket.close'"):
        await sender("too late")
    protocol, transport, scope = await opened()
    sender = frame_sender(Socket(scope))  # type: ignore[arg-type]
    protocol.data_received(Frame(Opcode.CLOSE, b"\x03\xe8").serialize(mask=True))  # the peer closes
    with pytest.raises(ClientDisconnected):
        await sender("too late")
    assert all(not chunk.startswith(b"\x81") for chunk in transport.written)  # no text frame went out
    protocol, transport, scope = await opened()
    sender = frame_sender(Socket(scope))  # type: ignore[arg-type]
    protocol.connection_lost(None)  # dropped, no close frame
    with pytest.raises(ClientDisconnected):
        await sender("gone")
    assert transport.written == []
