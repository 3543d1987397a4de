"""Refuse request bodies over a size limit with 413, whether announced by
``Content-Length`` or streamed in chunks, before the application reads them all."""

from __future__ import annotations

import json
from typing import Any, Awaitable, Callable

from starlette.exceptions import HTTPException

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class _TooLarge(HTTPException):
    """Raised from ``receive`` mid-body; an ``HTTPException`` so frameworks that wrap body
    errors (FastAPI turns them into 400) let it through as the 413 it is."""

    def __init__(self, max_bytes: int) -> None:
        super().__init__(413, f"The request body is larger than {max_bytes} bytes.")


class BodyLimit:
    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]], max_bytes: int) -> None:
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None:
            if not length.isdigit():
                await _answer(send, 400, "Content-Length is not a number.")
                return
            if int(length) > self.max_bytes:
                await _answer(send, 413, self._too_large())
                return
        received = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise _TooLarge(self.max_bytes)
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except _TooLarge:
            if not started:
                await _answer(send, 413, self._too_large())

    def _too_large(self) -> str:
        return f"The request body is larger than {self.max_bytes} bytes."


async def _answer(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail, "code": "too_large" if status == 413 else "invalid"}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
