"""The engine contract: what every game of Potluck implements.

A match is a seed plus an ordered log of actions. A game turns them into states::

    setup(players, options, seed, now_ms) -> state0
    apply(state, seat, action, now_ms)    -> (state1, events)      # and so on

All of it is pure: no I/O, no clock (time arrives as ``now_ms``), no global randomness
(the state carries its ``Rng``). ``apply`` never changes the state it is given; it returns a
new one, or raises ``IllegalAction`` and changes nothing.

Actions are JSON objects with a ``"type"``. The runtime, when ``deadline(state)`` passes,
applies ``{"type": "timeout"}`` with ``seat=None``, so time is in the log too.
"""

from __future__ import annotations

import pickle
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Callable, ClassVar, Generic, Mapping, Sequence, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .actions import TIMEOUT, Action
from .bots import NORMAL, Bot, RandomBot, ask
from .errors import InvalidOptions, require
from .events import Event
from .rng import Rng
from .teaching import Teacher


OVER = "over"


class State:
    """Base class for game states: plain data, copied whole by ``clone``.

    Every state holds ``players`` (their names, in seat order) and ``phase`` (a name; ``OVER``
    once the game has ended)."""

    players: list[str]
    phase: str

    def clone(self: "S") -> "S":
        """An independent deep copy, made by pickling, except that a frozen options model of
        plain values is shared rather than copied (pickling one cost a good part of a small
        state's clone, and it cannot change)."""
        fields = getattr(self, "__dict__", None)
        if fields is None or not _pickled_by_fields(type(self)):
            return pickle.loads(pickle.dumps(self, pickle.HIGHEST_PROTOCOL))
        shared = {k: v for k, v in fields.items() if isinstance(v, BaseModel) and _frozen_plain(v)}
        rest = {**fields, **dict.fromkeys(shared)} if shared else fields
        copied = pickle.loads(pickle.dumps(rest, pickle.HIGHEST_PROTOCOL))
        copied.update(shared)  # the same keys, so the same order
        new = object.__new__(type(self))
        new.__dict__.update(copied)
        return new


T = TypeVar("T")


def shallow(obj: T) -> T:
    """A shallow copy (the fields shared, not copied) of an object whose fields are its
    ``__dict__``: what ``copy.copy`` makes of it, several times faster — a state's
    ``clone`` makes many."""
    new = object.__new__(type(obj))
    new.__dict__ = obj.__dict__.copy()  # one copy: half the cost of updating the new, empty one
    return new


@cache
def _pickled_by_fields(cls: type) -> bool:
    """Whether pickling an instance means pickling its ``__dict__`` (no pickling methods of
    its own), so that copying the fields copies the object."""
    return (cls.__reduce_ex__ is object.__reduce_ex__ and cls.__reduce__ is object.__reduce__
            and getattr(cls, "__getstate__", None) is getattr(object, "__getstate__", None)
            and not hasattr(cls, "__setstate__") and cls.__new__ is object.__new__)


def _frozen_plain(value: Any) -> bool:
    """A frozen pydantic model whose fields are strings, numbers, booleans or ``None``."""
    return (isinstance(value, BaseModel) and bool(value.model_config.get("frozen"))
            and all(type(v) in (str, int, float, bool, type(None)) for v in value.__dict__.values()))


S = TypeVar("S", bound=State)


class Options(BaseModel):
    """Base for a game's options model: every field has a default; unknown keys are errors,
    and so is a value of the wrong type (``"60000"`` for a number, ``"true"`` for a yes/no)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    teach: bool = Field(False, title="Learn to play",
                        description="Hints at every prompt: what you may do, the rule that says so, "
                                    "and the bot's suggestion on request. Each player can hide them.")


@dataclass
class Result:
    """How a finished game came out.

    ``scores`` has one number per seat; ``winners`` are the seats that share the victory;
    ``reason`` is a sentence for the result screen. ``teams`` maps a team name to its seats
    and ``details`` holds per-game extras (score breakdowns) for the result screen.
    """

    winners: list[int]
    scores: list[float]
    reason: str
    teams: dict[str, list[int]] | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "winners": self.winners,
            "scores": self.scores,
            "reason": self.reason,
            "teams": self.teams,
            "details": self.details,
        }


O = TypeVar("O", bound=Options)
BotMaker = Callable[..., Bot]  # (game, rng, level, **params) -> the seat's bot


class Game(ABC, Generic[S, O]):
    """One game of Potluck. Subclasses set the metadata and implement the rules."""

    id: ClassVar[str]
    name: ClassVar[str]
    pitch: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options_model: ClassVar[type[Options]]
    # the option sets that change the rules, by name: the contract's leak tests play each
    variants: ClassVar[dict[str, dict[str, Any]]] = {"default": {}}
    # why the game cannot be played by turns (``pace: "turns"``, see ``pace``); None: it can
    live_only: ClassVar[str | None] = None
    # teach mode's hints (``hints.py``), set by ``__init__``; None: the game has no teacher
    teacher: Teacher | None = None
    _bots: "BotMaker | None" = None

    def __init__(self, bots: "BotMaker | None" = None, teacher: Teacher | None = None) -> None:
        """``bots`` makes the game's bots (``bots(game, rng, level, **params)``). The rules
        never import their bots: the package composes the two (``GAME = Game(bots=...)``),
        so the bots may read the rules' types and helpers without a cycle. ``teacher``
        holds the game's hints for teach mode (``hints.py``)."""
        self._bots = bots
        self.teacher = teacher

    # ---- metadata -------------------------------------------------------------------
    def options(self, raw: Mapping[str, Any] | O | None = None) -> O:
        """Validate raw options against the game's model, filling in defaults."""
        if isinstance(raw, self.options_model):
            return raw  # type: ignore[return-value]
        raw = dict(raw or {})
        if self.live_only is not None and "pace" in raw:
            if raw.pop("pace") != "live":
                raise InvalidOptions(f"{self.name} cannot be played by turns: {self.live_only}")
        try:
            return self.options_model.model_validate(raw)  # type: ignore[return-value]
        except ValidationError as exc:
            reasons = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or 'options'}: {err['msg']}"
                for err in exc.errors()
            )
            raise InvalidOptions(f"Invalid options for {self.name}: {reasons}") from None

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise InvalidOptions(
                f"{self.name} is for {self.min_players}–{self.max_players} players, not {players}."
            )

    def validate(self, players: int, options: O) -> None:
        """Refuse (``InvalidOptions``) a table this game cannot set up: everything ``setup``
        would refuse, checked when a match is created rather than when its last seat is
        taken. The default tries ``setup`` itself; whatever it raises is a refusal."""
        self.check_players(players)
        try:
            self.setup([f"Player {i + 1}" for i in range(players)], options, 0, 0)
        except InvalidOptions:
            raise
        except Exception as exc:
            reason = getattr(exc, "reason", None) or type(exc).__name__
            raise InvalidOptions(f"{self.name} cannot be set up like this: {reason}") from None

    def catalogue_entry(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "pitch": self.pitch,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "options": self.options_model.model_json_schema(),
            "turns": "pace" in self.options_model.model_fields,
            "live_only": self.live_only,
        }

    # ---- the rules ------------------------------------------------------------------
    @abstractmethod
    def setup(self, players: Sequence[str], options: O, seed: int, now_ms: int = 0) -> S:
        """The first state of a match between ``players`` (their names, seat order)."""

    @abstractmethod
    def legal(self, state: S, seat: int) -> list[Action]:
        """What ``seat`` may do now (a bounded, representative set where the space is large)."""

    @abstractmethod
    def apply(self, state: S, seat: int | None, action: Action, now_ms: int) -> tuple[S, list[Event]]:
        """The state after ``seat`` plays ``action`` at ``now_ms``, and the events it caused."""

    def screen(self, state: S, seat: int | None, action: Action, now_ms: int) -> bool:
        """The rules every game shares, checked before its own (``apply`` calls it first):
        an action is a JSON object with a type; nothing is played once the game is over;
        only time acts without a seat, with ``timeout``, and only once the deadline has come;
        anyone else plays from a seat of the table. True: it is time's due ``timeout``."""
        require(isinstance(action, dict) and isinstance(action.get("type"), str),
                "An action is a JSON object with a 'type'.")
        require(state.phase != OVER, "The game is over.")
        if seat is None:
            require(action["type"] == "timeout", "Only time itself may act without a seat.")
            due = self.deadline(state)
            require(due is not None and now_ms >= due, "Nothing is due yet.")
            return True
        require(isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(state.players),
                "There is no such seat.")
        return False

    def waiting_for(self, state: S) -> frozenset[int]:
        """The seats the game waits for: whose move time makes at the deadline if they do
        not (told "your move" when playing by turns). The default: every seat with a legal
        action; a game where others may act at any time names the seats it waits for."""
        if state.phase == OVER:
            return frozenset()
        return frozenset(seat for seat in range(len(state.players)) if self.legal(state, seat))

    @abstractmethod
    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """JSON-ready: exactly what ``seat`` may know (``None``: a spectator)."""

    def views(self, state: S, seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
        """``view(state, seat)`` for each of ``seats`` at once (the runtime asks for every seat
        with a socket after each change). A game may override it to build what the seats'
        views share only once; the views must be exactly what ``view`` returns."""
        return {seat: self.view(state, seat) for seat in seats}

    def legals(self, state: S, seats: Sequence[int]) -> dict[int, list[Action]]:
        """``legal(state, seat)`` for each of ``seats`` at once (the runtime asks for every
        seat that has a socket or a bot after each change). A game may override it to work
        out what the seats' options share only once; the lists must be exactly what
        ``legal`` returns."""
        return {seat: self.legal(state, seat) for seat in seats}

    @abstractmethod
    def deadline(self, state: S) -> int | None:
        """When time moves the game on by itself (ms), or ``None``."""

    @abstractmethod
    def determinize(self, state: S, seat: int, rng: Rng) -> S:
        """A copy of ``state`` with everything ``seat`` cannot know re-dealt at random,
        consistently with what it has seen."""

    @abstractmethod
    def result(self, state: S) -> Result | None:
        """How the game ended, or ``None`` while it goes on."""

    def stats(self, state: S) -> dict[str, float]:
        """Figures of a finished game for ``potluck simulate`` (rounds, turns, busts…)."""
        return {}

    # ---- teach mode -----------------------------------------------------------------
    def teaching(self, state: S) -> bool:
        """Whether the match was set up with ``teach: true`` (and the game has a teacher)."""
        return self.teacher is not None and bool(getattr(getattr(state, "options", None), "teach", False))

    def hints(self, state: S, seat: int | None, view: dict[str, Any] | None = None) -> dict[str, Any] | None:
        """What ``seat`` may do now and why (``teaching.Teacher.hints``), made from its view
        (``view``, if already built) and its legal actions only; ``None`` for a spectator,
        once the game is over, or when the match is not in teach mode."""
        if seat is None or state.phase == OVER or not self.teaching(state):
            return None
        assert self.teacher is not None
        return self.teacher.hints(self.view(state, seat) if view is None else view, self.legal(state, seat))

    def taught(self, state: S, views: dict[int | None, dict[str, Any]]) -> dict[int | None, dict[str, Any]]:
        """``views`` (seat → view) with each seat's ``hints`` added in teach mode (the one
        place the runtime asks for them: hints travel in the seat's own view)."""
        if not self.teaching(state):
            return views
        out = {}
        for seat, view in views.items():
            hints = self.hints(state, seat, view)
            out[seat] = view if hints is None else {**view, "hints": hints}
        return out

    def suggest(self, state: S, seat: int, now_ms: int, seed: int) -> dict[str, Any] | None:
        """"What would you do?": the move the game's normal bot would play for ``seat``,
        decided on the seat's ``BotInput`` like every bot (never the true state), with a
        one-line reason; ``None`` when the match is not in teach mode. ``seed`` makes the
        bot's choice repeatable (the runtime passes the match's seq)."""
        if not self.teaching(state) or state.phase == OVER:
            return None
        assert self.teacher is not None
        decision = ask(self, self.bot(seat, Rng(seed), NORMAL), state, seat, now_ms)
        return self.teacher.suggestion(self.view(state, seat), None if decision is None else decision.action)

    # ---- bots -----------------------------------------------------------------------
    def bot(self, seat: int, rng: Rng, level: str = "normal", **params: Any) -> Bot:
        """A bot for ``seat`` playing at ``level`` (``easy``, ``normal``, ``hard``): the
        game's own policies, composed into it where the package makes its ``GAME``
        (``Game(bots=...)``); without them, a random player."""
        if self._bots is None:
            return RandomBot(self, rng)
        return self._bots(self, rng, level, **params)

    def random_bot(self, seat: int, rng: Rng) -> Bot:
        return RandomBot(self, rng)
