"""Each seat's view and legal actions as its sockets hold them, so that a change reaches
them as a patch.

A socket's first message is the whole ``state``; after each change it is sent only what
changed in its own view since the state it holds: a ``patch`` (JSON Patch, RFC 6902) from
``prev_seq`` to ``seq``. Its legal actions travel whole in every message, or — for a socket
that said it reads them so (``legal=delta``) — as a patch of the list it holds too
(``legal_ops``). Every socket of a seat (and every spectator, seat ``None``) holds the same
view and list — they are all sent the same messages — so the patch is made once per seat,
and each message encoded once for all the sockets of a seat that read it alike. A seat
whose view could not be built keeps holding the older one; the next patch starts from it.

The views and lists come from the change's ``Step`` (built once for every seat that needs
them). Views are diffed member by member: a member that is the very same object in both
views (the game kept it) costs nothing, a plain value one comparison, and only the others
are walked (``patches.diff``); a pair of members the seats' views share is diffed once for
all of them (``patches.diff_shared``).

A patch is computed from the seat's own two views (or lists) only, so it carries nothing
that the seat's full view would not.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Collection, Mapping

from server.engine import Action, Game

from . import messages
from .patches import Op, diff_shared, smallest
from .step import Seat, Step

log = logging.getLogger(__name__)

WHOLE, DELTA = False, True  # how a socket reads ``legal``


@dataclass(frozen=True)
class Message:
    """A seat's message after a change: its text, and whether it is the whole state."""

    text: str
    whole: bool


@dataclass(frozen=True)
class Held:
    """The view and legal actions the sockets of a seat hold, after change ``seq``."""

    seq: int
    view: dict[str, Any]
    legal: list[Action]


class SeatViews:
    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        self.held: dict[Seat, Held] = {}

    def current(self, step: Step, seat: Seat, hold: bool) -> tuple[dict[str, Any], list[Action]]:
        """The seat's whole view and legal actions after ``step``: the ones its sockets hold
        if they are at that change, else the step's (and, with ``hold``, held from now on:
        the caller sends them to a socket as a full state)."""
        held = self.held.get(seat)
        if held is not None and held.seq == step.seq:
            return held.view, held.legal
        view = step.see(self.game, [seat])[seat]
        legal = step.legal_of(self.game, [seat])[seat] if seat is not None else []
        if hold:
            self.held[seat] = Held(step.seq, view, legal)
        return view, legal

    def forget(self, seat: Seat) -> None:
        """No socket of ``seat`` is left here."""
        self.held.pop(seat, None)

    def messages(self, step: Step, sockets: Mapping[Seat, Collection[bool]],
                 common: dict[str, Any]) -> dict[tuple[Seat, bool], Message]:
        """After ``step``: each seat's message for each way its sockets read ``legal``
        (``sockets``: seat → ``WHOLE`` and/or ``DELTA``) — a patch from what the seat holds
        or (holding nothing) the whole state. ``common`` holds what every seat is told alike
        (``status``, ``deadline``, ``now``, ``result``). A seat whose view or message fails is
        left out (logged); its sockets catch up with the next change."""
        views = step.see(self.game, sockets)
        legal = step.legal_of(self.game, [seat for seat in sockets if seat is not None])
        out: dict[tuple[Seat, bool], Message] = {}
        shared: dict[tuple[str, int, int], list[Op]] = {}
        said = [(event, messages.event_json(seq, event)) for seq, event in step.events]  # once for every seat
        for seat, kinds in sockets.items():
            view = views.get(seat)
            held = self.held.get(seat)
            if view is None or (held is not None and held.seq == step.seq):
                continue  # no view (logged), or already sent
            try:
                mine = legal[seat] if seat is not None else []
                events = [json for event, json in said if event.visible_to(seat)]
                if held is None:
                    state = Message(messages.state_message({"seq": step.seq, "view": view, "legal": mine,
                                                            "events": events, **common}), True)
                    out.update({(seat, kind): state for kind in kinds})
                else:
                    ops = diff_shared(held.view, view, shared)
                    for kind in kinds:
                        listed = {"legal_ops": smallest(held.legal, mine)} if kind is DELTA else {"legal": mine}
                        out[(seat, kind)] = Message(messages.patch_message(
                            seq=step.seq, prev_seq=held.seq, ops=ops, events=events, **listed, **common), False)
                self.held[seat] = Held(step.seq, view, mine)
            except Exception:
                log.exception("%s: the message of seat %s after change %s failed", self.game.id, seat, step.seq)
        return out
