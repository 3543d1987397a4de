"""Accounts: claimed names, cookie sessions, passkeys and their pending challenges, and the
tables an account sits at. One transaction each, like the repository.

A name belongs to at most one account: ``accounts.name_key`` (the name after NFKC and
casefolding) is unique, so two sign-ups racing for "Maria" and "MARIA" cannot both win.
Secrets are kept as hashes: sessions and resets by the SHA-256 of their random token,
passwords by Argon2id (made above this layer).
"""

from __future__ import annotations

import unicodedata
from typing import Any, Sequence

from sqlalchemy import Row, delete, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from server.problems import NameClaimed

from .database import Database
from .records import AccountRecord, MatchRecord, PasskeyRecord
from .rows import with_seats
from .tables import AccountRow, ChallengeRow, MatchRow, PasskeyRow, SeatRow, SessionRow

accounts, sessions, passkeys = AccountRow.__table__, SessionRow.__table__, PasskeyRow.__table__
challenges, matches, seats = ChallengeRow.__table__, MatchRow.__table__, SeatRow.__table__


class AccountNotFound(LookupError):
    """No account has this id or name."""


def name_key(name: str) -> str:
    """What two names must share to be one name: "Maria", "MARIA" and "ｍａｒｉａ" are one."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def claimant(conn: Connection, name: str) -> int | None:
    """The account that owns ``name``, if any (for checks inside another transaction)."""
    return conn.execute(select(accounts.c.id).where(accounts.c.name_key == name_key(name))).scalar()


def _account(row: Row[Any]) -> AccountRecord:
    return AccountRecord(row.id, row.name, row.created_at, row.password_hash)


def _passkey(row: Row[Any]) -> PasskeyRecord:
    return PasskeyRecord(row.credential_id, row.account_id, bytes(row.public_key), row.sign_count, row.created_at)


class Accounts:
    """The accounts of one ``Database``."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # ---- accounts ----------------------------------------------------------------------
    async def create(self, name: str, password_hash: str | None, now: int) -> AccountRecord:
        """A new account claiming ``name``; ``NameClaimed`` if somebody owns it."""
        def work(conn: Connection) -> AccountRecord:
            new_id = conn.execute(insert(accounts).values(
                name=name, name_key=name_key(name), password_hash=password_hash, created_at=now
            ).returning(accounts.c.id)).scalar_one()
            return AccountRecord(new_id, name, now, password_hash)

        try:
            return await self.db.write(work)
        except IntegrityError:
            raise NameClaimed(name) from None

    async def named(self, name: str) -> AccountRecord | None:
        query = select(accounts).where(accounts.c.name_key == name_key(name))
        row = await self.db.read(lambda conn: conn.execute(query).first())
        return None if row is None else _account(row)

    async def get(self, account_id: int) -> AccountRecord | None:
        row = await self.db.read(lambda conn: conn.execute(select(accounts).where(accounts.c.id == account_id)).first())
        return None if row is None else _account(row)

    async def all(self) -> list[tuple[AccountRecord, int, int]]:
        """Every account, oldest first, with its passkeys and seats taken."""
        keys = select(func.count()).where(passkeys.c.account_id == accounts.c.id).scalar_subquery()
        taken = select(func.count()).where(seats.c.account_id == accounts.c.id).scalar_subquery()
        query = select(accounts, keys.label("keys"), taken.label("taken")).order_by(accounts.c.id)
        rows = await self.db.read(lambda conn: conn.execute(query).all())
        return [(_account(r), r.keys, r.taken) for r in rows]

    async def rename(self, account_id: int, name: str) -> AccountRecord:
        """Give the account another name (its past seats keep the names they were played under)."""
        def work(conn: Connection) -> AccountRecord:
            done = conn.execute(update(accounts).where(accounts.c.id == account_id)
                                .values(name=name, name_key=name_key(name)).returning(accounts))
            row = done.first()
            if row is None:
                raise AccountNotFound(account_id)
            return _account(row)

        try:
            return await self.db.write(work)
        except IntegrityError:
            raise NameClaimed(name) from None

    async def delete(self, account_id: int) -> bool:
        """Delete the account, its sessions, passkeys and ratings; its past seats keep
        their names as plain text. Whether there was such an account."""
        def work(conn: Connection) -> bool:
            conn.execute(update(seats).where(seats.c.account_id == account_id).values(account_id=None))
            return conn.execute(delete(accounts).where(accounts.c.id == account_id)).rowcount > 0

        return await self.db.write(work)

    async def set_password(self, account_id: int, password_hash: str) -> None:
        """A new password: every session of the account ends, and any pending reset."""
        def work(conn: Connection) -> None:
            conn.execute(update(accounts).where(accounts.c.id == account_id)
                         .values(password_hash=password_hash, reset_hash=None, reset_expires_at=None))
            conn.execute(delete(sessions).where(sessions.c.account_id == account_id))

        await self.db.write(work)

    # ---- one-time reset links ----------------------------------------------------------
    async def offer_reset(self, account_id: int, reset_hash: str, expires_at: int) -> None:
        def work(conn: Connection) -> None:
            done = conn.execute(update(accounts).where(accounts.c.id == account_id)
                                .values(reset_hash=reset_hash, reset_expires_at=expires_at))
            if done.rowcount == 0:
                raise AccountNotFound(account_id)

        await self.db.write(work)

    async def named_by_reset(self, reset_hash: str, now: int) -> AccountRecord | None:
        """The account an unexpired reset is for."""
        query = select(accounts).where(accounts.c.reset_hash == reset_hash, accounts.c.reset_expires_at > now)
        row = await self.db.read(lambda conn: conn.execute(query).first())
        return None if row is None else _account(row)

    async def redeem_reset(self, reset_hash: str, password_hash: str, now: int) -> AccountRecord | None:
        """Set the password of the account whose unexpired reset this is (once: the reset
        is spent, and every session of the account ends); ``None`` for no such reset."""
        def work(conn: Connection) -> AccountRecord | None:
            row = conn.execute(update(accounts)
                               .where(accounts.c.reset_hash == reset_hash, accounts.c.reset_expires_at > now)
                               .values(password_hash=password_hash, reset_hash=None, reset_expires_at=None)
                               .returning(accounts)).first()
            if row is not None:
                conn.execute(delete(sessions).where(sessions.c.account_id == row.id))
            return None if row is None else _account(row)

        return await self.db.write(work)

    # ---- sessions ------------------------------------------------------------------------
    async def open_session(self, account_id: int, token_hash: str, now: int, expires_at: int,
                           replacing: str | None = None) -> None:
        """A new session (signing in); the browser's previous one (``replacing``) ends."""
        def work(conn: Connection) -> None:
            if replacing:
                conn.execute(delete(sessions).where(sessions.c.token_hash == replacing))
            conn.execute(delete(sessions).where(sessions.c.account_id == account_id, sessions.c.expires_at <= now))
            conn.execute(insert(sessions).values(token_hash=token_hash, account_id=account_id, created_at=now,
                                                 expires_at=expires_at))

        await self.db.write(work)

    async def session(self, token_hash: str, now: int) -> AccountRecord | None:
        """The account signed in with this session, unless it has expired."""
        query = (select(accounts).join(sessions, sessions.c.account_id == accounts.c.id)
                 .where(sessions.c.token_hash == token_hash, sessions.c.expires_at > now))
        row = await self.db.read(lambda conn: conn.execute(query).first())
        return None if row is None else _account(row)

    async def close_session(self, token_hash: str) -> None:
        await self.db.write(lambda conn: conn.execute(delete(sessions).where(sessions.c.token_hash == token_hash)))

    # ---- passkeys ------------------------------------------------------------------------
    async def put_challenge(self, challenge_id: str, challenge: bytes, account_id: int | None,
                            expires_at: int, now: int) -> None:
        def work(conn: Connection) -> None:
            conn.execute(delete(challenges).where(challenges.c.expires_at <= now))
            conn.execute(insert(challenges).values(id=challenge_id, challenge=challenge, account_id=account_id,
                                                   expires_at=expires_at))

        await self.db.write(work)

    async def take_challenge(self, challenge_id: str, now: int) -> tuple[bytes, int | None] | None:
        """The challenge and its account, spent: each is answered once, before it expires."""
        def work(conn: Connection) -> tuple[bytes, int | None] | None:
            row = conn.execute(delete(challenges).where(challenges.c.id == challenge_id)
                               .returning(challenges.c.challenge, challenges.c.account_id,
                                          challenges.c.expires_at)).first()
            if row is None or row.expires_at <= now:
                return None
            return bytes(row.challenge), row.account_id

        return await self.db.write(work)

    async def add_passkey(self, key: PasskeyRecord) -> None:
        await self.db.write(lambda conn: conn.execute(insert(passkeys).values(
            credential_id=key.credential_id, account_id=key.account_id, public_key=key.public_key,
            sign_count=key.sign_count, created_at=key.created_at)))

    async def passkey(self, credential_id: str) -> PasskeyRecord | None:
        query = select(passkeys).where(passkeys.c.credential_id == credential_id)
        row = await self.db.read(lambda conn: conn.execute(query).first())
        return None if row is None else _passkey(row)

    async def passkeys_of(self, account_id: int) -> list[PasskeyRecord]:
        query = select(passkeys).where(passkeys.c.account_id == account_id).order_by(passkeys.c.created_at)
        return [_passkey(r) for r in await self.db.read(lambda conn: conn.execute(query).all())]

    async def used_passkey(self, credential_id: str, sign_count: int) -> None:
        await self.db.write(lambda conn: conn.execute(
            update(passkeys).where(passkeys.c.credential_id == credential_id).values(sign_count=sign_count)))

    # ---- the tables an account sits at ---------------------------------------------------
    async def tables_of(self, account_id: int, finished: int = 20) -> list[tuple[MatchRecord, int]]:
        """The matches the account has a seat in, with that seat: every open or running one
        and the ``finished`` most recently finished."""
        from_seats = matches.join(seats, seats.c.match_id == matches.c.id)
        mine = (seats.c.account_id == account_id,)

        def work(conn: Connection) -> list[tuple[MatchRecord, int]]:
            live = conn.execute(select(matches, seats.c.seat.label("my_seat")).select_from(from_seats)
                                .where(*mine, matches.c.status != "finished")
                                .order_by(matches.c.created_at.desc())).all()
            done = conn.execute(select(matches, seats.c.seat.label("my_seat")).select_from(from_seats)
                                .where(*mine, matches.c.status == "finished")
                                .order_by(matches.c.finished_at.desc()).limit(finished)).all()
            rows: Sequence[Row[Any]] = [*live, *done]
            return list(zip(with_seats(conn, rows), (r.my_seat for r in rows)))

        return await self.db.read(work)
