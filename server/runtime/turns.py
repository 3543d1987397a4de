"""A match played by turns (a move a day, see ``server.engine.pace``): whose move it is, since
which change, and telling them so (``YourMove``: on the page, by mail).

After every change the match says where it is (``changed``): the seats the game waits for
then, each keeping the ``seq`` its wait began at (what tells one move of a seat from the
next); the seats whose move is over are told no more. The process that drives the match
tells the seats waited for (``tell``), but not those a stand-in plays. A live match has no
``Turns`` worth asking: the match asks only when it is played by turns.
"""

from __future__ import annotations

from typing import Any, Iterable

from server.engine import Game
from server.store import MatchRecord

from .step import Step
from .your_move import YourMove


class Turns:
    def __init__(self, game: Game[Any, Any], your_move: YourMove) -> None:
        self._game, self._your_move = game, your_move
        self.waiting: frozenset[int] = frozenset()  # the seats whose move it is
        self.since: dict[int, int] = {}  # …each with the seq its wait began at

    def track(self, state: Any, seq: int, over: bool) -> None:
        """The seats waited for after change ``seq`` (none once ``over``), each keeping the
        seq its wait began at."""
        now = frozenset() if over else self._game.waiting_for(state)
        self.since = {seat: self.since.get(seat, seq) for seat in now}

    def changed(self, record: MatchRecord, step: Step, deadline: int | None) -> None:
        """``step`` is the match now: whose move it is (the seats whose move is over are
        told no more)."""
        waited = self.waiting
        self.track(step.state, step.seq, step.result is not None)
        self.waiting = frozenset(self.since)
        if waited - self.waiting:
            self._your_move.changed(record, {}, waited - self.waiting, deadline)

    def tell(self, record: MatchRecord, deadline: int | None, standins: Iterable[int]) -> None:
        """Tell the seats whose move it is (``YourMove`` tells each once per move), but not
        the ones in ``standins``."""
        if self.waiting:
            skip = set(standins)
            told = {seat: since for seat, since in self.since.items() if seat not in skip}
            self._your_move.changed(record, told, (), deadline)
