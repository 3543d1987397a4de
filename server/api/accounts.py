"""REST: accounts and sessions — claim a name, sign in and out, who am I, my tables, and
redeem a one-time reset link. Playing never needs any of it.

Signing in answers the same refusal, after the same work (an Argon2id verification), for
an unknown name and a wrong password; attempts are limited per name and per client
address (429 with ``Retry-After``). Passwords are never logged nor returned.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request, Response, status
from pydantic import BaseModel, Field

from server.config import Settings
from server.runtime import LiveMatch, NotAuthenticated, RateLimited, Runtime
from server.runtime.hub import clean_name
from server.runtime.tokens import token_hash
from server.store import AccountRecord, name_key
from server.store.attempts import Limit

from . import passwords
from .auth import client_address, runtime_of
from .lobby import summary_of
from .schemas import MatchSummary, Problem
from .sessions import account_of, end_session, signed_in, start_session, wall_ms

router = APIRouter(prefix="/api", tags=["accounts"])

WRONG = "Wrong name or password."


class BadCredentials(NotAuthenticated):
    code = "bad_credentials"


class Credentials(BaseModel):
    name: str = Field(min_length=1, max_length=64, examples=["Maria"])
    password: str = Field(min_length=1, max_length=passwords.MAX_LENGTH)


class Reset(BaseModel):
    token: str = Field(min_length=1, max_length=128, description="From the link `potluck accounts reset` printed.")
    password: str = Field(min_length=1, max_length=passwords.MAX_LENGTH)


class Account(BaseModel):
    id: int
    name: str
    created_at: int


class Me(BaseModel):
    account: Account | None = Field(description="The account signed in on this browser; null when nobody is.")


class MyTable(BaseModel):
    seat: int
    your_move: bool = Field(description="Running, and your seat has something to do now.")
    deadline: int | None = Field(None, description="Running: when time moves the match on (game-clock ms); "
                                                   "by turns, when the move waited for is made by time.")
    match: MatchSummary


class MyTables(BaseModel):
    waiting: list[MyTable] = Field(description="Open or running, those waiting for your move first.")
    finished: list[MyTable] = Field(description="The most recently finished.")


def refusals(*codes: int) -> dict[int | str, dict[str, Any]]:
    text = {401: "Not signed in, or a wrong name or password (`bad_credentials`).",
            403: "A cookie request from a page of another site (`cross_origin`), or the name belongs to "
                 "an account (`name_claimed`).",
            422: "A name or password that will not do (the reason is given).",
            429: "Too many attempts (see `Retry-After`)."}
    return {code: {"model": Problem, "description": text[code]} for code in codes}


async def attempt(request: Request, name: str | None = None) -> None:
    """Spend an attempt of the request's address (and of ``name``), or refuse (429). The
    counts are the database's, so they hold however many processes serve the site."""
    settings: Settings = request.app.state.settings
    keys = [(f"address:{client_address(request)}",
             Limit(settings.signin_per_address_per_minute, settings.signin_per_address_burst))]
    if name:
        keys.append((f"name:{name_key(name)}", Limit(settings.signin_per_name_per_minute, settings.signin_per_name_burst)))
    wait = await runtime_of(request).store.attempts.take(keys, wall_ms())
    if wait is not None:
        raise RateLimited(f"Too many attempts; try again in {wait} s.", wait)


@router.post("/accounts", response_model=Me, status_code=status.HTTP_201_CREATED,
             responses=refusals(403, 422, 429), summary="Claim a name: a new account, signed in")
async def sign_up(body: Credentials, request: Request, response: Response,
                  runtime: Runtime = Depends(runtime_of)) -> dict[str, Any]:
    """The name (compared after NFKC and casefolding: "Maria" and "MARIA" are one) becomes
    yours: joining a match under it then requires being signed in as you. Past matches
    played under it by anyone stay as they were. At least 10 characters of password, not a
    common one, not containing the name."""
    await attempt(request)
    name = clean_name(body.name)
    passwords.check_new(body.password, name)
    account = await runtime.store.accounts.create(name, await passwords.hash_password(body.password), wall_ms())
    await start_session(request, response, account)
    return {"account": account.to_json()}


@router.post("/session", response_model=Me, responses=refusals(401, 403, 422, 429), summary="Sign in")
async def sign_in(body: Credentials, request: Request, response: Response,
                  runtime: Runtime = Depends(runtime_of)) -> dict[str, Any]:
    """Sign in with a name and password: a new session cookie (the browser's previous one
    ends)."""
    await attempt(request, body.name)
    account = await runtime.store.accounts.named(body.name)
    if not await passwords.matches(account.password_hash if account else None, body.password):
        raise BadCredentials(WRONG)
    assert account is not None
    await start_session(request, response, account)
    return {"account": account.to_json()}


@router.delete("/session", response_model=Me, responses=refusals(403), summary="Sign out")
async def sign_out(request: Request, response: Response) -> dict[str, Any]:
    await end_session(request, response)
    return {"account": None}


@router.get("/me", response_model=Me, summary="Who is signed in on this browser")
async def me(account: AccountRecord | None = Depends(account_of)) -> dict[str, Any]:
    return {"account": account.to_json() if account else None}


@router.post("/accounts/reset", response_model=Me, responses=refusals(401, 403, 422, 429),
             summary="Choose a new password with a one-time reset link")
async def reset(body: Reset, request: Request, response: Response,
                runtime: Runtime = Depends(runtime_of)) -> dict[str, Any]:
    """The token of the link the server's operator printed (``potluck accounts reset``):
    once, before it expires. Every other session of the account ends; this browser is
    signed in."""
    await attempt(request)
    account = await runtime.store.accounts.named_by_reset(token_hash(body.token), wall_ms())
    if account is None:
        raise BadCredentials("This reset link is spent, expired or mistyped.")
    passwords.check_new(body.password, account.name)
    account = await runtime.store.accounts.redeem_reset(token_hash(body.token), await passwords.hash_password(
        body.password), wall_ms())
    if account is None:
        raise BadCredentials("This reset link is spent, expired or mistyped.")
    await start_session(request, response, account)
    return {"account": account.to_json()}


@router.get("/me/tables", response_model=MyTables, responses=refusals(401), summary="Your tables")
async def my_tables(account: AccountRecord = Depends(signed_in), runtime: Runtime = Depends(runtime_of)) -> dict:
    """The matches you have a seat in, on any device: open and running ones (those waiting
    for your move first), then the most recently finished."""
    waiting, finished = [], []
    for record, seat in await runtime.store.accounts.tables_of(account.id):
        if record.status == "finished":
            finished.append({"seat": seat, "your_move": False, "match": summary_of(runtime, record)})
        else:
            live = await runtime.get(record.id)
            waiting.append({"seat": seat, "your_move": await _your_move(live, seat), "deadline": live.deadline,
                            "match": live.summary()})
    waiting.sort(key=lambda t: not t["your_move"])  # stable: newest first within each
    return {"waiting": waiting, "finished": finished}


async def _your_move(live: LiveMatch, seat: int) -> bool:
    await live.sync()
    if live.by_turns:
        return live.running and seat in live.waiting
    return live.running and bool(live.payload(seat)["legal"])
