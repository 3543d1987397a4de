"""Replay benchmark: how fast a finished match's replay answers, for the longest games.

    .venv/bin/python -m bench.replay [GAME ...] [--players N]

For one bot match per game: the moves, the time to build its ``Timeline`` (one pass over
the log, the first request of a replay), the memory it keeps, and the time to answer one
step (state and one seat's view) going forward one move at a time and jumping at random.
Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import random
import time
import tracemalloc

from server.engine import registry
from server.engine.playout import play, player_names
from server.engine.timeline import Timeline


def measure(game_id: str, players: int, seed: int = 1) -> None:
    game = registry.get(game_id)
    names = player_names(players)
    out = play(game, names, seed=seed)
    started = time.perf_counter()
    timeline = Timeline(game, names, None, seed, 0, out.log)
    built = time.perf_counter() - started
    tracemalloc.start()
    again = Timeline(game, names, None, seed, 0, out.log)  # noqa: F841 (held while measured)
    kept = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()

    def step_ms(order: list[int]) -> float:
        started = time.perf_counter()
        for n in order:
            game.view(timeline.state(n), n % players)
        return (time.perf_counter() - started) * 1000 / len(order)

    forward = step_ms(list(range(timeline.steps + 1)))
    jumps = step_ms(random.Random(seed).choices(range(timeline.steps + 1), k=200))
    print(f"{game_id:18} {players} players {timeline.steps:5} moves  build {built * 1000:7.1f} ms  "
          f"kept {kept / 1024:7.0f} KiB  step forward {forward:5.2f} ms  random jump {jumps:5.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=sorted(registry.games()))
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    for game_id in args.games:
        game = registry.get(game_id)
        measure(game_id, max(game.min_players, min(args.players, game.max_players)))


if __name__ == "__main__":
    main()
