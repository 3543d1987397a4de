"""The tables, as SQLAlchemy 2 declarative models. The schema itself is created and changed
only by the Alembic migrations in ``migrations/``; keep the two in step.

Times are integers in milliseconds (the game clock the runtime hands to the rules).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, ForeignKey, Index, Integer, LargeBinary, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class MatchRow(Base):
    """One match. ``seed`` and ``started_at`` (the ``now_ms`` given to ``setup``) make the
    log replayable; ``humans_joined`` counts claimed human seats and is the row every join
    updates first, so concurrent joins serialise on it. ``rematch_id``: the match set up to
    play this one again (once finished), set once."""

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[int] = mapped_column(Integer)
    bots: Mapped[int] = mapped_column(Integer)
    humans_joined: Mapped[int] = mapped_column(Integer, default=0)
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16))  # open | running | finished
    created_at: Mapped[int] = mapped_column(BigInteger)
    started_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    finished_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)

    __table_args__ = (Index("ix_matches_status_created", "status", "created_at"),
                      Index("ix_matches_status_finished", "status", "finished_at"),
                      Index("uq_matches_rematch_id", "rematch_id", unique=True))


class SeatRow(Base):
    """A seat of a match: a bot, or a human known by the SHA-256 of their token."""

    __tablename__ = "seats"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    bot: Mapped[bool] = mapped_column(Boolean, default=False)
    bot_level: Mapped[str | None] = mapped_column(String(16), nullable=True)  # easy | normal | hard
    joined_at: Mapped[int] = mapped_column(BigInteger)

    __table_args__ = (
        Index("uq_seats_match_name", "match_id", "name", unique=True),
        Index("ix_seats_token_hash", "token_hash"),
        Index("ix_seats_name", "name"),
    )


class ActionRow(Base):
    """The log: append-only; the primary key ``(match_id, seq)`` is what makes two writers
    racing for the same ``seq`` unable to both win. ``seat`` is NULL for system actions."""

    __tablename__ = "actions"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[int] = mapped_column(BigInteger)


class SnapshotRow(Base):
    """A pickled state after ``seq`` actions; ``code`` fingerprints the game's source so a
    snapshot from other code is ignored (the match is then replayed from its seed)."""

    __tablename__ = "snapshots"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(64))
    state: Mapped[bytes] = mapped_column(LargeBinary)
    at: Mapped[int] = mapped_column(BigInteger)


class ChatRow(Base):
    """Table chat: a seated player's line, kept with the match."""

    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[int] = mapped_column(BigInteger)


class ProcessRow(Base):
    """A running server process; it is alive while ``expires_at`` (the database's clock,
    ms) is in the future, and keeps pushing it forward (see ``server.store.leases``)."""

    __tablename__ = "processes"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    started_at: Mapped[int] = mapped_column(BigInteger)
    expires_at: Mapped[int] = mapped_column(BigInteger)


class OwnerRow(Base):
    """The process that drives a running match (its timers, bots and stand-ins): its lease
    lasts as long as that process is alive. ``owner`` NULL: released, nothing to drive
    until somebody opens the match. ``standins``: the human seats a stand-in plays, as the
    owner last said."""

    __tablename__ = "match_owners"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    owner: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    standins: Mapped[list[int]] = mapped_column(JSON)
    since: Mapped[int] = mapped_column(BigInteger)
