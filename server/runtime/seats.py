"""Who plays which seat: the match's bot seats, and stand-in bots for absent humans.

A human seat is *present* while one of its sockets is open, and for ``standin_after_ms``
after its last socket closed or its last REST request; past that, a stand-in bot from
``game.bot`` plays it until the human comes back (connects or acts). With several
processes, a human connected to another one is *seen* each time that process repeats its
presence (``Presence.heard``), and one playing over REST through another is
seen when that process says so (``LiveMatch.heard_seen``): they never count as absent here.
Only the match's owner plays bots and stand-ins; a new owner adopts the old one's.

By turns a player is away most of the time: absence never calls a stand-in. Instead a
human whose moves time made ``standin_after_misses`` times in a row (``missed``) is played
by a stand-in until they are seen again.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

from server.engine import Bot, Game, Rng
from server.engine.bots import HARD, NORMAL
from server.store import MatchRecord


SEAT_LOAD = {HARD: 1.0}  # what a bot's seat weighs in the bots-alone cap, by level (others: 0.5)


def bots_load(levels: Iterable[str]) -> float:
    """What a table of bots at ``levels`` weighs against ``max_bot_matches``: half a match a
    seat (a two-seat table of normal bots is one), a hard bot's seat a whole one (it thinks
    ahead)."""
    return sum(SEAT_LOAD.get(level, 0.5) for level in levels)


def _bot_rng(seed: int, seat: int, salt: int) -> Rng:
    return Rng(seed ^ (0x9E3779B97F4A7C15 * (seat + 1 + 64 * salt)))


class SeatPlayers:
    def __init__(self, game: Game[Any, Any], record: MatchRecord, now: int, standin_after_ms: int,
                 pause_after_ms: int = 0, standin_after_misses: int = 0) -> None:
        self.game, self.seed = game, record.seed
        self.standin_after_ms, self.pause_after_ms = standin_after_ms, pause_after_ms
        self.standin_after_misses = standin_after_misses
        self.misses: Counter[int] = Counter()  # moves time made for the seat in a row
        self.bots: dict[int, Bot] = {
            s.seat: game.bot(s.seat, _bot_rng(record.seed, s.seat, 0), level=s.level or NORMAL)
            for s in record.seats if s.bot
        }
        self.humans = [s.seat for s in record.seats if not s.bot]
        self.load = bots_load([s.level or NORMAL if s.bot else NORMAL for s in record.seats])  # played by bots alone
        self.standins: dict[int, Bot] = {}
        self.sockets: Counter[int] = Counter()
        self.last_seen = {seat: now for seat in self.humans}

    def seen(self, seat: int, now: int) -> bool:
        """A human acted or asked for something; returns whether a stand-in was dismissed."""
        self.last_seen[seat] = max(self.last_seen.get(seat, now), now)
        self.misses.pop(seat, None)
        return self.standins.pop(seat, None) is not None

    def missed(self, seats: Iterable[int]) -> None:
        """Time made the move of ``seats`` (the ones the game waited for at a timeout)."""
        for seat in seats:
            if seat in self.humans and seat not in self.standins:
                self.misses[seat] += 1

    def moved(self, seat: int | None) -> None:
        """A logged move of ``seat`` read back from the log: it did not miss this one."""
        if seat is not None:
            self.misses.pop(seat, None)

    def connected(self, seat: int, now: int) -> bool:
        self.sockets[seat] += 1
        return self.seen(seat, now)

    def disconnected(self, seat: int, now: int) -> None:
        self.sockets[seat] -= 1
        self.last_seen[seat] = now

    def _absent(self, seat: int, now: int) -> bool:
        if 0 < self.standin_after_misses <= self.misses[seat]:
            return True
        return (self.standin_after_ms > 0 and self.sockets[seat] <= 0
                and now - self.last_seen.get(seat, now) >= self.standin_after_ms)

    def paused(self, now: int) -> bool:
        """Every human of the table has been away ``pause_after_ms`` (0: never): no bot plays
        (stand-ins are for a player who stepped away, not for a table left behind); only
        its timers move it, until a human is back."""
        return (self.pause_after_ms > 0 and bool(self.humans) and all(self.sockets[s] <= 0 for s in self.humans)
                and now - max(self.last_seen[s] for s in self.humans) >= self.pause_after_ms)

    def controllers(self, now: int) -> dict[int, Bot]:
        """The seats a bot plays right now (creating stand-ins for newly absent humans;
        none while the table is ``paused``)."""
        if self.paused(now):
            self.standins.clear()
            return {}
        for seat in self.humans:
            if seat not in self.standins and self._absent(seat, now):
                self.standins[seat] = self.game.bot(seat, _bot_rng(self.seed, seat, 1 + len(self.standins)))
        return {**self.bots, **self.standins}

    def adopt_standins(self, seats: Iterable[int]) -> None:
        """Stand-ins another process had for these human seats play on here (until the
        human is seen again), rather than waiting a whole grace period again."""
        for seat in seats:
            if seat in self.humans and seat not in self.standins and self.sockets[seat] <= 0:
                self.standins[seat] = self.game.bot(seat, _bot_rng(self.seed, seat, 1 + len(self.standins)))

    def unattended(self, now: int) -> bool:
        """No human is at the table: every seat is a bot's, or a stand-in's (or soon will be:
        its human is absent)."""
        return all(seat in self.standins or self._absent(seat, now) for seat in self.humans)

    def next_absence(self, now: int) -> int | None:
        """When (game ms) the next present human becomes absent if nothing happens."""
        if self.standin_after_ms <= 0 or self.paused(now):
            return None  # (paused: a human coming back wakes the table)
        times = [self.last_seen[s] + self.standin_after_ms for s in self.humans
                 if s not in self.standins and self.sockets[s] <= 0]
        return min(times, default=None)
