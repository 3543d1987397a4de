"""No cross-site request forgery: a request that may change something (any method but
GET, HEAD and OPTIONS) is refused with 403 when

- it carries the session cookie and its ``Origin`` is missing or not the server's own or
  one of ``POTLUCK_ALLOWED_ORIGINS`` — the cookie is sent by the browser, so only the
  ``Origin`` says whose page asked; or
- it names an ``Origin`` that is neither (a page of another site; without CORS such a
  page could not read the answer, but it could still change something).

Clients that are not browsers send no ``Origin`` and no cookie, and are let through:
they hold their seat tokens themselves.
"""

from __future__ import annotations

import json
from http.cookies import SimpleCookie
from typing import Any, Awaitable, Callable

from .origins import allowed_list, origin_allowed
from .sessions import COOKIE

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
SAFE = frozenset({"GET", "HEAD", "OPTIONS"})


def has_session_cookie(raw: str | None) -> bool:
    if not raw or COOKIE not in raw:
        return False
    cookies: SimpleCookie = SimpleCookie()
    try:
        cookies.load(raw)
    except Exception:  # a malformed Cookie header: judge by the name alone, the safe side
        return True
    return COOKIE in cookies


def refusal(method: str, origin: str | None, host: str | None, cookie: str | None, allowed: frozenset[str]) -> str | None:
    """Why the request is refused, or ``None``."""
    if method in SAFE:
        return None
    if origin is not None and not origin_allowed(origin, host, allowed):
        return "This request comes from a page of another site; it may not change anything here."
    if origin is None and has_session_cookie(cookie):
        return ("A signed-in request that changes something must come from this server's pages "
                "(it carries no Origin header).")
    return None


class SameOrigin:
    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]], allowed_origins: str) -> None:
        self.app, self.allowed = app, allowed_list(allowed_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers") or []}
            why = refusal(scope.get("method", "GET"), headers.get("origin"), headers.get("host"),
                          headers.get("cookie"), self.allowed)
            if why is not None:
                body = json.dumps({"detail": why, "code": "cross_origin"}).encode()
                await send({"type": "http.response.start", "status": 403,
                            "headers": [(b"content-type", b"application/json"),
                                        (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)
