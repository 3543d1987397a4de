"""REST: ratings — a game's leaderboard, an account's ratings and their history (the points
of its chart), and the ratings of the seats of a match. A rating is OpenSkill's μ and σ;
``rating`` is μ − 3σ (a newcomer's is 0), what leaderboards sort by. Bots show the fixed
rating of their level."""

from __future__ import annotations

from typing import Any, Iterable

from fastapi import APIRouter, Depends, Path, Query
from pydantic import BaseModel, Field

from server.engine import registry
from server.runtime import LiveMatch, Runtime, UnknownMatch
from server.runtime.hub import NAME_MAX, clean_name
from server.store import MatchRecord, RatingRecord, Store
from server.store.skill import Rating, bot_rating

from .auth import live_match, runtime_of
from .schemas import Problem

router = APIRouter(prefix="/api", tags=["ratings"])


class Standing(BaseModel):
    rank: int = Field(description="1 for the best.")
    name: str
    rating: float = Field(description="μ − 3σ.")
    mu: float
    sigma: float
    matches: int
    updated_at: int = Field(description="When its last rated match ended (ms).")


class Leaderboard(BaseModel):
    game: str
    items: list[Standing]
    total: int
    limit: int
    offset: int


class GameRating(BaseModel):
    game: str
    rating: float
    mu: float
    sigma: float
    matches: int
    updated_at: int


class ChartPoint(BaseModel):
    game: str
    match: str
    at: int = Field(description="When the match ended (ms).")
    rating: float
    mu: float
    sigma: float


class PlayerRatings(BaseModel):
    name: str = Field(description="The account's name, or the name asked for.")
    account: bool = Field(description="The name belongs to an account (else nobody is rated under it).")
    ratings: list[GameRating]
    chart: list[ChartPoint] = Field(description="The rating after each rated match, oldest first.")


class SeatRating(BaseModel):
    seat: int
    rating: float
    mu: float
    sigma: float
    matches: int | None = Field(description="Rated matches (null for a bot's fixed rating).")
    bot: bool


def _rating(mu: float, sigma: float) -> float:
    return round(mu - 3 * sigma, 2)


@router.get("/games/{game}/leaderboard", response_model=Leaderboard,
            responses={404: {"model": Problem, "description": "No such game."}}, summary="A game's leaderboard")
async def leaderboard(game: str = Path(max_length=64), limit: int = Query(20, ge=1, le=100),
                      offset: int = Query(0, ge=0, le=1_000_000_000),
                      runtime: Runtime = Depends(runtime_of)) -> dict[str, Any]:
    """The accounts rated in ``game``, best first (by μ − 3σ)."""
    if game not in registry.games():
        raise UnknownMatch(f"There is no game {game[:64]!r}.")
    rows, total = await runtime.store.ratings.leaderboard(game, limit, offset)
    items = [{"rank": offset + i + 1, "name": r.name, **r.to_json()} for i, r in enumerate(rows)]
    return {"game": game, "items": items, "total": total, "limit": limit, "offset": offset}


@router.get("/players/{name}/ratings", response_model=PlayerRatings,
            responses={422: {"model": Problem, "description": "Not a name a player could have."}},
            summary="An account's ratings and their history")
async def player_ratings(name: str = Path(min_length=1, max_length=4 * NAME_MAX),
                         runtime: Runtime = Depends(runtime_of)) -> dict[str, Any]:
    name = clean_name(name)
    account = await runtime.store.accounts.named(name)
    if account is None:
        return {"name": name, "account": False, "ratings": [], "chart": []}
    ratings = await runtime.store.ratings.of([account.id])
    chart = await runtime.store.ratings.chart(account.id)
    return {"name": account.name, "account": True, "ratings": [r.to_json() for r in ratings],
            "chart": [{"game": g, "match": m, "at": at, "rating": _rating(mu, sigma), "mu": round(mu, 3),
                       "sigma": round(sigma, 3)} for g, m, at, mu, sigma in chart]}


@router.get("/matches/{match_id}/ratings", response_model=list[SeatRating],
            responses={404: {"model": Problem, "description": "No such match."}},
            summary="The ratings of a match's seats, now")
async def match_ratings(live: LiveMatch = Depends(live_match), runtime: Runtime = Depends(runtime_of)) -> list[dict]:
    """Each seat of an account (its rating in this game now) and each bot (its level's
    fixed rating); seats without an account are left out."""
    await live.sync()
    return seat_ratings(live.record, await _current(runtime.store, [live.record]))


async def _current(store: Store, records: Iterable[MatchRecord]) -> dict[tuple[int, str], RatingRecord]:
    records = list(records)
    ids = sorted({s.account_id for r in records for s in r.seats if s.account_id is not None})
    return {(r.account_id, r.game): r for r in await store.ratings.of(ids)}


def seat_ratings(record: MatchRecord, current: dict[tuple[int, str], RatingRecord]) -> list[dict[str, Any]]:
    out = []
    for s in record.seats:
        if s.bot:
            anchor = bot_rating(record.game, s.level or "normal")
            out.append({"seat": s.seat, "rating": _rating(anchor.mu, anchor.sigma), "mu": anchor.mu,
                        "sigma": anchor.sigma, "matches": None, "bot": True})
        elif s.account_id is not None:
            r = current.get((s.account_id, record.game))
            mu, sigma, n = (r.mu, r.sigma, r.matches) if r else (Rating().mu, Rating().sigma, 0)
            out.append({"seat": s.seat, "rating": _rating(mu, sigma), "mu": round(mu, 3), "sigma": round(sigma, 3),
                        "matches": n, "bot": False})
    return out


async def with_ratings(store: Store, records: list[MatchRecord], summaries: list[dict[str, Any]]) -> None:
    """Put each seat's rating (as ``seat_ratings``) into the summaries of ``records``."""
    current = await _current(store, records)
    for record, summary in zip(records, summaries):
        by_seat = {r["seat"]: r["rating"] for r in seat_ratings(record, current)}
        for seat in summary["seats"]:
            seat["rating"] = by_seat.get(seat["seat"])
