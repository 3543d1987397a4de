"""REST: a seat's view, acting, the log of a finished match, and table chat."""

from __future__ import annotations

import json
import math
from typing import Any

from fastapi import APIRouter, Depends, Response

from server.runtime import Conflict, LiveMatch

from server.store import AccountRecord

from .auth import live_match, required_seat, seat_of, token_of
from .sessions import account_of
from .schemas import (ActionAccepted, ActionRequest, ChatLine, ChatRequest, MatchLog, Problem, Suggestion,
                      ViewResponse)

router = APIRouter(prefix="/api/matches/{match_id}", tags=["play"])


def _refusals(*codes: int) -> dict:
    text = {401: "No token.", 403: "The token is not for this match.", 404: "No such match.",
            409: "Stale expect_seq, not started, or over.", 422: "The rules refuse it (the reason is given).",
            429: "Too many messages."}
    return {code: {"model": Problem, "description": text[code]} for code in codes}


@router.get("/view", response_model=ViewResponse, responses=_refusals(403, 404), summary="What your seat sees")
async def view(live: LiveMatch = Depends(live_match), token: str | None = Depends(token_of),
               account: AccountRecord | None = Depends(account_of)) -> dict:
    """Your seat's view, legal actions and deadline (no token: the seat your signed-in
    account took here, else the spectators' view, ``legal: []``), at the current ``seq``."""
    seat = await seat_of(live, token, account)
    await live.sync()
    return {**live.payload(seat), "seat": seat}


@router.post("/actions", response_model=ActionAccepted, responses=_refusals(401, 403, 404, 409, 422),
             summary="Play an action")
async def act(body: ActionRequest, live: LiveMatch = Depends(live_match),
              token: str | None = Depends(token_of), account: AccountRecord | None = Depends(account_of)) -> dict:
    """Apply ``action`` for your seat (the token's, or your signed-in account's); answered
    once it is committed, with its ``seq``. With ``expect_seq``, refused (409) unless the
    match is exactly there."""
    seat = await required_seat(live, token, account)
    return {"seq": await live.act(seat, body.action, body.expect_seq)}


@router.get("/suggestion", response_model=Suggestion, responses=_refusals(401, 403, 404, 409),
            summary="What would you do? (teach mode)")
async def suggestion(live: LiveMatch = Depends(live_match), token: str | None = Depends(token_of),
                     account: AccountRecord | None = Depends(account_of)) -> dict:
    """In a match set up with ``teach: true``: the move the game's normal bot would play
    for your seat now, decided only on what your seat may know, with a one-line reason and
    the rule's clause (``action: null``: it would wait). 409 outside teach mode or a
    running match."""
    seat = await required_seat(live, token, account)
    await live.sync()
    found = live.suggestion(seat)
    if found is None:
        raise Conflict("Suggestions are given in a running match set up to teach (teach: true).")
    return found


@router.get("/log", response_model=MatchLog, responses=_refusals(404, 409), summary="The whole log (finished)")
async def match_log(live: LiveMatch = Depends(live_match)) -> Response:
    """Seed, players and every action: enough to replay the match. Only once it is over."""
    await live.sync()
    record = live.record
    if record.status != "finished":
        raise Conflict("The log is published when the match is over.")
    if live.state is None:
        raise Conflict("This match never started: there is nothing to replay.")
    entries = await live.services.store.actions(record.id)
    log = {
        "id": record.id, "game": record.game, "options": record.options, "players": record.seat_names(),
        "seed": record.seed, "started_at": record.started_at, "result": record.result,
        "actions": [{"seq": e.seq, "seat": e.seat, "action": e.action, "at": e.at} for e in entries],
    }
    return Response(stored_json(log), media_type="application/json")


def stored_json(value: Any) -> bytes:
    """JSON of what the store holds, whatever an older server let into it: lone surrogates
    escaped, non-finite numbers as ``null``, any depth (no per-level Python recursion)."""
    try:
        return json.dumps(value, ensure_ascii=True, allow_nan=False).encode()
    except ValueError:
        return json.dumps(_finite(value), ensure_ascii=True, allow_nan=False).encode()


def _finite(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value


@router.get("/chat", response_model=list[ChatLine], responses=_refusals(404), summary="Recent table chat")
async def chat_lines(live: LiveMatch = Depends(live_match)) -> list[dict]:
    return [line.to_json() for line in await live.services.store.chat(live.id)]


@router.post("/chat", response_model=ChatLine, responses=_refusals(401, 403, 404, 422, 429),
             summary="Say something at the table")
async def say(body: ChatRequest, live: LiveMatch = Depends(live_match),
              token: str | None = Depends(token_of), account: AccountRecord | None = Depends(account_of)) -> dict:
    seat = await required_seat(live, token, account)
    return (await live.chat(seat, body.text)).to_json()
