"""Alembic environment for Potluck.

The server runs migrations itself (``server.store.migrate.upgrade``) and hands this script
an open connection in ``config.attributes["connection"]``. Run by the ``alembic`` command
instead, it connects to ``sqlalchemy.url`` or, when that is empty, to ``DATABASE_URL``.
"""

from __future__ import annotations

import asyncio
import os

from alembic import context
from sqlalchemy.engine import Connection

from server.config import database_url
from server.store.database import Database
from server.store.tables import Base

config = context.config
target_metadata = Base.metadata


def _run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


async def _run_online(url: str) -> None:
    db = Database(url)
    try:
        await db.exclusive(_run)
    finally:
        await db.close()


def _url() -> str:
    return config.get_main_option("sqlalchemy.url") or database_url(os.environ.get("DATABASE_URL"))


if context.is_offline_mode():
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
elif (shared := config.attributes.get("connection")) is not None:
    _run(shared)
else:
    asyncio.run(_run_online(_url()))
