"""The repository: every read and write the server makes, one transaction each.

Writes that can race are arbitrated by the database, never by this process alone:
- an action row's key is ``(match_id, seq)``; a second writer for the same ``seq`` gets
  ``SeqTaken`` and nothing of its transaction is kept;
- a join first increments ``matches.humans_joined`` with a guarded ``UPDATE`` (row lock on
  PostgreSQL, the write lock on SQLite), so concurrent joins take distinct seats and exactly
  one of them starts the match.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError

from .database import Database
from .records import ActionRecord, ChatRecord, MatchRecord, SeatRecord
from .tables import ActionRow, ChatRow, MatchRow, SeatRow, SnapshotRow


class MatchNotFound(LookupError):
    """No match has this id."""


class MatchNotOpen(RuntimeError):
    """The match has started or finished: nobody can join it any more."""


class MatchFull(RuntimeError):
    """Every human seat of the match is taken."""


class NameTaken(ValueError):
    """Somebody at this table already has this name."""


class SeqTaken(RuntimeError):
    """Another writer committed an action at this ``seq`` first."""


def _seat(row: SeatRow) -> SeatRecord:
    return SeatRecord(row.seat, row.name, row.bot, row.token_hash, row.joined_at)


def _match(row: MatchRow, seats: Iterable[SeatRow] = ()) -> MatchRecord:
    return MatchRecord(
        id=row.id, game=row.game, options=dict(row.options), players=row.players, bots=row.bots,
        seed=row.seed, status=row.status, created_at=row.created_at, started_at=row.started_at,
        finished_at=row.finished_at, result=row.result,
        seats=tuple(sorted((_seat(s) for s in seats), key=lambda s: s.seat)),
    )


class Store:
    """Matches, seats, the action log, snapshots and chat, on one ``Database``."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # ---- matches and seats -----------------------------------------------------------
    async def create_match(self, *, id: str, game: str, options: dict[str, Any], players: int,
                           bot_names: Sequence[str], seed: int, now: int) -> MatchRecord:
        """A new match whose last ``len(bot_names)`` seats are bots; with no human seat it is
        running at once (``started_at = now``)."""
        bots = len(bot_names)
        full = bots == players
        row = MatchRow(id=id, game=game, options=options, players=players, bots=bots, humans_joined=0,
                       seed=seed, status="running" if full else "open", created_at=now,
                       started_at=now if full else None)
        seats = [SeatRow(match_id=id, seat=players - bots + i, name=name, token_hash=None, bot=True,
                         joined_at=now) for i, name in enumerate(bot_names)]
        async with self.db.sessions.begin() as session:
            session.add(row)
            await session.flush()
            session.add_all(seats)
        return _match(row, seats)

    async def get_match(self, match_id: str) -> MatchRecord:
        async with self.db.sessions() as session:
            row = await session.get(MatchRow, match_id)
            if row is None:
                raise MatchNotFound(match_id)
            seats = (await session.scalars(select(SeatRow).where(SeatRow.match_id == match_id))).all()
            return _match(row, seats)

    async def join(self, match_id: str, name: str, token_hash: str, now: int) -> tuple[int, MatchRecord]:
        """Claim the next human seat for ``name``; the last one starts the match at ``now``.
        Raises ``MatchNotFound``, ``MatchNotOpen``, ``MatchFull`` or ``NameTaken``."""
        async with self.db.sessions.begin() as session:
            claimed = (await session.execute(
                update(MatchRow)
                .where(MatchRow.id == match_id, MatchRow.status == "open",
                       MatchRow.humans_joined < MatchRow.players - MatchRow.bots)
                .values(humans_joined=MatchRow.humans_joined + 1)
                .returning(MatchRow.humans_joined, MatchRow.players, MatchRow.bots)
            )).first()
            if claimed is None:
                row = await session.get(MatchRow, match_id)
                if row is None:
                    raise MatchNotFound(match_id)
                raise MatchNotOpen(match_id) if row.status != "open" else MatchFull(match_id)
            joined, players, bots = claimed
            taken = await session.scalar(select(func.count()).select_from(SeatRow).where(
                SeatRow.match_id == match_id, SeatRow.name == name))
            if taken:
                raise NameTaken(name)
            seat = joined - 1
            session.add(SeatRow(match_id=match_id, seat=seat, name=name, token_hash=token_hash,
                                bot=False, joined_at=now))
            if joined == players - bots:
                await session.execute(update(MatchRow).where(MatchRow.id == match_id)
                                      .values(status="running", started_at=now))
            await session.flush()
        return seat, await self.get_match(match_id)

    async def list_matches(self, *, status: str | None = None, game: str | None = None,
                           limit: int = 20, offset: int = 0) -> tuple[list[MatchRecord], int]:
        """A page of matches, newest first, and how many match the filters in all."""
        where = []
        if status:
            where.append(MatchRow.status == status)
        if game:
            where.append(MatchRow.game == game)
        async with self.db.sessions() as session:
            total = await session.scalar(select(func.count()).select_from(MatchRow).where(*where)) or 0
            rows = (await session.scalars(
                select(MatchRow).where(*where)
                .order_by(MatchRow.created_at.desc(), MatchRow.id).limit(limit).offset(offset)
            )).all()
            seats: dict[str, list[SeatRow]] = {r.id: [] for r in rows}
            if rows:
                for s in (await session.scalars(select(SeatRow).where(SeatRow.match_id.in_(list(seats))))).all():
                    seats[s.match_id].append(s)
            return [_match(r, seats[r.id]) for r in rows], total

    # ---- the log ---------------------------------------------------------------------
    async def append_action(self, match_id: str, seq: int, seat: int | None, action: dict[str, Any],
                            at: int, result: dict[str, Any] | None = None) -> None:
        """Commit the action at ``seq``; with ``result`` the same transaction marks the match
        finished. Raises ``SeqTaken`` if that ``seq`` exists (nothing is written)."""
        try:
            async with self.db.sessions.begin() as session:
                session.add(ActionRow(match_id=match_id, seq=seq, seat=seat, action=action, at=at))
                await session.flush()
                if result is not None:
                    await session.execute(update(MatchRow).where(MatchRow.id == match_id)
                                          .values(status="finished", finished_at=at, result=result))
        except IntegrityError as exc:
            raise SeqTaken(f"{match_id}#{seq}") from exc

    async def actions(self, match_id: str, after: int = 0) -> list[ActionRecord]:
        """The log after ``seq = after``, in order."""
        async with self.db.sessions() as session:
            rows = (await session.execute(
                select(ActionRow.seq, ActionRow.seat, ActionRow.action, ActionRow.at)
                .where(ActionRow.match_id == match_id, ActionRow.seq > after).order_by(ActionRow.seq)
            )).all()
        return [ActionRecord(seq, seat, action, at) for seq, seat, action, at in rows]

    # ---- snapshots -------------------------------------------------------------------
    async def save_snapshot(self, match_id: str, seq: int, code: str, state: bytes, at: int) -> None:
        """Keep a state after ``seq`` actions (a second save of the same ``seq`` is ignored)."""
        try:
            async with self.db.sessions.begin() as session:
                session.add(SnapshotRow(match_id=match_id, seq=seq, code=code, state=state, at=at))
        except IntegrityError:
            pass

    async def latest_snapshot(self, match_id: str, code: str) -> tuple[int, bytes, int] | None:
        """The newest snapshot made by code with this fingerprint, as ``(seq, state, at)``."""
        async with self.db.sessions() as session:
            row = (await session.execute(
                select(SnapshotRow.seq, SnapshotRow.state, SnapshotRow.at)
                .where(SnapshotRow.match_id == match_id, SnapshotRow.code == code)
                .order_by(SnapshotRow.seq.desc()).limit(1)
            )).first()
        return None if row is None else (row[0], row[1], row[2])

    # ---- chat ------------------------------------------------------------------------
    async def add_chat(self, match_id: str, line: ChatRecord) -> None:
        async with self.db.sessions.begin() as session:
            session.add(ChatRow(match_id=match_id, seat=line.seat, name=line.name, text=line.text, at=line.at))

    async def chat(self, match_id: str, limit: int = 50) -> list[ChatRecord]:
        """The last ``limit`` chat lines, oldest first."""
        async with self.db.sessions() as session:
            rows = (await session.scalars(
                select(ChatRow).where(ChatRow.match_id == match_id).order_by(ChatRow.id.desc()).limit(limit)
            )).all()
        return [ChatRecord(r.seat, r.name, r.text, r.at) for r in reversed(rows)]
