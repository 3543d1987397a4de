"""Seat tokens on REST: ``Authorization: Bearer <token>``, or the signed-in account.

No token: the seat the signed-in account took at this match, if any, else a spectator
(reads only). A token that is not one of this match's seats: 403. Acting with neither: 401.
"""

from __future__ import annotations

from fastapi import Depends, Request
from starlette.requests import HTTPConnection
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from server.runtime import LiveMatch, NotAuthenticated, NotYourSeat, Runtime, UnknownMatch
from server.store import AccountRecord

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


async def account_seat(live: LiveMatch, account: AccountRecord | None) -> int | None:
    """The seat ``account`` took at this match (a join on another server a moment ago is
    looked up again after catching up with the store)."""
    if account is None:
        return None
    seat = next((s.seat for s in live.record.seats if s.account_id == account.id), None)
    if seat is None and live.state is None:
        await live.sync()
        seat = next((s.seat for s in live.record.seats if s.account_id == account.id), None)
    return seat


async def seat_of(live: LiveMatch, token: str | None, account: AccountRecord | None = None) -> int | None:
    """The seat the token belongs to, or without a token the signed-in account's seat
    (``None``: a spectator); 403 for a stranger's token."""
    if token is None:
        seat = await account_seat(live, account)
        if seat is not None:
            live.touch(seat)
        return seat
    seat = await live.seat_for(token)
    if seat is None:
        raise NotYourSeat("This token is not for a seat of this match.")
    live.touch(seat)
    return seat


async def required_seat(live: LiveMatch, token: str | None, account: AccountRecord | None = None) -> int:
    seat = await seat_of(live, token, account)
    if seat is None:
        raise NotAuthenticated("Send your seat token as 'Authorization: Bearer <token>', "
                               "or sign in as the account that took a seat here.")
    return seat
