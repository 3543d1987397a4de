"""Attempts limited per key across every process that shares the database: sign-ins per
name and per client address.

Each key is a GCRA (the generic cell rate algorithm, a token bucket kept as one number):
``tat``, when the key's next attempt is due. An attempt at ``now`` is allowed while
``tat - now`` stays within the burst, and moves ``tat`` on by one interval. Allowing it
is a single ``INSERT … ON CONFLICT DO UPDATE … WHERE``, so two processes racing for a
key's last attempt cannot both have it. Keys are kept as SHA-256 digests, and a row is
deleted once its time has passed (it then says no more than no row).
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

from sqlalchemy import case, delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from .database import Database
from .tables import AttemptRow

attempts = AttemptRow.__table__


@dataclass(frozen=True)
class Limit:
    """``burst`` attempts at once, then ``per_minute`` (0: unlimited)."""

    per_minute: float
    burst: int

    @property
    def interval_ms(self) -> float:
        return 60_000 / self.per_minute

    @property
    def tolerance_ms(self) -> float:
        return self.interval_ms * (max(1, self.burst) - 1)


def digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "backslashreplace")).hexdigest()


def _take(conn: Connection, key: str, limit: Limit, now: int) -> int | None:
    """Spend an attempt of ``key`` at ``now``: ``None``, or the seconds until it has one."""
    if limit.per_minute <= 0:
        return None
    step, key = math.ceil(limit.interval_ms), digest(key)
    insert = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
    allowed = conn.execute(
        insert(attempts).values(key=key, tat=now + step)
        .on_conflict_do_update(index_elements=[attempts.c.key],
                               set_={"tat": case((attempts.c.tat > now, attempts.c.tat), else_=now) + step},
                               where=attempts.c.tat <= now + int(limit.tolerance_ms))
        .returning(attempts.c.tat)).first()
    if allowed is not None:
        return None
    tat = conn.execute(select(attempts.c.tat).where(attempts.c.key == key)).scalar_one()
    return max(1, math.ceil((tat - limit.tolerance_ms - now) / 1000))


class Attempts:
    """The limited attempts of one ``Database``."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def take(self, keys: list[tuple[str, Limit]], now: int) -> int | None:
        """Spend one attempt of each key in turn, in one transaction, up to the first that
        has none left: ``None`` when all were allowed, else the seconds that key must wait
        (the keys before it are spent, those after it untouched)."""
        def work(conn: Connection) -> int | None:
            conn.execute(delete(attempts).where(attempts.c.tat < now))
            for key, limit in keys:
                wait = _take(conn, key, limit, now)
                if wait is not None:
                    return wait
            return None

        return await self.db.write(work)
