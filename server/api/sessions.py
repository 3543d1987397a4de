"""Cookie sessions: who is signed in on this browser.

The cookie ``potluck_session`` holds a random token (the server keeps its SHA-256):
HttpOnly (no script reads it), SameSite=Lax (other sites' requests do not carry it, but
following a link here does), Secure when the request came over HTTPS, for
``session_days``. Signing in always makes a new token and ends the browser's previous
session (no fixation). A request that changes anything and carries the cookie must come
from the server's own pages (see ``same_origin``).
"""

from __future__ import annotations

import time

from fastapi import Request, Response
from starlette.requests import HTTPConnection

from server.runtime import NotAuthenticated
from server.runtime.tokens import new_token, token_hash
from server.store import AccountRecord, Store

COOKIE = "potluck_session"
TOKEN_MAX = 128


def _store(conn: HTTPConnection) -> Store:
    return conn.app.state.runtime.store


def wall_ms() -> int:
    """Accounts live in real time (the game clock may run faster, in tests and demos)."""
    return int(time.time() * 1000)


def session_token(conn: HTTPConnection) -> str | None:
    token = conn.cookies.get(COOKIE)
    return token if token and len(token) <= TOKEN_MAX else None


async def account_of(conn: HTTPConnection) -> AccountRecord | None:
    """The account signed in on this browser, if any (looked up once per request)."""
    cached = getattr(conn.state, "account", False)
    if cached is not False:
        return cached
    token = session_token(conn)
    account = await _store(conn).accounts.session(token_hash(token), wall_ms()) if token else None
    conn.state.account = account
    return account


async def signed_in(request: Request) -> AccountRecord:
    """The signed-in account (401 when nobody is)."""
    account = await account_of(request)
    if account is None:
        raise NotAuthenticated("Sign in first.")
    return account


async def start_session(request: Request, response: Response, account: AccountRecord) -> None:
    """Sign ``account`` in on this browser: a fresh token, the old one ended."""
    token, now = new_token(), wall_ms()
    days = request.app.state.settings.session_days
    old = session_token(request)
    await _store(request).accounts.open_session(account.id, token_hash(token), now, now + int(days * 86_400_000),
                                                replacing=token_hash(old) if old else None)
    response.set_cookie(COOKIE, token, max_age=int(days * 86_400), path="/", httponly=True, samesite="lax",
                        secure=request.url.scheme == "https")
    request.state.account = account


async def end_session(request: Request, response: Response) -> None:
    token = session_token(request)
    if token:
        await _store(request).accounts.close_session(token_hash(token))
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https")
