"""What a bot may know, and the levels bots play at.

A bot is fair by construction: it never holds the true state. When a seat's bot is asked
to decide, the runtime (or the playout) hands it a ``BotInput``: the seat's ``view``, its
``legal`` actions, the clock (``now_ms``, ``deadline``) and ``sample(rng)``, which deals a
state the seat cannot tell from the truth (``game.determinize(true_state, seat, rng)``,
called here, never by the bot). Two true states that look the same from a seat give that
seat's bot the same input, so the same decision with the same Rng.

The true state lives only inside the input's closures: no attribute leads to it. (Python
cannot wall memory off; reaching into a function's ``__closure__`` or ``gc`` would be
cheating that the fair-bots test looks for in the bot modules.)
"""

from __future__ import annotations

import json
import pickle
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Callable, Protocol, TypeVar

from .actions import Action
from .errors import InvalidOptions
from .rng import Rng

T = TypeVar("T")
EASY, NORMAL, HARD = "easy", "normal", "hard"
LEVELS = (EASY, NORMAL, HARD)


def check_level(level: str) -> str:
    """``level`` if it is one of ``LEVELS``, else ``InvalidOptions`` naming them."""
    if level not in LEVELS:
        raise InvalidOptions(f"A bot plays at one of {', '.join(LEVELS)}, not {level!r}.")
    return level


class Rules(Protocol):
    """What a bot's input is made from: the parts of a ``Game`` that read a state."""

    def view(self, state: Any, seat: int | None) -> dict[str, Any]: ...
    def legal(self, state: Any, seat: int) -> list[Action]: ...
    def deadline(self, state: Any) -> int | None: ...
    def determinize(self, state: Any, seat: int, rng: Rng) -> Any: ...


class BotInput:
    """Everything one seat may know when its bot decides, and nothing else.

    ``view`` and ``legal`` are given as values (the runtime has built them for the sockets
    already) or as functions that work them out on first use (the playout: a bot that
    waits never pays for them). Either way the bot gets its own copies, made on first use:
    a view or an action may share a list with the state, and nothing the bot holds may lead
    into the state or into what the runtime sends. ``sample(rng)`` gives a fresh
    determinized copy of the state each call."""

    __slots__ = ("seat", "now_ms", "deadline", "_view", "_legal", "_see", "_list", "_deal")

    def __init__(self, seat: int, now_ms: int, deadline: int | None,
                 view: dict[str, Any] | Callable[[], dict[str, Any]],
                 legal: list[Action] | Callable[[], list[Action]], sample: Callable[[Rng], Any]) -> None:
        self.seat, self.now_ms, self.deadline = seat, now_ms, deadline
        self._view: dict[str, Any] | None = None
        self._legal: list[Action] | None = None
        self._see, self._list, self._deal = view, legal, sample

    @classmethod
    def of(cls, game: Rules, state: Any, seat: int, now_ms: int) -> "BotInput":
        """The input of ``seat``'s bot when ``state`` is the truth (the playout), its view
        and legal actions worked out if the bot reads them."""
        return cls(seat, now_ms, game.deadline(state), view=lambda: game.view(state, seat),
                   legal=lambda: game.legal(state, seat), sample=lambda rng: game.determinize(state, seat, rng))

    @property
    def view(self) -> dict[str, Any]:
        """``game.view(state, seat)``: what the seat's player sees on the screen."""
        if self._view is None:
            self._view = _copy(_worked_out(self._see))
        return self._view

    @property
    def legal(self) -> list[Action]:
        """``game.legal(state, seat)``: what the seat may do now."""
        if self._legal is None:
            self._legal = _copy(_worked_out(self._list))
        return self._legal

    def sample(self, rng: Rng) -> Any:
        """A state the seat cannot tell from the truth: everything hidden from it re-dealt
        at random by ``rng`` (``game.determinize``). A new copy each call, the bot's own."""
        return self._deal(rng)


def _worked_out(value: Any) -> Any:
    return value() if callable(value) else value


def _copy(data: T) -> T:
    return pickle.loads(pickle.dumps(data, pickle.HIGHEST_PROTOCOL))


@dataclass
class Decision:
    """A bot's chosen action and the time (ms, same clock as ``now_ms``) to play it."""

    action: Action
    at_ms: int


class Bot(ABC):
    """Plays one seat. A bot object lives as long as its seat's match in one process and may
    remember things between calls. It never holds the true state: each call hands it what
    its seat may know (``BotInput``: view, legal actions, clock, determinized samples)."""

    @abstractmethod
    def decide(self, seen: BotInput) -> Decision | None:
        """The action this seat will play next, and when; ``None`` to wait."""


class RandomBot(Bot):
    """Chooses uniformly among the legal actions, after a random pause."""

    def __init__(self, game: Any, rng: Rng, min_ms: int = 50, max_ms: int = 3000):
        self.game, self.rng, self.min_ms, self.max_ms = game, rng, min_ms, max_ms

    def decide(self, seen: BotInput) -> Decision | None:
        if not seen.legal:
            return None
        return Decision(self.rng.choice(seen.legal), seen.now_ms + self.rng.randint(self.min_ms, self.max_ms))


def ask(game: Rules, bot: Bot, state: Any, seat: int, now_ms: int) -> Decision | None:
    """Ask ``seat``'s bot what it plays when ``state`` is the truth (the one place a bot is
    asked: the runtime and the playout both come here)."""
    return bot.decide(BotInput.of(game, state, seat, now_ms))


class SampleBot(Bot):
    """The adapter for a heuristic that reads a whole state: it plays on one determinized
    sample of its seat's information set, so it knows no more than the seat does.
    Subclasses set ``rng`` and implement ``play``."""

    rng: Rng

    def decide(self, seen: BotInput) -> Decision | None:
        return self.play(seen.sample(self.rng), seen.seat, seen.now_ms)

    @abstractmethod
    def play(self, state: Any, seat: int, now_ms: int) -> Decision | None:
        """The decision on ``state`` — a sample, never the truth — for ``seat``."""


def situation(seen: BotInput) -> str:
    """A key for what the seat sees and may do: a bot asked again in the same situation
    (the runtime re-asks after every change anywhere) answers the same."""
    return json.dumps([seen.view, seen.legal], sort_keys=True, separators=(",", ":"))


class SloppyBot(Bot):
    """An easier opponent: it plays like ``base`` (when, and mostly what), but now and
    then (``rate``) a random legal move instead — one draw per situation."""

    def __init__(self, base: Bot, rng: Rng, rate: float) -> None:
        self.base, self.rng, self.rate = base, rng, rate
        self._kept: tuple[str, Action | None] | None = None

    def decide(self, seen: BotInput) -> Decision | None:
        plan = self.base.decide(seen)
        if plan is None or len(seen.legal) < 2:
            return plan
        here = situation(seen)
        if self._kept is None or self._kept[0] != here:
            slip = self.rng.random() < self.rate
            self._kept = (here, self.rng.choice(seen.legal) if slip else None)
        return plan if self._kept[1] is None else Decision(self._kept[1], plan.at_ms)


EASY_SLIPS = 0.3  # how often an easy bot plays a random legal move instead


def at_level(level: str, rng: Rng, normal: Callable[[Rng], Bot], hard: Callable[[Rng], Bot]) -> Bot:
    """A game's bot at ``level``, from its normal and its hard bot: ``easy`` is the normal
    one slipping now and then."""
    level = check_level(level)
    if level == EASY:
        return SloppyBot(normal(rng.fork()), rng.fork(), EASY_SLIPS)
    return hard(rng) if level == HARD else normal(rng)
