"""One owner per match: the bookkeeping of which matches this process holds the lease of.

Driving a match means arming its deadline timer, running its bots and deciding its
stand-ins. Every process still accepts players' actions for any match (the log's ``seq``
settles every race) and relays them through the fan-out; only the owner does the work that
time and bots make, so none of it is done twice.

The leases live in the database (``server.store.leases``). This bookkeeper knows no match
and no hub: it claims, beats and releases, and says what it found; the hub's lease loop
(``Hub``) acts on that — drops the matches another process took over, catches up the ones
it owns with the log (an owner cut off from Redis still follows the moves players make
through other processes), resumes owned matches not in memory and claims orphans up to
this process's fair share.

A process whose heartbeat has not succeeded for ``lease_s`` stops driving (its lease may
have passed to another) until one succeeds again. ``lease_s = 0`` turns leases off: every
process drives every match it holds, as a single process does.

A match by turns that nobody watches *sleeps*: it leaves memory, its owner keeps the lease
and notes in it when the match must wake (``sleep``: its deadline, and the ``seq`` it was
at). Each heartbeat loads again the sleeping matches whose deadline is near or whose log
moved (``to_wake``); a process taking over a dead owner's sleeping matches only takes
their leases (``claim_asleep``), and loads each at its deadline in turn.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any, Callable, Coroutine, Iterable

from server.config import Settings
from server.store import Database
from server.store.leases import Claim, Leases

from .metrics import Metrics

log = logging.getLogger(__name__)

CLAIMS_PER_BEAT = 50  # orphans loaded per heartbeat at most (a start with many matches spreads out)
Spawn = Callable[[Coroutine[Any, Any, Any], str], Any]


@dataclass(frozen=True)
class Beat:
    """What a heartbeat found: the matches another process took over (``lost``), every
    match this process owns with the newest ``seq`` of its log, and whether this process
    stopped driving since the last beat (``lapsed``: its owned matches must be armed again)."""

    lost: list[str]
    owned: dict[str, int]
    lapsed: bool


class Ownership:
    """``spawn(coroutine, what)`` runs the database writes nobody waits for."""

    def __init__(self, db: Database, settings: Settings, metrics: Metrics, me: str, spawn: Spawn) -> None:
        self.enabled = settings.lease_s > 0
        self.me = me
        self.every_s = settings.lease_s / 3
        self.leases = Leases(db, me, int(settings.lease_s * 1000))
        self.metrics = metrics
        self.owned: set[str] = set()
        self.releasing: set[str] = set()  # given up, the database not told yet
        self._spawn = spawn
        self._valid_until = 0.0  # monotonic: the lease holds at least until then
        self._lapsed = False  # drives() said no to an owned match: re-arm them all
        self.asleep: dict[str, tuple[int, int]] = {}  # owned, out of memory: (wake at, seq then)

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

    async def claim(self, match_id: str) -> Claim | None:
        """Own the running match ``match_id`` if no live process does; either way say what
        the lease says (who owns it, the stand-ins). ``None``: leases are off, or this
        process owns it already."""
        if not self.enabled or match_id in self.owned:
            return None
        (found,) = await self.leases.claim([match_id])
        if found.mine:
            self.owned.add(match_id)
            if found.taken_from is not None:
                self.metrics.taken_over.inc()
                log.info("match %s: taken over from process %s", match_id, found.taken_from)
        return found

    def disown(self, match_id: str) -> None:
        """Another process owns ``match_id`` now."""
        self.owned.discard(match_id)
        self.asleep.pop(match_id, None)

    def sleep(self, match_id: str, wake_at: int, seq: int) -> None:
        """``match_id`` leaves memory, still driven here: wake it at ``wake_at`` (game ms),
        or as soon as its log moves past ``seq``."""
        if match_id in self.owned:
            self.asleep[match_id] = (wake_at, seq)
            self._spawn(self.leases.sleep(match_id, wake_at, seq), f"sleep {match_id}")

    def woke(self, match_id: str) -> None:
        """``match_id`` is in memory again."""
        self.asleep.pop(match_id, None)

    async def to_wake(self, away: dict[str, int], by: int) -> list[str]:
        """Of the owned matches out of memory (with their log's newest ``seq``), the ones to
        load now: not asleep (as the lease says), due by ``by`` (game ms), or moved since."""
        unknown = [m for m in away if m not in self.asleep]
        for match_id, (at, seq, _) in (await self.leases.wakes(unknown)).items():
            self.asleep[match_id] = (at, seq)
        return [m for m, seq in away.items()
                if m not in self.asleep or self.asleep[m][0] <= by or self.asleep[m][1] != seq]

    async def claim_asleep(self, orphans: list[str], by: int) -> set[str]:
        """Take over the leases of the sleeping ``orphans`` not due by ``by`` and unmoved,
        without loading them; returns the ones taken (the rest are for loading)."""
        wakes = await self.leases.wakes(orphans)
        asleep = [m for m, (at, wake_seq, seq) in wakes.items() if at > by and wake_seq == seq]
        taken = set()
        for found in await self.leases.claim(asleep):
            if found.mine:
                self.owned.add(found.match_id)
                self.asleep[found.match_id] = wakes[found.match_id][:2]
                taken.add(found.match_id)
        return taken

    def release(self, match_id: str) -> None:
        """``match_id`` leaves memory with nothing to drive: give its lease up (whoever
        opens it next owns it)."""
        self.asleep.pop(match_id, None)
        if match_id in self.owned:
            self.owned.discard(match_id)
            self.releasing.add(match_id)
            self._spawn(self._release(match_id), f"release {match_id}")

    async def _release(self, match_id: str) -> None:
        try:
            await self.leases.release(match_id)
        finally:
            self.releasing.discard(match_id)

    async def give_up(self, match_id: str) -> None:
        """Release a lease this process was offered but will not drive (the match cannot
        be resumed here)."""
        if match_id in self.owned:
            self.release(match_id)
        else:
            await self.leases.release(match_id)

    def set_standins(self, match_id: str, seats: Iterable[int]) -> None:
        """The owner's stand-ins changed: a process that takes the match over keeps them."""
        self._spawn(self.leases.set_standins(match_id, sorted(seats)), f"stand-ins of {match_id}")

    async def beat(self) -> Beat:
        """Stay alive for another ``lease_s``, and say what changed (see ``Beat``)."""
        started = time.monotonic()
        mine = await self.leases.heartbeat()
        self._valid_until = started + self.every_s * 3
        lapsed, self._lapsed = self._lapsed, False
        lost = sorted(self.owned - mine.keys())  # taken over while this process seemed dead
        self.owned -= set(lost)
        for match_id in lost:
            self.asleep.pop(match_id, None)
        return Beat(lost, mine, lapsed)

    async def orphans(self) -> list[str]:
        """Running matches no live process owns, as many as this process should claim now."""
        return (await self.leases.share(CLAIMS_PER_BEAT)).orphans

    async def retire(self) -> None:
        """This process stops: the others take its matches over at once, not after ``lease_s``."""
        try:
            await self.leases.retire()
        except Exception as exc:
            log.warning("could not hand the leases over on stop: %s", exc)
        self.owned.clear()
