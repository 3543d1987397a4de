"""One match held in memory by this process: its state, ``seq``, lock and sockets.

Applying an action (``act``), always under the match's ``asyncio.Lock``:

1. apply every timeout that is due (``deadline <= now``), each one logged like any action;
2. check ``expect_seq`` (after catching up from the log if it differs);
3. ask the rules (``IllegalAction`` ⇒ ``Illegal``, nothing changes);
4. insert the row at ``seq + 1`` and commit — only then is the action acknowledged;
5. update memory, push each socket what changed in its own view (a patch; see
   ``seat_views``) and the events it may see, re-arm the deadline timer and re-ask every bot.

Presence — which seats have a socket open, which a stand-in bot plays — is pushed to
every socket as a ``match`` message (the public summary) whenever it changes, before the
start, during play and after the end; changes within ``PRESENCE_COALESCE_S`` go out as
one message. With several processes, each tells the others (through the fan-out) which
seats have a socket open on it, when that changes, every ``presence_every_s`` and when a
process that has just loaded the match asks, and that a seat made a REST request; a seat
connected elsewhere counts as present here, so no stand-in takes over a player who is
at the table through another process. What a process said and has not repeated for
``PRESENCE_EXPIRES`` heartbeats is forgotten (the process may have died).

If another process committed that ``seq`` first, the tail of the log is replayed into
memory and the action is tried again on the new state (or refused as stale when the
client pinned ``expect_seq``). The log is the truth; memory follows it.

Only the process that owns the match (``drives``, see ``ownership``) arms its deadline
timer, asks its bots and decides its stand-ins; the others show the owner's stand-ins.
A player's action reaching another process when a timeout is due waits, up to
``owner_grace_s`` past the deadline, for the owner to log it, and logs it itself only if
the owner is late or dead (the ``seq`` settles that race).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
from dataclasses import replace
from functools import partial
from typing import Any, Callable

from server.engine import TIMEOUT, Action, Bot, Event, Game, IllegalAction, Result
from server.engine.bots import ask
from server.store import ChatRecord, MatchRecord, SeqTaken

from . import messages, snapshots
from .canonical import apply_canonical
from .bots import SeatPlayers
from .errors import Busy, Illegal, Invalid, MatchOver, NotStarted, NotYourSeat, RateLimited, StaleSeq, Unavailable
from .rate import TokenBucket
from .seat_views import SeatViews
from .services import Services
from .subscribers import Subscriber
from .summaries import summary
from .tokens import token_hash

log = logging.getLogger(__name__)


def unstarted_result(reason: str) -> dict[str, Any]:
    """The result of a match that ended before it began: nobody won, and why."""
    return Result(winners=[], scores=[], reason=reason).to_json()

RECENT_EVENTS = 50
MAX_ATTEMPTS = 8
MAX_TIMEOUTS_IN_A_ROW = 20
PRESENCE_COALESCE_S = 0.2  # presence changes this close together make one push
PRESENCE_EXPIRES = 3  # heartbeats missed before another process's presence is forgotten


class LiveMatch:
    def __init__(self, services: Services, record: MatchRecord, game: Game[Any, Any]) -> None:
        self.services = services
        self.game = game
        self.record = record
        self.id = record.id
        self.state: Any = None
        self.seq = 0
        self.last_at = record.started_at or record.created_at
        self.lock = asyncio.Lock()
        self.subscribers: set[Subscriber] = set()
        self.views = SeatViews(game)  # what each seat's sockets hold
        self.recent: deque[tuple[int, Event]] = deque(maxlen=RECENT_EVENTS)
        self.touched = time.monotonic()  # last change or socket activity, for eviction
        self.closed = False
        self._tokens = {s.token_hash: s.seat for s in record.seats if s.token_hash}
        self.players = self._seat_players(record)
        self.shared_standins: frozenset[int] = frozenset()  # as the owner said (all processes)
        self._deadline_timer: asyncio.TimerHandle | None = None
        self._bot_timers: dict[int, asyncio.TimerHandle] = {}
        self._absence_timer: asyncio.TimerHandle | None = None
        self._presence_timer: asyncio.TimerHandle | None = None
        self.elsewhere: dict[str, tuple[frozenset[int], float]] = {}  # process → (seats, heard)
        self._presence_sent = self._presence()  # what the sockets were last told
        self._told_elsewhere: frozenset[int] = frozenset()
        self._seen_told: dict[int, float] = {}  # seat → when other processes were told of a REST request
        self._thinking: set[int] = set()
        self._dropped: dict[int, tuple[int, list[Action]]] = {}  # seat → (seq, refused)
        self._played_at: dict[int, int] = {}  # seat → the seq its bot last moved at
        self._chat_limits: dict[int, TokenBucket] = {}
        self._chat_lock = asyncio.Lock()  # a line is stored and delivered, or read as history, never lost between
        self._following = self._follow_again = False
        self._timeout_refused_at: int | None = None
        self._moved = asyncio.Event()  # another process said the match moved

    # ---- who is who -----------------------------------------------------------------
    @property
    def status(self) -> str:
        return self.record.status

    @property
    def running(self) -> bool:
        return self.record.status == "running" and self.state is not None

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
        if seat is None and self.state is None:
            await self.sync()
            seat = self.seat_for_token(token)
        return seat

    def seat_name(self, seat: int) -> str:
        return next(s.name for s in self.record.seats if s.seat == seat)

    def summary(self) -> dict[str, Any]:
        connected, standins = self._presence()
        return summary(self.record, self.seq if self.state is not None else None, connected, standins)

    def _seat_players(self, record: MatchRecord) -> SeatPlayers:
        ms = int(self.services.settings.standin_after_s * 1000)
        return SeatPlayers(self.game, record, self.services.clock.now_ms(), ms)

    def now(self) -> int:
        """Game time for the next entry of the log: never before the last one."""
        return max(self.services.clock.now_ms(), self.last_at)

    # ---- starting and restoring -----------------------------------------------------
    def start(self, record: MatchRecord) -> None:
        """Every seat is taken: set the game up with the stored seed and start time."""
        assert record.started_at is not None
        self._adopt(record)
        self.state = self.first_state(record)
        self.seq, self.last_at = 0, record.started_at
        self._after_change([])

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
        """Resume from ``state`` after ``seq`` actions, replaying the ``ActionRecord`` tail."""
        self.state, self.seq = state, seq
        self._replay(entries)
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

    def _replay(self, entries: list[Any]) -> list[tuple[int, Event]]:
        """Apply logged actions (they were legal when committed); returns their events."""
        out: list[tuple[int, Event]] = []
        for entry in entries:
            if entry.seq != self.seq + 1:
                raise RuntimeError(f"match {self.id}: log jumps from {self.seq} to {entry.seq}")
            self.state, events = self.game.apply(self.state, entry.seat, entry.action, entry.at)
            self.seq, self.last_at = entry.seq, max(self.last_at, entry.at)
            out += [(entry.seq, e) for e in events]
        self.recent.extend(out)
        self._note_result(self.last_at)
        return out

    def _note_result(self, at: int) -> None:
        result = self.game.result(self.state)
        if result is not None and self.record.status != "finished":
            self.record = replace(self.record, status="finished", finished_at=at, result=result.to_json())

    # ---- reading --------------------------------------------------------------------
    def payload(self, seat: int | None, hold: bool = False) -> dict[str, Any]:
        """What ``seat`` may know now: view, legal actions, deadline and the recent events
        it may see. ``hold``: the payload goes to a socket as its full state (later changes
        reach the seat's sockets as patches from this view)."""
        if self.state is None:
            return messages.state_payload(seq=0, status=self.status, view=None, legal=[], events=[],
                                          deadline=None, now=self.services.clock.now_ms(),
                                          result=self.record.result)
        return messages.state_payload(
            seq=self.seq, view=self.views.current(self.state, self.seq, seat, hold), legal=self._legal(seat),
            events=messages.visible_events(self.recent, seat), **self._told_alike())

    def _legal(self, seat: int | None) -> list[Action]:
        return self.game.legal(self.state, seat) if seat is not None and self.running else []

    def _told_alike(self) -> dict[str, Any]:
        """What every seat is told alike about the present."""
        return {"status": self.status, "deadline": self.game.deadline(self.state) if self.running else None,
                "now": self.services.clock.now_ms(), "result": self.record.result}

    async def sync(self) -> None:
        """Catch up with actions other processes committed (REST reads call this)."""
        async with self.lock:
            await self._catch_up_locked()

    # ---- acting ---------------------------------------------------------------------
    async def act(self, seat: int, action: Action, expect_seq: int | None = None,
                  source: str = "player") -> int:
        """Apply ``seat``'s action; returns its ``seq`` once committed."""
        started = time.perf_counter()
        self._check_plain_json(action)
        async with self.lock:
            if source == "player" and self.players.seen(seat, self.now()):
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
                now = self.now()
                action, new_state, events = self._rules_apply(seat, action, now)
                try:
                    await self._commit_locked(seat, action, now, new_state, events, source)
                except SeqTaken:
                    await self._catch_up_locked()
                    continue
                self.services.metrics.latency.observe(time.perf_counter() - started)
                return self.seq
        raise Busy("The match is very busy; please try again.")

    def _check_plain_json(self, action: Any) -> None:
        """What goes into the log must be a small object of plain, finite JSON."""
        if not isinstance(action, dict):
            raise Invalid("An action is a JSON object with a \"type\".")
        try:
            size = len(json.dumps(action, allow_nan=False))
        except (ValueError, TypeError, RecursionError):
            raise Invalid("An action must be plain JSON with finite numbers.") from None
        limit = self.services.settings.max_frame_bytes
        if size > limit:
            raise Invalid(f"An action is limited to {limit} bytes of JSON.")

    def _require_running(self) -> None:
        if self.record.status == "finished":
            raise MatchOver("The match is over.")
        if not self.running:
            raise NotStarted("The match has not started: it is waiting for players.")

    def _rules_apply(self, seat: int | None, action: Action, now: int) -> tuple[Action, Any, list[Event]]:
        """The action's canonical form (what the rules read, see ``canonical``), and the
        state and events of applying exactly that."""
        try:
            action, state, events = apply_canonical(lambda a: self.game.apply(self.state, seat, a, now), action)
        except IllegalAction as exc:
            self.services.metrics.rejected.labels("illegal").inc()
            raise Illegal(exc.reason) from None
        except Exception:  # a game that fails to reject malformed input must not become a 500
            log.exception("%s raised on %.200r; treated as an illegal action", self.game.id, action)
            self.services.metrics.rejected.labels("illegal").inc()
            raise Illegal("The game does not understand this action.") from None
        limit = self.services.settings.max_action_bytes
        if len(json.dumps(action)) > limit:
            raise Invalid(f"What the rules read of an action is limited to {limit} bytes of JSON.")
        return action, state, events

    async def _apply_due_timeouts_locked(self) -> None:
        for _ in range(MAX_TIMEOUTS_IN_A_ROW):
            if not self.running:
                return
            due, now = self.game.deadline(self.state), self.now()
            if due is None or due > now:
                return
            if not self.drives and await self._owner_timed_out_locked(due):
                continue
            try:
                new_state, events = self.game.apply(self.state, None, dict(TIMEOUT), now)
            except IllegalAction as exc:  # a game bug: wait for the next change, do not spin
                log.error("%s refused its own due timeout: %s", self.game.id, exc.reason)
                self._timeout_refused_at = self.seq
                return
            try:
                await self._commit_locked(None, dict(TIMEOUT), now, new_state, events, "timeout")
            except SeqTaken:
                await self._count_refused("timeout", self.seq + 1, None)
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
        process logged the same (a timeout, or a move of that seat) there."""
        winner = await self.services.store.actions(self.id, after=seq - 1)
        if winner and winner[0].seq == seq and winner[0].seat == seat:
            self.services.metrics.refused.labels(kind).inc()

    async def _commit_locked(self, seat: int | None, action: Action, now: int, new_state: Any,
                             events: list[Event], source: str) -> None:
        result = self.game.result(new_state)
        seq = self.seq + 1
        try:
            await self.services.store.append_action(self.id, seq, seat, action, now,
                                                    result.to_json() if result else None)
        except SeqTaken:
            self.services.metrics.conflicts.inc()
            raise
        self.state, self.seq, self.last_at = new_state, seq, now
        self._note_result(now)
        tagged = [(seq, e) for e in events]
        self.recent.extend(tagged)
        self.services.metrics.actions.labels(source).inc()
        self._after_change(tagged)
        self.services.fanout.publish({"match": self.id, "kind": "moved", "seq": seq})
        every = self.services.settings.snapshot_every
        if every > 0 and seq % every == 0 and result is None:
            blob = snapshots.dump(new_state)
            self.services.spawn(self.services.store.save_snapshot(
                self.id, seq, snapshots.code_fingerprint(type(self.game)), blob, now), "snapshot")

    async def _catch_up_locked(self) -> None:
        """Read what other processes committed: new seats, a start, new actions."""
        if self.state is None:
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
            if self.state is None:
                return
        entries = await self.services.store.actions(self.id, after=self.seq)
        if entries:
            try:
                tagged = self._replay(entries)
            except IllegalAction as exc:  # code differs between processes
                log.error("match %s: the log does not replay here: %s", self.id, exc.reason)
                raise Unavailable("This server cannot follow the match (its game code differs).") from None
            self._after_change(tagged)
        if self.record.status == "finished" and self.record.rematch_id is None:
            record = await self.services.store.get_match(self.id)  # set by another process?
            if record.rematch_id is not None:
                self.rematched(record.rematch_id)

    # ---- after every change: sockets, timers, bots ----------------------------------
    def _after_change(self, tagged: list[tuple[int, Event]]) -> None:
        """Push every socket what changed in its seat's view (one view, one patch and one
        message per seat), then re-arm timers and bots. A view the game fails to build is
        logged and skipped: the change is already committed, and the timers must be
        re-armed whatever happens."""
        self.touched = time.monotonic()
        try:
            for sub in [s for s in self.subscribers if s.closed]:  # given up as too slow
                self.unsubscribe(sub)
            texts = self.views.messages(
                self.state, self.seq, {sub.seat for sub in self.subscribers}, legal=self._legal,
                events=lambda seat: messages.visible_events(tagged, seat), common=self._told_alike())
            for sub in list(self.subscribers):
                text = texts.get(sub.seat)
                if text is not None:
                    sub.push(text)
        finally:
            self._reschedule()

    def _publish_summary(self) -> None:
        self._presence_sent = self._presence()
        text = messages.match_message(self.summary())
        for sub in list(self.subscribers):
            sub.push(text)

    def _reschedule(self) -> None:
        self._schedule_deadline()
        self._schedule_bots()

    def _later(self, at_ms: int, make: Callable[[], Any], what: str) -> asyncio.TimerHandle:
        delay = self.services.clock.seconds_until(at_ms)
        return asyncio.get_running_loop().call_later(delay, lambda: self.services.spawn(make(), what))

    def _schedule_deadline(self) -> None:
        if self._deadline_timer:
            self._deadline_timer.cancel()
            self._deadline_timer = None
        due = self.game.deadline(self.state) if self.running and not self.closed else None
        if due is not None and not self.drives:
            self.services.metrics.avoided.labels("timeout").inc()
        elif due is not None and self._timeout_refused_at != self.seq:
            self._deadline_timer = self._later(due, self._on_deadline, f"deadline of {self.id}")

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
                self._deadline_timer = asyncio.get_running_loop().call_later(
                    1.0, lambda: self.services.spawn(self._on_deadline(), f"deadline of {self.id}"))

    def _schedule_bots(self) -> None:
        """Re-ask every bot (stand-ins come and go here), then tell the sockets (and, from
        the owner, the other processes) if that changed who is present."""
        self._arm_bots()
        standins = frozenset(self.players.standins)
        if self.drives and self.running and standins != self.shared_standins:
            self.shared_standins = standins
            self.services.ownership.standins_changed(self, standins)
        self._note_presence()

    def _arm_bots(self) -> None:
        for timer in self._bot_timers.values():
            timer.cancel()
        self._bot_timers.clear()
        if self._absence_timer:
            self._absence_timer.cancel()
            self._absence_timer = None
        if not self.running or self.closed:
            return
        if not self.drives:
            self.services.metrics.avoided.labels("bot").inc(len(self.players.bots) + len(self.shared_standins))
            return
        now = self.now()
        for seat, bot in self.players.controllers(now).items():
            self._ask_bot(seat, bot)
        absent_at = self.players.next_absence(now)
        if absent_at is not None:
            delay = self.services.clock.seconds_until(absent_at) + 0.001
            self._absence_timer = asyncio.get_running_loop().call_later(delay, self._schedule_bots)

    def _ask_bot(self, seat: int, bot: Bot) -> None:
        """Ask the bot off the event loop (a thinking bot must not stall other matches);
        one question per seat at a time, asked again if the match moved meanwhile."""
        if seat in self._thinking:
            return
        self._thinking.add(seat)
        self.services.spawn(self._think(seat, bot, self.state, self.seq, self.now()), f"bot {seat} of {self.id}")

    async def _think(self, seat: int, bot: Bot, state: Any, seq: int, now: int) -> None:
        try:
            decision = await asyncio.to_thread(ask, self.game, bot, state, seat, now)
        except Exception:
            log.exception("%s bot for seat %s failed to decide", self.game.id, seat)
            decision = None
        finally:
            self._thinking.discard(seat)
        if not self.running or self.closed or not self.drives or self.players.controllers(self.now()).get(seat) is not bot:
            return
        if seq != self.seq:
            self._ask_bot(seat, bot)
            return
        dropped_seq, dropped = self._dropped.get(seat, (None, []))
        if decision is None or (dropped_seq == seq and (decision.action in dropped or len(dropped) >= 3)):
            return
        old = self._bot_timers.pop(seat, None)
        if old:
            old.cancel()
        self._bot_timers[seat] = self._later(decision.at_ms, partial(self._bot_plays, seat, bot, decision.action, seq),
                                             f"bot {seat} of {self.id}")

    async def _bot_plays(self, seat: int, bot: Bot, action: Action, seq: int) -> None:
        """Play a bot's decision on the state it was made for (``seq``) and no other: when
        another process has moved the match meanwhile (or played this very bot's move),
        the decision is stale and the bot is asked again."""
        if not self.drives or self.players.controllers(self.now()).get(seat) is not bot:
            return
        if self._played_at.get(seat) == seq:  # asked again while this move was on its way: once is enough
            return
        self._played_at[seat] = seq
        try:
            await self.act(seat, action, expect_seq=seq, source="bot")
        except StaleSeq:
            await self._count_refused("bot", seq + 1, seat)
            self._ask_bot(seat, bot)
        except (Illegal, Invalid):  # the match moved under the bot: drop it and ask again
            self._played_at.pop(seat, None)
            dropped_seq, dropped = self._dropped.get(seat, (None, []))
            self._dropped[seat] = (self.seq, (dropped if dropped_seq == self.seq else []) + [action])
            self._ask_bot(seat, bot)
        except (MatchOver, NotStarted, Busy, Unavailable):
            pass

    # ---- sockets and presence -------------------------------------------------------
    async def join(self, sub: Subscriber) -> None:
        """Add a socket with the table talk so far: every chat line reaches it once, read
        as history or delivered live, even one said while it connects."""
        async with self._chat_lock:
            self.subscribe(sub, await self.services.store.chat(self.id))

    def subscribe(self, sub: Subscriber, chat: list[ChatRecord]) -> None:
        """Add a socket and send it the present at once: the state (or, while the match
        waits for players, its summary) and the recent chat."""
        self.subscribers.add(sub)
        self.services.metrics.sockets.inc()
        self.touched = time.monotonic()
        if sub.seat is not None and self.players.connected(sub.seat, self.now()):
            self._schedule_bots()
        self.resync(sub)
        sub.push(messages.match_message(self.summary()))  # who is here; missed while away
        for line in chat:
            sub.push(messages.chat_message(line.to_json()))
        self._note_presence()

    def resync(self, sub: Subscriber) -> None:
        """Send the socket the whole state (on connect, and when it asks: it missed a patch);
        later patches start from it."""
        if self.state is not None:
            sub.push(messages.state_message(self.payload(sub.seat, hold=True)))

    def unsubscribe(self, sub: Subscriber) -> None:
        if sub not in self.subscribers:
            return
        self.subscribers.discard(sub)
        if all(other.seat != sub.seat for other in self.subscribers):
            self.views.forget(sub.seat)
        self.services.metrics.sockets.dec()
        self.touched = time.monotonic()
        if sub.seat is not None:
            self.players.disconnected(sub.seat, self.now())
            self._schedule_bots()
        self._note_presence()

    def touch(self, seat: int) -> None:
        """A human's REST request: they are here (and other processes hear so, at most
        twice a heartbeat)."""
        self.heard_seen(seat)
        every, now = self.services.settings.presence_every_s, time.monotonic()
        if now - self._seen_told.get(seat, -every) >= every / 2:
            self._seen_told[seat] = now
            self.services.fanout.publish({"match": self.id, "kind": "seen", "seat": seat})

    def heard_seen(self, seat: int) -> None:
        """A human is here: through a REST request to this process or another."""
        if 0 <= seat < len(self.record.seats) and self.players.seen(seat, self.now()):
            self._schedule_bots()

    def _connected_here(self) -> frozenset[int]:
        return frozenset(s.seat for s in self.subscribers if s.seat is not None)

    def _presence(self) -> tuple[frozenset[int], frozenset[int]]:
        """The seats with a socket open here or on another process, and the human seats
        stand-ins play now."""
        connected = self._connected_here().union(*(seats for seats, _ in self.elsewhere.values()))
        if self.drives:
            return connected, frozenset(self.players.standins)
        return connected, self.shared_standins - connected

    def heard_presence(self, origin: str, seats: frozenset[int]) -> None:
        """Another process says which seats have a socket open on it: they are present."""
        if seats:
            self.elsewhere[origin] = (seats, time.monotonic())
        else:
            self.elsewhere.pop(origin, None)
        for seat in seats:
            self.heard_seen(seat)
        self._note_presence()

    def presence_heartbeat(self) -> None:
        """Tell other processes again which seats have a socket here (they forget what is
        not repeated), and forget what other processes stopped repeating."""
        every = self.services.settings.presence_every_s
        old = time.monotonic() - PRESENCE_EXPIRES * every
        for origin in [o for o, (_, heard) in self.elsewhere.items() if heard < old]:
            del self.elsewhere[origin]
        self.tell_presence()
        self._note_presence()

    def tell_presence(self, again: bool = True) -> None:
        """Tell other processes which seats have a socket here: when that changed, or
        ``again`` (a heartbeat, an answer to a question) when any has."""
        here = self._connected_here()
        if here != self._told_elsewhere or (again and here):
            self._told_elsewhere = here
            self.services.fanout.publish({"match": self.id, "kind": "presence", "seats": sorted(here)})

    def _note_presence(self) -> None:
        """Presence may have changed: tell other processes, and push the summary soon if it
        did (one push for every change made meanwhile)."""
        if not self.closed:
            self.tell_presence(again=False)
        if self.closed or self._presence_timer is not None or self._presence() == self._presence_sent:
            return
        self._presence_timer = asyncio.get_running_loop().call_later(PRESENCE_COALESCE_S, self._push_presence)

    def _push_presence(self) -> None:
        self._presence_timer = None
        if not self.closed and self._presence() != self._presence_sent:
            self._publish_summary()

    # ---- ownership --------------------------------------------------------------------
    def took_over(self, standins: tuple[int, ...] | frozenset[int]) -> None:
        """This process drives the match now: keep the stand-ins the last owner had (for
        humans not here), then arm the timer and the bots — a due timeout fires at once."""
        self.shared_standins = frozenset(standins)
        self.players.adopt_standins(standins)
        self.services.spawn(self._catch_up_and_arm(), f"take over {self.id}")

    async def _catch_up_and_arm(self) -> None:
        async with self.lock:
            await self._catch_up_locked()
            self._reschedule()

    def lost(self) -> None:
        """Another process drives the match now: disarm the timer and the bots."""
        for timer in [self._deadline_timer, self._absence_timer, *self._bot_timers.values()]:
            if timer:
                timer.cancel()
        self._deadline_timer = self._absence_timer = None
        self._bot_timers.clear()
        self._note_presence()

    def heard_standins(self, seats: Any) -> None:
        """The owner says which human seats stand-ins play (ignored by the owner)."""
        if not self.drives:
            self.shared_standins = frozenset(seats)
            self._note_presence()

    def has_work(self) -> bool:
        """A timer or a bot is due to move the match (it must stay in memory)."""
        return bool(self._deadline_timer or self._bot_timers or self._absence_timer or self._thinking)

    # ---- chat -----------------------------------------------------------------------
    async def chat(self, seat: int | None, text: Any) -> ChatRecord:
        """Store and broadcast a chat line from a seated player."""
        settings = self.services.settings
        if seat is None:
            raise NotYourSeat("Only seated players can chat.")
        if not isinstance(text, str) or not text.strip():
            raise Invalid("A chat message needs some text.")
        text = text.strip()
        if len(text) > settings.chat_max_chars:
            raise Invalid(f"A chat message has at most {settings.chat_max_chars} characters.")
        limit = self._chat_limits.setdefault(
            seat, TokenBucket(settings.chat_per_minute / 60, min(settings.chat_per_minute, 5)))
        if not limit.allow():
            raise RateLimited("Slow down: too many chat messages.")
        line = ChatRecord(seat, self.seat_name(seat), text, self.services.clock.now_ms())
        async with self._chat_lock:
            await self.services.store.add_chat(self.id, line)
            self.deliver_chat(line.to_json())
        self.services.fanout.publish({"match": self.id, "kind": "chat", "line": line.to_json()})
        return line

    async def hear_chat(self, line: dict[str, Any]) -> None:
        """A line said through another process (already stored there)."""
        async with self._chat_lock:
            self.deliver_chat(line)

    def deliver_chat(self, line: dict[str, Any]) -> None:
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
        for timer in [self._deadline_timer, self._absence_timer, self._presence_timer,
                      *self._bot_timers.values()]:
            if timer:
                timer.cancel()
        self._bot_timers.clear()

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
