"""Each seat's view as its sockets hold it, so that a change reaches them as a patch.

A socket's first message is the whole ``state``; after each change it is sent only what
changed in its own view since the state it holds: a ``patch`` (JSON Patch, RFC 6902) from
``prev_seq`` to ``seq``. Every socket of a seat (and every spectator, seat ``None``) holds
the same view — they are all sent the same messages — so the view after a change is built
once per seat, diffed once against what that seat holds, and encoded once for all of its
sockets. A seat whose view could not be built keeps holding the older one; the next patch
starts from it.

Views are diffed member by member: a member that is the very same object in both views
(the game kept it) costs nothing, a plain value one comparison, and only the others are
walked (``patches.diff``). Views of several seats share their common members
(``Game.views``): a pair of members is diffed once for all the seats that share it.

The patch is computed from the seat's own two views only, so it carries nothing that the
seat's full view would not.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from server.engine import Game

from . import messages
from .patches import Op, diff_shared

log = logging.getLogger(__name__)

Seat = int | None


@dataclass(frozen=True)
class Held:
    """The view the sockets of a seat hold, after change ``seq``."""

    seq: int
    view: dict[str, Any]


class SeatViews:
    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        self.held: dict[Seat, Held] = {}

    def build(self, state: Any, seats: Iterable[Seat]) -> dict[Seat, dict[str, Any]]:
        """Every seat's view of ``state`` (``Game.views``: what seats share is built once);
        if that fails, seat by seat, leaving out (and logging) the seats whose view fails."""
        seats = list(seats)
        try:
            return self.game.views(state, seats)
        except Exception:
            pass
        out = {}
        for seat in seats:
            try:
                out[seat] = self.game.view(state, seat)
            except Exception:
                log.exception("%s failed to build the view of seat %s", self.game.id, seat)
        return out

    def current(self, state: Any, seq: int, seat: Seat, hold: bool) -> dict[str, Any]:
        """The seat's whole view after change ``seq``: the one its sockets hold if they are
        at ``seq``, else built now (and, with ``hold``, held from now on: the caller sends
        it to a socket as a full state)."""
        held = self.held.get(seat)
        if held is not None and held.seq == seq:
            return held.view
        view = self.game.view(state, seat)
        if hold:
            self.held[seat] = Held(seq, view)
        return view

    def forget(self, seat: Seat) -> None:
        """No socket of ``seat`` is left here."""
        self.held.pop(seat, None)

    def messages(self, state: Any, seq: int, seats: Iterable[Seat], *, legal: Callable[[Seat], list[Any]],
                 events: Callable[[Seat], list[dict[str, Any]]], common: dict[str, Any]) -> dict[Seat, str]:
        """After change ``seq``: each seat's message, a patch from the view its sockets hold
        or (holding none) the whole state. ``common`` holds what every seat is told alike
        (``status``, ``deadline``, ``now``, ``result``). A seat whose view or message fails is
        left out (logged); its sockets catch up with the next change."""
        out: dict[Seat, str] = {}
        shared: dict[tuple[str, int, int], list[Op]] = {}
        for seat, view in self.build(state, seats).items():
            try:
                held = self.held.get(seat)
                if held is not None and held.seq == seq:
                    continue  # already sent
                if held is None:
                    out[seat] = messages.state_message({"seq": seq, "view": view, "legal": legal(seat),
                                                        "events": events(seat), **common})
                else:
                    out[seat] = messages.patch_message(
                        seq=seq, prev_seq=held.seq, ops=diff_shared(held.view, view, shared), legal=legal(seat),
                        events=events(seat), **common)
                self.held[seat] = Held(seq, view)
            except Exception:
                log.exception("%s: the message of seat %s after change %s failed", self.game.id, seat, seq)
        return out
