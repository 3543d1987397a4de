"""Simulation figures for the rules page: days per game and win rate by chef and by
restaurant, relative to a fair share (1 / players), over bot games; with ``--sporks-out``
also the prices the Snackle Box went for.

    .venv/bin/python -m server.games.rival_restaurants.figures --games 200 --players 2 3 4 5 6 [--sporks-out]
    .venv/bin/python -m server.games.rival_restaurants.figures --games 100 --players 2 --kitchen-squad

Game ``i`` with ``N`` players uses the seed ``potluck simulate rival-restaurants --players N
--seed S`` would use, so the days match that command's figures. A tool, not part of the rules.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from server.engine import Rng
from server.engine.playout import play

from . import GAME
from .cards import CHEFS, RESTAURANTS
from .sporks_table import table


def one_game(args: tuple[int, int, dict[str, Any]]) -> dict[str, Any]:
    """Play one bot game; return its length and who played and won."""
    players, seed, options = args
    out = play(GAME, players, options, seed)
    result = GAME.result(out.state)
    winners = result.winners if result else []
    return {"players": players, "days": out.state.day,
            "reached": any(p.popularity >= out.state.options.goal for p in out.state.chefs),
            "sold": list(table(out.state).sold) if table(out.state) is not None else [],
            "seats": [(p.chef, p.restaurant, i in winners, 1.0 / len(winners) if i in winners else 0.0)
                      for i, p in enumerate(out.state.chefs)]}


def seeds(players: int, games: int, seed: int) -> list[int]:
    """The seeds ``potluck simulate`` gives its games."""
    rng = Rng(seed)
    return [rng.next64() for _ in range(games)]


def run(players: list[int], games: int, seed: int = 1, options: dict[str, Any] | None = None,
        workers: int | None = None) -> list[dict[str, Any]]:
    jobs = [(n, s, options or {}) for n in players for s in seeds(n, games, seed)]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(one_game, jobs, chunksize=8))


def summarise(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Days per player count; for every chef and restaurant: games, wins, and wins over the
    fair share (1.0 is fair; a shared win counts as a win)."""
    days: dict[int, list[int]] = defaultdict(list)
    reached: dict[int, int] = defaultdict(int)
    by: dict[str, dict[str, list[float]]] = {"chef": defaultdict(lambda: [0, 0, 0.0]),
                                             "restaurant": defaultdict(lambda: [0, 0, 0.0])}
    for r in results:
        n = r["players"]
        days[n].append(r["days"])
        reached[n] += r["reached"]
        for chef, restaurant, won, _share in r["seats"]:
            for kind, key in (("chef", chef), ("restaurant", restaurant)):
                row = by[kind][key]
                row[0] += 1
                row[1] += won
                row[2] += 1.0 / n
    sold: dict[int, list[int]] = defaultdict(list)
    for r in results:
        sold[r["players"]] += r["sold"]
    return {
        "days": {n: {"mean": sum(d) / len(d), "max": max(d), "min": min(d), "goal reached": reached[n] / len(d)}
                 for n, d in sorted(days.items())},
        "snackle box": {n: {"sales per game": len(p) / len(days[n]), "mean price": sum(p) / len(p) if p else 0.0,
                            "max price": max(p, default=0)} for n, p in sorted(sold.items())},
        "chef": {CHEFS[k].name: {"games": g, "win rate": w / g, "vs fair": w / fair}
                 for k, (g, w, fair) in sorted(by["chef"].items())},
        "restaurant": {RESTAURANTS[k].name: {"games": g, "win rate": w / g, "vs fair": w / fair}
                       for k, (g, w, fair) in sorted(by["restaurant"].items())},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5, 6])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sporks-out", action="store_true", help="play with the SPORKS Out expansion")
    parser.add_argument("--kitchen-squad", action="store_true", help="play Kitchen Squad (2 players only)")
    args = parser.parse_args()
    options = {key: True for key, on in (("sporks_out", args.sporks_out), ("kitchen_squad", args.kitchen_squad)) if on}
    summary = summarise(run(args.players, args.games, args.seed, options))
    print("players | days mean | min | max | goal reached")
    for n, d in summary["days"].items():
        print(f"{n} | {d['mean']:.1f} | {d['min']} | {d['max']} | {d['goal reached']:.0%}")
    if args.sporks_out:
        print("\nplayers | Snackle Box sales per game | mean price | max price")
        for n, b in summary["snackle box"].items():
            print(f"{n} | {b['sales per game']:.1f} | ${b['mean price']:.0f} | ${b['max price']}")
    for kind in ("restaurant",) if args.kitchen_squad else ("chef", "restaurant"):  # a squad has 3 chefs
        print(f"\n{kind} | games | win rate | vs fair share")
        for name, row in sorted(summary[kind].items(), key=lambda kv: -kv[1]["vs fair"]):
            print(f"{name} | {row['games']} | {row['win rate']:.1%} | {row['vs fair']:.2f}")


if __name__ == "__main__":
    main()
