"""Seat tokens on REST: ``Authorization: Bearer <token>``.

No token: a spectator (reads only). A token that is not one of this match's seats: 403.
Acting without a token: 401.
"""

from __future__ import annotations

from fastapi import Depends, Request
from starlette.requests import HTTPConnection
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from server.runtime import LiveMatch, NotAuthenticated, NotYourSeat, Runtime, UnknownMatch

bearer_scheme = HTTPBearer(auto_error=False, description="The seat token returned by join.")

MATCH_ID_MAX = 64


def client_address(conn: HTTPConnection) -> str:
    """The client's address as the server sees it (a trusted proxy's forwarded one, when
    uvicorn is told to trust it), for the limits per address."""
    return conn.client.host if conn.client else "unknown"


def runtime_of(request: Request) -> Runtime:
    return request.app.state.runtime


async def live_match(match_id: str, runtime: Runtime = Depends(runtime_of)) -> LiveMatch:
    """The match named in the path (404 if there is none)."""
    if len(match_id) > MATCH_ID_MAX:
        raise UnknownMatch("There is no such match.")
    return await runtime.get(match_id)


def token_of(credentials: HTTPAuthorizationCredentials | None = Depends(bearer_scheme)) -> str | None:
    return credentials.credentials if credentials else None


async def seat_of(live: LiveMatch, token: str | None) -> int | None:
    """The seat the token belongs to, ``None`` without a token; 403 for a stranger's token."""
    if token is None:
        return None
    seat = await live.seat_for(token)
    if seat is None:
        raise NotYourSeat("This token is not for a seat of this match.")
    live.touch(seat)
    return seat


async def required_seat(live: LiveMatch, token: str | None) -> int:
    if token is None:
        raise NotAuthenticated("Send your seat token as 'Authorization: Bearer <token>'.")
    seat = await seat_of(live, token)
    assert seat is not None
    return seat
