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

    def choose(self, seen: BotInput, rng: Rng) -> tuple[Action, Node]:
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
            action, _ = self.search.choose(seen, self.rng)
            self._kept = (here, action)
        return Decision(self._kept[1], plan.at_ms)
