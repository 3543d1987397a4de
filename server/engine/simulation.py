"""Many bot games in a row, summarised: the figures behind ``potluck simulate``."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .game import Game
from .playout import default_bots, play
from .rng import Rng


@dataclass
class Summary:
    game: str
    players: int
    games: int
    seed: int
    options: dict[str, Any]
    bots: list[str] | None = None  # the level of each seat's bot, when chosen
    wins: list[float] = field(default_factory=list)  # share of games each seat won (ties count for all)
    shared: int = 0  # games with more than one winner
    unfinished: int = 0
    actions_mean: float = 0.0
    actions_max: int = 0
    figures: dict[str, dict[str, float]] = field(default_factory=dict)  # game stats: mean, max
    games_per_second: float = 0.0

    def to_json(self, timing: bool = True) -> dict[str, Any]:
        out = dict(self.__dict__)
        if not timing:
            out.pop("games_per_second")
        return out

    def text(self) -> str:
        lines = [f"{self.game}: {self.games} games, {self.players} players, seed {self.seed}"]
        if self.options:
            lines.append("options: " + ", ".join(f"{k}={v}" for k, v in sorted(self.options.items())))
        levels = self.bots or [""] * self.players
        lines.append("wins by seat: " + ", ".join(
            f"seat {i + 1}{f' ({levels[i]})' if levels[i] else ''} {share:.1%}" for i, share in enumerate(self.wins)))
        lines.append(f"shared victories: {self.shared}; unfinished: {self.unfinished}")
        lines.append(f"actions per game: mean {self.actions_mean:.1f}, max {self.actions_max}")
        for name, fig in self.figures.items():
            lines.append(f"{name} per game: mean {fig['mean']:.2f}, max {fig['max']:g}")
        lines.append(f"games per second: {self.games_per_second:.1f}")
        return "\n".join(lines)


def simulate(game: Game[Any, Any], players: int, games: int, seed: int = 0,
             options: dict[str, Any] | None = None, bots=default_bots,
             max_steps: int = 200_000, levels: list[str] | None = None) -> Summary:
    """Play ``games`` bot games; game ``i`` uses a seed derived from ``seed`` and ``i``.
    ``levels`` only labels the figures (``bots`` makes the bots)."""
    game.check_players(players)
    opts = game.options(options)
    summary = Summary(game.id, players, games, seed, opts.model_dump(exclude_defaults=True), levels)
    seeds = Rng(seed)
    wins: Counter[int] = Counter()
    actions: list[int] = []
    figures: dict[str, list[float]] = {}
    started = time.perf_counter()
    for _ in range(games):
        out = play(game, players, opts, seeds.next64(), bots=bots, max_steps=max_steps)
        result = game.result(out.state)
        actions.append(len(out.log))
        if result is None:
            summary.unfinished += 1
            continue
        wins.update(result.winners)
        summary.shared += len(result.winners) > 1
        for name, value in game.stats(out.state).items():
            figures.setdefault(name, []).append(float(value))
    elapsed = time.perf_counter() - started
    summary.wins = [wins[i] / games for i in range(players)] if games else []
    summary.actions_mean = sum(actions) / games if games else 0.0
    summary.actions_max = max(actions, default=0)
    summary.figures = {k: {"mean": sum(v) / len(v), "max": max(v)} for k, v in figures.items()}
    summary.games_per_second = games / elapsed if elapsed > 0 else float("inf")
    return summary
