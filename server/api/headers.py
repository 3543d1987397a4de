"""Security headers on every HTTP answer.

- ``Content-Security-Policy``: scripts only from this server's files (no inline script,
  no ``eval``), connections only back to it (its WebSocket included), no plugins, and no
  framing by other sites (``frame-ancestors 'self'``). Styles may be inline: the pages
  colour seats with ``style`` attributes. The interactive API reference (``/docs``) is
  FastAPI's page, which loads Swagger UI from this server and starts it inline: it only
  gets the framing rule.
- ``X-Content-Type-Options: nosniff``: a JSON answer is never run as a script or page.
- ``Referrer-Policy: same-origin``: links to other sites do not learn which match you
  were at.
- ``X-Frame-Options: SAMEORIGIN``: the framing rule, for browsers without CSP.
"""

from __future__ import annotations

import re
from typing import Any, Awaitable, Callable

Scope = dict[str, Any]
Message = dict[str, Any]
App = Callable[[Scope, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]], Awaitable[None]]

POLICY = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
          "font-src 'self'; connect-src 'self'{sockets}; object-src 'none'; base-uri 'self'; "
          "form-action 'self'; frame-ancestors 'self'")
REFERENCE_POLICY = "frame-ancestors 'self'"
REFERENCE_PATHS = ("/docs",)
_HOST = re.compile(r"[A-Za-z0-9.\-]+(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?")
COMMON = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"same-origin"),
          (b"x-frame-options", b"SAMEORIGIN")]


def policy_for(path: str, host: str | None) -> str:
    """The CSP of a page at ``path`` asked for as ``Host: host``. Its WebSocket is named
    explicitly (older browsers do not count ``ws:`` as ``'self'``) when the host is a plain
    host name or address."""
    if path.startswith(REFERENCE_PATHS):
        return REFERENCE_POLICY
    sockets = f" ws://{host} wss://{host}" if host and _HOST.fullmatch(host) else ""
    return POLICY.format(sockets=sockets)


class SecurityHeaders:
    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Callable[[], Awaitable[Message]],
                       send: Callable[[Message], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = next((v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"host"), None)
        extra = [*COMMON, (b"content-security-policy", policy_for(scope["path"], host).encode("latin-1"))]

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []), *((k, v) for k, v in extra if k not in names)]
            await send(message)

        await self.app(scope, receive, with_headers)
