"""A real Potluck server for the fuzzers, in a thread of its own (the fuzzers are plain
synchronous Hypothesis tests), with seeded matches to aim at: one running (two seats,
slow timers) and one waiting for a player, and an account to be signed in as (its seat in
the running match is Bob's).

Time is slowed 10,000 times (``clock_speed``) so that nothing moves by itself while a
fuzzer compares the database before and after a request: only requests change it. The
limits per address and per name are lifted so that the fuzzers explore the API, not the
limiter. A local SMTP server takes the "your move" mail (confirmation links)."""

from __future__ import annotations

import asyncio
import socket
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import httpx
import pytest
import uvicorn

from server.app import create_app, server_config
from server.config import Settings

from ..mailbox import smtp_server

SLOW = {"roll_timeout_ms": 120_000, "round_timeout_ms": 600_000}
ACCOUNT = {"name": "Bob", "password": "fuzzing is fun today"}


@dataclass
class Target:
    url: str
    database: Path
    running: str  # a running match…
    tokens: list[str]  # …and its seats' tokens
    open: str  # a match waiting for a second player

    def session(self) -> str:
        """The cookie of a session of the account Bob, signed in again if a request ended
        the last one (signing out, or in as somebody else, replaces it)."""
        with httpx.Client(base_url=self.url, timeout=20, cookies={"potluck_session": self._session}) as client:
            if client.get("/api/me").json()["account"] is None:
                r = client.post("/api/session", json=ACCOUNT, headers={"Origin": self.url})
                self._session = r.cookies["potluck_session"]
        return self._session

    _session: str = ""

    @property
    def ws_url(self) -> str:
        return self.url.replace("http://", "ws://", 1)

    def fingerprint(self) -> tuple:
        """Everything a request could change, as the database holds it."""
        with sqlite3.connect(f"file:{self.database}?mode=ro", uri=True) as db:
            return tuple(db.execute(sql).fetchall() for sql in (
                "SELECT id, status, players, bots, rematch_id FROM matches ORDER BY id",
                "SELECT match_id, seat, name, token_hash FROM seats ORDER BY match_id, seat",
                "SELECT match_id, seq, seat, action FROM actions ORDER BY match_id, seq",
                "SELECT match_id, seat, text FROM chat ORDER BY id",
                "SELECT id, name_key, password_hash, reset_hash FROM accounts ORDER BY id",
                "SELECT token_hash, account_id FROM sessions ORDER BY token_hash",
                "SELECT credential_id, account_id, sign_count FROM passkeys ORDER BY credential_id",
                "SELECT account_id, game, mu, sigma FROM ratings ORDER BY account_id, game"))


def _serve_in_thread(settings: Settings) -> tuple[str, uvicorn.Server, threading.Thread]:
    app = create_app(settings)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(server_config(app, "127.0.0.1", port, access_log=False, log_level="critical"))
    thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])), daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the fuzz server did not start")
        time.sleep(0.02)
    return f"http://127.0.0.1:{port}", server, thread


@pytest.fixture(scope="package")
def target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Target]:
    database = tmp_path_factory.mktemp("fuzz") / "potluck.db"
    with smtp_server() as (smtp_url, _inbox):  # "your move" mail goes somewhere real
        yield from _target(database, smtp_url)


def _target(database: Path, smtp_url: str) -> Iterator[Target]:
    settings = Settings(database_url=f"sqlite:///{database}", smtp_url=smtp_url, clock_speed=0.0001, standin_after_s=0,
                        create_per_minute=0, max_sockets_per_address=0, max_bot_matches=0,
                        rate_per_second=10_000, rate_burst=10_000, chat_per_minute=100_000,
                        signin_per_address_burst=1_000_000, signin_per_name_burst=1_000_000)
    url, server, thread = _serve_in_thread(settings)
    try:
        with httpx.Client(base_url=url, timeout=20) as client:
            def create(**options: object) -> str:
                r = client.post("/api/matches", json={"game": "nutty-noodles", "players": 2, "options": options})
                return r.json()["id"]

            def join(match_id: str, name: str) -> str:
                return client.post(f"/api/matches/{match_id}/join", json={"name": name}).json()["token"]

            running = create(**SLOW)
            with httpx.Client(base_url=url, timeout=20, headers={"Origin": url}) as bob:  # keeps its cookie
                bob.post("/api/accounts", json=ACCOUNT)
                tokens = [join(running, "Ann"), bob.post(f"/api/matches/{running}/join", json={"name": "Bob"}).json()["token"]]
            waiting = create(**SLOW)
            join(waiting, "Cy")
        yield Target(url, database, running, tokens, waiting)
    finally:
        server.should_exit = True
        thread.join(15)

