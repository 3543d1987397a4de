"""The bots of one match, in the process that drives it: asked, thought over, played.

After every change the match hands the driver its step (``hand``): each bot seat's view,
legal actions and the deadline, worked out once for that change (see ``step``). A bot is
asked only when what it sees changed — its view, its legal actions or the deadline — or
it is new (a stand-in just took a seat over); otherwise the decision it made (or its
choice to wait) stands, and still holds for the new ``seq``. A bot thinks off the event loop (a thinking bot must
not stall other matches), one question per seat at a time; a decision is played when its
time comes, through ``move``, on the ``seq`` it holds for and no other.

A decision refused as illegal is dropped and the bot asked again (a bot that keeps
proposing refused moves at one ``seq`` stops after three); one refused as stale (another
process moved the match) is asked again, and no second move of the seat is tried at that
``seq``; one that could not be stored (the database away) is asked again after ``RETRY_S``;
one that found nobody to play it for (``GONE``: this process's lease lapsed while the
database was away) is forgotten, and the bot asked again when the match arms the driver
next, though what it sees did not change.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from enum import Enum
from typing import Any, Awaitable, Callable

from server.engine import Action, Bot, BotInput, Decision, Game

from .patches import same
from .services import Services
from .step import Step

log = logging.getLogger(__name__)

RETRY_S = 1.0
MAX_DROPPED = 3


class Outcome(Enum):
    """What became of a bot's move."""

    PLAYED = "played"
    STALE = "stale"  # the match moved on: ask again
    REFUSED = "refused"  # illegal or invalid now: drop it, ask again
    FAILED = "failed"  # not stored (the database away): ask again a little later
    GONE = "gone"  # nobody to play it for (not driving, the seat handed back, the match over)


Move = Callable[[int, Bot, Action, int], Awaitable[Outcome]]


@dataclass(eq=False)
class _Seat:
    bot: Bot
    seen: tuple[Any, ...] | None  # (view, legal, deadline) its bot last decided on
    seq: int  # the latest change at which what it saw still held
    thinking: bool = False
    again: bool = False  # what it sees changed while it was thinking
    timer: asyncio.TimerHandle | None = None


class BotDriver:
    """``move(seat, bot, action, seq)`` plays a decision; ``rearm()`` asks the match to arm
    the driver again (with fresh inputs) when a decision came to nothing."""

    def __init__(self, services: Services, game: Game[Any, Any], match_id: str, move: Move,
                 rearm: Callable[[], None]) -> None:
        self.services, self.game, self.match_id = services, game, match_id
        self._move, self._rearm = move, rearm
        self._seats: dict[int, _Seat] = {}
        self._state: Any = None
        self._now = 0
        self._dropped: dict[int, tuple[int, list[Action]]] = {}  # seat → (seq, refused)
        self._played_at: dict[int, int] = {}  # seat → the seq its bot's move is on its way for
        self._wake: asyncio.TimerHandle | None = None
        self._wake_at: int | None = None
        self._retry: asyncio.TimerHandle | None = None

    # ---- after every change -----------------------------------------------------------
    def hand(self, step: Step, now: int, bots: dict[int, Bot], wake_at: int | None) -> None:
        """The match is ``step`` at ``now``, and ``bots`` play their seats: hand each its
        view and legal actions (worked out once in the step, for the sockets too), and arm
        again at ``wake_at`` (a present human becomes absent then)."""
        if bots or self.busy():
            views, legal = step.see(self.game, bots), step.legal_of(self.game, bots)
            self._arm(step.seq, step.state, now, step.deadline,
                      {seat: (bot, views.get(seat), legal[seat]) for seat, bot in bots.items()})
        self._wake_at_ms(wake_at)

    def _arm(self, seq: int, state: Any, now: int, deadline: int | None,
             bots: dict[int, tuple[Bot, dict[str, Any] | None, list[Action]]]) -> None:
        """The match after change ``seq``: ``bots`` maps each seat a bot plays to the bot,
        its view (``None``: it could not be built) and its legal actions."""
        self._state, self._now = state, now
        for seat in [s for s in self._seats if s not in bots]:
            self._cancel(self._seats.pop(seat))
        for seat, (bot, view, legal) in bots.items():
            seen = (view, legal, deadline)
            held = self._seats.get(seat)
            if held is not None and held.bot is bot and held.seen is not None and _same_input(held.seen, seen):
                held.seq = seq  # nothing it sees changed: what it decided stands
                continue
            if held is None or held.bot is not bot:
                if held is not None:
                    self._cancel(held)
                held = self._seats[seat] = _Seat(bot, None, seq)
            self._cancel_timer(held)
            held.seen, held.seq = seen, seq
            if view is None:
                continue  # its view failed (logged): asked at the next change
            if held.thinking:
                held.again = True
            else:
                self._ask(seat, held)

    def _wake_at_ms(self, at_ms: int | None) -> None:
        """Arm again at ``at_ms`` (game time: a present human becomes absent then)."""
        if self._wake is not None and at_ms == self._wake_at:
            return
        if self._wake is not None:
            self._wake.cancel()
            self._wake = None
        self._wake_at = at_ms
        if at_ms is not None:
            delay = self.services.clock.seconds_until(at_ms) + 0.001
            self._wake = asyncio.get_running_loop().call_later(delay, self._woken)

    def _woken(self) -> None:
        self._wake = None
        self._rearm()

    def stop(self) -> None:
        """Play nothing more until armed again (another process drives the match, or it
        left memory); a bot thinking now is not heard."""
        for held in self._seats.values():
            self._cancel(held)
        self._seats.clear()
        for timer in (self._wake, self._retry):
            if timer is not None:
                timer.cancel()
        self._wake = self._retry = None

    def busy(self) -> bool:
        """A bot is thinking or a move is due (the match must stay in memory)."""
        return self._wake is not None or self._retry is not None or any(
            s.timer is not None or s.thinking for s in self._seats.values())

    def thinking(self) -> set[int]:
        return {seat for seat, s in self._seats.items() if s.thinking}

    def timers(self) -> set[int]:
        """The seats whose bot's move is due."""
        return {seat for seat, s in self._seats.items() if s.timer is not None}

    # ---- asking ---------------------------------------------------------------------
    def _ask(self, seat: int, held: _Seat) -> None:
        assert held.seen is not None
        view, legal, deadline = held.seen
        state, game = self._state, self.game
        seen = BotInput(seat, self._now, deadline, view, legal, sample=lambda rng: game.determinize(state, seat, rng))
        held.thinking = True
        self.services.spawn(self._think(seat, held, seen), f"bot {seat} of {self.match_id}")

    async def _think(self, seat: int, held: _Seat, seen: BotInput) -> None:
        try:
            decision: Decision | None = await asyncio.to_thread(held.bot.decide, seen)
        except Exception:
            log.exception("%s bot for seat %s failed to decide", self.game.id, seat)
            decision = None
        finally:
            held.thinking = False
        if self._seats.get(seat) is not held:
            return  # handed back, or the driver stopped meanwhile
        if held.again:
            held.again = False
            self._ask(seat, held)
            return
        dropped_seq, dropped = self._dropped.get(seat, (None, []))
        if decision is None or (dropped_seq == held.seq and (decision.action in dropped or len(dropped) >= MAX_DROPPED)):
            return
        delay = self.services.clock.seconds_until(decision.at_ms)
        held.timer = asyncio.get_running_loop().call_later(
            delay, lambda: self.services.spawn(self._play(seat, held, decision.action), f"bot {seat} of {self.match_id}"))

    # ---- playing --------------------------------------------------------------------
    async def _play(self, seat: int, held: _Seat, action: Action) -> None:
        """Play a decision on the change it holds for (a bot asked again while its move was
        on its way plays once)."""
        held.timer = None
        if self._seats.get(seat) is not held or self._played_at.get(seat) == held.seq:
            return
        seq = self._played_at[seat] = held.seq
        outcome = await self._move(seat, held.bot, action, seq)
        if outcome is Outcome.PLAYED:
            return
        if outcome is not Outcome.STALE:  # a stale move may have been this seat's own: once per seq
            self._played_at.pop(seat, None)
        held.seen = None  # its decision is spent: ask again, whatever it sees, when armed next
        if outcome is Outcome.GONE:
            return  # armed again by whoever drives it next (the heartbeat, after a lapsed lease)
        if outcome is Outcome.REFUSED:
            dropped_seq, dropped = self._dropped.get(seat, (None, []))
            self._dropped[seat] = (seq, (dropped if dropped_seq == seq else []) + [action])
        if outcome is Outcome.FAILED:
            if self._retry is None:
                self._retry = asyncio.get_running_loop().call_later(RETRY_S, self._retry_now)
        else:
            self._rearm()

    def _retry_now(self) -> None:
        self._retry = None
        self._rearm()

    def _cancel(self, held: _Seat) -> None:
        self._cancel_timer(held)
        held.again = False

    @staticmethod
    def _cancel_timer(held: _Seat) -> None:
        if held.timer is not None:
            held.timer.cancel()
            held.timer = None


def _same_input(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """The same view, legal actions and deadline (as JSON reads them)."""
    return a[2] == b[2] and same(a[1], b[1]) and same(a[0], b[0])

