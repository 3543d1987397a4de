"""REST: the catalogue of games, creating, listing, describing and joining matches, and
setting up a rematch of a finished one."""

from __future__ import annotations

from functools import cache

from fastapi import APIRouter, Depends, Query, Request, Response, status

from server.engine import InvalidOptions, UnknownGame, registry
from server.runtime import Invalid, LiveMatch, RateLimited, Runtime
from server.runtime.summaries import summary
from server.store import AccountRecord, MatchRecord

from .auth import client_address, live_match, required_seat, runtime_of, token_of
from .ratings import with_ratings
from .sessions import account_of
from .schemas import CreateMatch, GameInfo, Joined, JoinRequest, MatchCreated, MatchPage, MatchSummary
from .schemas import Problem, Status

router = APIRouter(prefix="/api", tags=["lobby"])


OFFSET_MAX = 1_000_000_000  # far past any real list, far below a 64-bit overflow in the database

REFUSALS = {
    404: {"model": Problem, "description": "No such match."},
    409: {"model": Problem, "description": "Full, started, finished, the name is taken, or (in a rematch) the "
          "free seats are kept for the previous players (`held`)."},
    422: {"model": Problem, "description": "Invalid request (unknown game, bad options or name)."},
}


@cache
def catalogue() -> list[dict]:
    """Every registered game with its options' JSON schema (built once: games are fixed
    for the life of the process)."""
    return [game.catalogue_entry() for game in registry.games().values()]


@router.get("/games", response_model=list[GameInfo], summary="The catalogue of games")
async def games() -> list[dict]:
    return catalogue()


@router.post("/matches", response_model=MatchCreated, status_code=status.HTTP_201_CREATED,
             responses={422: REFUSALS[422],
                        429: {"model": Problem, "description": "Too many matches created from your address "
                              "lately (`rate_limited`; see `Retry-After`)."},
                        503: {"model": Problem, "description": "As many matches of bots alone are running as "
                              "the server allows (`at_capacity`; see `Retry-After`)."}},
             summary="Create a match")
async def create_match(body: CreateMatch, request: Request, runtime: Runtime = Depends(runtime_of)) -> dict:
    """A match of ``game`` with ``players`` seats, the last ones bots: ``bots`` is how many
    (at the normal level) or the level of each (`easy`, `normal`, `hard`), in seat order.
    It starts when every seat is taken: at once if they are all bots. Each client address may create
    a few matches at once, then a steady trickle (429 with ``Retry-After`` past that)."""
    players = body.players
    if players is None:
        players = registry.games()[body.game].min_players if body.game in registry.games() else 0
    refused_as_invalid(body.game, players, body.options)  # an invalid request costs no creation
    refusal = runtime.limits.creation.take(client_address(request))
    if refusal is not None:
        raise RateLimited(refusal.reason, refusal.retry_after)
    record = await runtime.create(body.game, players, body.options, body.bots, rated=body.rated)
    return {"id": record.id, "match": summary_of(runtime, record)}


def refused_as_invalid(game_id: str, players: int, options: dict) -> None:
    """``Invalid`` (422) for an unknown game, a table it cannot seat or options its model
    rejects — before the request takes one of the address's creations."""
    try:
        game = registry.get(game_id)
        game.check_players(players)
        game.validate(players, game.options(options))
    except (UnknownGame, InvalidOptions) as exc:
        raise Invalid(str(exc.args[0] if exc.args else exc)) from None


def summary_of(runtime: Runtime, record: MatchRecord) -> dict:
    """The summary from memory when this process holds the match (it knows who is here)."""
    live = runtime.live.get(record.id)
    return live.summary() if live else summary(record)


@router.get("/matches", response_model=MatchPage, summary="List matches, newest first")
async def list_matches(
    status: Status | None = Query(None, description="open, running or finished"),
    game: str | None = Query(None, max_length=64),
    limit: int = Query(20, ge=1, le=100),
    offset: int = Query(0, ge=0, le=OFFSET_MAX),
    runtime: Runtime = Depends(runtime_of),
) -> dict:
    records, total = await runtime.list(status, game, limit, offset)
    items = [summary_of(runtime, r) for r in records]
    await with_ratings(runtime.store, records, items)
    return {"items": items, "total": total, "limit": limit, "offset": offset}


@router.get("/matches/{match_id}", response_model=MatchSummary, responses={404: REFUSALS[404]},
            summary="A match's public summary")
async def get_match(live: LiveMatch = Depends(live_match)) -> dict:
    await live.sync()
    return live.summary()


@router.post("/matches/{match_id}/join", response_model=Joined,
             responses={**REFUSALS, 403: {"model": Problem, "description": "The Bearer token is not for a seat "
                                          "of the match this one plays again, or the name belongs to an account "
                                          "you are not signed in as (`name_claimed`)."}},
             summary="Take a seat")
async def join(match_id: str, body: JoinRequest, runtime: Runtime = Depends(runtime_of),
               token: str | None = Depends(token_of),
               account: AccountRecord | None = Depends(account_of)) -> dict:
    """The next free seat, and its secret token (shown only now). The match starts when
    the last seat is taken. In a rematch, send your token of the match played again as
    ``Authorization: Bearer …``: it proves who you are and gives you your old seat. The
    previous players' seats are kept for them a while (409 ``held`` for anyone else).
    Signed in, you sit under your account's name and the seat is your account's (it opens
    on any device where you are signed in); a name an account claims is refused (403
    ``name_claimed``) to anyone not signed in as it."""
    await live_match(match_id, runtime)
    seat, token, live = await runtime.join(match_id, account.name if account else body.name, token,
                                           account_id=account.id if account else None)
    return {"seat": seat, "token": token, "match": live.summary()}


@router.post("/matches/{match_id}/rematch", response_model=MatchCreated, status_code=status.HTTP_201_CREATED,
             responses={200: {"model": MatchCreated, "description": "The rematch somebody set up already."},
                        401: {"model": Problem, "description": "No token."},
                        403: {"model": Problem, "description": "The token is not for a seat of this match."},
                        404: REFUSALS[404],
                        409: {"model": Problem, "description": "The match is not finished (`not_finished`)."}},
             summary="Play again: the rematch of a finished match")
async def rematch(response: Response, live: LiveMatch = Depends(live_match), token: str | None = Depends(token_of),
                  runtime: Runtime = Depends(runtime_of)) -> dict:
    """For a seat of this finished match (its Bearer token): a new match of the same game,
    options and number of players, with bots in the same seats (201). Every later call,
    by anyone seated, answers the same match (200); the old match's summary names it as
    ``rematch`` and its sockets receive that summary. Nobody is seated by this call: each
    player joins the rematch (``POST /api/matches/{rematch}/join``) and gets their old seat
    number back when they join under their old name."""
    await required_seat(live, token)
    record, created = await runtime.rematch(live)
    if not created:
        response.status_code = status.HTTP_200_OK
    return {"id": record.id, "match": summary_of(runtime, record)}
