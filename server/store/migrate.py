"""Bring a database's schema to the newest Alembic revision (or any other).

Used on server start and by ``potluck migrate``. Two processes starting at once do not
trip over each other: on PostgreSQL the upgrade holds an advisory lock, on SQLite it runs
in a ``BEGIN IMMEDIATE`` transaction.
"""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import Connection

from server.folders import shipped

from .database import Database

MIGRATIONS = shipped("migrations")
_LOCK_KEY = 0x706F746C75636B  # "potluck"


def alembic_config(url: str | None = None) -> Config:
    """An Alembic configuration for the scripts in ``migrations/`` (no ``alembic.ini`` needed)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if url:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


async def current_revision(db: Database) -> str | None:
    return await db.read(lambda conn: MigrationContext.configure(conn).get_current_revision())


async def upgrade(db: Database, revision: str = "head") -> str | None:
    """Upgrade to ``revision``; returns the revision the database is at afterwards."""
    config = alembic_config()

    def run(connection: Connection) -> None:
        if not db.is_sqlite:
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK_KEY})
        config.attributes["connection"] = connection
        command.upgrade(config, revision)

    await db.exclusive(run)
    return await current_revision(db)
