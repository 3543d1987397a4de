"""A ``potluck serve`` whose database already holds finished matches (played by the
engine's bots and stored as the runtime would have stored them): replays, history and
their pages can be tested at once, without waiting for bots to play a match through."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from server.store import Database, Store
from server.store.migrate import upgrade
from tests.server.stored import stored_match

from .conftest import potluck_server


def store_matches(url: str, matches: dict[str, dict[str, Any]]) -> dict[str, str]:
    """Create the database at ``url`` and store one finished match per entry (keyword
    arguments of ``stored_match``); returns their ids by label. Runs in a thread of its
    own: a live Playwright holds this thread's event loop."""
    async def make() -> dict[str, str]:
        db = Database(url)
        try:
            await upgrade(db)
            store = Store(db)
            return {label: await stored_match(store, **spec) for label, spec in matches.items()}
        finally:
            await db.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, make()).result()


@contextmanager
def server_with(workdir: Path, matches: dict[str, dict[str, Any]], **env: str) -> Iterator[tuple[str, dict[str, str]]]:
    """``potluck serve`` on a database holding ``matches``: yields its URL and their ids."""
    ids = store_matches(f"sqlite:///{workdir / 'potluck.db'}", matches)
    with potluck_server(workdir, **env) as base:
        yield base, ids
