"""Server settings, read once from the environment.

``DATABASE_URL``  unset: a SQLite file ``./data/potluck.db`` (the folder is created on
                  demand). ``sqlite:///path`` (``sqlite+aiosqlite://`` is accepted too: the
                  store runs SQLite in its own threads, see ``server.store.database``) or
                  ``postgresql://…`` (asyncpg is added when the URL names no driver).
``REDIS_URL``     when set, processes tell each other over Redis pub/sub that a match moved.
``POTLUCK_*``     limits and timings below (integers unless said otherwise).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Mapping

DEFAULT_SQLITE_FILE = Path("data") / "potluck.db"


def database_url(raw: str | None, cwd: Path | None = None) -> str:
    """The async SQLAlchemy URL for ``raw`` (``None``: the default SQLite file under the
    working directory's ``data/``)."""
    if not raw:
        path = (cwd or Path.cwd()) / DEFAULT_SQLITE_FILE
        return f"sqlite:///{path}"
    scheme, sep, rest = raw.partition("://")
    if not sep:
        raise ValueError(f"DATABASE_URL must look like scheme://…, not {raw!r}")
    if scheme in ("postgres", "postgresql"):
        return f"postgresql+asyncpg://{rest}"
    if scheme.startswith("sqlite"):
        return f"sqlite://{rest}"
    return raw


@dataclass(frozen=True)
class Settings:
    """Everything the server can be told. ``from_env`` reads the environment."""

    database_url: str = field(default_factory=lambda: database_url(None))
    redis_url: str | None = None
    max_body_bytes: int = 64 * 1024  # REST request bodies; larger ⇒ 413
    max_frame_bytes: int = 16 * 1024  # WebSocket messages; larger ⇒ error, socket stays open
    hard_frame_bytes: int = 1024 * 1024  # WebSocket messages larger than this close the socket
    max_action_bytes: int = 2048  # what the rules read of an action (its canonical form, as logged)
    rate_per_second: float = 20.0  # WebSocket messages per second per seat (all its sockets; a spectator: per connection)…
    rate_burst: int = 40  # …with this burst
    max_repeats: int = 24  # times a seat may play one action with nobody else acting between (0: no cap)
    send_queue: int = 256  # messages waiting for a slow socket before it is closed
    send_queue_bytes: int = 4 << 20  # …or bytes (a whole state supersedes the view's messages before it)
    send_timeout_s: float = 10.0  # a single send taking longer closes the socket
    chat_max_chars: int = 500
    chat_per_minute: int = 30
    standin_after_s: float = 90.0  # an absent human's seat is played by a bot after this (0: never)
    pause_after_s: float = 900.0  # every human of a table away this long: no bot plays it until one is back (0: never)
    presence_every_s: float = 15.0  # processes repeat who is connected to them (keep well under standin_after_s)
    store_timeout_s: float = 10.0  # PostgreSQL: connecting, waiting for the pool, each statement (then 503)
    snapshot_every: int = 100  # actions between state snapshots
    evict_after_s: float = 600.0  # a live match nobody watches leaves memory after this
    lease_s: float = 5.0  # a process silent this long loses its matches to the others (0: no leases)
    owner_grace_s: float = 2.0  # a due timeout is the owner's to log for this long; then anyone's
    clock_speed: float = 1.0  # game time per real time; >1 only for tests and demos
    max_sockets_per_address: int = 64  # open WebSockets per client address (0: no limit)
    max_sockets: int = 0  # open WebSockets in all (0: the open-file limit less a reserve for HTTP)
    max_spectators: int = 200  # spectators' sockets per match (0: no limit)
    create_per_minute: float = 30.0  # matches a client address may create per minute… (0: no limit)
    create_burst: int = 10  # …and at once
    max_bot_matches: int = 20  # matches with no human present, running here, weighed (seats.bots_load; 0: no limit)
    open_expires_after_s: float = 24 * 3600.0  # a match whose seats never filled ends after this (0: never)
    rematch_hold_s: float = 600.0  # a rematch keeps the previous players' seats for them this long
    metrics_allow: str = "127.0.0.0/8,::1"  # addresses (comma-separated networks) that may read /metrics
    metrics_token: str = ""  # or anyone sending it as a Bearer token ("": no token opens it)
    allowed_origins: str = ""  # pages of other sites that may open WebSockets and use a session (comma-separated origins)
    session_days: float = 30.0  # a sign-in lasts this long
    signin_per_name_burst: int = 5  # sign-in attempts under one name at once…
    signin_per_name_per_minute: float = 2.0  # …then this many a minute
    signin_per_address_burst: int = 20  # sign-ins and sign-ups from one client address at once…
    signin_per_address_per_minute: float = 10.0  # …then this many a minute
    public_url: str = ""  # the address friends open (invite links), e.g. http://192.168.1.20:8000 ("": worked out)
    standin_after_misses: int = 3  # by turns: a stand-in plays a seat whose moves time made this often in a row (0: never)
    smtp_url: str = ""  # "your move" mail: smtp://user:password@host:port (smtps:// for TLS; "": no mail)
    mail_from: str = "potluck@localhost"  # the sender of that mail
    mail_digest_s: float = 60.0  # "your move" notices wait this long, so several become one mail
    test_clock: int = 0  # 1: POST /api/test/clock moves game time forward (tests only, never in production)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: object) -> "Settings":
        """Settings from ``env`` (default ``os.environ``): ``DATABASE_URL``, ``REDIS_URL`` and
        ``POTLUCK_<FIELD>`` for every other field (e.g. ``POTLUCK_MAX_BODY_BYTES``)."""
        env = os.environ if env is None else env
        values: dict[str, object] = {
            "database_url": database_url(env.get("DATABASE_URL")),
            "redis_url": env.get("REDIS_URL") or None,
        }
        for f in fields(cls):
            raw = env.get(f"POTLUCK_{f.name.upper()}")
            if raw is None or f.name in values:
                continue
            kind = type(getattr(cls, f.name)) if hasattr(cls, f.name) else str
            try:
                values[f.name] = kind(raw)
            except ValueError:
                raise ValueError(f"POTLUCK_{f.name.upper()} must be a {kind.__name__}, not {raw!r}") from None
        values.update(overrides)
        return cls(**values)  # type: ignore[arg-type]
