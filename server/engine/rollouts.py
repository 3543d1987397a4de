"""Flat Monte Carlo over determinized states: the search a hard bot makes for one seat.

A search chooses one move for one seat from what that seat may know (its ``BotInput``),
using only the engine contract. It weighs the move a model of play (the game's normal
bot) means to make against its alternatives: each round deals a world the seat cannot
tell from the truth (``seen.sample``) and plays every move out in it with the same dice,
the model at every seat, until the game ends or ``horizon`` says the position can be
judged (``evaluate(state, seat)`` in ``[0, 1]``). The model's move stays unless another
is clearly better over the paired playouts. The budget is a count of playouts, never a
time, so a seed gives the same decision on any machine.

(A tree search over the seat's own decisions was tried first and measured weaker than
the normal bots it searched with: its tree branched on market moves the model would
never make, and a best mean among many moves is often luck.)
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Protocol, Sequence

from .actions import Action
from .bots import Bot, BotInput, Decision, situation
from .errors import IllegalAction
from .game import Game
from .playout import Stalled, next_move
from .rng import Rng


class Policy(Protocol):
    """A model of how a seat plays, on a whole (sampled) state."""

    def play(self, state: Any, seat: int, now_ms: int) -> Decision | None: ...


def key(action: Action) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def budget(iterations: int | Mapping[int, int], players: int) -> int:
    """The playouts of one search at a table of ``players``: a count, or a count for each
    table size (``{2: 150, 6: 20}``; a size not listed gets the budget of the next smaller
    one listed), since a playout costs more the more players there are."""
    if isinstance(iterations, int):
        return iterations
    return iterations[max(size for size in iterations if size <= players)]


def win_share(game: Game[Any, Any], state: Any, seat: int) -> float | None:
    """1 for a sole winner, ``1/k`` for one of ``k`` sharing the victory, 0 for a loser;
    ``None`` while the game goes on."""
    result = game.result(state)
    if result is None:
        return None
    return 1.0 / len(result.winners) if seat in result.winners else 0.0


def squash(margin: float, scale: float) -> float:
    """A score margin as a win chance in ``(0, 1)``: 0.5 at even, ``scale`` is a clear lead."""
    return 1.0 / (1.0 + math.exp(-margin / scale))


class SearchBot(Bot):
    """Plays like ``base`` (the game's normal bot: when to move, and at what pace), but
    where it would move and has a choice, it searches for the move instead. The decision
    for a situation (the same view and moves) is kept, so asking again costs nothing."""

    def __init__(self, search: "Rollouts", base: Bot, rng: Rng) -> None:
        self.search, self.base, self.rng = search, base, rng
        self._kept: tuple[str, Action] | None = None

    def decide(self, seen: BotInput) -> Decision | None:
        plan = self.base.decide(seen)
        if plan is None or len(seen.legal) < 2:
            return plan
        here = situation(seen)
        if self._kept is None or self._kept[0] != here:
            action, _ = self.search.choose(seen, self.rng, plan.action)
            self._kept = (here, action)
        return Decision(self._kept[1], plan.at_ms)


@dataclass
class Rollouts:
    """Flat Monte Carlo with common random numbers: a one-step look-ahead over the seat's
    moves, each judged by playing it out with the model of play at every seat.

    Each round deals one world the seat cannot tell from the truth (``seen.sample``) and
    plays every candidate move out in that same world with the same dice (the models'
    Rngs and the world's own are forked alike), so the moves are compared on equal
    terms and luck cancels out of the comparison. ``iterations`` counts playouts (a count,
    or a count for each table size: ``budget``); the rounds are that budget shared
    among the legal moves (with fewer than ``min_rounds`` each, the model's move stands
    unsearched). The move with the best mean wins; ties go to ``prefer`` (the model's own
    move), then to the order of the legal moves. The search leaves the model's
    move only for one ``clearly_better`` in the paired playouts (at ``confidence``
    standard errors): a best mean found by luck among many moves would make it play
    worse than the model it improves on."""

    game: Game[Any, Any]
    policy: Callable[[int, Rng], Policy]
    evaluate: Callable[[Any, int], float]
    iterations: int | Mapping[int, int] = 200
    horizon: Callable[[Any, Any], bool] = lambda start, state: False
    max_steps: int = 400
    min_rounds: int = 2
    confidence: float = 2.0

    def choose(self, seen: BotInput, rng: Rng, prefer: Action | None = None) -> tuple[Action, dict[str, float]]:
        """The move for ``seen.seat`` and each candidate's mean score."""
        world = seen.sample(rng)
        moves = seen.legal
        if prefer is not None:
            moves = [prefer] + [m for m in moves if key(m) != key(prefer)]
        if len(moves) < 2:
            return moves[0], {}
        rounds = budget(self.iterations, len(world.players)) // len(moves)
        if rounds < self.min_rounds:  # too many moves for the budget: the model's own
            return moves[0], {}
        scores: list[list[float]] = [[] for _ in moves]
        for n in range(rounds):
            if n:
                world = seen.sample(rng)
            dice = rng.next64()
            for move, row in zip(moves, scores):
                row.append(self.playout(world, seen.seat, move, seen.now_ms, Rng(dice)))
        best = max(range(len(moves)), key=lambda i: (sum(scores[i]), -i))
        if prefer is not None and best and not clearly_better(scores[best], scores[0], self.confidence):
            best = 0
        return moves[best], {key(m): sum(row) / rounds for m, row in zip(moves, scores)}

    def playout(self, world: Any, seat: int, move: Action, now: int, rng: Rng) -> float:
        """``move`` played in ``world``, then the model at every seat until the end or the
        horizon; the seat's score there."""
        deciders = [self.policy(s, rng.fork()).play for s in range(len(world.players))]
        state = world.clone()
        if hasattr(state, "rng"):
            state.rng = rng.fork()  # the same dice for every move of a round
        try:
            state, _ = self.game.apply(state, seat, move, now)
        except IllegalAction:
            return 0.0
        for _ in range(self.max_steps):
            if self.game.result(state) is not None or self.horizon(world, state):
                break
            try:
                mover, action, at = next_move(self.game, state, deciders, now, rng)
            except Stalled:
                break
            now = max(now, at)
            try:
                state, _ = self.game.apply(state, mover, action, now)
            except IllegalAction:
                break
        return self.evaluate(state, seat)


def clearly_better(mine: Sequence[float], theirs: Sequence[float], confidence: float) -> bool:
    """Do the paired playouts ``mine`` beat ``theirs`` by more than ``confidence``
    standard errors of the mean difference?"""
    diffs = [a - b for a, b in zip(mine, theirs)]
    n = len(diffs)
    mean = sum(diffs) / n
    if mean <= 0:
        return False
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, n - 1) / n)
    return mean > confidence * spread
