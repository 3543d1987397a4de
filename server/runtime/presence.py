"""Who is at the table: the seats with a socket open here or on another process, and the
human seats stand-in bots play.

Presence is pushed to every socket as a ``match`` message (the public summary) whenever it
changes, before the start, during play and after the end; changes within
``PRESENCE_COALESCE_S`` go out as one message. With several processes, each tells the
others (through the fan-out) which seats have a socket open on it, when that changes,
every ``presence_every_s`` and when a process that has just loaded the match asks, and
that a seat made a REST request; a seat connected elsewhere counts as present here, so no
stand-in takes over a player who is at the table through another process. What a process
said and has not repeated for ``PRESENCE_EXPIRES`` heartbeats is forgotten (the process may
have died). The owner of the match decides the stand-ins; the other processes show what
it said (``owner_standins``).
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from typing import Any, Callable, Iterable

PRESENCE_COALESCE_S = 0.2  # presence changes this close together make one push
PRESENCE_EXPIRES = 3  # heartbeats missed before another process's presence is forgotten

Seats = frozenset[int]


class Presence:
    """``publish(message)`` tells the other processes; ``push()`` sends every socket the
    summary (and calls ``pushed``); ``drives()`` and ``standins()`` say whether this process
    decides the stand-ins, and which seats they play."""

    def __init__(self, publish: Callable[[dict[str, Any]], None], every_s: float, drives: Callable[[], bool],
                 standins: Callable[[], Iterable[int]], push: Callable[[], None]) -> None:
        self._publish, self._every_s = publish, every_s
        self._drives, self._standins, self._push = drives, standins, push
        self.sockets: Counter[int] = Counter()  # seat → sockets open here
        self._here: Seats = frozenset()  # the seats with a socket here
        self.elsewhere: dict[str, tuple[Seats, float]] = {}  # process → (seats, when heard)
        self.owner_standins: Seats = frozenset()  # as the owner said (all processes)
        self._sent: tuple[Seats, Seats] = (frozenset(), frozenset())  # what the sockets were last told
        self._told: Seats = frozenset()  # what the other processes were last told
        self._seen_told: dict[int, float] = {}  # seat → when other processes heard of its REST request
        self._timer: asyncio.TimerHandle | None = None
        self.closed = False

    @property
    def pending(self) -> bool:
        """A push is on its way."""
        return self._timer is not None

    def here(self) -> Seats:
        return self._here

    def current(self) -> tuple[Seats, Seats]:
        """The seats with a socket open here or elsewhere, and the human seats stand-ins play."""
        connected = self.here().union(*(seats for seats, _ in self.elsewhere.values()))
        if self._drives():
            return connected, frozenset(self._standins())
        return connected, self.owner_standins - connected

    def opened(self, seat: int | None) -> None:
        if seat is not None:
            self.sockets[seat] += 1
            self._here = self._here | {seat}

    def closed_one(self, seat: int | None) -> None:
        if seat is not None:
            self.sockets[seat] -= 1
            if self.sockets[seat] <= 0:
                self._here = self._here - {seat}

    def heard(self, origin: str, seats: Seats) -> None:
        """Another process says which seats have a socket open on it."""
        if seats:
            self.elsewhere[origin] = (seats, time.monotonic())
        else:
            self.elsewhere.pop(origin, None)

    def heartbeat(self) -> None:
        """Tell the other processes again which seats have a socket here (they forget what
        is not repeated), and forget what other processes stopped repeating."""
        old = time.monotonic() - PRESENCE_EXPIRES * self._every_s
        for origin in [o for o, (_, heard) in self.elsewhere.items() if heard < old]:
            del self.elsewhere[origin]
        self.tell()
        self.note()

    def tell(self, again: bool = True) -> None:
        """Tell the other processes which seats have a socket here: when that changed, or
        ``again`` (a heartbeat, an answer to a question) when any has."""
        here = self.here()
        if here != self._told or (again and here):
            self._told = here
            self._publish({"kind": "presence", "seats": sorted(here)})

    def seen_here(self, seat: int) -> None:
        """A human's REST request to this process: other processes hear so, at most twice a
        heartbeat."""
        now = time.monotonic()
        if now - self._seen_told.get(seat, -self._every_s) >= self._every_s / 2:
            self._seen_told[seat] = now
            self._publish({"kind": "seen", "seat": seat})

    def note(self) -> None:
        """Presence may have changed: tell the other processes, and push the summary soon
        if it did (one push for every change made meanwhile)."""
        if self.closed:
            return
        self.tell(again=False)
        if self._timer is None and self.current() != self._sent:
            self._timer = asyncio.get_running_loop().call_later(PRESENCE_COALESCE_S, self._due)

    def pushed(self) -> None:
        """The sockets were just sent the summary."""
        self._sent = self.current()

    def _due(self) -> None:
        self._timer = None
        if not self.closed and self.current() != self._sent:
            self._push()

    def close(self) -> None:
        self.closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
