"""One owner per match: only the process holding a match's lease drives it.

Driving a match means arming its deadline timer, running its bots and deciding its
stand-ins. Every process still accepts players' actions for any match (the log's ``seq``
settles every race) and relays them through the fan-out; only the owner does the work that
time and bots make, so none of it is done twice.

The leases live in the database (``server.store.leases``): this process stays alive by a
heartbeat every ``lease_s / 3`` seconds, and each heartbeat also

- drops the matches another process took over (this one was thought dead), and catches up
  the ones it owns with the log (so an owner cut off from Redis still follows the moves
  players make through other processes);
- claims orphans (running matches whose owner is dead, or that never had one), up to this
  process's fair share: that resumes, on start or after another process died, every match
  that time or bots must move, without anyone opening it.

A process whose heartbeat has not succeeded for ``lease_s`` stops driving (its lease may
have passed to another) until one succeeds again. ``lease_s = 0`` turns leases off: every
process drives every match it holds, as a single process does.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any, Iterable

from server.config import Settings
from server.store import Database
from server.store.leases import Claim, Leases

from .errors import Problem
from .metrics import Metrics

if TYPE_CHECKING:
    from .hub import Runtime
    from .live_match import LiveMatch

log = logging.getLogger(__name__)

CLAIMS_PER_BEAT = 50  # orphans loaded per heartbeat at most (a start with many matches spreads out)


class Ownership:
    def __init__(self, db: Database, settings: Settings, metrics: Metrics, me: str) -> None:
        self.enabled = settings.lease_s > 0
        self.me = me
        self.every_s = settings.lease_s / 3
        self.leases = Leases(db, me, int(settings.lease_s * 1000))
        self.metrics = metrics
        self.owned: set[str] = set()
        self._releasing: set[str] = set()  # given up, the database not told yet
        self._valid_until = 0.0  # monotonic: the lease holds at least until then
        self._lapsed = False  # drives() said no to an owned match: re-arm them all
        self._beat: asyncio.Task[None] | None = None
        self._runtime: Runtime | None = None

    @property
    def starter(self) -> str | None:
        """The owner this process names for a match it starts (``None``: no leases)."""
        return self.me if self.enabled else None

    def drives(self, match_id: str) -> bool:
        """Does this process run the timers, bots and stand-ins of ``match_id``? Not while
        its lease may have lapsed (no heartbeat for ``lease_s``): a timer or a bot that
        finds it so does nothing, and the next heartbeat re-arms every match."""
        if not self.enabled:
            return True
        if match_id not in self.owned:
            return False
        if time.monotonic() < self._valid_until:
            return True
        self._lapsed = True
        return False

    # ---- claiming -------------------------------------------------------------------
    async def claim(self, live: LiveMatch) -> None:
        """Own ``live`` if no live process does (a running match only); either way learn
        which seats stand-ins play. Taking a match over re-arms it at once."""
        if not self.enabled or live.status != "running" or live.id in self.owned:
            return
        (found,) = await self.leases.claim([live.id])
        self._apply(live, found)

    def _apply(self, live: LiveMatch, found: Claim) -> None:
        if not found.mine:
            live.heard_standins(found.standins)
            return
        self.owned.add(live.id)
        if found.taken_from is not None:
            self.metrics.taken_over.inc()
            log.info("match %s: taken over from process %s", live.id, found.taken_from)
        live.took_over(found.standins)

    def disown(self, live: LiveMatch) -> None:
        """Another process owns ``live`` now: stop driving it."""
        if live.id in self.owned:
            self.owned.discard(live.id)
            live.lost()

    def released(self, match_id: str) -> None:
        """``match_id`` leaves memory with nothing to drive: give its lease up (whoever
        opens it next owns it)."""
        if match_id in self.owned:
            self.owned.discard(match_id)
            self._releasing.add(match_id)
            self._spawn(self._release(match_id), f"release {match_id}")

    async def _release(self, match_id: str) -> None:
        try:
            await self.leases.release(match_id)
        finally:
            self._releasing.discard(match_id)

    def standins_changed(self, live: LiveMatch, seats: Iterable[int]) -> None:
        """The owner's stand-ins changed: every other process shows them, and a process
        that takes the match over keeps them."""
        seats = sorted(seats)
        self._spawn(self.leases.set_standins(live.id, seats), f"stand-ins of {live.id}")
        live.services.fanout.publish({"match": live.id, "kind": "standins", "seats": seats})

    # ---- the heartbeat ----------------------------------------------------------------
    async def start(self, runtime: Runtime) -> None:
        """Register this process (the first heartbeat), then beat in the background."""
        if not self.enabled:
            return
        self._runtime = runtime
        await self._heartbeat()
        self._beat = asyncio.create_task(self._forever())

    async def stop(self) -> None:
        if self._beat is not None:
            self._beat.cancel()
            await asyncio.gather(self._beat, return_exceptions=True)
            try:
                await self.leases.retire()  # the others take over at once, not after lease_s
            except Exception as exc:
                log.warning("could not hand the leases over on stop: %s", exc)
        self.owned.clear()

    async def _forever(self) -> None:
        while True:
            await asyncio.sleep(self.every_s)
            try:
                await self._heartbeat()
                await self._claim_orphans()
            except Exception:
                log.exception("lease heartbeat failed; retrying")

    async def _heartbeat(self) -> None:
        started = time.monotonic()
        mine = await self.leases.heartbeat()
        self._valid_until = started + self.every_s * 3
        lapsed, self._lapsed = self._lapsed, False
        assert self._runtime is not None
        runtime = self._runtime
        for match_id in list(self.owned - mine.keys()):  # taken over while this process seemed dead
            live = runtime.live.get(match_id)
            if live is not None:
                self.disown(live)
            self.owned.discard(match_id)
        for match_id, seq in mine.items():
            live = runtime.live.get(match_id)
            if live is None:
                if not runtime.is_loading(match_id) and match_id not in self._releasing:  # not held: resume it
                    await self._resume(match_id)
            elif lapsed and match_id in self.owned:  # it stopped driving meanwhile: again
                live.took_over(live.shared_standins)
            elif seq > live.seq:
                live.follow(seq)  # moved elsewhere, unheard (a Redis partition, or no Redis)

    async def _resume(self, match_id: str) -> None:
        """Load a match this process should drive (loading claims it); give it up if it
        has nothing to drive or cannot be replayed here."""
        assert self._runtime is not None
        try:
            live = await self._runtime.get(match_id)
        except Problem as exc:
            log.warning("match %s cannot be resumed here: %s", match_id, exc.message)
            live = None
        if live is not None and live.running:
            return
        if match_id in self.owned:
            self.released(match_id)
        else:
            await self.leases.release(match_id)

    async def _claim_orphans(self) -> None:
        assert self._runtime is not None
        share = await self.leases.share(CLAIMS_PER_BEAT)
        for match_id in share.orphans:
            live = self._runtime.live.get(match_id)
            if live is None:
                await self._resume(match_id)
            else:
                await self.claim(live)

    def count_running(self) -> int:
        runtime = self._runtime
        if runtime is None:
            return 0
        return sum(1 for m in self.owned if (live := runtime.live.get(m)) is not None and live.running)

    def _spawn(self, coro: Any, what: str) -> None:
        runtime = self._runtime
        if runtime is None:
            coro.close()
            return
        runtime.services.spawn(coro, what)
