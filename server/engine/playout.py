"""Playing whole games without a server: bots at every seat, a simulated clock.

The driver is a discrete-event loop. After every change each seat's bot says what it
will play and when; the earliest decision is applied, unless the game's deadline comes
first, in which case the system ``timeout`` action is applied at the deadline. The same
seed gives the same game, so simulations, tests and benchmarks are reproducible.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable, Sequence

from .actions import TIMEOUT, Action
from .bots import Bot, Decision, ask
from .errors import IllegalAction
from .events import Event
from .game import Game
from .rng import Rng


@dataclass(frozen=True)
class Entry:
    """One row of a match log."""

    seat: int | None
    action: Action
    at_ms: int


@dataclass
class Playout:
    state: Any
    log: list[Entry] = field(default_factory=list)
    events: int = 0
    rejected: int = 0


class Stalled(RuntimeError):
    """No seat can act and no deadline is pending: the game cannot move on."""


BotFactory = Callable[[Game[Any, Any], int, Rng], Bot]
Decider = Callable[[Any, int, int], "Decision | None"]  # (state, seat, now_ms) -> what, when


def default_bots(game: Game[Any, Any], seat: int, rng: Rng) -> Bot:
    return game.bot(seat, rng)


def random_bots(game: Game[Any, Any], seat: int, rng: Rng) -> Bot:
    return game.random_bot(seat, rng)


def level_bots(levels: Sequence[str]) -> BotFactory:
    """The game's bots at ``levels`` (one per seat, in seat order)."""
    def make(game: Game[Any, Any], seat: int, rng: Rng) -> Bot:
        return game.bot(seat, rng, level=levels[seat])

    return make


def player_names(n: int) -> list[str]:
    return [f"Player {i + 1}" for i in range(n)]


def replay(
    game: Game[Any, Any],
    players: Sequence[str],
    options: Any,
    seed: int,
    log: Sequence[Entry],
    start_ms: int = 0,
) -> Any:
    """Rebuild a state from its seed and log."""
    state = game.setup(players, game.options(options), seed, start_ms)
    for entry in log:
        state, _ = game.apply(state, entry.seat, entry.action, entry.at_ms)
    return state


def play(
    game: Game[Any, Any],
    players: int | Sequence[str],
    options: Any = None,
    seed: int = 0,
    bots: BotFactory = default_bots,
    start_ms: int = 0,
    max_steps: int = 200_000,
    on_step: Callable[[Any, Entry, list[Event]], None] | None = None,
) -> Playout:
    """Play one game to its end (or ``max_steps``) with a bot at every seat."""
    names = player_names(players) if isinstance(players, int) else list(players)
    rng = Rng(seed ^ 0x5EED)
    seat_bots = [partial(ask, game, bots(game, seat, rng.fork())) for seat in range(len(names))]
    out = Playout(game.setup(names, game.options(options), seed, start_ms))
    now = start_ms
    failures = 0
    while game.result(out.state) is None and len(out.log) < max_steps:
        seat, action, at = next_move(game, out.state, seat_bots, now, rng)
        now = max(now, at)
        try:
            new_state, events = game.apply(out.state, seat, action, now)
        except IllegalAction as exc:
            out.rejected += 1
            failures += 1
            if failures > 1000:
                raise RuntimeError(f"bots keep choosing illegal actions: {exc.reason}") from exc
            continue
        failures = 0
        entry = Entry(seat, action, now)
        out.state = new_state
        out.log.append(entry)
        out.events += len(events)
        if on_step:
            on_step(new_state, entry, events)
    return out


def next_move(
    game: Game[Any, Any], state: Any, deciders: Sequence[Decider], now: int, rng: Rng
) -> tuple[int | None, Action, int]:
    """Who plays what next, and when: the earliest decision of any seat (ties drawn by
    ``rng``), unless the game's deadline comes first (then time's ``timeout``)."""
    best: tuple[int, int, int, Action] | None = None  # (at, tiebreak, seat, action)
    for seat, decide in enumerate(deciders):
        decision = decide(state, seat, now)
        if decision is None:
            continue
        key = (max(decision.at_ms, now), rng.below(1 << 30), seat, decision.action)
        if best is None or key[:2] < best[:2]:
            best = key
    deadline = game.deadline(state)
    if deadline is not None and (best is None or deadline <= best[0]):
        return None, dict(TIMEOUT), max(deadline, now)
    if best is None:
        raise Stalled(f"{game.name}: no seat can act and no deadline is pending")
    return best[2], best[3], best[0]
