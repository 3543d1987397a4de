"""The repository: every read and write the server makes, one transaction each.

Writes that can race are arbitrated by the database, never by this process alone:
- an action row's key is ``(match_id, seq)``; a second writer for the same ``seq`` gets
  ``SeqTaken`` and nothing of its transaction is kept;
- a join first increments ``matches.humans_joined`` with a guarded ``UPDATE`` (row lock on
  PostgreSQL, the write lock on SQLite), so concurrent joins take distinct seats and exactly
  one of them starts the match;
- a rematch first sets the finished match's ``rematch_id`` with a guarded ``UPDATE`` (the
  same locks), so concurrent requests create one rematch and all get it.

The write that starts a match (creating an all-bot one, or the last join) can name its
``owner``: the process that will drive it owns it from the same transaction, so no other
process ever sees it running without an owner (see ``leases``).
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any, Iterable, Sequence

from sqlalchemy import JSON, Text, bindparam, cast, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from server.problems import AlreadySeated, MatchFull, MatchOver, NameClaimed, NameTaken, NotFinished, NotYourSeat, SeatsHeld, UnknownMatch

from .database import Database
from .accounts import Accounts, claimant
from .attempts import Attempts
from .mail import MailAddresses
from .leases import own_new_match
from .ratings import Ratings, rate_or_log
from .records import ActionRecord, ChatRecord, MatchRecord
from .rows import match_record as _match
from .rows import with_seats as _with_seats
from .tables import ActionRow, ChatRow, MatchRow, SeatRow, SnapshotRow

matches, seats, actions = MatchRow.__table__, SeatRow.__table__, ActionRow.__table__
snapshots, chat = SnapshotRow.__table__, ChatRow.__table__

# the hot statements, built once (bound by name at execution)
_INSERT_ACTION = insert(actions).values(action=cast(bindparam("action_json", type_=Text), JSON))
_SQLITE_INSERT_ACTION = "INSERT INTO actions (match_id, seq, seat, action, at) VALUES (?, ?, ?, ?, ?)"
_FINISH = (update(matches).where(matches.c.id == bindparam("finished_id"), matches.c.status != "finished")
           .values(status="finished", finished_at=bindparam("finished_at"), result=bindparam("result")))


class SeqTaken(RuntimeError):
    """Another writer committed an action at this ``seq`` first (not a client's mistake:
    the runtime catches up from the log and tries again)."""


NOT_OVER = "The match is not over yet: a rematch is set up once it ends."


def _unknown(match_id: str) -> UnknownMatch:
    return UnknownMatch(f"There is no match {match_id!r}.")


def _held(until: int, now: int) -> SeatsHeld:
    minutes = max(1, -(-(until - now) // 60_000))
    return SeatsHeld("The free seats are kept for the players of the previous match (they join with their token "
                     f"from it) for another {minutes} minute{'s' if minutes > 1 else ''}.", until)


def _played(name: str, account_id: int | None) -> tuple[Any, ...]:
    """The human seats of an account (under any name it had), or else of a name, in finished
    matches that had started (a table whose seats never filled ended without being played:
    nobody played it)."""
    whose = seats.c.account_id == account_id if account_id is not None else seats.c.name == name
    return whose, seats.c.bot.is_(False), matches.c.status == "finished", matches.c.started_at.is_not(None)


def _insert_action(conn: Connection, match_id: str, seq: int, seat: int | None, action_json: str,
                   at: int) -> None:
    """Insert one row of the log, the action as the JSON text given (encoded once, by the
    caller). On SQLite the statement goes straight to the driver: SQLAlchemy's statement
    machinery cost more than the insert itself, on the one thread that writes."""
    if conn.dialect.name == "sqlite":
        conn.connection.driver_connection.execute(_SQLITE_INSERT_ACTION, (match_id, seq, seat, action_json, at))
    else:
        conn.execute(_INSERT_ACTION, {"match_id": match_id, "seq": seq, "seat": seat, "action_json": action_json,
                                      "at": at})


def _insert_match(conn: Connection, *, id: str, game: str, options: dict[str, Any], players: int,
                  bot_names: Sequence[str], bot_levels: Sequence[str], seed: int, now: int,
                  owner: str | None, rated: bool = True) -> None:
    bots = len(bot_names)
    full = bots == players
    conn.execute(insert(matches).values(
        id=id, game=game, options=options, players=players, bots=bots, humans_joined=0, seed=seed,
        status="running" if full else "open", created_at=now, started_at=now if full else None, rated=rated))
    if bot_names:
        conn.execute(insert(seats), [
            {"match_id": id, "seat": players - bots + i, "name": name, "token_hash": None,
             "bot": True, "bot_level": level, "joined_at": now}
            for i, (name, level) in enumerate(zip(bot_names, [*bot_levels, *["normal"] * bots]))])
    if full and owner:
        own_new_match(conn, id, owner)


def _choose_seat(humans: int, taken: set[int], mine: int | None, held: set[int]) -> int | None:
    """The seat a joiner takes among the human seats ``0…humans-1``: their own seat of the
    previous match (``mine``) if it is free, else the first free seat not ``held`` for
    another previous player; ``None`` when every free seat is held."""
    free = [s for s in range(humans) if s not in taken]
    if mine in free:
        return mine
    return next((s for s in free if s not in held), None)


def _get_match(conn: Connection, match_id: str) -> MatchRecord:
    row = conn.execute(select(matches).where(matches.c.id == match_id)).first()
    if row is None:
        raise _unknown(match_id)
    return _match(row, conn.execute(select(seats).where(seats.c.match_id == match_id)).all())


class Store:
    """Matches, seats, the action log, snapshots and chat, on one ``Database``; its
    ``accounts``, ``ratings`` and the sign-in ``attempts`` beside them."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.accounts = Accounts(db)
        self.attempts = Attempts(db)
        self.ratings = Ratings(db)
        self.mail = MailAddresses(db)

    # ---- matches and seats -----------------------------------------------------------
    async def create_match(self, *, id: str, game: str, options: dict[str, Any], players: int,
                           bot_names: Sequence[str], seed: int, now: int, owner: str | None = None,
                           bot_levels: Sequence[str] = (), rated: bool = True) -> MatchRecord:
        """A new match whose last ``len(bot_names)`` seats are bots, at ``bot_levels`` (in the
        same order; ``normal`` where none is given); with no human seat it is running at
        once (``started_at = now``), owned by ``owner``. ``rated``: its end rates its accounts."""
        def work(conn: Connection) -> MatchRecord:
            _insert_match(conn, id=id, game=game, options=options, players=players, bot_names=bot_names,
                          bot_levels=bot_levels, seed=seed, now=now, owner=owner, rated=rated)
            return _get_match(conn, id)

        return await self.db.write(work)

    async def create_rematch(self, of: str, *, id: str, game: str, options: dict[str, Any], players: int,
                             bot_names: Sequence[str], seed: int, now: int,
                             owner: str | None = None, bot_levels: Sequence[str] = (),
                             rated: bool = True) -> tuple[MatchRecord, bool]:
        """The rematch of the finished match ``of``: created as ``create_match`` would (and
        linked as ``of``'s ``rematch_id``) by the first call, the same one for every later
        call. Returns it and whether this call created it. Raises ``UnknownMatch`` or
        ``NotFinished``."""

        def work(conn: Connection) -> tuple[MatchRecord, bool]:
            claimed = conn.execute(
                update(matches)
                .where(matches.c.id == of, matches.c.status == "finished", matches.c.rematch_id.is_(None))
                .values(rematch_id=id)
                .returning(matches.c.id)
            ).first()
            if claimed is None:
                row = conn.execute(select(matches.c.rematch_id).where(matches.c.id == of)).first()
                if row is None:
                    raise _unknown(of)
                if row.rematch_id is None:
                    raise NotFinished(NOT_OVER)
                return _get_match(conn, row.rematch_id), False
            _insert_match(conn, id=id, game=game, options=options, players=players, bot_names=bot_names,
                          bot_levels=bot_levels, seed=seed, now=now, owner=owner, rated=rated)
            return _get_match(conn, id), True

        return await self.db.write(work)

    async def get_match(self, match_id: str) -> MatchRecord:
        return await self.db.read(lambda conn: _get_match(conn, match_id))

    async def join(self, match_id: str, name: str, token_hash: str, now: int, previous_hash: str | None = None,
                   hold_ms: int = 0, owner: str | None = None, account_id: int | None = None
                   ) -> tuple[int, MatchRecord]:
        """Claim a human seat for ``name``; the last one starts the match at ``now``, owned
        by ``owner``. ``account_id``: the signed-in account taking it; a name an account
        claims can be taken by that account only.

        In a rematch, each seat of a human of the previous match is held for them for
        ``hold_ms`` after the rematch was created: they prove who they are with the hash of
        their token there (``previous_hash``) and get their old seat back; others take the
        free seats nobody holds (after the hold, any free seat). Names are not identity.
        Raises ``UnknownMatch``, ``MatchOver`` (finished), ``MatchFull`` (every seat taken,
        or started), ``NameTaken``, ``NameClaimed`` (an account's name, not the joiner's),
        ``AlreadySeated`` (the account has a seat here, perhaps under an earlier name),
        ``NotYourSeat`` (a token of no previous seat) or ``SeatsHeld``, each with the
        sentence a player reads."""

        def work(conn: Connection) -> tuple[int, MatchRecord]:
            claimed = conn.execute(
                update(matches)
                .where(matches.c.id == match_id, matches.c.status == "open",
                       matches.c.humans_joined < matches.c.players - matches.c.bots)
                .values(humans_joined=matches.c.humans_joined + 1)
                .returning(matches.c.humans_joined, matches.c.players, matches.c.bots, matches.c.created_at)
            ).first()
            if claimed is None:
                status = conn.execute(select(matches.c.status).where(matches.c.id == match_id)).scalar()
                if status is None:
                    raise _unknown(match_id)
                if status == "finished":
                    raise MatchOver("The match is over.")
                raise MatchFull("Every seat of this match is taken." if status == "open"
                                else "The match has started: every seat is taken.")
            joined, players, bots, created_at = claimed
            here = conn.execute(select(seats.c.seat, seats.c.name, seats.c.account_id)
                                .where(seats.c.match_id == match_id)).all()
            if any(row.name == name for row in here):
                raise NameTaken(f"Somebody at this table is already called {name!r}.")
            mine_already = next((row for row in here if account_id is not None and row.account_id == account_id), None)
            if mine_already is not None:
                raise AlreadySeated(f"You sit at this table already, as {mine_already.name!r} "
                                    f"(seat {mine_already.seat + 1}): one seat per account.")
            if claimant(conn, name) not in (None, account_id):
                raise NameClaimed(name)
            previous = (select(seats.c.seat, seats.c.token_hash)
                        .join(matches, matches.c.id == seats.c.match_id)
                        .where(matches.c.rematch_id == match_id, seats.c.bot.is_(False)))
            before = {row.token_hash: row.seat for row in conn.execute(previous)}
            if previous_hash is not None and previous_hash not in before:
                raise NotYourSeat("This token is not for a seat of the match this one plays again.")
            taken = {row.seat for row in here}
            mine = before.get(previous_hash) if previous_hash is not None else None
            until = created_at + hold_ms
            held = set(before.values()) - taken - {mine} if now < until else set()
            seat = _choose_seat(players - bots, taken, mine, held)
            if seat is None:
                raise _held(until, now)
            conn.execute(insert(seats).values(match_id=match_id, seat=seat, name=name, token_hash=token_hash,
                                              bot=False, joined_at=now, account_id=account_id))
            if joined == players - bots:
                conn.execute(update(matches).where(matches.c.id == match_id)
                             .values(status="running", started_at=now))
                if owner:
                    own_new_match(conn, match_id, owner)
            return seat, _get_match(conn, match_id)

        return await self.db.write(work)

    async def end_unstarted(self, match_id: str, at: int, result: dict[str, Any]) -> MatchRecord:
        """Mark a match that cannot be played finished with ``result`` (unless it is
        finished already); returns it as stored."""

        def work(conn: Connection) -> MatchRecord:
            conn.execute(update(matches).where(matches.c.id == match_id, matches.c.status != "finished")
                         .values(status="finished", finished_at=at, result=result))
            return _get_match(conn, match_id)

        return await self.db.write(work)

    async def expire_unfilled(self, created_before: int, at: int, result: dict[str, Any]) -> list[str]:
        """End (finished, with ``result``) every match still waiting for players that was
        created before ``created_before``; returns their ids."""
        query = (update(matches).where(matches.c.status == "open", matches.c.created_at < created_before)
                 .values(status="finished", finished_at=at, result=result).returning(matches.c.id))
        return await self.db.write(lambda conn: [row.id for row in conn.execute(query)])

    async def list_matches(self, *, status: str | None = None, game: str | None = None,
                           limit: int = 20, offset: int = 0) -> tuple[list[MatchRecord], int]:
        """A page of matches, newest first, and how many match the filters in all."""
        where = []
        if status:
            where.append(matches.c.status == status)
        if game:
            where.append(matches.c.game == game)

        # finished matches: the most recently finished first
        newest = matches.c.finished_at if status == "finished" else matches.c.created_at

        def work(conn: Connection) -> tuple[list[MatchRecord], int]:
            total = conn.execute(select(func.count()).select_from(matches).where(*where)).scalar() or 0
            rows = conn.execute(select(matches).where(*where)
                                .order_by(newest.desc(), matches.c.id)
                                .limit(limit).offset(offset)).all()
            return _with_seats(conn, rows), total

        return await self.db.read(work)

    # ---- history ---------------------------------------------------------------------
    async def played_by(self, name: str, *, account_id: int | None = None, limit: int = 20, offset: int = 0
                        ) -> tuple[list[tuple[MatchRecord, int]], int]:
        """A page of the finished matches where a human seat was called ``name`` (or, given
        ``account_id``, was that account's, under whatever name), the most recently
        finished first, each with that seat; and how many there are in all."""
        where = _played(name, account_id)
        joined = matches.join(seats, seats.c.match_id == matches.c.id)

        def work(conn: Connection) -> tuple[list[tuple[MatchRecord, int]], int]:
            total = conn.execute(select(func.count()).select_from(joined).where(*where)).scalar() or 0
            rows = conn.execute(select(matches, seats.c.seat.label("named_seat")).select_from(joined).where(*where)
                                .order_by(matches.c.finished_at.desc(), matches.c.id)
                                .limit(limit).offset(offset)).all()
            return list(zip(_with_seats(conn, rows), (r.named_seat for r in rows))), total

        return await self.db.read(work)

    async def results_of(self, name: str, account_id: int | None = None
                         ) -> list[tuple[str, int, dict[str, Any] | None]]:
        """``(game, seat, result)`` of every finished match a human seat called ``name``
        (or, given ``account_id``, of that account) played: what a tally of wins is
        counted from."""
        query = (select(matches.c.game, seats.c.seat, matches.c.result)
                 .select_from(matches.join(seats, seats.c.match_id == matches.c.id))
                 .where(*_played(name, account_id)))
        rows = await self.db.read(lambda conn: conn.execute(query).all())
        return [(game, seat, result) for game, seat, result in rows]

    # ---- the log ---------------------------------------------------------------------
    async def append_action(self, match_id: str, seq: int, seat: int | None, action: dict[str, Any],
                            at: int, result: dict[str, Any] | None = None, action_json: str | None = None) -> None:
        """Commit the action at ``seq`` (``action_json``: its JSON text, if the caller has it
        already); with ``result`` the same transaction marks the match finished and rates it
        (see ``ratings``). Raises ``SeqTaken`` if that ``seq`` exists (nothing is written)."""
        text = json.dumps(action) if action_json is None else action_json

        def work(conn: Connection) -> None:
            _insert_action(conn, match_id, seq, seat, text, at)
            if result is not None:
                finished = conn.execute(_FINISH, {"finished_id": match_id, "finished_at": at, "result": result})
                if finished.rowcount:
                    rate_or_log(conn, match_id, at, result)

        try:
            await self.db.write(work)
        except (IntegrityError, sqlite3.IntegrityError) as exc:
            raise SeqTaken(f"{match_id}#{seq}") from exc

    async def actions(self, match_id: str, after: int = 0) -> list[ActionRecord]:
        """The log after ``seq = after``, in order."""
        query = (select(actions.c.seq, actions.c.seat, actions.c.action, actions.c.at)
                 .where(actions.c.match_id == match_id, actions.c.seq > after).order_by(actions.c.seq))
        rows = await self.db.read(lambda conn: conn.execute(query).all())
        return [ActionRecord(seq, seat, action, at) for seq, seat, action, at in rows]

    async def newest_seqs(self, match_ids: Iterable[str]) -> dict[str, int]:
        """The newest ``seq`` in each match's log (a match with none yet is left out): one
        cheap read for many matches, to see which moved without reading what they did."""
        ids = list(match_ids)
        if not ids:
            return {}
        query = (select(actions.c.match_id, func.max(actions.c.seq))
                 .where(actions.c.match_id.in_(ids)).group_by(actions.c.match_id))
        rows = await self.db.read(lambda conn: conn.execute(query).all())
        return {match_id: int(seq) for match_id, seq in rows}

    # ---- snapshots -------------------------------------------------------------------
    async def save_snapshot(self, match_id: str, seq: int, code: str, state: bytes, at: int) -> None:
        """Keep a state after ``seq`` actions, and only it: recovery starts from the newest
        snapshot, so older ones of the match are deleted in the same transaction (a save
        of a ``seq`` no newer than the kept one is ignored). Saves of one match are taken
        one at a time (the match's row locked; SQLite writes one at a time anyway): two at
        once on PostgreSQL would each miss the other's row and keep both."""

        def work(conn: Connection) -> None:
            conn.execute(select(matches.c.id).where(matches.c.id == match_id).with_for_update())
            newest = conn.execute(select(func.max(snapshots.c.seq)).where(snapshots.c.match_id == match_id)).scalar()
            if newest is not None and newest >= seq:  # a later one is kept already
                return
            conn.execute(insert(snapshots).values(match_id=match_id, seq=seq, code=code, state=state, at=at))
            conn.execute(snapshots.delete().where(snapshots.c.match_id == match_id, snapshots.c.seq < seq))

        try:
            await self.db.write(work)
        except IntegrityError:
            pass

    async def latest_snapshot(self, match_id: str, code: str) -> tuple[int, bytes, int] | None:
        """The newest snapshot made by code with this fingerprint, as ``(seq, state, at)``."""
        query = (select(snapshots.c.seq, snapshots.c.state, snapshots.c.at)
                 .where(snapshots.c.match_id == match_id, snapshots.c.code == code)
                 .order_by(snapshots.c.seq.desc()).limit(1))
        row = await self.db.read(lambda conn: conn.execute(query).first())
        return None if row is None else (row[0], row[1], row[2])

    # ---- chat ------------------------------------------------------------------------
    async def add_chat(self, match_id: str, line: ChatRecord) -> None:
        await self.db.write(lambda conn: conn.execute(insert(chat).values(
            match_id=match_id, seat=line.seat, name=line.name, text=line.text, at=line.at)))

    async def chat(self, match_id: str, limit: int = 50) -> list[ChatRecord]:
        """The last ``limit`` chat lines, oldest first."""
        query = select(chat).where(chat.c.match_id == match_id).order_by(chat.c.id.desc()).limit(limit)
        rows = await self.db.read(lambda conn: conn.execute(query).all())
        return [ChatRecord(r.seat, r.name, r.text, r.at) for r in reversed(rows)]
