"""Each seat's view and legal actions as its sockets hold them, so that a change reaches
them as a patch.

A socket's first message is the whole ``state``; after each change it is sent only what
changed in its own view since the state it holds: a ``patch`` (JSON Patch, RFC 6902) from
``prev_seq`` to ``seq``. Its legal actions travel whole in every message, or — for a socket
that said it reads them so (``legal=delta``) — as a patch of the list it holds too
(``legal_ops``). A socket opened with ``updates=compact`` reads the compact patch (see
``messages.compact_patch_message``): what did not change is left out, the operations are
arrays, and a legal list the seat held a few changes ago is named by that change's seq
(``legal_at``) instead of being sent again — the seat's last ``RECALLED`` distinct lists are
kept for that, on both sides, by the same rule (``Held.recalled``). Every socket of a seat (and every spectator, seat ``None``) holds the same
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
from .patches import Op, PatchError, apply, compact_ops, diff_shared, expand, smallest
from .step import Seat, Step

log = logging.getLogger(__name__)

WHOLE, DELTA, COMPACT = "whole", "delta", "compact"  # how a socket reads patches (and ``legal``)
RECALLED = 4  # distinct legal lists a compact socket keeps, by the seq it last took each at


@dataclass(frozen=True, slots=True)
class Message:
    """A seat's message after a change: its text, and whether it is the whole state."""

    text: str
    whole: bool


@dataclass(slots=True)  # not frozen: a frozen one's __init__ costs a call a field (replaced whole, never changed)
class Held:
    """The view and legal actions the sockets of a seat hold, after change ``seq``."""

    seq: int
    view: dict[str, Any]
    legal: list[Action]
    told: tuple[Any, Any, Any] = (None, None, None)  # the status, deadline and result last sent
    recent: tuple[tuple[int, list[Action]], ...] = ()  # the distinct legal lists held lately, oldest first

    def recalled(self, seq: int, legal: list[Action]) -> tuple[int | None, tuple[tuple[int, list[Action]], ...]]:
        """How a compact socket reaches ``legal`` after change ``seq``: the seq of a list it
        keeps that equals it (``None``: unchanged, or to be patched), and the lists it keeps
        then. The rule, as the client applies it: an unchanged list keeps them; a recalled
        one moves to ``seq``; a patched one is added at ``seq``, the oldest dropped past
        ``RECALLED`` (a whole state keeps only its own)."""
        if legal == self.legal:
            return None, self.recent
        at = next((q for q, listed in self.recent if listed == legal), None)
        kept = self.recent if at is None else tuple(entry for entry in self.recent if entry[0] != at)
        return at, (kept + ((seq, legal),))[-RECALLED:]

    def read(self, msg: dict[str, Any]) -> "Held":
        """What a compact socket holds after the compact patch ``msg`` from this (the client's
        side of the rule; ``PatchError`` when it does not fit, and the client asks for the
        whole state)."""
        seq = msg["seq"]
        if msg.get("prev_seq", seq - 1) != self.seq:
            raise PatchError(f"A patch from seq {msg.get('prev_seq', seq - 1)} to a socket at {self.seq}.")
        legal, recent = self.legal, self.recent
        if "legal_at" in msg:
            legal = next((listed for q, listed in recent if q == msg["legal_at"]), None)  # type: ignore[arg-type]
            if legal is None:
                raise PatchError(f"No legal list kept from seq {msg['legal_at']}.")
            recent = tuple(entry for entry in recent if entry[0] != msg["legal_at"])
        elif "legal_ops" in msg:
            legal = apply(self.legal, expand(msg["legal_ops"]))
        if legal is not self.legal:
            recent = (recent + ((seq, legal),))[-RECALLED:]
        status, deadline, result = self.told
        told = (msg.get("status", status), msg.get("deadline", deadline), msg.get("result", result))
        return Held(seq, apply(self.view, expand(msg["ops"])), legal, told, recent)


class SeatViews:
    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        self.held: dict[Seat, Held] = {}

    def current(self, step: Step, seat: Seat, hold: bool,
                told: tuple[Any, Any, Any] = (None, None, None)) -> tuple[dict[str, Any], list[Action]]:
        """The seat's whole view and legal actions after ``step``: the ones its sockets hold
        if they are at that change, else the step's (and, with ``hold``, held from now on:
        the caller sends them to a socket as a full state telling ``told``: the status,
        deadline and result)."""
        held = self.held.get(seat)
        if held is not None and held.seq == step.seq:
            view, legal = held.view, held.legal
        else:
            view = step.see(self.game, [seat])[seat]
            legal = step.legal_of(self.game, [seat])[seat] if seat is not None else []
        if hold:  # the new socket keeps only this list; others of the seat keep theirs, so none is named
            self.held[seat] = Held(step.seq, view, legal, told, ((step.seq, legal),) if held is None else ())
        return view, legal

    def forget(self, seat: Seat) -> None:
        """No socket of ``seat`` is left here."""
        self.held.pop(seat, None)

    def messages(self, step: Step, sockets: Mapping[Seat, Collection[str]],
                 common: dict[str, Any]) -> dict[tuple[Seat, bool], Message]:
        """After ``step``: each seat's message for each way its sockets read ``legal``
        (``sockets``: seat → ``WHOLE``, ``DELTA`` and/or ``COMPACT``) — a patch from what the seat holds
        or (holding nothing) the whole state. ``common`` holds what every seat is told alike
        (``status``, ``deadline``, ``now``, ``result``). A seat whose view or message fails is
        left out (logged); its sockets catch up with the next change."""
        views = step.see(self.game, sockets)
        legal = step.legal_of(self.game, [seat for seat in sockets if seat is not None])
        out: dict[tuple[Seat, str], Message] = {}
        shared: dict[tuple[str, int, int], list[Op]] = {}
        said = [(event, json, messages.compact_event(json, step.seq))  # each form once for every seat
                for json, event in ((messages.event_json(seq, event), event) for seq, event in step.events)]
        told = (common["status"], common["deadline"], common["result"])
        for seat, kinds in sockets.items():
            view = views.get(seat)
            held = self.held.get(seat)
            if view is None or (held is not None and held.seq == step.seq):
                continue  # no view (logged), or already sent
            try:
                mine = legal[seat] if seat is not None else []
                seen = [(json, compact) for event, json, compact in said if event.visible_to(seat)]
                events = [json for json, _ in seen]
                if held is None:
                    state = Message(messages.state_message({"seq": step.seq, "view": view, "legal": mine,
                                                            "events": events, **common}), True)
                    out.update({(seat, kind): state for kind in kinds})
                    self.held[seat] = Held(step.seq, view, mine, told, ((step.seq, mine),))
                    continue
                ops = diff_shared(held.view, view, shared)
                at, recent = held.recalled(step.seq, mine)
                for kind in kinds:
                    if kind == COMPACT:
                        text = messages.compact_patch_message(
                            seq=step.seq, prev_seq=held.seq, ops=compact_ops(ops),
                            events=[compact for _, compact in seen],
                            legal_ops=None if at is not None else compact_ops(smallest(held.legal, mine)), legal_at=at,
                            told=held.told, **common)
                    else:
                        listed = {"legal_ops": smallest(held.legal, mine)} if kind == DELTA else {"legal": mine}
                        text = messages.patch_message(seq=step.seq, prev_seq=held.seq, ops=ops, events=events,
                                                      **listed, **common)
                    out[(seat, kind)] = Message(text, False)
                self.held[seat] = Held(step.seq, view, mine, told, recent)
            except Exception:
                log.exception("%s: the message of seat %s after change %s failed", self.game.id, seat, step.seq)
        return out
