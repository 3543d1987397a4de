"""Ratings in the database: derived from finished matches, inside the transaction that
records the result (``rate_finished``), and read for leaderboards and charts.

A finished match is rated once: the transaction that commits its last action is the only
one that can mark it finished (only one writer wins a ``seq``), and it rates it; replaying
a log never writes. Ratings are folded in the order the matches ended (``finished_at``,
then the match id), not the order their transactions committed: a match that commits after
one that ended later (two processes, two clocks) is slotted in, and the matches after it
are rated again from there. So the ratings after any set of finished matches are the same
whatever order the processes saw them end. The matches of one game are rated one at a
time (an advisory lock on PostgreSQL; SQLite has one writer).
"""

from __future__ import annotations

import logging
import zlib
from typing import Any, Mapping

from sqlalchemy import and_, delete, func, insert, or_, select, text, update
from sqlalchemy.engine import Connection

from . import skill
from .database import Database
from .records import RatingRecord
from .tables import AccountRow, MatchRow, RatedMatchRow, RatingChangeRow, RatingRow, SeatRow

log = logging.getLogger(__name__)

accounts, matches, seats = AccountRow.__table__, MatchRow.__table__, SeatRow.__table__
ratings, rated_matches, changes = RatingRow.__table__, RatedMatchRow.__table__, RatingChangeRow.__table__


def entrants(conn: Connection, match_id: str) -> dict[int, skill.Entrant]:
    """The seats that take part in rating a match: accounts, and bots at their level."""
    rows = conn.execute(select(seats.c.seat, seats.c.account_id, seats.c.bot, seats.c.bot_level)
                        .where(seats.c.match_id == match_id)).all()
    out: dict[int, skill.Entrant] = {}
    for row in rows:
        if row.account_id is not None:
            out[row.seat] = ("account", row.account_id)
        elif row.bot:
            out[row.seat] = ("bot", row.bot_level or "normal")
    return out


def rate_finished(conn: Connection, match_id: str, finished_at: int, result: Mapping[str, Any]) -> None:
    """Rate the match that this transaction has just marked finished (if it is rated)."""
    match = conn.execute(select(matches.c.game, matches.c.rated).where(matches.c.id == match_id)).first()
    if match is None or not match.rated:
        return
    played = skill.table(result, entrants(conn, match_id))
    if played is None:
        return
    game = match.game
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": zlib.crc32(f"ratings:{game}".encode())})
    conn.execute(insert(rated_matches).values(match_id=match_id, game=game, finished_at=finished_at,
                                              **played.to_json()))
    refold(conn, game, finished_at, match_id)


def rate_or_log(conn: Connection, match_id: str, finished_at: int, result: Mapping[str, Any]) -> None:
    """``rate_finished`` in a savepoint: a rating that fails is logged and left out, and
    the match ends all the same (its players' move is never refused for a rating)."""
    try:
        with conn.begin_nested():
            rate_finished(conn, match_id, finished_at, result)
    except Exception:
        log.exception("match %s could not be rated; it ends unrated", match_id)


def _from(finished_at: int, match_id: str, table: Any) -> Any:
    """Rows at or after ``(finished_at, match_id)`` in the order of the fold."""
    return or_(table.c.finished_at > finished_at,
               and_(table.c.finished_at == finished_at, table.c.match_id >= match_id))


def refold(conn: Connection, game: str, finished_at: int, match_id: str) -> None:
    """Rate again every rated match of ``game`` from ``(finished_at, match_id)`` on (just
    that one, unless a later one committed first), from its accounts' ratings before it."""
    tail = conn.execute(select(rated_matches).where(rated_matches.c.game == game,
                                                    _from(finished_at, match_id, rated_matches))
                        .order_by(rated_matches.c.finished_at, rated_matches.c.match_id)).all()
    tables = [skill.Table.from_json(r.teams, r.ranks) for r in tail]
    involved = sorted({a for t in tables for a in t.accounts()})
    start = _ratings_before(conn, game, involved, finished_at, match_id)
    conn.execute(delete(changes).where(changes.c.match_id.in_([r.match_id for r in tail])))
    latest: dict[int, tuple[skill.Rating, int]] = {}
    for row, after in zip(tail, skill.fold(game, start, tables)):
        conn.execute(insert(changes), [
            {"account_id": a, "match_id": row.match_id, "game": game, "finished_at": row.finished_at,
             "mu": r.mu, "sigma": r.sigma} for a, r in sorted(after.items())])
        latest.update({a: (r, row.finished_at) for a, r in after.items()})
    counts = dict(conn.execute(select(changes.c.account_id, func.count())
                               .where(changes.c.game == game, changes.c.account_id.in_(involved))
                               .group_by(changes.c.account_id)).all())
    for account_id, (r, at) in sorted(latest.items()):
        values = {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal, "matches": counts[account_id], "updated_at": at}
        done = conn.execute(update(ratings).where(ratings.c.account_id == account_id, ratings.c.game == game)
                            .values(**values))
        if done.rowcount == 0:
            conn.execute(insert(ratings).values(account_id=account_id, game=game, **values))


def _ratings_before(conn: Connection, game: str, involved: list[int], finished_at: int,
                    match_id: str) -> dict[int, skill.Rating]:
    """Each account's rating after its last rated match of ``game`` ending before
    ``(finished_at, match_id)``."""
    if not involved:
        return {}
    before = (changes.c.game == game, changes.c.account_id.in_(involved),
              ~_from(finished_at, match_id, changes))
    rows = conn.execute(select(changes.c.account_id, changes.c.finished_at, changes.c.match_id,
                               changes.c.mu, changes.c.sigma).where(*before)
                        .order_by(changes.c.account_id, changes.c.finished_at, changes.c.match_id)).all()
    return {row.account_id: skill.Rating(row.mu, row.sigma) for row in rows}  # the last row of each wins


# ---- reading --------------------------------------------------------------------------
class Ratings:
    """The readers of one ``Database``'s ratings."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def leaderboard(self, game: str, limit: int = 20, offset: int = 0) -> tuple[list[RatingRecord], int]:
        return await self.db.read(lambda conn: leaderboard(conn, game, limit, offset))

    async def of(self, account_ids: list[int], game: str | None = None) -> list[RatingRecord]:
        return await self.db.read(lambda conn: ratings_of(conn, account_ids, game))

    async def chart(self, account_id: int) -> list[tuple[str, str, int, float, float]]:
        return await self.db.read(lambda conn: chart_of(conn, account_id))


def _record(row: Any) -> RatingRecord:
    return RatingRecord(row.game, row.mu, row.sigma, row.matches, row.updated_at, row.account_id, row.name)


def leaderboard(conn: Connection, game: str, limit: int, offset: int) -> tuple[list[RatingRecord], int]:
    """A page of the game's rated accounts, best first, and how many there are."""
    where = ratings.c.game == game
    total = conn.execute(select(func.count()).select_from(ratings).where(where)).scalar() or 0
    rows = conn.execute(select(ratings, accounts.c.name).join(accounts, accounts.c.id == ratings.c.account_id)
                        .where(where).order_by(ratings.c.ordinal.desc(), accounts.c.name_key)
                        .limit(limit).offset(offset)).all()
    return [_record(r) for r in rows], total


def ratings_of(conn: Connection, account_ids: list[int], game: str | None = None) -> list[RatingRecord]:
    """The ratings of these accounts (in every game, or one)."""
    if not account_ids:
        return []
    where = [ratings.c.account_id.in_(account_ids)]
    if game is not None:
        where.append(ratings.c.game == game)
    rows = conn.execute(select(ratings, accounts.c.name).join(accounts, accounts.c.id == ratings.c.account_id)
                        .where(*where).order_by(ratings.c.matches.desc(), ratings.c.game)).all()
    return [_record(r) for r in rows]


def chart_of(conn: Connection, account_id: int) -> list[tuple[str, str, int, float, float]]:
    """``(game, match_id, finished_at, mu, sigma)`` after each rated match, oldest first."""
    rows = conn.execute(select(changes.c.game, changes.c.match_id, changes.c.finished_at, changes.c.mu,
                               changes.c.sigma).where(changes.c.account_id == account_id)
                        .order_by(changes.c.finished_at, changes.c.match_id)).all()
    return [tuple(r) for r in rows]  # type: ignore[misc]
