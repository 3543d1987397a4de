"""Engine benchmark: legal+apply steps per second and full bot games per second.

    .venv/bin/python -m bench.engine [GAME ...] [--players N] [--seconds S]

Figures are printed, never asserted. A "step" is one ``legal`` call for every seat plus
one ``apply`` of a random legal action (timeouts included when the deadline comes first).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from server.engine import IllegalAction, Rng, registry
from server.engine.playout import play, player_names
from server.engine.game import TIMEOUT


def steps_per_second(game: Any, players: int, seconds: float, seed: int = 1) -> float:
    rng = Rng(seed)
    names = player_names(players)
    steps, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = game.setup(names, game.options(None), rng.next64(), 0)
        now = 0
        while game.result(state) is None:
            moves = [(seat, a) for seat in range(players) for a in game.legal(state, seat)]
            now += rng.randint(20, 400)
            deadline = game.deadline(state)
            if deadline is not None and (deadline <= now or not moves):
                now = max(now, deadline)
                state, _ = game.apply(state, None, dict(TIMEOUT), now)
            else:
                seat, action = rng.choice(moves)
                try:
                    state, _ = game.apply(state, seat, action, now)
                except IllegalAction:
                    pass
            steps += 1
    return steps / (time.perf_counter() - started)


def games_per_second(game: Any, players: int, seconds: float, seed: int = 1) -> tuple[float, float]:
    rng = Rng(seed)
    games, actions, started = 0, 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        out = play(game, players, None, rng.next64())
        games += 1
        actions += len(out.log)
    elapsed = time.perf_counter() - started
    return games / elapsed, actions / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=["nutty-noodles"])
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    for game_id in args.games:
        game = registry.get(game_id)
        players = args.players or game.max_players
        sps = steps_per_second(game, players, args.seconds)
        gps, mean_actions = games_per_second(game, players, args.seconds)
        print(f"{game_id} ({players} players): {sps:,.0f} legal+apply steps/s; "
              f"{gps:,.1f} full bot games/s ({mean_actions:.1f} actions/game)")


if __name__ == "__main__":
    main()
