"""The hub: the runtime of one process — every live match, created, joined and loaded on
demand, and the process-level loops (the lease heartbeat, presence, the sweep).

A match enters memory when somebody asks for it (REST or WebSocket), when it starts, or
when this process takes its lease (on start, or when its owner died), by replay of its
log; it leaves when nobody has watched it for a while (finished matches sooner) and it has
nothing to drive. Other processes' news arrives through the fan-out and is caught up from
the log.

The lease loop (``ownership`` keeps the books): every ``lease_s / 3`` seconds a heartbeat
keeps this process's leases alive (while the fan-out is down, a loop of its own finds
the matches with sockets here that moved, four times a second, and catches them up); the matches another process took over stop being
driven here (``LiveMatch.lost``), the owned ones that moved unheard are caught up
(``follow``), owned ones not in memory are resumed, and orphans — running matches whose
owner died, or that never had one — are claimed up to this process's fair share: that
resumes, on start or after another process died, every match that time or bots must
move, without anyone opening it. A match by turns nobody watches sleeps instead of staying
in memory (``sweep``): its owner loads it again when its deadline nears or its log moves,
and a process taking over a dead owner's sleeping matches takes their leases only.
"""

from __future__ import annotations

import asyncio
import logging
import time
import unicodedata
from typing import Any, Sequence

from server.config import Settings
from server.engine import InvalidOptions, UnknownGame, registry
from server.engine.bots import NORMAL, check_level
from server.problems import AtCapacity, Invalid, NotFinished, Problem
from server.store import STORE_AWAY, MatchRecord, Store, away_line
from server.store.repository import NOT_OVER

from .clock import Clock
from .fanout import make_fanout
from .limits import Limits
from .live_match import LiveMatch, unstarted_result
from .loader import load_match
from .mailer import SmtpMailer
from .metrics import Metrics
from .ownership import Ownership
from .seats import bots_load
from .services import Services
from .tokens import new_match_id, new_process_id, new_seed, new_token, token_hash
from .your_move import YourMove

FOLLOW_UNHEARD_S = 0.25  # while the fan-out is down: how often sockets here look for moves in the log
FOLLOW_AFTER_BACK_S = 5.0  # …and for how long after it is back
log = logging.getLogger(__name__)

NAME_MAX = 32
SWEEP_EVERY_S = 10.0
FINISHED_LINGER_S = 60.0
SLEEP_AT_LEAST_S = 60.0  # a match by turns leaves memory only if its deadline is further off
BOT_CAPACITY_RETRY_S = 30


def clean_name(raw: Any) -> str:
    """A player's name: 1–32 printable characters, trimmed."""
    if not isinstance(raw, str):
        raise Invalid("A name is a string.")
    name = " ".join(raw.split())
    if not 1 <= len(name) <= NAME_MAX:
        raise Invalid(f"A name has 1 to {NAME_MAX} characters.")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") for c in name):
        raise Invalid("A name may only contain printable characters.")
    return name


def _validated(game_id: str, players: int, options: dict[str, Any] | None) -> dict[str, Any]:
    """The options of a new match of ``game_id`` for ``players`` seats, as stored. Unknown
    game, player count out of range, options the game's model rejects or a table its
    ``setup`` would refuse (``Game.validate``) ⇒ ``Invalid``."""
    try:
        game = registry.get(game_id)
        game.check_players(players)
        valid = game.options(options or {})
        game.validate(players, valid)
        return valid.model_dump(mode="json")
    except (UnknownGame, InvalidOptions) as exc:
        raise Invalid(str(exc.args[0] if exc.args else exc)) from None


def _levels(bots: int | Sequence[str], players: int) -> list[str]:
    """The level of each bot seat: a count means that many normal bots."""
    levels = [NORMAL] * bots if isinstance(bots, int) else list(bots)
    if isinstance(bots, int) and bots < 0 or len(levels) > players:
        raise Invalid(f"bots must be between 0 and the number of players ({players}).")
    try:
        return [check_level(level) for level in levels]
    except InvalidOptions as exc:
        raise Invalid(str(exc)) from None


class Hub:
    def __init__(self, settings: Settings, store: Store, clock: Clock | None = None) -> None:
        self.settings = settings
        self.live: dict[str, LiveMatch] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self.metrics = Metrics(lambda: len(self.live))
        self.process_id = new_process_id()
        ownership = Ownership(store.db, settings, self.metrics, self.process_id, self._spawn)
        mailer = SmtpMailer(settings.smtp_url, settings.mail_from) if settings.smtp_url else None
        self.services = Services(store=store, clock=clock or Clock(settings.clock_speed),
                                 fanout=make_fanout(settings.redis_url, self.process_id), metrics=self.metrics,
                                 settings=settings, ownership=ownership,
                                 your_move=YourMove(store, settings, self._spawn, mailer))
        self.services.clock.on_jump(self._clock_moved)
        self.metrics.owned.set_function(self.count_running)
        self.limits = Limits(settings)
        self._sweeper: asyncio.Task[None] | None = None
        self._heart: asyncio.Task[None] | None = None
        self._unheard: asyncio.Task[None] | None = None
        self._beat: asyncio.Task[None] | None = None
        self._fanout_down_until = 0.0  # monotonic time until which to catch up as if it were down

    def _spawn(self, coro: Any, what: str) -> Any:
        return self.services.spawn(coro, what)

    @property
    def store(self) -> Store:
        return self.services.store

    @property
    def ownership(self) -> Ownership:
        return self.services.ownership

    async def start(self) -> None:
        """Listen to the other processes, register this one (the first heartbeat: the
        matches it owns resume at once), then beat in the background."""
        await self.services.fanout.start(self._on_fanout)
        if self.ownership.enabled:
            await self._heartbeat()
            self._beat = asyncio.create_task(self._leases_forever())
        self._sweeper = asyncio.create_task(self._sweep_forever())
        if self.settings.redis_url:  # alone, a process has nobody to tell
            self._heart = asyncio.create_task(self._presence_forever())
            self._unheard = asyncio.create_task(self._unheard_forever())

    async def stop(self) -> None:
        for task in (self._sweeper, self._heart, self._unheard):
            if task:
                task.cancel()
        if self._beat is not None:
            self._beat.cancel()
            await asyncio.gather(self._beat, return_exceptions=True)
            await self.ownership.retire()
        for live in self.live.values():
            live.close()
        self.live.clear()
        await self.services.fanout.stop()
        tasks = list(self.services.tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # ---- creating and joining -------------------------------------------------------
    async def create(self, game_id: str, players: int, options: dict[str, Any] | None,
                     bots: int | Sequence[str], rated: bool = True) -> MatchRecord:
        """A new match; its last seats are bots: ``bots`` of them at the normal level, or one
        per level listed (``["hard", "easy"]``). Unknown game, player count out of range,
        options the game's model rejects or an unknown level ⇒ ``Invalid`` with the reason."""
        options = _validated(game_id, players, options)
        levels = _levels(bots, players)
        if len(levels) == players:
            self._check_bot_capacity(bots_load(levels))
        record = await self.store.create_match(
            id=new_match_id(), game=game_id, options=options, players=players,
            bot_names=[f"Bot {i + 1}" for i in range(len(levels))], bot_levels=levels, seed=new_seed(),
            now=self.services.clock.now_ms(), owner=self.ownership.starter, rated=rated)
        if record.status == "running":
            await self.get(record.id)
        return record

    def _check_bot_capacity(self, load: float) -> None:
        """Matches of bots alone cost CPU with nobody to slow them down: at most
        ``max_bot_matches`` run at once in this process (those it drives: the owner's bots
        are the only ones that think) — every match with no human at the table counts,
        whether it was made of bots or its humans left it to stand-ins, weighed by its size
        and levels (``seats.bots_load``: a two-seat table of normal bots is one), but not one
        whose humans have all been away so long that it is paused; ``load``: the new
        match's weight."""
        cap = self.settings.max_bot_matches
        now = self.services.clock.now_ms()
        running = sum(live.players.load for live in self.live.values()
                      if live.running and live.drives and live.players.unattended(now)
                      and not live.players.paused(now))
        if cap > 0 and running + load > cap:
            raise AtCapacity(f"Tables of bots alone worth {running:g} matches are being played here already; "
                             "try again when one ends, or take a seat yourself.", BOT_CAPACITY_RETRY_S)

    async def rematch(self, live: LiveMatch) -> tuple[MatchRecord, bool]:
        """The match that plays the finished ``live`` again: the same game, options and
        number of players, its bot seats bots again, every human seat open (a player who
        joins it gets their old seat back, see ``Store.join``). The first request creates
        it, every later one gets the same match; returns it and whether this call created
        it. Every socket of ``live`` hears of it (a ``match`` message)."""
        await live.sync()
        record = live.record
        if record.rematch_id is not None:
            return await self.store.get_match(record.rematch_id), False
        if record.status != "finished":
            raise NotFinished(NOT_OVER)
        new, created = await self.store.create_rematch(
            record.id, id=new_match_id(), game=record.game,
            options=_validated(record.game, record.players, record.options), players=record.players,
            bot_names=[s.name for s in record.seats if s.bot], seed=new_seed(),
            bot_levels=[s.level or NORMAL for s in record.seats if s.bot],
            now=self.services.clock.now_ms(), owner=self.ownership.starter, rated=record.rated)
        live.rematched(new.id)
        if created:
            self.services.fanout.publish({"match": live.id, "kind": "rematch", "rematch": new.id})
        return new, created

    async def join(self, match_id: str, raw_name: Any, previous_token: str | None = None,
                   account_id: int | None = None) -> tuple[int, str, LiveMatch]:
        """Take a free seat; returns ``(seat, token, match)``. The token is shown once. In a
        rematch, ``previous_token`` (the player's token in the match played again) proves
        who they are and gives them their old seat; the seats of the previous players are
        held for them for ``rematch_hold_s``. The store's refusals (``Store.join``) reach the
        caller as they are (a name another account claims: ``NameClaimed``). ``account_id``:
        the signed-in account taking the seat."""
        name = clean_name(raw_name)
        token = new_token()
        now = self.services.clock.now_ms()
        previous = token_hash(previous_token) if previous_token is not None else None
        seat, _ = await self.store.join(match_id, name, token_hash(token), now, previous,
                                        int(self.settings.rematch_hold_s * 1000), owner=self.ownership.starter,
                                        account_id=account_id)
        live = await self.get(match_id)
        await live.sync()
        await self._claim(live)  # the last seat started it: drive it
        self.services.fanout.publish({"match": match_id, "kind": "joined"})
        return seat, token, live

    # ---- finding --------------------------------------------------------------------
    async def get(self, match_id: str) -> LiveMatch:
        """The live match, loading it (by replay) if this process does not hold it."""
        live = self.live.get(match_id)
        if live is not None:
            return live
        lock = self._loading.setdefault(match_id, asyncio.Lock())
        try:
            async with lock:
                live = self.live.get(match_id)
                if live is None:
                    live = await load_match(self.services, match_id)
                    self.ownership.woke(match_id)
                    await self._claim(live)  # a running match nobody live owns is this process's now
                    self.live[match_id] = live
                    # who is connected to the processes that already hold it?
                    self.services.fanout.publish({"match": match_id, "kind": "presence?"})
        finally:
            self._loading.pop(match_id, None)
        return live

    async def _claim(self, live: LiveMatch) -> None:
        """Own ``live`` if it runs and no live process does (taking it over arms it at
        once); either way learn which seats stand-ins play, and arm what this process does."""
        found = await self.ownership.claim(live.id) if live.status == "running" else None
        if found is not None and found.mine:
            live.took_over(found.standins)
            return
        if found is not None:
            live.heard_standins(found.standins)
        live.arm()

    async def list(self, status: str | None, game: str | None, limit: int, offset: int
                   ) -> tuple[list[MatchRecord], int]:
        """A page of the store's matches; never loads one (a match held here is described
        from memory, which may be a moment ahead of the store)."""
        records, total = await self.store.list_matches(status=status, game=game, limit=limit, offset=offset)
        # a match this process holds may have finished a moment ago: prefer memory
        return [self.live[r.id].record if r.id in self.live else r for r in records], total

    # ---- other processes, idle matches ----------------------------------------------
    async def _on_fanout(self, message: dict[str, Any]) -> None:
        live = self.live.get(str(message.get("match")))
        if live is None:
            return
        kind = message.get("kind")
        if kind == "chat" and isinstance(message.get("line"), dict):
            await live.hear_chat(message["line"])
        elif kind == "joined":
            live.follow(None)
        elif kind == "rematch" and isinstance(message.get("rematch"), str):
            live.rematched(message["rematch"])
        elif kind == "moved" and isinstance(message.get("seq"), int):
            live.follow(message["seq"])
        elif kind == "seen" and isinstance(message.get("seat"), int):
            live.heard_seen(message["seat"])
        elif kind == "presence?":
            live.tell_presence()
        elif kind == "standins" and isinstance(message.get("seats"), list):
            live.heard_standins(s for s in message["seats"] if isinstance(s, int) and not isinstance(s, bool))
        elif kind == "presence" and isinstance(message.get("seats"), list):
            seats = frozenset(s for s in message["seats"] if isinstance(s, int) and not isinstance(s, bool))
            live.heard_presence(str(message.get("origin")), seats)

    async def _presence_forever(self) -> None:
        """Every ``presence_every_s``: each held match repeats its presence to the others."""
        while True:
            await asyncio.sleep(self.settings.presence_every_s)
            for live in list(self.live.values()):
                live.presence_heartbeat()

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_EVERY_S)
            self.sweep()
            try:
                await self.expire_unfilled()
            except Exception:  # the database may be away for a moment: next sweep
                log.warning("could not expire unfilled matches", exc_info=True)

    async def expire_unfilled(self, now: int | None = None) -> list[str]:
        """End every match whose seats were not all taken within ``open_expires_after_s``
        (finished, with the reason); sockets watching one here, and other processes, are
        told. Returns the ids ended."""
        ttl_ms = int(self.settings.open_expires_after_s * 1000)
        if ttl_ms <= 0:
            return []
        now = self.services.clock.now_ms() if now is None else now
        hours = self.settings.open_expires_after_s / 3600
        reason = f"Not every seat was taken within {hours:g} hour{'s' if hours != 1 else ''}: the match was closed."
        ended = await self.store.expire_unfilled(now - ttl_ms, now, unstarted_result(reason))
        for match_id in ended:
            if match_id in self.live:
                self.live[match_id].follow(None)
            self.services.fanout.publish({"match": match_id, "kind": "joined"})  # news of the seats: catch up
        return ended

    def sweep(self, now: float | None = None) -> list[str]:
        """Drop matches nobody watches: finished ones after a minute, others after
        ``evict_after_s`` without a change, unless this process drives them and a timer or
        a bot is due (their lease is given up with them). A match by turns whose deadline
        is far off goes to sleep instead: it leaves memory, this process keeps its lease and
        loads it again near the deadline (see ``_heartbeat``). Returns the ids dropped."""
        now = time.monotonic() if now is None else now
        gone = []
        for match_id, live in list(self.live.items()):
            idle = now - live.touched
            linger = FINISHED_LINGER_S if live.status == "finished" else self.settings.evict_after_s
            if live.subscribers or live.lock.locked() or idle < linger:
                continue
            wake = live.sleeps_until(max(SLEEP_AT_LEAST_S, 3 * self.ownership.every_s)) if live.drives else None
            if wake is not None and self.ownership.enabled:
                self.ownership.sleep(match_id, wake, live.seq)
            elif not (live.drives and live.has_work()):
                self.ownership.release(match_id)
            else:
                continue
            live.close()
            del self.live[match_id]
            gone.append(match_id)
        return gone

    def _clock_moved(self) -> None:
        """Game time jumped (tests): every timer armed by the old time is armed again."""
        for live in list(self.live.values()):
            live.clock_moved()

    # ---- the leases ------------------------------------------------------------------
    async def _leases_forever(self) -> None:
        while True:
            await asyncio.sleep(self.ownership.every_s)
            try:
                await self._heartbeat()
                await self._claim_orphans()
            except STORE_AWAY as exc:  # one line each, as REST logs it
                log.warning("lease heartbeat failed, the database is unavailable (%s); retrying", away_line(exc))
            except Exception:
                log.exception("lease heartbeat failed; retrying")

    async def _unheard_forever(self) -> None:
        failing = False
        while True:
            await asyncio.sleep(FOLLOW_UNHEARD_S)
            try:
                await self._follow_unheard()
                failing = False
            except Exception as exc:  # the database is away too: the next round
                if not failing:
                    log.warning("could not read which matches moved while Redis is away: %s", exc)
                failing = True

    async def _follow_unheard(self) -> None:
        """While the fan-out is down, and for ``FOLLOW_AFTER_BACK_S`` after it is back or
        after a publish failed (a move published while the connections were being made
        again is lost), the moves other processes make may not be heard: every
        ``FOLLOW_UNHEARD_S``, one read of the newest seq of every running match with
        sockets here finds those that moved, and only they catch up from the log (one
        not running yet, or finished, re-reads its record: seats, a start, a rematch)."""
        now, fanout = time.monotonic(), self.services.fanout
        if fanout.down or now - fanout.failed_at < FOLLOW_AFTER_BACK_S:
            self._fanout_down_until = now + FOLLOW_AFTER_BACK_S
        if now > self._fanout_down_until:
            return
        watched = [live for live in list(self.live.values()) if live.subscribers and not live.closed]
        running = [live for live in watched if live.running]
        newest = await self.store.newest_seqs(live.id for live in running)
        for live in running:
            live.follow(newest.get(live.id, 0))
        for live in watched:
            if not live.running and live.record.rematch_id is None:
                live.follow(None)

    async def _heartbeat(self) -> None:
        """Keep this process's leases, and act on what the heartbeat found (see the module
        docstring)."""
        beat = await self.ownership.beat()
        for match_id in beat.lost:
            if (live := self.live.get(match_id)) is not None:
                live.lost()
        away = {m: seq for m, seq in beat.owned.items()
                if m not in self.live and m not in self._loading and m not in self.ownership.releasing}
        for match_id in await self.ownership.to_wake(away, self.services.clock.now_ms() + self._wake_margin_ms()):
            await self._resume(match_id)
        for match_id, seq in beat.owned.items():
            live = self.live.get(match_id)
            if live is None:
                continue
            if beat.lapsed and match_id in self.ownership.owned:  # it stopped driving meanwhile: again
                live.drive_again()
            elif seq > live.seq:
                live.follow(seq)  # moved elsewhere, unheard (a Redis partition, or no Redis)

    async def _resume(self, match_id: str) -> None:
        """Load a match this process should drive (loading claims it); give it up if it
        has nothing to drive or cannot be replayed here."""
        try:
            live: LiveMatch | None = await self.get(match_id)
        except Problem as exc:
            log.warning("match %s cannot be resumed here: %s", match_id, exc.message)
            live = None
        if live is None or not live.running:
            await self.ownership.give_up(match_id)

    def _wake_margin_ms(self) -> int:
        """A sleeping match is loaded this much game time before its deadline (two beats),
        so that its timer, armed in memory, fires on time."""
        return int(2 * self.ownership.every_s * 1000 * self.services.clock.speed)

    async def _claim_orphans(self) -> None:
        orphans = await self.ownership.orphans()
        asleep = await self.ownership.claim_asleep(
            [m for m in orphans if m not in self.live], self.services.clock.now_ms() + self._wake_margin_ms())
        for match_id in orphans:
            live = self.live.get(match_id)
            if live is None:
                if match_id not in asleep:
                    await self._resume(match_id)
            else:
                await self._claim(live)

    def count_running(self) -> int:
        """Running matches this process drives (the ``potluck_matches_owned`` gauge)."""
        return sum(1 for m in self.ownership.owned if (live := self.live.get(m)) is not None and live.running)


Runtime = Hub  # the name the API and the tests know
