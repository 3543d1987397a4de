"""The bots' published ratings: each level of each game rated by playing the levels
against each other, three at a table (easy, normal, hard, in every seat order), folded
through the same OpenSkill model and places as players' matches (``server.store.skill``),
then shifted so that the normal bot stands where a newcomer starts (μ = 25).

    .venv/bin/python -m bench.bot_ratings [--games N] [--seed S] [--jobs J] [GAME ...] [--write]

prints each level's μ and σ per game, the games played and the CPU time; ``--write`` keeps
them in ``server/store/bot_ratings.json`` with this command line. Game ``i`` of a seat
order is played from seed ``i`` of the deals drawn from ``--seed``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from itertools import permutations
from typing import Any

from server.engine import Rng, registry
from server.engine.playout import level_bots, play
from server.store.skill import BOT_RATINGS, MU, Rating, fold, table

LEVELS = ("easy", "normal", "hard")
IDS = {level: i for i, level in enumerate(LEVELS)}  # each level plays as one "account"


def one_game(game_id: str, order: tuple[str, ...], seed: int) -> tuple[dict[str, Any] | None, float]:
    """The result of one game with bots at ``order``'s levels, and its CPU time."""
    started = time.process_time()
    game = registry.get(game_id)
    out = play(game, len(order), None, seed, bots=level_bots(order))
    result = game.result(out.state)
    return (result.to_json() if result else None), time.process_time() - started


def measure(game_id: str, games: int, seed: int, jobs: int) -> dict[str, Any]:
    seeds = Rng(seed)
    deals = [seeds.next64() for _ in range(games)]
    orders = list(permutations(LEVELS))
    work = [(game_id, order, deal) for deal in deals for order in orders]
    played, cpu = [], 0.0
    with ProcessPoolExecutor(jobs) as pool:
        for (_, order, _), (result, spent) in zip(work, pool.map(one_game, *zip(*work), chunksize=1)):
            cpu += spent
            entrants = {seat: ("account", IDS[level]) for seat, level in enumerate(order)}
            rated = table(result, entrants)
            if rated is not None:
                played.append(rated)
            print(f"  … {game_id}: {len(played)} of {len(work)} games", file=sys.stderr, flush=True)
    after = fold(game_id, {}, played)
    final: dict[int, Rating] = {}
    for step in after:
        final.update(step)
    shift = MU - final[IDS["normal"]].mu
    return {"levels": {level: {"mu": round(final[i].mu + shift, 3), "sigma": round(final[i].sigma, 3)}
                       for level, i in IDS.items()},
            "games": len(played), "cpu_s": round(cpu, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("only", nargs="*", help="games to measure (default: every game)")
    parser.add_argument("--games", type=int, default=20, help="deals per game (each in all 6 seat orders)")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--jobs", type=int, default=1, help="processes (the machine may be shared)")
    parser.add_argument("--write", action="store_true", help="keep the figures in bot_ratings.json")
    args = parser.parse_args()
    measured = {g: measure(g, args.games, args.seed, args.jobs) for g in (args.only or registry.games())}
    for game_id, m in measured.items():
        levels = ", ".join(f"{lv} μ {r['mu']:.2f} σ {r['sigma']:.2f}" for lv, r in m["levels"].items())
        print(f"{game_id}: {levels} ({m['games']} games, {m['cpu_s']:.0f} s CPU)")
    if args.write:
        kept = json.loads(BOT_RATINGS.read_text()) if BOT_RATINGS.exists() else {"games": {}}
        kept["games"].update({g: m["levels"] for g, m in measured.items()})
        kept.setdefault("measured", {}).update(
            {g: {"games": m["games"], "command": "python -m bench.bot_ratings " + " ".join(sys.argv[1:])}
             for g, m in measured.items()})
        BOT_RATINGS.write_text(json.dumps(kept, indent=2, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
