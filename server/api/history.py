"""REST: match history by player name — the finished matches a name played, and how often
it won each game.

A name an account claims is that account's history: the seats it took, under this name or
any it had before a rename (nobody else can sit down under a claimed name). Any other name
is not identity: anybody may sit down under it, so its history is a name's, which several
people may share (or one person may spread over several names).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from fastapi import APIRouter, Depends, Path, Query
from pydantic import BaseModel, Field

from server.runtime import Runtime
from server.runtime.hub import NAME_MAX, clean_name
from server.store import MatchRecord

from .auth import runtime_of
from .lobby import OFFSET_MAX
from .replays import NamedSeat
from .schemas import Problem

router = APIRouter(prefix="/api/players/{name}", tags=["history"])

REFUSALS = {422: {"model": Problem, "description": "Not a name a player could have."}}
NameParam = Path(min_length=1, max_length=4 * NAME_MAX, description="A player's name as they typed it.")


class PlayedMatch(BaseModel):
    id: str
    game: str
    started_at: int | None
    finished_at: int | None
    seat: int = Field(description="The seat this name had.")
    seats: list[NamedSeat]
    result: dict[str, Any] | None
    won: bool = Field(description="This name's seat is among the winners.")
    replay: str = Field(description="The replay page of the match.")


ACCOUNT = Field(description="The name belongs to an account: this is the account's history, under every "
                "name it had (else the history of the name as typed at seats).")


class PlayedPage(BaseModel):
    name: str = Field(description="The account's name, or the name asked for.")
    account: bool = ACCOUNT
    items: list[PlayedMatch]
    total: int
    limit: int
    offset: int


class GameTally(BaseModel):
    game: str
    played: int
    won: int


class PlayerTally(BaseModel):
    name: str = Field(description="The account's name, or the name asked for.")
    account: bool = ACCOUNT
    played: int
    won: int
    games: list[GameTally] = Field(description="Per game, most played first.")


def won(seat: int, result: dict[str, Any] | None) -> bool:
    return bool(result) and seat in (result.get("winners") or [])


def played(record: MatchRecord, seat: int) -> dict[str, Any]:
    return {
        "id": record.id, "game": record.game, "started_at": record.started_at,
        "finished_at": record.finished_at, "seat": seat,
        "seats": [{"seat": s.seat, "name": s.name, "bot": s.bot} for s in record.seats],
        "result": record.result, "won": won(seat, record.result), "replay": f"/matches/{record.id}/replay",
    }


async def whose(runtime: Runtime, raw: str) -> tuple[str, int | None]:
    """The name as the lobby trims it and the account that claims it, if any (then its
    name as the account spells it)."""
    name = clean_name(raw)
    account = await runtime.store.accounts.named(name)
    return (account.name, account.id) if account else (name, None)


@router.get("/matches", response_model=PlayedPage, responses=REFUSALS,
            summary="The finished matches a name played, newest first")
async def matches_of(name: str = NameParam, limit: int = Query(20, ge=1, le=100), offset: int = Query(0, ge=0, le=OFFSET_MAX),
                     runtime: Runtime = Depends(runtime_of)) -> dict[str, Any]:
    """Finished matches where a human seat had this name (spaces as the lobby trims them),
    or, for a name an account claims, the account's seats under any of its names; the most
    recently finished first: game, dates, seats, result, and whether it won."""
    name, account_id = await whose(runtime, name)
    rows, total = await runtime.store.played_by(name, account_id=account_id, limit=limit, offset=offset)
    return {"name": name, "account": account_id is not None, "items": [played(r, seat) for r, seat in rows],
            "total": total, "limit": limit, "offset": offset}


@router.get("", response_model=PlayerTally, responses=REFUSALS, summary="How often a name played and won, per game")
async def tally_of(name: str = NameParam, runtime: Runtime = Depends(runtime_of)) -> dict[str, Any]:
    """Finished matches and wins under this name (or of the account that claims it), per game."""
    name, account_id = await whose(runtime, name)
    results = await runtime.store.results_of(name, account_id)
    games = Counter(game for game, _, _ in results)
    wins = Counter(game for game, seat, result in results if won(seat, result))
    return {"name": name, "account": account_id is not None, "played": len(results), "won": sum(wins.values()),
            "games": [{"game": g, "played": n, "won": wins[g]} for g, n in games.most_common()]}
