"""Persistence: SQLAlchemy 2 tables, the async database, migrations and the repository.

Nothing here knows about games: a match is a game id, options, a seed, seats and an
append-only log of JSON actions keyed by ``(match_id, seq)``. What a client asked that
the store refuses is raised as one of ``server.problems`` (the family every layer uses).
"""

from .accounts import AccountNotFound, name_key
from .database import STORE_AWAY, Database, StoreUnusable, away_line, store_away
from .records import AccountRecord, ActionRecord, ChatRecord, MatchRecord, PasskeyRecord, RatingRecord, SeatRecord
from .repository import SeqTaken, Store

__all__ = [
    "AccountNotFound",
    "AccountRecord",
    "PasskeyRecord",
    "RatingRecord",
    "name_key",
    "ActionRecord",
    "ChatRecord",
    "Database",
    "STORE_AWAY",
    "StoreUnusable",
    "store_away",
    "away_line",
    "MatchRecord",
    "SeatRecord",
    "SeqTaken",
    "Store",
]
