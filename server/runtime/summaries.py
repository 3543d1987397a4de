"""The public summary of a match (lobby lists, ``GET /api/matches/{id}``, the WebSocket
``match`` message). It never contains tokens or the seed of an unfinished match."""

from __future__ import annotations

from typing import Any, Collection

from server.store import MatchRecord


def summary(record: MatchRecord, seq: int | None = None, connected: Collection[int] = (),
            standins: Collection[int] = ()) -> dict[str, Any]:
    """``connected``: seats with a socket open on this server; ``standins``: human seats a
    stand-in bot plays right now."""
    return {
        "id": record.id,
        "game": record.game,
        "status": record.status,
        "players": record.players,
        "bots": record.bots,
        "open_seats": record.players - len(record.seats),
        "seats": [{"seat": s.seat, "name": s.name, "bot": s.bot, "level": s.level if s.bot else None,
                   "connected": s.seat in connected, "standin": s.seat in standins,
                   "account": s.account_id is not None} for s in record.seats],
        "options": record.options,
        "created_at": record.created_at,
        "started_at": record.started_at,
        "finished_at": record.finished_at,
        "result": record.result,
        "seq": seq,
        "rematch": record.rematch_id,
        "rated": record.rated,
    }
