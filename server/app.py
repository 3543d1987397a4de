"""The FastAPI application: REST under ``/api``, the WebSocket under ``/ws``, ``/healthz``
and ``/metrics``. On start it upgrades the database (Alembic) and starts the runtime."""

from __future__ import annotations

import logging
import re
from contextlib import asynccontextmanager
from typing import AsyncIterator
from urllib.parse import unquote_plus

import uvicorn
from fastapi import FastAPI

from server.api import (account_pages, accounts, errors, health, history, invite, lobby, mail, pages, passkeys, play,
                        ratings, reference, replays, test_clock, websocket)
from server.api.body_limit import BodyLimit
from server.api.headers import SecurityHeaders
from server.api.same_origin import SameOrigin
from server.api.strict_json import StrictJsonBodies
from server.config import Settings
from server.runtime import Runtime
from server.store import Database, Store
from server.store.migrate import upgrade

log = logging.getLogger(__name__)

DESCRIPTION = """
Potluck serves tabletop games. A match is a seed plus an ordered log of actions; each seat
sees only its own view.

* Create a match (`POST /api/matches`), take seats (`POST /api/matches/{id}/join` gives a
  secret token), play over REST (`Authorization: Bearer <token>`) or live over the
  WebSocket `/ws/matches/{id}?token=<token>` (no token: spectate).
* Play again: `POST /api/matches/{id}/rematch` (a seat's token, once the match is over)
  sets up one new match with the same game, options, players and bot seats; the summary's
  `rematch` names it and every socket of the old match is told (a `match` message).
* Replays and history: `GET /api/matches/{id}/replay?seat=` (outline) and
  `GET /api/matches/{id}/replay/{step}?seat=` (the table at one step) once a match is over
  (409 `not_finished` before); `GET /api/players/{name}/matches` (finished matches played
  under a name, newest first) and `GET /api/players/{name}` (wins per game). Names are not
  identity: anybody may play under any name.
* WebSocket, server → client: `{"type":"state", seq, status, view, legal, events, deadline,
  now, result}` at once (and on `resync`), then `{"type":"patch", seq, prev_seq, ops, legal,
  events, deadline, now, status, result}` after every change (`ops`: a JSON Patch of the
  view held at `prev_seq`). A socket opened with `legal=delta`
  (`/ws/matches/{id}?token=…&legal=delta`) gets `legal_ops` in each patch instead of
  `legal`: a JSON Patch of the legal list it holds (`[]` when unchanged); without it
  (`legal=whole`, the default) `legal` is the whole list, as it always was. A socket
  opened with `updates=compact` (the browser's) gets the compact patch instead: `{type,
  seq, ops}` with operations as arrays (`["+"|"=", path, value]`, `["-", path]`) and only
  what changed — `prev_seq` when it is not `seq − 1`, `legal_ops` (compact) or `legal_at`
  (the list held after that seq, among the last 4 distinct ones), `events`, `deadline` with
  `now`, `status`, `result` (see the README's protocol section);
  `{"type":"match", match}` (the public
  summary) at once and whenever it changes: seats taken, who is connected, stand-in bots,
  a rematch; `{"type":"chat", seat, name, text, at}`; `{"type":"ack", id, seq}` and
  `{"type":"error", id, code, message}` in answer to your messages.
* WebSocket, client → server: `{"type":"action", id, action, expect_seq?}`,
  `{"type":"chat", text}`, `{"type":"resync"}`, `{"type":"ping", id}`. An unknown `legal=` or
  `updates=` closes the socket with code 4400 and the reason.
* Refusals: `{"detail", "code"}` — 401 no token, 403 not your seat, 404 no such match,
  409 stale `expect_seq` / full / not started / finished / seats `held` for a rematch's
  players, 413 body too large, 422 illegal (the rules' reason), invalid input or JSON only
  Python reads (`bad_json`), 429 too many messages or matches created (`Retry-After`),
  503 the database is away or a capacity is reached (`at_capacity`, `Retry-After`).
* A WebSocket handshake from another site's page (`Origin`) is refused with 403, one past
  the socket limits with 429 (this address) or 503 (the server).
* Accounts (optional): `POST /api/accounts` claims a name, `POST /api/session` signs in
  (a session cookie), `DELETE /api/session` signs out, `GET /api/me`, `GET /api/me/tables`;
  passkeys under `/api/me/passkeys` and `/api/session/passkey`. A seat taken signed in
  belongs to the account: `/view`, `/actions` and the WebSocket open it from the cookie when
  no token is given. A request that changes something and carries the cookie must come
  from this server's pages (`Origin`), else 403 `cross_origin`. Ratings:
  `GET /api/games/{game}/leaderboard`, `GET /api/players/{name}/ratings`,
  `GET /api/matches/{id}/ratings`; a match created with `"rated": false` rates nobody.
"""


def create_app(settings: Settings | None = None) -> FastAPI:
    """The application for ``settings`` (default: from the environment)."""
    settings = settings or Settings.from_env()
    health.networks(settings.metrics_allow)  # a mistyped address fails now, not at the first scrape

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        db = Database(settings.database_url, settings.store_timeout_s)
        try:
            revision = await upgrade(db)
            log.info("database %s at revision %s", db.safe_url, revision)
            runtime = Runtime(settings, Store(db))
            await runtime.start()
            app.state.db, app.state.runtime = db, runtime
            try:
                yield
            finally:
                await runtime.stop()
        finally:
            await db.close()

    app = FastAPI(title="Potluck", version="0.1.0", description=DESCRIPTION, lifespan=lifespan,
                  docs_url=None, redoc_url=None)  # reference.install serves /docs without a CDN
    app.state.settings = settings
    app.add_middleware(StrictJsonBodies)  # inside BodyLimit: it reads bodies already bounded
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(SameOrigin, allowed_origins=settings.allowed_origins)  # before any body is read
    app.add_middleware(SecurityHeaders)  # every answer, refusals included
    app.add_middleware(websocket.DirectSend)  # outermost: a socket's frames go straight to the server
    errors.install(app)
    for module in (lobby, invite, play, replays, history, accounts, mail, passkeys, ratings, websocket, health):
        app.include_router(module.router)
    app.include_router(account_pages.router)
    if settings.test_clock:
        app.include_router(test_clock.router)
    pages.install(app)  # the HTML pages and /static (web/)
    reference.install(app)
    return app


class RedactTokens(logging.Filter):
    """Seat tokens travel in the WebSocket URL; uvicorn logs that URL. Keep them out of logs.

    A parameter's name is percent-decoded before it is compared, as the server decodes it
    when it reads the query: ``?tok%65n=…`` authenticates, so it is redacted too (and so is
    any ``…token=`` value, however many times its name was encoded). A value shaped like a
    seat token (32 or more URL-safe characters) is redacted under any name: a client that
    sends its token under a name that does not authenticate still must not see it logged."""

    PATTERN = re.compile(r"([^\s?&;=\"']+)=([^&\s\"']*)")
    TOKEN_SHAPED = re.compile(r"[A-Za-z0-9_\-%]{32,}")

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(self._redact(a) for a in record.args)
        elif isinstance(record.args, dict):  # "%(name)s" formatting takes one mapping
            record.args = {k: self._redact(v) for k, v in record.args.items()}
        record.msg = self._redact(record.msg)
        return True

    def _redact(self, value: object) -> object:
        return self.PATTERN.sub(self._hide, value) if isinstance(value, str) else value

    @staticmethod
    def _hide(pair: re.Match[str]) -> str:
        name = decoded = pair[1]
        for _ in range(3):  # doubly encoded names do not authenticate, but their values may be tokens
            decoded = unquote_plus(decoded)
        secret = decoded.lower().endswith("token") or RedactTokens.TOKEN_SHAPED.fullmatch(pair[2])
        return f"{name}=***" if secret else pair[0]


class QuietDenials(logging.Filter):
    """uvicorn (0.54, websockets-sansio) logs a refused WebSocket handshake — an HTTP
    answer sent before accepting, as the socket limits and the Origin check do — twice:
    the refusal at INFO, then "returned without completing handshake" at ERROR. The
    second is not an error here; a flood of refusals must not fill the log with them."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.msg != "ASGI callable returned without completing handshake."


def server_config(app: FastAPI, host: str, port: int, access_log: bool = True,
                  log_level: str = "info") -> uvicorn.Config:
    """How uvicorn runs the app: WebSocket frames beyond the hard limit close the socket
    (smaller oversized ones are answered by the app and the socket stays open); no
    per-message compression; seat tokens are redacted from uvicorn's logs."""
    settings: Settings = app.state.settings
    app.state.listen = (host, port)  # the invite link's address when listening on every interface
    config = uvicorn.Config(app, host=host, port=port, ws_max_size=settings.hard_frame_bytes,
                            ws_per_message_deflate=False,  # ~4 KB states: CPU matters more than bytes
                            timeout_graceful_shutdown=10,  # a dead peer must not hold up a restart
                            access_log=access_log, log_level=log_level, lifespan="on")
    for name in ("uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())
    error_log = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, QuietDenials) for f in error_log.filters):
        error_log.addFilter(QuietDenials())
    return config
