"""Reading JSON from clients strictly: what Python's ``json`` accepts but no JSON reader
elsewhere does is refused before anything else looks at it.

Refused: text that is not UTF-8; ``NaN``, ``Infinity`` and numbers too large for a float
(``1e999``) or too long to read as an integer; lone surrogates (``"\\ud800"``, which cannot
be written back out as UTF-8); nesting deeper than ``MAX_DEPTH``. Everything the server
reads from a client — REST bodies (``StrictJsonBodies``) and WebSocket messages — goes
through ``loads``, so a value the server cannot encode again never reaches a log, a
database row, an error message or another player.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Awaitable, Callable

import orjson

MAX_DEPTH = 32
_SURROGATE = re.compile("[\ud800-\udfff]")
_LONG_DIGITS = re.compile("[0-9]{19}")


class Unreadable(ValueError):
    """Not strict JSON; the message says why, in words a client understands."""


def _no_constants(name: str) -> Any:
    raise Unreadable(f"{name} is not a JSON number: numbers must be finite.")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise Unreadable(f"The number {text[:20]} is too large: numbers must be finite.")
    return value


def loads(data: str | bytes) -> Any:
    """The JSON value in ``data``, or ``Unreadable``."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise Unreadable("The body is not UTF-8 text.") from None
    if _orjson_reads_alike(data):
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            pass  # the reader below says why, in its own words
    try:
        value = json.loads(data, parse_constant=_no_constants, parse_float=_finite)
    except Unreadable:
        raise
    except RecursionError:
        raise Unreadable(f"JSON is limited to {MAX_DEPTH} levels of nesting.") from None
    except ValueError:  # JSONDecodeError, and integers longer than Python reads
        raise Unreadable("That is not valid JSON.") from None
    check(value)
    return value


def _orjson_reads_alike(text: str) -> bool:
    """Whether orjson (several times faster) may read ``text``: it refuses whatever the
    reader below refuses (``NaN``, ``1e999``, lone surrogates), and reads the rest alike
    except integers beyond 64 bits (made floats: none with 19 digits or more here) and
    nesting (none deeper than ``MAX_DEPTH`` with that few brackets)."""
    return text.count("[") + text.count("{") <= MAX_DEPTH and not _LONG_DIGITS.search(text)


def check(value: Any) -> None:
    """Refuse lone surrogates and nesting deeper than ``MAX_DEPTH`` in a decoded value."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                raise Unreadable("Text must be valid Unicode (no lone surrogates).")
        elif isinstance(item, (dict, list)):
            if depth > MAX_DEPTH:
                raise Unreadable(f"JSON is limited to {MAX_DEPTH} levels of nesting.")
            if isinstance(item, dict):
                stack.extend((k, depth) for k in item)
                stack.extend((v, depth + 1) for v in item.values())
            else:
                stack.extend((v, depth + 1) for v in item)


Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


class StrictJsonBodies:
    """ASGI middleware: every request body under ``prefix`` must be strict JSON (or empty),
    else 422 ``bad_json`` before any route, token check or validation runs. Sits inside
    ``BodyLimit``, so the body it reads whole is already bounded."""

    def __init__(self, app: App, prefix: str = "/api/") -> None:
        self.app, self.prefix = app, prefix

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(self.prefix):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client left
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        body = b"".join(chunks)
        if body.strip():
            try:
                loads(body)
            except Unreadable as exc:
                await _refuse(send, str(exc))
                return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _refuse(send: Send, detail: str) -> None:
    body = json.dumps({"detail": detail, "code": "bad_json"}).encode()
    await send({"type": "http.response.start", "status": 422,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
