"""One change of a match, as one value: what every later stage reads instead of asking again.

Applying an action (``take``) yields a ``Step``: the canonical action and its JSON (encoded
once: that text is what the size limit measures and what the log stores), the new state,
its events, and what the rules say of that state — its ``deadline`` and its ``result``,
each asked once. Catching up with the log (``replayed``) yields the same value for the
state the log's tail leads to.

After the commit the step also carries each seat's view and legal actions, worked out
once for every seat that needs them (sockets, and bots in the process that drives the
match: ``Game.views`` and ``Game.legals`` share what seats have in common) and read by the
fan-out, the bots and later requests alike until the next change.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from json.encoder import JSONEncoder, c_make_encoder, encode_basestring_ascii  # type: ignore[attr-defined]
from typing import Any, Iterable, Sequence

from server.engine import Action, Event, Game, IllegalAction, Result
from server.problems import Illegal, Invalid

from .canonical import apply_canonical

log = logging.getLogger(__name__)

Seat = int | None
_WRITE_JSON = c_make_encoder(None, JSONEncoder().default, encode_basestring_ascii, None, ": ", ", ", False, False,
                             False)


def _plain_json(value: Any) -> str:
    """``json.dumps(value, allow_nan=False)`` (``ValueError`` for a NaN or an infinity),
    written by C's encoder made once, without the check for circular references (an
    action read from JSON has none, and one would still fail: ``RecursionError``)."""
    return "".join(_WRITE_JSON(value, 0))


@dataclass(frozen=True)
class Entry:
    """An action to log: who played it, its canonical form and JSON text, and when."""

    seat: int | None
    action: Action
    text: str
    at: int


@dataclass(frozen=True)
class StandinEvent(Event):
    """An event of a move a stand-in bot played for the absent human of seat ``by``: the log
    says so (``"by": seat, "standin": true``)."""

    by: int = -1

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "by": self.by, "standin": True}


@dataclass(eq=False)
class Step:
    """The match after change ``seq`` (see the module docstring)."""

    seq: int
    state: Any
    events: list[tuple[int, Event]]  # this change's events, each with the seq that caused it
    deadline: int | None
    result: Result | None
    entry: Entry | None = None  # what to log (an action applied here; None once logged or replayed)
    views: dict[Seat, dict[str, Any]] = field(default_factory=dict)
    legal: dict[int, list[Action]] = field(default_factory=dict)

    def played_by_standin(self, seat: int) -> "Step":
        """This step, its events marked as a stand-in's move for ``seat``."""
        self.events[:] = [(seq, StandinEvent(e.type, e.text, e.to, e.data, seat)) for seq, e in self.events]
        return self

    def see(self, game: Game[Any, Any], seats: Iterable[Seat]) -> dict[Seat, dict[str, Any]]:
        """The views of ``seats``, the missing ones built now in one ``Game.views`` (seat by
        seat if that fails, leaving out — and logging — the seats whose view fails)."""
        missing = [seat for seat in dict.fromkeys(seats) if seat not in self.views]
        if missing:
            self.views.update(game.taught(self.state, _views(game, self.state, missing)))  # teach mode: + hints
        return self.views

    def legal_of(self, game: Game[Any, Any], seats: Iterable[int]) -> dict[int, list[Action]]:
        """The legal actions of ``seats`` (none once the game is over), the missing ones
        worked out now in one ``Game.legals``."""
        missing = [seat for seat in dict.fromkeys(seats) if seat not in self.legal]
        if missing:
            self.legal.update(dict.fromkeys(missing, []) if self.result is not None
                              else game.legals(self.state, missing))
        return self.legal


def _views(game: Game[Any, Any], state: Any, seats: Sequence[Seat]) -> dict[Seat, dict[str, Any]]:
    try:
        return game.views(state, seats)
    except Exception:
        pass
    out = {}
    for seat in seats:
        try:
            out[seat] = game.view(state, seat)
        except Exception:
            log.exception("%s failed to build the view of seat %s", game.id, seat)
    return out


def settled(game: Game[Any, Any], state: Any, seq: int, events: list[tuple[int, Event]]) -> Step:
    """The step of ``state`` after change ``seq`` (a start, a restore, a catch-up)."""
    return Step(seq, state, events, game.deadline(state), game.result(state))


def take(game: Game[Any, Any], state: Any, seq: int, seat: int | None, action: Action, at: int,
         max_bytes: int, max_sent_bytes: int) -> Step:
    """The step of ``seat`` playing ``action`` at ``at`` on ``state`` (change ``seq``): the
    rules apply its canonical form (what they read of it, see ``canonical``), which is
    what is logged. The rules refusing it ⇒ ``Illegal`` with their reason (a game that
    fails on malformed input is refused the same way, never a 500). What the rules read
    must be plain, finite JSON of at most ``max_bytes``, and what was sent at most
    ``max_sent_bytes`` (measured only when it is more than what was read), else
    ``Invalid``. Nothing changes."""
    if not isinstance(action, dict):
        raise Invalid("An action is a JSON object with a \"type\".")
    try:
        canonical, new, events = apply_canonical(lambda a: game.apply(state, seat, a, at), action)
    except IllegalAction as exc:
        raise Illegal(exc.reason) from None
    except Exception:
        log.exception("%s raised on %.200r; treated as an illegal action", game.id, action)
        raise Illegal("The game does not understand this action.") from None
    try:
        text = _plain_json(canonical)
    except (ValueError, TypeError, RecursionError):
        raise Invalid("An action must be plain JSON with finite numbers.") from None
    if canonical != action:
        _check_sent(action, max_sent_bytes)
    if len(text) > max_bytes:
        raise Invalid(f"What the rules read of an action is limited to {max_bytes} bytes of JSON.")
    tagged = [(seq, e) for e in events]
    return Step(seq, new, tagged, game.deadline(new), game.result(new), Entry(seat, canonical, text, at))


def _check_sent(action: Action, max_bytes: int) -> None:
    """What a client sent beside what the rules read is still a small object of plain JSON."""
    try:
        size = len(_plain_json(action))
    except (ValueError, TypeError, RecursionError):
        raise Invalid("An action must be plain JSON with finite numbers.") from None
    if size > max_bytes:
        raise Invalid(f"An action is limited to {max_bytes} bytes of JSON.")
