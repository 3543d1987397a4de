"""Telling players by turns that it is their move, by mail.

The match's owner says, after each change, whose move it is (each seat with the ``seq``
its wait began at: that names the move) and whose it no longer is (``changed``). A seat is
told once per move; a seat taken by an account with a confirmed address that did not
unsubscribe is mailed — once per move even across restarts and processes: the store
records each move mailed (``MailAddresses.claim``) before its mail goes. Notices wait ``mail_digest_s`` so that several become one mail (a digest: "your
move in 3 matches"). A mail says which game, against whom, by when, and links to the table
and to unsubscribing — never anything of the game's state, hidden or not.

The page itself notices through the ``waiting`` field of its ``state``/``patch`` messages
(``web/static/js/your_move.js``).
"""

from __future__ import annotations

import asyncio
import datetime
import logging
from dataclasses import dataclass
from typing import Any, Callable, Coroutine, Iterable, Protocol

from server.config import Settings
from server.engine import registry
from server.store import MatchRecord, Store

from .mailer import Mail

log = logging.getLogger(__name__)

Spawn = Callable[[Coroutine[Any, Any, Any], str], Any]
DEFAULT_BASE = "http://localhost:8000"


class Mailer(Protocol):
    async def send(self, mail: Mail) -> None: ...


@dataclass(frozen=True)
class Notice:
    match_id: str
    seat: int
    since: int  # the seq the seat's wait began at
    game: str
    against: tuple[str, ...]
    deadline: int | None


def when(ms: int | None) -> str:
    if ms is None:
        return "no time limit"
    return datetime.datetime.fromtimestamp(ms / 1000, datetime.UTC).strftime("%A %d %B %Y, %H:%M UTC")


def compose(to: str, base: str, notices: list[Notice], unsubscribe: str) -> Mail:
    """One notice, or a digest of several: game, opponents, deadline and link only."""
    lines = [f"- {n.game} against {', '.join(n.against) or 'bots'}: move by {when(n.deadline)}\n"
             f"  {base}/matches/{n.match_id}" for n in notices]
    if len(notices) == 1:
        subject = f"Your move in {notices[0].game}"
        head = "It is your move:"
    else:
        subject = f"Your move in {len(notices)} matches"
        head = f"It is your move in {len(notices)} matches:"
    text = (f"{head}\n\n" + "\n".join(lines) + "\n\nIf you do not move in time, the game makes a move for you.\n\n"
            f"No more of these mails: {unsubscribe}\n")
    return Mail(to, subject, text, unsubscribe)


class YourMove:
    def __init__(self, store: Store, settings: Settings, spawn: Spawn, mailer: Mailer | None) -> None:
        self.store, self.settings, self.mailer = store, settings, mailer
        self._spawn = spawn
        self.told: dict[tuple[str, int], int] = {}  # (match, seat) → the move (its wait's seq) told of
        self.pending: dict[int, dict[str, Notice]] = {}  # account → match → notice to mail
        self._timer: asyncio.TimerHandle | None = None
        self.sent = 0

    @property
    def base(self) -> str:
        return (self.settings.public_url or DEFAULT_BASE).rstrip("/")

    def changed(self, record: MatchRecord, waiting: dict[int, int], done: Iterable[int],
                deadline: int | None) -> None:
        """It is the move of the seats of ``waiting`` (each with the seq its wait began at),
        and no longer that of ``done``."""
        for seat in done:
            self.told.pop((record.id, seat), None)
            account = self._account(record, seat)
            if account is not None:
                self.pending.get(account, {}).pop(record.id, None)
        for seat, since in waiting.items():
            if self.told.get((record.id, seat)) == since:
                continue
            self.told[(record.id, seat)] = since
            account = self._account(record, seat)
            if account is None or self.mailer is None:
                continue
            against = tuple(s.name for s in record.seats if s.seat != seat)
            self.pending.setdefault(account, {})[record.id] = Notice(record.id, seat, since, _game_name(record.game),
                                                                     against, deadline)
            self._arm()

    @staticmethod
    def _account(record: MatchRecord, seat: int) -> int | None:
        return next((s.account_id for s in record.seats if s.seat == seat and not s.bot), None)

    def _arm(self) -> None:
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(
                self.settings.mail_digest_s, lambda: self._spawn(self.flush(), "your-move mail"))

    async def flush(self) -> int:
        """Mail every account its waiting notices (one mail each); returns how many mails."""
        self._timer = None
        pending, self.pending = {k: v for k, v in self.pending.items() if v}, {}
        if not pending or self.mailer is None:
            return 0
        sent = 0
        for account, address in (await self.store.mail.of(pending)).items():
            if not address.email or not address.confirmed or address.off or not address.mail_key:
                continue
            notices = [n for n in pending[account].values() if await self.store.mail.claim(n.match_id, n.seat, n.since)]
            if not notices:
                continue  # mailed already (before a restart, or by the match's previous owner)
            mail = compose(address.email, self.base, notices, f"{self.base}/mail/unsubscribe?key={address.mail_key}")
            try:
                await self.mailer.send(mail)
                sent += 1
            except Exception as exc:  # the SMTP server away: this notice is lost, the next move mails again
                log.warning("could not mail account %s: %s", account, exc)
        self.sent += sent
        return sent


def _game_name(game_id: str) -> str:
    try:
        return registry.get(game_id).name
    except Exception:
        return game_id
