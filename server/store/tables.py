"""The tables, as SQLAlchemy 2 declarative models. The schema itself is created and changed
only by the Alembic migrations in ``migrations/``; keep the two in step.

Times are integers in milliseconds (the game clock the runtime hands to the rules).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, Float, ForeignKey, Index, Integer, LargeBinary, String, Text, false
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
    rated: Mapped[bool] = mapped_column(Boolean, default=True)  # a match option outside the games

    __table_args__ = (Index("ix_matches_status_created", "status", "created_at"),
                      Index("ix_matches_status_finished", "status", "finished_at"),
                      Index("uq_matches_rematch_id", "rematch_id", unique=True))


class SeatRow(Base):
    """A seat of a match: a bot, or a human known by the SHA-256 of their token, and by
    their account when they sat down signed in (``account_id``; NULL once it is deleted:
    the seat keeps its name as plain text)."""

    __tablename__ = "seats"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    bot: Mapped[bool] = mapped_column(Boolean, default=False)
    bot_level: Mapped[str | None] = mapped_column(String(16), nullable=True)  # easy | normal | hard
    joined_at: Mapped[int] = mapped_column(BigInteger)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True)

    __table_args__ = (
        Index("uq_seats_match_name", "match_id", "name", unique=True),
        Index("ix_seats_token_hash", "token_hash"),
        Index("ix_seats_name", "name"),
        Index("ix_seats_account", "account_id"),
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
    owner last said. ``wake_at``: a match by turns its owner let leave memory is loaded
    again at this deadline (game ms), or once its log moved past ``wake_seq``."""

    __tablename__ = "match_owners"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    owner: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    standins: Mapped[list[int]] = mapped_column(JSON)
    since: Mapped[int] = mapped_column(BigInteger)
    wake_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    wake_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)


class AccountRow(Base):
    """A claimed name. ``name_key`` is the name after NFKC and casefolding: two names with
    one key are one name. ``password_hash``: Argon2id (NULL: passkeys only). A reset the
    server's operator asked for is a one-time token, kept as its SHA-256 until it expires."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64))
    name_key: Mapped[str] = mapped_column(String(256), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(256), nullable=True)
    created_at: Mapped[int] = mapped_column(BigInteger)
    reset_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    reset_expires_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    email: Mapped[str | None] = mapped_column(String(320), nullable=True)  # for "your move" mail
    email_confirmed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    email_token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)  # confirm link
    mail_key: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)  # unsubscribe links
    mail_off: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # unsubscribed


class MoveMailRow(Base):
    """A "your move" mail sent: the move of ``seat`` in ``match_id`` that began with change
    ``since_seq`` (at most one mail each, whichever process sends it)."""

    __tablename__ = "move_mails"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    since_seq: Mapped[int] = mapped_column(Integer, primary_key=True)


class SessionRow(Base):
    """A signed-in browser: the SHA-256 of its cookie's random token."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[int] = mapped_column(BigInteger)
    expires_at: Mapped[int] = mapped_column(BigInteger)


class PasskeyRow(Base):
    """A WebAuthn credential of an account: its id, public key (COSE) and signature count."""

    __tablename__ = "passkeys"

    credential_id: Mapped[str] = mapped_column(String(1024), primary_key=True)  # base64url
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    sign_count: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[int] = mapped_column(BigInteger)


class ChallengeRow(Base):
    """A WebAuthn challenge handed out and not answered yet (any process may get the
    answer): used once, refused after ``expires_at``. ``account_id``: set when it is a
    registration (the signed-in account adding a passkey)."""

    __tablename__ = "webauthn_challenges"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    challenge: Mapped[bytes] = mapped_column(LargeBinary)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True)
    expires_at: Mapped[int] = mapped_column(BigInteger)


class RatingRow(Base):
    """An account's current OpenSkill rating in one game (``mu``, ``sigma``), after
    ``matches`` rated matches, the last finished at ``updated_at``."""

    __tablename__ = "ratings"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)  # mu - 3 sigma: what the leaderboard sorts by
    matches: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[int] = mapped_column(BigInteger)

    __table_args__ = (Index("ix_ratings_game_ordinal", "game", "ordinal"),)


class RatedMatchRow(Base):
    """A finished match that was rated: its place in the order ratings are folded in
    (``finished_at``, then ``match_id``) and who took part (``teams``: lists of
    ``{"account": id}`` or ``{"bot": level}``, with ``ranks``, 0 best)."""

    __tablename__ = "rated_matches"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    finished_at: Mapped[int] = mapped_column(BigInteger)
    teams: Mapped[list[Any]] = mapped_column(JSON)
    ranks: Mapped[list[int]] = mapped_column(JSON)

    __table_args__ = (Index("ix_rated_matches_game_order", "game", "finished_at", "match_id"),)


class RatingChangeRow(Base):
    """An account's rating in a game right after a rated match: the points of its chart."""

    __tablename__ = "rating_changes"

    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    finished_at: Mapped[int] = mapped_column(BigInteger)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)

    __table_args__ = (Index("ix_rating_changes_account_game", "account_id", "game", "finished_at"),)


class AttemptRow(Base):
    """A rate limit shared by every process: per key (the SHA-256 of "name:…" or
    "address:…"), the theoretical arrival time of the next attempt (GCRA, ms). A row whose
    time has passed says nothing more than no row, and is deleted."""

    __tablename__ = "attempts"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    tat: Mapped[int] = mapped_column(BigInteger, index=True)
