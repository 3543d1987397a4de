"""One match held in memory by this process: its last step, lock, sockets and collaborators.

Applying an action (``act``), always under the match's ``asyncio.Lock``:

1. apply every timeout that is due (``deadline <= now``), each one logged like any action;
2. check ``expect_seq`` (after catching up from the log if it differs);
3. take the step (``step.take``: the rules, the canonical action encoded once, the new
   deadline and result; ``Illegal`` ⇒ nothing changes);
4. insert the row at ``seq + 1`` and commit — only then is the action acknowledged;
5. after the change (``_after_change``): push each socket what changed in its own view (a
   patch; see ``seat_views``) and the events it may see, keep or re-arm the deadline timer,
   and hand the bots what they see (``bot_driver``: asked only if that changed).

The match is the actor; what it owns works through callbacks, never a reference back:
``Presence`` (who is at the table, pushed as ``match`` messages), ``BotDriver`` (bots and
stand-ins), ``TableChat``, the ``DeadlineTimer`` and, by turns, ``Turns``. If another process committed that ``seq`` first, the tail of
the log is replayed into memory and the action is tried again on the new state (or
refused as stale when the client pinned ``expect_seq``). The log is the truth; memory
follows it.

Only the process that owns the match (``drives``, see ``ownership``) arms its deadline
timer, asks its bots and decides its stand-ins; the others show the owner's stand-ins.
A player's action reaching another process when a timeout is due waits, up to
``owner_grace_s`` past the deadline, for the owner to log it, and logs it itself only if
the owner is late or dead (the ``seq`` settles that race).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from dataclasses import replace
from typing import Any

from server.engine import OVER, TIMEOUT, Action, Bot, Event, Game, IllegalAction, Result
from server.problems import AtCapacity, Busy, Illegal, Invalid, MatchOver, NotStarted, RateLimited, StaleSeq, Unavailable
from server.store import STORE_AWAY, ChatRecord, MatchRecord, SeqTaken

from . import messages, snapshots
from .bot_driver import BotDriver, Outcome
from .deadline_timer import DeadlineTimer
from .presence import PRESENCE_EXPIRES, Presence
from .rate import Repeats, TokenBucket
from .seat_views import SeatViews
from .seats import SeatPlayers
from .services import Services
from .step import Step, settled, take
from .subscribers import Subscriber
from .summaries import summary
from .table_chat import TableChat
from .tokens import token_hash
from .turns import Turns

log = logging.getLogger(__name__)


class HandedBack(Exception):
    """A bot's move reached the match after its seat was handed back to its human."""


def unstarted_result(reason: str) -> dict[str, Any]:
    """The result of a match that ended before it began: nobody won, and why."""
    return Result(winners=[], scores=[], reason=reason).to_json()


RECENT_EVENTS = 50
MAX_ATTEMPTS = 8
MAX_TIMEOUTS_IN_A_ROW = 20
DEADLINE_RETRY_S = 1.0
RESYNCS_PER_S, RESYNC_BURST = 2.0, 10  # whole states the sockets of one seat may ask for


class LiveMatch:
    def __init__(self, services: Services, record: MatchRecord, game: Game[Any, Any]) -> None:
        self.services = services
        self.game = game
        self.fingerprint = snapshots.code_fingerprint(type(game))  # its snapshots' (hashed once per game)
        self.record = record
        self.id = record.id
        self.by_turns = record.options.get("pace") == "turns"  # a move a day (``server.engine.pace``), not live
        self.step: Step | None = None  # the match after its last change (None: not started)
        self.last_at = record.started_at or record.created_at
        self.lock = asyncio.Lock()
        self.subscribers: set[Subscriber] = set()
        self.views = SeatViews(game)  # what each seat's sockets hold
        self.recent: deque[tuple[int, Event]] = deque(maxlen=RECENT_EVENTS)
        self.touched = time.monotonic()  # last change or socket activity, for eviction
        self.closed = False
        self._tokens = {s.token_hash: s.seat for s in record.seats if s.token_hash}
        self.players = self._seat_players(record)
        self.presence = Presence(self._publish, services.settings.presence_every_s, lambda: self.drives,
                                 lambda: self.players.standins, self._publish_summary)
        self.bots = BotDriver(services, game, self.id, self._bot_move, self._schedule_bots)
        self.table_chat = TableChat(services, self.id, self._deliver_chat, self.seat_name)
        self.timer = DeadlineTimer(services.clock, services.spawn, self._on_deadline, f"deadline of {self.id}")
        self._following = self._follow_again = False
        self._timeout_refused_at: int | None = None
        self._moved = asyncio.Event()  # another process said the match moved
        self._resyncs: dict[int | None, TokenBucket] = {}  # seat → its sockets' whole states asked for
        self._rates: dict[int, TokenBucket] = {}  # seat → its sockets' messages
        self.repeats = Repeats(services.settings.max_repeats)
        self._noted: tuple[bool, frozenset[int]] | None = None  # (drives, stand-ins) presence last heard of
        self._standins_repeats = 0  # heartbeats that repeat the stand-ins, though none plays now
        self.stood_in: dict[int, int] = {}  # seat → the seq from which a stand-in played it (until its human acts)
        self.turns = Turns(game, services.your_move)  # by turns: whose move it is

    # ---- who is who -----------------------------------------------------------------
    @property
    def state(self) -> Any:
        return self.step.state if self.step is not None else None

    @property
    def seq(self) -> int:
        return self.step.seq if self.step is not None else 0

    @property
    def status(self) -> str:
        return self.record.status

    @property
    def running(self) -> bool:
        return self.record.status == "running" and self.step is not None

    @property
    def deadline(self) -> int | None:
        """When time moves the match on (as its last step said), while it runs."""
        return self.step.deadline if self.running and self.step is not None else None

    @property
    def waiting(self) -> frozenset[int]:
        """By turns: the seats whose move it is."""
        return self.turns.waiting

    @property
    def drives(self) -> bool:
        """This process owns the match: it runs the timers, bots and stand-ins."""
        return self.services.ownership.drives(self.id)

    def seat_for_token(self, token: str) -> int | None:
        return self._tokens.get(token_hash(token))

    async def seat_for(self, token: str) -> int | None:
        """The token's seat; a token this process has not heard of (a join on another
        server a moment ago) is looked up again after catching up with the store."""
        seat = self.seat_for_token(token)
        if seat is None and self.step is None:
            await self.sync()
            seat = self.seat_for_token(token)
        return seat

    def seat_name(self, seat: int) -> str:
        return next(s.name for s in self.record.seats if s.seat == seat)

    def summary(self) -> dict[str, Any]:
        connected, standins = self.presence.current()
        return summary(self.record, self.seq if self.step is not None else None, connected, standins)

    def _seat_players(self, record: MatchRecord) -> SeatPlayers:
        """By turns, absence calls no stand-in and pauses nothing (everyone is away between
        moves); missing moves in a row calls a stand-in."""
        settings, now = self.services.settings, self.services.clock.now_ms()
        if record.options.get("pace") == "turns":
            return SeatPlayers(self.game, record, now, 0, standin_after_misses=settings.standin_after_misses)
        return SeatPlayers(self.game, record, now, int(settings.standin_after_s * 1000),
                           pause_after_ms=int(settings.pause_after_s * 1000))

    def now(self) -> int:
        """Game time for the next entry of the log: never before the last one."""
        return max(self.services.clock.now_ms(), self.last_at)

    def _publish(self, message: dict[str, Any]) -> None:
        """Tell the other processes something of this match."""
        self.services.fanout.publish({"match": self.id, **message})

    # ---- starting and restoring -----------------------------------------------------
    def start(self, record: MatchRecord) -> None:
        """Every seat is taken: set the game up with the stored seed and start time."""
        assert record.started_at is not None
        self._adopt(record)
        self.last_at = record.started_at
        self.step = settled(self.game, self.first_state(record), 0, [])
        self._note_waiting(self.step)
        self._after_change(self.step)

    def first_state(self, record: MatchRecord) -> Any:
        """``setup`` with the stored players, options, seed and start time."""
        return self.game.setup(record.seat_names(), self.game.options(record.options), record.seed,
                               record.started_at)

    async def cannot_start(self, exc: Exception) -> None:
        """``setup`` refused this match (creation checks what it can, but a game may still
        fail): end it, in the store and for everyone watching, with the reason — a match
        is never left running without a state."""
        reason = getattr(exc, "reason", None) or "the game could not be set up"
        log.error("match %s (%s) cannot start: %s", self.id, self.game.id, reason, exc_info=exc)
        if self.record.status != "finished":
            at = self.record.started_at or self.services.clock.now_ms()
            result = unstarted_result(f"The match could not start: {reason}")
            self.record = await self.services.store.end_unstarted(self.id, at, result)
        self._publish_summary()

    def restore(self, state: Any, seq: int, entries: list[Any]) -> None:
        """Resume from ``state`` after ``seq`` actions, replaying the ``ActionRecord`` tail
        (nothing is armed until ``arm``: the hub first settles who drives the match)."""
        self._replay(state, seq, entries)

    def arm(self) -> None:
        """Arm what this process does for the match now: the deadline timer and the bots,
        if it drives it (what is armed already stays armed)."""
        self._reschedule()

    def _adopt(self, record: MatchRecord) -> None:
        seats_changed = record.seats != self.record.seats
        self.record = record
        self._tokens = {s.token_hash: s.seat for s in record.seats if s.token_hash}
        if seats_changed:
            self.players = self._seat_players(record)
            for sub in self.subscribers:
                if sub.seat is not None:
                    self.players.connected(sub.seat, self.now())

    def _replay(self, state: Any, seq: int, entries: list[Any]) -> Step:
        """Apply logged actions to ``state`` (after ``seq``; they were legal when committed):
        the match's step from now on, carrying their events."""
        events: list[tuple[int, Event]] = []
        by_turns = self.by_turns
        for entry in entries:
            if entry.seq != seq + 1:
                raise RuntimeError(f"match {self.id}: log jumps from {seq} to {entry.seq}")
            if by_turns:
                self._count_miss(state, entry.seat)
            state, new = self.game.apply(state, entry.seat, entry.action, entry.at)
            seq, self.last_at = entry.seq, max(self.last_at, entry.at)
            if by_turns:
                self.turns.track(state, seq, state.phase == OVER)
            events += [(seq, e) for e in new]
        step = settled(self.game, state, seq, events)
        self._advance(step, self.last_at)
        return step

    def _count_miss(self, state: Any, seat: int | None) -> None:
        """By turns: a timeout on ``state`` is a move missed by every seat it waited for;
        any other logged move is its seat's."""
        if seat is None:
            self.players.missed(self.game.waiting_for(state))
        else:
            self.players.moved(seat)

    def _advance(self, step: Step, at: int, result: dict[str, Any] | None = None) -> None:
        """``step`` is the match now (committed, or read from the log)."""
        self.step = step
        self.recent.extend(step.events)
        if step.result is not None and self.record.status != "finished":
            self.record = replace(self.record, status="finished", finished_at=at,
                                  result=result if result is not None else step.result.to_json())
        self._note_waiting(step)

    def _note_waiting(self, step: Step) -> None:
        if self.by_turns:
            self.turns.changed(self.record, step, self.deadline)

    def _tell_waiting(self) -> None:
        """The owner tells the seats whose move it is (a seat a stand-in plays is not told)."""
        if self.by_turns and self.drives:
            self.turns.tell(self.record, self.deadline, self.players.standins)

    # ---- reading --------------------------------------------------------------------
    def payload(self, seat: int | None, hold: bool = False) -> dict[str, Any]:
        """What ``seat`` may know now: view, legal actions, deadline and the recent events
        it may see. ``hold``: the payload goes to a socket as its full state (later changes
        reach the seat's sockets as patches from this view)."""
        if self.step is None:
            return messages.state_payload(seq=0, status=self.status, view=None, legal=[], events=[],
                                          deadline=None, now=self.services.clock.now_ms(),
                                          result=self.record.result)
        told = self._told_alike()
        view, legal = self.views.current(self.step, seat, hold, (told["status"], told["deadline"], told["result"]))
        payload = messages.state_payload(seq=self.seq, view=view, legal=legal if self.running else [],
                                         events=messages.visible_events(self.recent, seat), **told)
        if seat in self.stood_in:  # a stand-in played this seat: the client greets its human
            payload["stood_in"] = {"since_seq": self.stood_in[seat]}
        return payload

    def suggestion(self, seat: int) -> dict[str, Any] | None:
        """Teach mode's "What would you do?" for ``seat`` now (``Game.suggest``: the normal
        bot on the seat's own input); ``None`` if the match is not running in teach mode."""
        if self.step is None or not self.running:
            return None
        return self.game.suggest(self.step.state, seat, self.services.clock.now_ms(), seed=self.seq)

    def _told_alike(self) -> dict[str, Any]:
        """What every seat is told alike about the present (by turns: whose move it is)."""
        said = {"status": self.status, "deadline": self.deadline, "now": self.services.clock.now_ms(),
                "result": self.record.result}
        return {**said, "waiting": sorted(self.waiting)} if self.by_turns else said

    async def sync(self) -> None:
        """Catch up with actions other processes committed (REST reads call this)."""
        async with self.lock:
            await self._catch_up_locked()

    # ---- acting ---------------------------------------------------------------------
    async def act(self, seat: int, action: Action, expect_seq: int | None = None,
                  source: str = "player", bot: Bot | None = None) -> int:
        """Apply ``seat``'s action; returns its ``seq`` once committed. ``bot``: the bot that
        decided it, checked again just before the commit (its human may have come back while
        the move was on its way: ``HandedBack``)."""
        started = time.perf_counter()
        async with self.lock:
            if source == "player":
                self.stood_in.pop(seat, None)  # back, and playing: told already
                if self.players.seen(seat, self.now()):
                    self._schedule_bots()
            if expect_seq is not None and expect_seq != self.seq:
                await self._catch_up_locked()
            for _ in range(MAX_ATTEMPTS):
                await self._apply_due_timeouts_locked()
                self._require_running()
                if expect_seq is not None and expect_seq != self.seq:
                    self.services.metrics.rejected.labels("stale").inc()
                    raise StaleSeq(f"The match has moved on to seq {self.seq} (you expected {expect_seq}).",
                                   self.seq)
                step = self._take(seat, action, self.now())
                assert step.entry is not None
                if source == "player" and not self.repeats.allowed(seat, step.entry.text):
                    self.services.metrics.rejected.labels("repeated").inc()
                    raise RateLimited("You keep playing the same move; it waits until someone else has moved.")
                if bot is not None and self.players.controllers(self.now()).get(seat) is not bot:
                    raise HandedBack(seat)
                if source == "bot" and seat in self.players.standins:
                    step.played_by_standin(seat)
                try:
                    await self._commit_locked(step, source)
                except SeqTaken:
                    await self._catch_up_locked()
                    continue
                self.services.metrics.latency.observe(time.perf_counter() - started)
                return step.seq
        raise Busy("The match is very busy; please try again.")

    def _require_running(self) -> None:
        if self.record.status == "finished":
            raise MatchOver("The match is over.")
        if not self.running:
            raise NotStarted("The match has not started: it is waiting for players.")

    def _take(self, seat: int | None, action: Action, now: int) -> Step:
        settings = self.services.settings
        try:
            return take(self.game, self.state, self.seq + 1, seat, action, now, settings.max_action_bytes,
                        settings.max_frame_bytes)
        except Illegal:
            self.services.metrics.rejected.labels("illegal").inc()
            raise

    async def _apply_due_timeouts_locked(self) -> None:
        for _ in range(MAX_TIMEOUTS_IN_A_ROW):
            due, now = self.deadline, self.now()
            if due is None or due > now:
                return
            if not self.drives and await self._owner_timed_out_locked(due):
                continue
            try:
                step = take(self.game, self.state, self.seq + 1, None, dict(TIMEOUT), now,
                            self.services.settings.max_action_bytes, self.services.settings.max_frame_bytes)
            except Illegal as exc:  # a game bug: wait for the next change, do not spin
                log.error("%s refused its own due timeout: %s", self.game.id, exc.message)
                self._timeout_refused_at = self.seq
                return
            try:
                await self._commit_locked(step, "timeout")
            except SeqTaken:
                await self._count_refused("timeout", step.seq, None)
                await self._catch_up_locked()

    async def _owner_timed_out_locked(self, due: int) -> bool:
        """A timeout due at ``due`` is the owner's to log: read the log (this process may
        be behind), then wait for it (woken by the fan-out, else reading the log every
        50 ms) until ``owner_grace_s`` past the deadline. Returns whether the match moved
        meanwhile (``False``: the owner is late or dead, log it here)."""
        seq, grace = self.seq, self.services.settings.owner_grace_s
        await self._catch_up_locked()
        until = time.monotonic() + grace - self.services.clock.real_seconds(self.now() - due)
        while self.seq == seq and not self.drives and time.monotonic() < until:
            self._moved.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(0.05):
                    await self._moved.wait()
            await self._catch_up_locked()
        return self.seq != seq or self.drives

    async def _count_refused(self, kind: str, seq: int, seat: int | None) -> None:
        """A timeout or a bot's move lost the race for ``seq``: duplicate work if another
        process logged the same (a timeout, or a move of that seat) there. Only a count: a
        database away leaves it uncounted (it must not stop the bot or the timer)."""
        try:
            winner = await self.services.store.actions(self.id, after=seq - 1)
        except STORE_AWAY:
            return
        if winner and winner[0].seq == seq and winner[0].seat == seat:
            self.services.metrics.refused.labels(kind).inc()

    async def _commit_locked(self, step: Step, source: str) -> None:
        """Log the step's action (acknowledged only once committed), then make it the match."""
        entry = step.entry
        assert entry is not None
        result = step.result.to_json() if step.result is not None else None
        try:
            await self.services.store.append_action(self.id, step.seq, entry.seat, entry.action, entry.at, result,
                                                    action_json=entry.text)
        except SeqTaken:
            self.services.metrics.conflicts.inc()
            raise
        if self.by_turns and source != "bot":  # a stand-in's move is not its human's
            self._count_miss(self.state, entry.seat)
        self.last_at = entry.at
        self.repeats.played(entry.seat, entry.text)
        self._advance(step, entry.at, result)
        self.services.metrics.applied.counts[source] += 1
        self._after_change(step)
        self._publish({"kind": "moved", "seq": step.seq})
        every = self.services.settings.snapshot_every
        if every > 0 and step.seq % every == 0 and result is None:
            blob = snapshots.dump(step.state)
            self.services.spawn(self.services.store.save_snapshot(
                self.id, step.seq, self.fingerprint, blob, entry.at), "snapshot")

    async def _catch_up_locked(self) -> None:
        """Read what other processes committed: new seats, a start, new actions."""
        if self.step is None:
            record = await self.services.store.get_match(self.id)
            if record != self.record:
                if record.started_at is not None:  # started (and maybe over) on another process
                    try:
                        self.start(record)
                    except Exception as exc:
                        await self.cannot_start(exc)
                else:
                    self._adopt(record)
                    self._publish_summary()
            if self.step is None:
                return
        entries = await self.services.store.actions(self.id, after=self.seq)
        if entries:
            try:
                step = self._replay(self.state, self.seq, entries)
            except IllegalAction as exc:  # code differs between processes
                log.error("match %s: the log does not replay here: %s", self.id, exc.reason)
                raise Unavailable("This server cannot follow the match (its game code differs).") from None
            self._after_change(step)
        if self.record.status == "finished" and self.record.rematch_id is None:
            record = await self.services.store.get_match(self.id)  # set by another process?
            if record.rematch_id is not None:
                self.rematched(record.rematch_id)

    # ---- after every change: sockets, timers, bots ----------------------------------
    def _after_change(self, step: Step) -> None:
        """Push every socket what changed in its seat's view (one view, one patch and one
        message per seat and way of reading ``legal``), then keep or re-arm the timer and
        hand the bots what they see. A view the game fails to build is logged and skipped:
        the change is already committed, and the timers must be re-armed whatever happens."""
        self.touched = time.monotonic()
        try:
            for sub in [s for s in self.subscribers if s.closed]:  # given up as too slow
                self.unsubscribe(sub)
            sockets: dict[int | None, set[str]] = {}
            for sub in self.subscribers:
                sockets.setdefault(sub.seat, set()).add(sub.reads)
            texts = self.views.messages(step, sockets, self._told_alike())
            for sub in list(self.subscribers):
                message = texts.get((sub.seat, sub.reads))
                if message is not None:
                    sub.push(message.text, view="state" if message.whole else "patch")
        finally:
            self._reschedule()

    def _publish_summary(self) -> None:
        self.presence.pushed()
        text = messages.match_message(self.summary())
        for sub in list(self.subscribers):
            sub.push(text)

    def _reschedule(self) -> None:
        self._schedule_deadline()
        self._schedule_bots()
        self._tell_waiting()

    def _schedule_deadline(self) -> None:
        """Arm the timer for the deadline, if this process drives the match (kept as it is
        when the deadline did not move)."""
        due = self.deadline if not self.closed else None
        if self.timer.holds(due):
            return  # the deadline did not move
        self.timer.cancel()
        if due is None:
            return
        if not self.drives:
            self.services.metrics.avoided.labels("timeout").inc()
        elif self._timeout_refused_at != self.seq:
            self.timer.arm(due)

    async def _on_deadline(self) -> None:
        if not self.drives:
            return
        try:
            async with self.lock:
                await self._apply_due_timeouts_locked()
                self._schedule_deadline()
        except Exception:
            log.exception("match %s: a due timeout could not be applied; retrying in 1 s", self.id)
            if not self.closed:
                self.timer.retry(DEADLINE_RETRY_S)

    def _schedule_bots(self) -> None:
        """Hand the bots what they see now (stand-ins come and go here), then tell the
        sockets (and, from the owner, the other processes) if that changed who is present."""
        drives = self.drives
        self._arm_bots(drives)
        playing = self.players.standins.keys()  # the seats stand-ins play
        for seat in playing:
            self.stood_in.setdefault(seat, self.seq)
        if drives and self.running and playing != self.presence.owner_standins:
            standins = frozenset(playing)
            self.presence.owner_standins = standins
            self.services.ownership.set_standins(self.id, standins)
            self._publish({"kind": "standins", "seats": sorted(standins)})
            self._standins_repeats = PRESENCE_EXPIRES
        noted = self._noted
        if noted is None or noted[0] != drives or playing != noted[1]:  # who plays which seat may have changed
            self._noted = (drives, frozenset(playing))
            self.presence.note()

    def _arm_bots(self, drives: bool) -> None:
        if not self.running or self.closed or self.step is None:
            self.bots.stop()
            return
        if not drives:
            self.services.metrics.avoided.labels("bot").inc(len(self.players.bots) + len(self.presence.owner_standins))
            self.bots.stop()
            return
        now = self.now()
        self.bots.hand(self.step, now, self.players.controllers(now), self.players.next_absence(now))

    async def _bot_move(self, seat: int, bot: Bot, action: Action, seq: int) -> Outcome:
        """Play a bot's decision on the change it was made for (``seq``) and no other: when
        another process has moved the match meanwhile (or played this very bot's move),
        the decision is stale and the bot is asked again."""
        if not self.drives or self.players.controllers(self.now()).get(seat) is not bot:
            return Outcome.GONE
        try:
            await self.act(seat, action, expect_seq=seq, source="bot", bot=bot)
            return Outcome.PLAYED
        except HandedBack:  # its human came back meanwhile: theirs to play
            return Outcome.GONE
        except StaleSeq:
            await self._count_refused("bot", seq + 1, seat)
            return Outcome.STALE
        except (Illegal, Invalid):  # the match moved under the bot: drop it and ask again
            return Outcome.REFUSED
        except (MatchOver, NotStarted, Unavailable):
            return Outcome.GONE
        except Exception as exc:  # the database away, or the match very busy: again soon
            log.warning("match %s: the bot of seat %s could not move (%s); asking again soon", self.id, seat,
                        getattr(exc, "message", None) or type(exc).__name__)
            return Outcome.FAILED

    # ---- sockets and presence -------------------------------------------------------
    async def join(self, sub: Subscriber) -> None:
        """Add a socket with the table talk so far (see ``TableChat.join``)."""
        await self.table_chat.join(lambda chat: self.subscribe(sub, chat))

    def subscribe(self, sub: Subscriber, chat: list[ChatRecord]) -> None:
        """Add a socket and send it the present at once: the state (or, while the match
        waits for players, its summary) and the recent chat. A spectator past
        ``max_spectators`` is refused (``AtCapacity``): each one costs every change a send."""
        cap = self.services.settings.max_spectators
        if sub.seat is None and cap and sum(other.seat is None for other in self.subscribers) >= cap:
            raise AtCapacity(f"This match has {cap} spectators already; try again later.", retry_after=30)
        self.subscribers.add(sub)
        self.presence.opened(sub.seat)
        self.services.metrics.sockets.inc()
        self.touched = time.monotonic()
        if sub.seat is not None and self.players.connected(sub.seat, self.now()):
            self._schedule_bots()
        self.resync(sub)
        sub.push(messages.match_message(self.summary()))  # who is here; missed while away
        for line in chat:
            sub.push(messages.chat_message(line.to_json()))
        self.presence.note()

    def message_rate(self, seat: int | None) -> TokenBucket:
        """The bucket a socket's messages are rated by: its seat's, shared by every socket of
        the seat here (more sockets buy no more messages); a spectator's own."""
        settings = self.services.settings
        if seat is None:
            return TokenBucket(settings.rate_per_second, settings.rate_burst)
        return self._rates.setdefault(seat, TokenBucket(settings.rate_per_second, settings.rate_burst))

    def resync(self, sub: Subscriber, asked: bool = False) -> None:
        """Send the socket the whole state (on connect, and when it ``asked``: it missed a
        patch); later patches start from it. What the sockets of one seat ask for is rated
        together (``RESYNCS_PER_S``): a whole state costs far more than the question."""
        if asked and not self._resyncs.setdefault(sub.seat, TokenBucket(RESYNCS_PER_S, RESYNC_BURST)).allow():
            raise RateLimited("Too many whole states asked for this seat; wait a moment (one may be on its way).")
        if self.step is not None:
            sub.push(messages.state_message(self.payload(sub.seat, hold=True)), view="state")

    def unsubscribe(self, sub: Subscriber) -> None:
        if sub not in self.subscribers:
            return
        self.subscribers.discard(sub)
        self.presence.closed_one(sub.seat)
        if all(other.seat != sub.seat for other in self.subscribers):
            self.views.forget(sub.seat)
        self.services.metrics.sockets.dec()
        self.touched = time.monotonic()
        if sub.seat is not None:
            self.players.disconnected(sub.seat, self.now())
            self._schedule_bots()
        self.presence.note()

    def touch(self, seat: int) -> None:
        """A human's REST request: they are here (and other processes hear so)."""
        self.heard_seen(seat)
        self.presence.seen_here(seat)

    def heard_seen(self, seat: int) -> None:
        """A human is here: through a REST request to this process or another."""
        if 0 <= seat < len(self.record.seats) and self.players.seen(seat, self.now()):
            self._schedule_bots()

    def heard_presence(self, origin: str, seats: frozenset[int]) -> None:
        """Another process says which seats have a socket open on it: they are present."""
        self.presence.heard(origin, seats)
        for seat in seats:
            self.heard_seen(seat)
        self.presence.note()

    def presence_heartbeat(self) -> None:
        """Repeat presence; the owner repeats which seats stand-ins play while any does (and
        for a few heartbeats after the last left), so a process that missed the one
        message — Redis was away a moment — learns it within a heartbeat, not at reload."""
        self.presence.heartbeat()
        standins = self.presence.owner_standins
        if self.drives and self.running and (standins or self._standins_repeats > 0):
            self._standins_repeats = max(0, self._standins_repeats - 1)
            self._publish({"kind": "standins", "seats": sorted(standins)})

    def tell_presence(self) -> None:
        self.presence.tell()

    # ---- ownership --------------------------------------------------------------------
    def took_over(self, standins: tuple[int, ...] | frozenset[int]) -> None:
        """This process drives the match now: keep the stand-ins the last owner had (for
        humans not here), then arm the timer and the bots — a due timeout fires at once."""
        self.presence.owner_standins = frozenset(standins)
        self.players.adopt_standins(standins)
        self.services.spawn(self._catch_up_and_arm(), f"take over {self.id}")

    def drive_again(self) -> None:
        """This process stopped driving the match for a while (no heartbeat for ``lease_s``)
        and drives it again: as when taking it over, keeping the stand-ins it had."""
        self.took_over(self.presence.owner_standins)

    async def _catch_up_and_arm(self) -> None:
        """Read the log, then arm; armed even when the read fails (the database back a
        moment ago, or away again): nothing else would arm the match, and a timer or a bot
        that meets the log moved on catches up then."""
        async with self.lock:
            try:
                await self._catch_up_locked()
            finally:
                self.timer.cancel()  # armed by another owner's reckoning, or not at all
                self._reschedule()

    def lost(self) -> None:
        """Another process drives the match now: disarm the timer and the bots."""
        self.timer.cancel()
        self.bots.stop()
        self.presence.note()

    def heard_standins(self, seats: Any) -> None:
        """The owner says which human seats stand-ins play (ignored by the owner)."""
        if not self.drives:
            self.presence.owner_standins = frozenset(seats)
            self.presence.note()

    def has_work(self) -> bool:
        """A timer or a bot is due to move the match (it must stay in memory)."""
        return self.timer.armed or self.bots.busy()

    def sleeps_until(self, min_s: float) -> int | None:
        """By turns, with no bot at work and the deadline more than ``min_s`` away, the
        match may leave memory and wake at its deadline: that deadline (else ``None``)."""
        due = self.deadline
        if not self.by_turns or due is None or self.bots.busy() or self.services.clock.seconds_until(due) <= min_s:
            return None
        return due

    def clock_moved(self) -> None:
        """Game time jumped (tests): arm the timer and the bots again by the new time."""
        if not self.closed:
            self.timer.cancel()
            self._reschedule()

    # ---- chat -----------------------------------------------------------------------
    async def chat(self, seat: int | None, text: Any) -> ChatRecord:
        """Store and broadcast a chat line from a seated player."""
        return await self.table_chat.say(seat, text)

    async def hear_chat(self, line: dict[str, Any]) -> None:
        await self.table_chat.hear(line)

    def _deliver_chat(self, line: dict[str, Any]) -> None:
        text = messages.chat_message(line)
        for sub in list(self.subscribers):
            sub.push(text, droppable=True)

    # ---- the end --------------------------------------------------------------------
    def rematched(self, rematch_id: str) -> None:
        """The match has a rematch (set once): remember it and tell every socket."""
        if self.record.rematch_id == rematch_id:
            return
        self.record = replace(self.record, rematch_id=rematch_id)
        self._publish_summary()

    def close(self) -> None:
        """Leave memory: stop every timer (the log keeps the match)."""
        self.closed = True
        self.timer.cancel()
        self.bots.stop()
        self.presence.close()

    # ---- news from other processes --------------------------------------------------
    def follow(self, seq: int | None) -> None:
        """Another process committed ``seq`` (``None``: changed seats); catch up soon.
        Requests arriving while catching up are folded into one more round."""
        if self.closed or (seq is not None and seq <= self.seq):
            return
        self._moved.set()
        if self._following:
            self._follow_again = True
            return
        self._following = True
        self.services.spawn(self._follow(), f"follow {self.id}")

    async def _follow(self) -> None:
        try:
            while True:
                self._follow_again = False
                await self.sync()
                if not self._follow_again:
                    return
        finally:
            self._following = False

