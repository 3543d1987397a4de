"""Which web pages may open a WebSocket: the server's own, and those named in
``POTLUCK_ALLOWED_ORIGINS``.

A browser sends ``Origin`` with every WebSocket handshake, and a page from any site may
try one (with the visitor's cookies, were there any — "cross-site WebSocket hijacking").
The server's own origin is the one whose host and port are the request's ``Host``;
clients that are not browsers send no ``Origin`` and are let through (they hold their
tokens themselves).
"""

from __future__ import annotations

from functools import cache
from urllib.parse import urlsplit

DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


@cache
def allowed_list(raw: str) -> frozenset[str]:
    """``POTLUCK_ALLOWED_ORIGINS``: comma-separated origins (``https://example.com``)."""
    return frozenset(o.strip().rstrip("/").lower() for o in raw.split(",") if o.strip())


def origin_allowed(origin: str | None, host: str | None, allowed: frozenset[str]) -> bool:
    """Whether a handshake with ``Origin: origin`` to ``Host: host`` may go on."""
    if origin is None:
        return True
    origin = origin.strip().rstrip("/").lower()
    if origin in allowed:
        return True
    if not host:
        return False
    try:
        page, server = urlsplit(origin), urlsplit(f"//{host.strip().lower()}")
        default = DEFAULT_PORTS.get(page.scheme)
        return (default is not None and page.hostname is not None and page.hostname == server.hostname
                and (page.port or default) == (server.port or default))
    except ValueError:  # a port that is not a number, a malformed address
        return False
