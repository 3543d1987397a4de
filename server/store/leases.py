"""Leases: which server process drives each running match.

A lease is a row lease in the database, in two parts, so that keeping every lease alive
costs one row write per process, however many matches it owns:

- ``processes``: each process pushes its own ``expires_at`` forward (``heartbeat``); it is
  alive while that is in the future. Every time is the *database's* clock, so processes
  on machines whose clocks disagree still agree on who is alive.
- ``match_owners``: a match's owner, written in the transaction that starts the match. A
  running match whose owner is dead (expired, or its row is gone) is an *orphan*, and so is
  one that has had no owner row for a whole lease (made before leases, or by hand); any
  process may ``claim`` it. A claim is one guarded ``UPDATE``
  (or an ``INSERT … ON CONFLICT DO NOTHING`` for a match never owned), so two processes
  claiming at once cannot both win, on PostgreSQL as on SQLite.

The lease only says who *does the work* (timers, bots, stand-ins); what *happened* is still
settled by the log's ``(match_id, seq)`` key. A process that lost its lease without
knowing yet can at worst lose a race for a ``seq``: it can never fork a match.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from sqlalchemy import and_, delete, func, insert, or_, select, text, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from .database import Database
from .tables import ActionRow, MatchRow, OwnerRow, ProcessRow

processes, owners = ProcessRow.__table__, OwnerRow.__table__
matches, actions = MatchRow.__table__, ActionRow.__table__

_NOW = {
    "postgresql": "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint",
    "sqlite": "SELECT CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)",
}
FORGET_DEAD_AFTER_MS = 3_600_000  # a dead process's row is deleted after an hour


def db_now(conn: Connection) -> int:
    """The database's clock, in ms since the epoch."""
    return int(conn.execute(text(_NOW[conn.dialect.name])).scalar_one())


@dataclass(frozen=True)
class Claim:
    """What a claim of one match found: whether this process owns it now, the process it
    was taken over from (a dead one; ``None`` if it had no owner), and the stand-ins."""

    match_id: str
    mine: bool
    taken_from: str | None
    standins: tuple[int, ...]


@dataclass(frozen=True)
class Share:
    """What a process should claim: ``orphans`` (oldest first, at most its fair share)."""

    orphans: list[str]
    alive: int
    owned: int


def _dead_owner(now: int) -> Any:
    """``match_owners.owner`` names a process that is not alive."""
    alive = select(processes.c.id).where(processes.c.expires_at > now)
    return and_(owners.c.owner.is_not(None), owners.c.owner.not_in(alive))


def _claim_one(conn: Connection, match_id: str, me: str, now: int) -> Claim:
    row = conn.execute(select(owners.c.owner, owners.c.standins).where(owners.c.match_id == match_id)).first()
    if row is None:
        done = conn.execute(_insert_if_absent(conn), {"match_id": match_id, "owner": me, "standins": [], "since": now})
        if done.rowcount == 1:
            return Claim(match_id, True, None, ())
        row = conn.execute(select(owners.c.owner, owners.c.standins).where(owners.c.match_id == match_id)).one()
    if row.owner == me:
        return Claim(match_id, True, None, tuple(row.standins))
    taken = conn.execute(
        update(owners)
        .where(owners.c.match_id == match_id, or_(owners.c.owner.is_(None), _dead_owner(now)))
        .values(owner=me, since=now)
    ).rowcount
    previous = row.owner if taken == 1 else None
    if taken != 1:  # alive elsewhere (or claimed a moment ago): read what the owner says
        row = conn.execute(select(owners.c.owner, owners.c.standins).where(owners.c.match_id == match_id)).one()
    return Claim(match_id, taken == 1, previous, tuple(row.standins))


def _insert_if_absent(conn: Connection) -> Any:
    """``INSERT … ON CONFLICT DO NOTHING`` into ``match_owners`` (both dialects have it)."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    return dialect.insert(owners).on_conflict_do_nothing(index_elements=["match_id"])


def own_new_match(conn: Connection, match_id: str, me: str) -> None:
    """In the transaction that starts ``match_id``: ``me`` drives it from the start."""
    conn.execute(insert(owners).values(match_id=match_id, owner=me, standins=[], since=db_now(conn)))


class Leases:
    """The lease operations of one process (``me``), each one transaction."""

    def __init__(self, db: Database, me: str, ttl_ms: int) -> None:
        self.db, self.me, self.ttl_ms = db, me, ttl_ms

    async def heartbeat(self) -> dict[str, int]:
        """Stay alive for another ``ttl_ms``; returns every match this process owns with the
        newest ``seq`` in its log (0: none yet) — what it must catch up with even when it
        hears nothing from the others."""

        def work(conn: Connection) -> dict[str, int]:
            now = db_now(conn)
            values = {"expires_at": now + self.ttl_ms}
            if not conn.execute(update(processes).where(processes.c.id == self.me).values(values)).rowcount:
                conn.execute(insert(processes).values(id=self.me, started_at=now, **values))
            conn.execute(delete(processes).where(processes.c.expires_at < now - FORGET_DEAD_AFTER_MS))
            newest = (select(func.coalesce(func.max(actions.c.seq), 0))
                      .where(actions.c.match_id == owners.c.match_id).scalar_subquery())
            rows = conn.execute(select(owners.c.match_id, newest).where(owners.c.owner == self.me)).all()
            return {match_id: int(seq) for match_id, seq in rows}

        return await self.db.write(work)

    async def claim(self, match_ids: Iterable[str]) -> list[Claim]:
        """Take each match unless a live process owns it (a match never owned, released or
        whose owner is dead is taken); this process's own are confirmed."""
        ids = list(match_ids)

        def work(conn: Connection) -> list[Claim]:
            now = db_now(conn)
            return [_claim_one(conn, match_id, self.me, now) for match_id in ids]

        return await self.db.write(work) if ids else []

    async def share(self, limit: int) -> Share:
        """The orphans this process should claim now: running matches with no live owner,
        oldest first, no more than bring it to its fair share (the matches needing an
        owner divided by the live processes) and at most ``limit``."""

        def work(conn: Connection) -> Share:
            now = db_now(conn)
            others = conn.execute(select(func.count()).select_from(processes).where(
                processes.c.expires_at > now, processes.c.id != self.me)).scalar_one()
            alive = int(others) + 1
            joined = matches.outerjoin(owners, owners.c.match_id == matches.c.id)
            never_owned = and_(owners.c.match_id.is_(None), matches.c.started_at < now - self.ttl_ms)
            orphan = or_(never_owned, _dead_owner(now))
            running = matches.c.status == "running"
            need = conn.execute(select(func.count()).select_from(joined).where(
                running, or_(orphan, owners.c.owner.is_not(None)))).scalar_one()
            mine = conn.execute(select(func.count()).select_from(joined).where(
                running, owners.c.owner == self.me)).scalar_one()
            room = min(limit, -(-int(need) // alive) - int(mine))
            ids = [] if room <= 0 else conn.execute(
                select(matches.c.id).select_from(joined).where(running, orphan)
                .order_by(matches.c.created_at, matches.c.id).limit(room)).scalars().all()
            return Share(list(ids), alive, int(mine))

        return await self.db.read(work)

    async def release(self, match_id: str) -> None:
        """Nothing to drive: give the match up until somebody opens it (no sweep claims it)."""
        await self.db.write(lambda conn: conn.execute(
            update(owners).where(owners.c.match_id == match_id, owners.c.owner == self.me)
            .values(owner=None, since=db_now(conn))))

    async def sleep(self, match_id: str, wake_at: int, wake_seq: int) -> None:
        """This process lets ``match_id`` leave memory but keeps driving it: it must be
        loaded again at ``wake_at`` (its deadline, game ms), or once its log is past
        ``wake_seq``."""
        await self.db.write(lambda conn: conn.execute(
            update(owners).where(owners.c.match_id == match_id, owners.c.owner == self.me)
            .values(wake_at=wake_at, wake_seq=wake_seq)))

    async def wakes(self, match_ids: Iterable[str]) -> dict[str, tuple[int, int, int]]:
        """Of ``match_ids``, the ones put to sleep: ``(wake_at, wake_seq, seq)`` with the
        newest ``seq`` of the log (a sleeping match whose log moved must wake)."""
        ids = list(match_ids)

        def work(conn: Connection) -> dict[str, tuple[int, int, int]]:
            newest = (select(func.coalesce(func.max(actions.c.seq), 0))
                      .where(actions.c.match_id == owners.c.match_id).scalar_subquery())
            rows = conn.execute(select(owners.c.match_id, owners.c.wake_at, owners.c.wake_seq, newest).where(
                owners.c.match_id.in_(ids), owners.c.wake_at.is_not(None))).all()
            return {m: (int(at), int(ws), int(seq)) for m, at, ws, seq in rows}

        return await self.db.read(work) if ids else {}

    async def set_standins(self, match_id: str, seats: Iterable[int]) -> None:
        """The owner says which human seats stand-ins play now."""
        await self.db.write(lambda conn: conn.execute(
            update(owners).where(owners.c.match_id == match_id, owners.c.owner == self.me)
            .values(standins=sorted(seats))))

    async def retire(self) -> None:
        """This process stops: it is dead at once, and its matches orphans for the others."""
        await self.db.write(lambda conn: conn.execute(
            update(processes).where(processes.c.id == self.me).values(expires_at=0)))
