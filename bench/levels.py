"""How bot levels fare against each other: level A against level B at two players, in
both seat orders (each deal played twice, A first then B first).

    .venv/bin/python -m bench.levels GAME A B [--games N] [--seed S] [--jobs J] [--option KEY=VALUE ...]

prints A's share of the games (a shared victory counts half) with its 95 % confidence
interval (Wilson), per seat order and in all, and the CPU time a decision of each level
took. Game ``i`` of an order is game ``i`` of ``potluck simulate GAME --bots A,B --seed S``
(and ``--bots B,A``). Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from server.engine import Bot, BotInput, Decision, Rng, registry
from server.cli import option_pair
from server.engine.playout import play

Z95 = 1.96


class Timed(Bot):
    """Counts the CPU time of a bot's decisions."""

    def __init__(self, bot: Bot, clock: dict[str, float], level: str) -> None:
        self.bot, self.clock, self.level = bot, clock, level

    def decide(self, seen: BotInput) -> Decision | None:
        started = time.process_time()
        try:
            return self.bot.decide(seen)
        finally:
            spent = time.process_time() - started
            self.clock[self.level] = self.clock.get(self.level, 0.0) + spent
            key = f"{self.level} max"
            self.clock[key] = max(self.clock.get(key, 0.0), spent)


def one_game(game_id: str, levels: tuple[str, str], seed: int,
             options: dict[str, Any] | None = None) -> tuple[list[float], dict[str, float]]:
    """Each seat's share of one game (1, ½ or 0) and the levels' CPU time."""
    game = registry.get(game_id)
    clock: dict[str, float] = {}

    def make(g: Any, seat: int, rng: Rng) -> Bot:
        return Timed(g.bot(seat, rng, level=levels[seat]), clock, levels[seat])

    out = play(game, 2, options or None, seed, bots=make)
    result = game.result(out.state)
    winners = result.winners if result else []
    return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(2)], clock


def wilson(share: float, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a share observed over ``n`` games."""
    if n == 0:
        return 0.0, 1.0
    centre = (share + Z95 ** 2 / (2 * n)) / (1 + Z95 ** 2 / n)
    half = Z95 * math.sqrt(share * (1 - share) / n + Z95 ** 2 / (4 * n * n)) / (1 + Z95 ** 2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def line(label: str, shares: list[float]) -> str:
    n = len(shares)
    share = sum(shares) / n if n else 0.0
    lo, hi = wilson(share, n)
    return f"{label}: {share:.1%} of {n} games (95 % CI {lo:.1%}–{hi:.1%})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("a", help="a level: easy, normal or hard")
    parser.add_argument("b", help="the level it plays against")
    parser.add_argument("--games", type=int, default=100, help="deals (each played in both seat orders)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="processes (the machine may be shared)")
    parser.add_argument("--option", type=option_pair, action="append", default=[], metavar="KEY=VALUE",
                        help="a match option, as for potluck simulate (sporks_out=true)")
    args = parser.parse_args()
    options = dict(args.option)
    seeds = Rng(args.seed)
    deals = [seeds.next64() for _ in range(args.games)]
    orders = [(args.a, args.b), (args.b, args.a)]
    jobs = [(args.game, order, seed, options) for seed in deals for order in orders]  # each deal in both orders
    outcomes = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for done, outcome in enumerate(pool.map(one_game, *zip(*jobs), chunksize=1), 1):
            outcomes.append(outcome)
            print(f"  … {done} of {len(jobs)} games played; {args.a} won {outcome[0][(done + 1) % 2]}",
                  file=sys.stderr, flush=True)
    first = [shares[0] for shares, _ in outcomes[0::2]]
    second = [shares[1] for shares, _ in outcomes[1::2]]
    clock: dict[str, float] = {}
    for _, c in outcomes:
        for k, v in c.items():
            clock[k] = max(clock.get(k, 0.0), v) if k.endswith("max") else clock.get(k, 0.0) + v
    chosen = "".join(f", {k}={v}" for k, v in options.items())
    print(f"{args.game}: {args.a} against {args.b}, 2 players, seed {args.seed}{chosen}")
    print(line(f"  {args.a} in seat 1", first))
    print(line(f"  {args.a} in seat 2", second))
    print(line(f"  {args.a} in all", first + second))
    for level in dict.fromkeys(orders[0]):
        print(f"  {level}: {clock.get(level, 0.0):.0f} s CPU deciding, longest decision "
              f"{clock.get(level + ' max', 0.0):.2f} s")


if __name__ == "__main__":
    main()
