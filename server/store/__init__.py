"""Persistence: SQLAlchemy 2 tables, the async database, migrations and the repository.

Nothing here knows about games: a match is a game id, options, a seed, seats and an
append-only log of JSON actions keyed by ``(match_id, seq)``. What a client asked that
the store refuses is raised as one of ``server.problems`` (the family every layer uses).
"""

from .database import Database
from .records import ActionRecord, ChatRecord, MatchRecord, SeatRecord
from .repository import SeqTaken, Store

__all__ = [
    "ActionRecord",
    "ChatRecord",
    "Database",
    "MatchRecord",
    "SeatRecord",
    "SeqTaken",
    "Store",
]
