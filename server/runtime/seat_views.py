"""Each seat's view as its sockets hold it, so that a change reaches them as a patch.

A socket's first message is the whole ``state``; after each change it is sent only what
changed in its own view since the state it holds: a ``patch`` (JSON Patch, RFC 6902) from
``prev_seq`` to ``seq``. Every socket of a seat (and every spectator, seat ``None``) holds
the same view — they are all sent the same messages — so the view after a change is built
once per seat, diffed once against what that seat holds, and encoded once for all of its
sockets. A seat whose view could not be built keeps holding the older one; the next patch
starts from it.

Diffing is done member by member of the view: each member's JSON (orjson) is written once
per change and kept with the view, so an unchanged member costs one comparison of bytes,
and only changed members are walked (``patches.diff``). Views of several seats share
their common members (``Game.views``): a member is written, and a pair of them diffed,
once for all the seats that share it.

The patch is computed from the seat's own two views only, so it carries nothing that the
seat's full view would not.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Callable, Iterable

import orjson

from server.engine import Game

from . import messages
from .patches import Op, diff, escape

log = logging.getLogger(__name__)

Seat = int | None
_MISSING = object()


@dataclass(frozen=True)
class Held:
    """The view the sockets of a seat hold, after change ``seq``, and each of its members'
    JSON (``None`` when the view is not a JSON object of members orjson writes)."""

    seq: int
    view: dict[str, Any]
    written: dict[str, bytes] | None


class _Change:
    """What one change's seats share: each member's JSON and each member's patch, keyed by
    the objects themselves (alive for the whole change, held by the views)."""

    def __init__(self) -> None:
        self.written: dict[int, bytes] = {}
        self.patches: dict[tuple[str, int, int], list[Op]] = {}

    def write(self, view: dict[str, Any], held: Held | None = None) -> dict[str, bytes] | None:
        """Each member's JSON (a member that is the very object of the ``held`` view keeps
        its JSON)."""
        if type(view) is not dict:
            return None
        out = {}
        old, old_written = (held.view, held.written) if held is not None and held.written else ({}, {})
        try:
            for key, value in view.items():
                if old.get(key, _MISSING) is value:
                    out[key] = old_written[key]
                    continue
                text = self.written.get(id(value))
                if text is None:
                    text = self.written[id(value)] = orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
                out[key] = text
        except (TypeError, orjson.JSONEncodeError):
            return None
        return out

    def diff(self, held: Held, view: dict[str, Any], written: dict[str, bytes] | None) -> list[Op]:
        """The patch from the held view to ``view``, member by member."""
        if held.written is None or written is None:
            return diff(held.view, view)
        old = held.view
        ops: list[Op] = [{"op": "remove", "path": f"/{escape(key)}"} for key in old if key not in view]
        for key, value in view.items():
            was = old.get(key, _MISSING)
            if was is _MISSING:
                ops.append({"op": "add", "path": f"/{escape(key)}", "value": value})
            elif was is not value and held.written[key] != written[key]:
                memo = (key, id(was), id(value))
                member = self.patches.get(memo)
                if member is None:
                    member = self.patches[memo] = diff(was, value, f"/{escape(key)}")
                ops += member
        return ops


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
            self.held[seat] = Held(seq, view, _Change().write(view))
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
        change = _Change()
        for seat, view in self.build(state, seats).items():
            try:
                held = self.held.get(seat)
                if held is not None and held.seq == seq:
                    continue  # already sent
                written = change.write(view, held)
                if held is None:
                    out[seat] = messages.state_message({"seq": seq, "view": view, "legal": legal(seat),
                                                        "events": events(seat), **common})
                else:
                    out[seat] = messages.patch_message(
                        seq=seq, prev_seq=held.seq, ops=change.diff(held, view, written), legal=legal(seat),
                        events=events(seat), **common)
                self.held[seat] = Held(seq, view, written)
            except Exception:
                log.exception("%s: the message of seat %s after change %s failed", self.game.id, seat, seq)
        return out
