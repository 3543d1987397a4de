"""Each account's address for "your move" mail: set (unconfirmed, with the SHA-256 of the
one-time token its confirmation link carries), confirmed by that token once, and switched
off by the random ``mail_key`` every mail's unsubscribe link carries; and the moves mailed
(``move_mails``: one mail per move). One transaction each.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from sqlalchemy import select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from .database import Database
from .tables import AccountRow, MoveMailRow

accounts, move_mails = AccountRow.__table__, MoveMailRow.__table__


@dataclass(frozen=True)
class Address:
    """Where an account's mail goes, confirmed or not, and the key of its unsubscribe links."""

    account_id: int
    email: str | None
    confirmed: bool
    off: bool
    mail_key: str | None


class MailAddresses:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def set(self, account_id: int, email: str, token_hash: str, mail_key: str) -> None:
        """A new address, unconfirmed until its token comes back; mail is on again."""
        await self.db.write(lambda conn: conn.execute(update(accounts).where(accounts.c.id == account_id).values(
            email=email, email_confirmed=False, email_token_hash=token_hash, mail_key=mail_key, mail_off=False)))

    async def confirm(self, token_hash: str) -> int | None:
        """The account whose confirmation token this is, now confirmed (the token is used
        up); ``None``: no such token (used already, or replaced by a newer address)."""

        def work(conn: Connection) -> int | None:
            found = conn.execute(select(accounts.c.id).where(accounts.c.email_token_hash == token_hash)).scalar()
            if found is not None:
                conn.execute(update(accounts).where(accounts.c.id == found).values(
                    email_confirmed=True, email_token_hash=None))
            return found

        return await self.db.write(work)

    async def unsubscribe(self, mail_key: str) -> bool:
        """No more mail for the account whose unsubscribe key this is."""
        return bool(await self.db.write(lambda conn: conn.execute(
            update(accounts).where(accounts.c.mail_key == mail_key).values(mail_off=True)).rowcount))

    async def claim(self, match_id: str, seat: int, since: int) -> bool:
        """Record that the move of ``seat`` waited for since change ``since`` of ``match_id``
        is mailed; ``False``: it was already (one mail per move, whichever process sends)."""

        def work(conn: Connection) -> bool:
            dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
            done = conn.execute(dialect.insert(move_mails).on_conflict_do_nothing().values(
                match_id=match_id, seat=seat, since_seq=since))
            return done.rowcount == 1

        return bool(await self.db.write(work))

    async def of(self, account_ids: Iterable[int]) -> dict[int, Address]:
        ids = list(account_ids)

        def work(conn: Connection) -> dict[int, Address]:
            rows = conn.execute(select(accounts.c.id, accounts.c.email, accounts.c.email_confirmed, accounts.c.mail_off,
                                       accounts.c.mail_key).where(accounts.c.id.in_(ids))).all()
            return {r.id: Address(r.id, r.email, bool(r.email_confirmed), bool(r.mail_off), r.mail_key) for r in rows}

        return await self.db.read(work) if ids else {}
