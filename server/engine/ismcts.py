"""Information-set Monte Carlo tree search over determinized states, for one seat.

A search chooses one move for one seat from what that seat may know (its ``BotInput``),
using only the engine contract. Each iteration:

1. deals a world the seat cannot tell from the truth (``seen.sample``);
2. walks down the tree of the seat's *own* decisions: at each, the children are the
   actions legal in this world, picked by UCB counted over the iterations in which they
   were available (single-observer ISMCTS); the other seats, and time, move as a model
   of them plays (``policy``: the game's normal bot, playing on the world), so the
   tree never branches on what the seat cannot see or choose;
3. adds the first decision not yet in the tree, then lets the model play every seat
   (this one too) until the game ends or ``horizon`` says the position can be judged;
4. scores the end — ``evaluate(state, seat)`` in ``[0, 1]`` — and adds it to the path.

After ``iterations`` iterations the root action tried most often is played. The budget
is a count, never a time, so a seed gives the same decision on any machine.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol, Sequence

from .bots import BotInput, situation
from .errors import IllegalAction
from .game import Action, Bot, Decision, Game
from .playout import Stalled, next_move
from .rng import Rng


class Policy(Protocol):
    """A model of how a seat plays, on a whole (sampled) state."""

    def play(self, state: Any, seat: int, now_ms: int) -> Decision | None: ...


@dataclass
class Node:
    """One decision of the searching seat: how often it was reached through each action."""

    visits: int = 0
    total: float = 0.0
    available: int = 0
    children: dict[str, "Node"] = field(default_factory=dict)

    def ucb(self, exploration: float) -> float:
        return self.total / self.visits + exploration * math.sqrt(math.log(self.available) / self.visits)


def key(action: Action) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


@dataclass
class Search:
    """The settings of a search: the game, the model of play and how to judge a position.

    ``iterations`` is the budget: a count, or a count for each table size (``{2: 150,
    6: 20}``; a size not listed gets the budget of the next smaller one listed), since a
    playout costs more the more players there are. ``candidates(state, seat, legal)`` may
    narrow the moves considered at a decision (a bounded, representative set);
    ``horizon(start, state)`` stops a playout early where ``evaluate`` can judge it;
    ``max_steps`` bounds every playout."""

    game: Game[Any, Any]
    policy: Callable[[int, Rng], Policy]
    evaluate: Callable[[Any, int], float]
    iterations: int | Mapping[int, int] = 200
    exploration: float = 0.7
    horizon: Callable[[Any, Any], bool] = lambda start, state: False
    candidates: Callable[[Any, int, list[Action]], list[Action]] = lambda state, seat, legal: legal
    max_steps: int = 400

    def choose(self, seen: BotInput, rng: Rng, prefer: Action | None = None) -> tuple[Action, Node]:
        """The move for ``seen.seat``, and the searched tree's root (for reports and tests)."""
        root = Node()
        world = seen.sample(rng)
        for n in range(self.budget(len(world.players))):
            self._iterate(root, world if n == 0 else seen.sample(rng), seen.seat, seen.now_ms, rng)
        moves = {key(a): a for a in seen.legal}
        best = max((k for k in root.children if k in moves),
                   key=lambda k: (root.children[k].visits, root.children[k].total, k))
        return moves[best], root

    def budget(self, players: int) -> int:
        """The iterations of one search at a table of ``players``."""
        if isinstance(self.iterations, int):
            return self.iterations
        return self.iterations[max(size for size in self.iterations if size <= players)]

    def _iterate(self, root: Node, world: Any, seat: int, now: int, rng: Rng) -> None:
        policies = [self.policy(s, rng.fork()) for s in range(len(world.players))]
        deciders = [p.play for p in policies]
        start, state, node = world, world, root
        path: list[Node] = []
        growing = True  # still inside the tree: this seat's moves come from it
        action: Action | None = self._select(node, self.candidates(state, seat, self.game.legal(state, seat)), rng)
        mover: int | None = seat
        for _ in range(self.max_steps):
            if action is None:
                break
            if mover == seat and growing:
                node = node.children[key(action)]
                growing = node.visits > 0
                path.append(node)
            try:
                state, _ = self.game.apply(state, mover, action, now)
            except IllegalAction:
                break
            if self.game.result(state) is not None or self.horizon(start, state):
                break
            try:
                mover, action, at = next_move(self.game, state, deciders, now, rng)
            except Stalled:
                break
            now = max(now, at)
            if mover == seat and growing:
                action = self._select(node, self.candidates(state, seat, self.game.legal(state, seat)), rng)
        score = self.evaluate(state, seat)
        for n in path:
            n.visits += 1
            n.total += score

    def _select(self, node: Node, legal: Sequence[Action], rng: Rng) -> Action | None:
        """UCB over the available children; an untried one first (at random)."""
        if not legal:
            return None
        fresh: list[Action] = []
        best: tuple[float, Action] | None = None
        for action in legal:
            child = node.children.get(key(action))
            if child is None:
                child = node.children[key(action)] = Node()
            child.available += 1
            if child.visits == 0:
                fresh.append(action)
            elif not fresh:
                score = child.ucb(self.exploration)
                if best is None or score > best[0]:
                    best = (score, action)
        if fresh:
            return rng.choice(fresh)
        assert best is not None
        return best[1]


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

    def __init__(self, search: Search, base: Bot, rng: Rng,
                 worth: Callable[[BotInput], bool] = lambda seen: True) -> None:
        self.search, self.base, self.rng, self.worth = search, base, rng, worth
        self._kept: tuple[str, Action] | None = None

    def decide(self, seen: BotInput) -> Decision | None:
        plan = self.base.decide(seen)
        if plan is None or len(seen.legal) < 2 or not self.worth(seen):
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
    or a count for each table size as in ``Search``); the rounds are that budget shared
    among the candidates (with fewer than ``min_rounds`` each, the model's move stands
    unsearched); ``alternatives(world, seat, prefer, legal)`` narrows the moves weighed
    (``world`` is the first sample). The move with the best mean wins; ties go to ``prefer`` (the
    model's own move), then to the order of the candidates. The search leaves the model's
    move only for one ``clearly_better`` in the paired playouts (at ``confidence``
    standard errors): a best mean found by luck among many moves would make it play
    worse than the model it improves on."""

    game: Game[Any, Any]
    policy: Callable[[int, Rng], Policy]
    evaluate: Callable[[Any, int], float]
    iterations: int | Mapping[int, int] = 200
    horizon: Callable[[Any, Any], bool] = lambda start, state: False
    alternatives: Callable[[Any, int, Action | None, list[Action]], list[Action]] = \
        lambda world, seat, prefer, legal: legal
    max_steps: int = 400
    min_rounds: int = 2
    confidence: float = 2.0

    def choose(self, seen: BotInput, rng: Rng, prefer: Action | None = None) -> tuple[Action, dict[str, float]]:
        """The move for ``seen.seat`` and each candidate's mean score."""
        world = seen.sample(rng)
        moves = self.alternatives(world, seen.seat, prefer, seen.legal)
        if prefer is not None:
            moves = [prefer] + [m for m in moves if key(m) != key(prefer)]
        if len(moves) < 2:
            return moves[0], {}
        rounds = Search.budget(self, len(world.players)) // len(moves)  # type: ignore[arg-type]
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
