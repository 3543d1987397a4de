"""Rows of ``matches`` and ``seats`` as the records the layers above get."""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from sqlalchemy import Row, select
from sqlalchemy.engine import Connection

from .records import MatchRecord, SeatRecord
from .tables import SeatRow

seats = SeatRow.__table__


def seat_record(row: Row[Any]) -> SeatRecord:
    return SeatRecord(row.seat, row.name, row.bot, row.token_hash, row.joined_at, row.bot_level, row.account_id)


def match_record(row: Row[Any], seat_rows: Iterable[Row[Any]] = ()) -> MatchRecord:
    return MatchRecord(
        id=row.id, game=row.game, options=dict(row.options), players=row.players, bots=row.bots,
        seed=row.seed, status=row.status, created_at=row.created_at, started_at=row.started_at,
        finished_at=row.finished_at, result=row.result,
        seats=tuple(sorted((seat_record(s) for s in seat_rows), key=lambda s: s.seat)), rematch_id=row.rematch_id,
        rated=row.rated,
    )


def with_seats(conn: Connection, rows: Sequence[Row[Any]]) -> list[MatchRecord]:
    """The records of these ``matches`` rows, with their seats (one query for all)."""
    by_match: dict[str, list[Row[Any]]] = {r.id: [] for r in rows}
    if rows:
        for s in conn.execute(select(seats).where(seats.c.match_id.in_(list(by_match)))).all():
            by_match[s.match_id].append(s)
    return [match_record(r, by_match[r.id]) for r in rows]
