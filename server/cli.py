"""The ``potluck`` command."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Sequence


def _option(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected key=value, got {text!r}")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def _simulate(args: argparse.Namespace) -> int:
    from server.engine import InvalidOptions, UnknownGame, registry
    from server.engine.playout import default_bots, random_bots
    from server.engine.simulation import simulate

    try:
        game = registry.get(args.game)
        summary = simulate(game, args.players, args.games, args.seed, dict(args.option),
                           bots=random_bots if args.random else default_bots)
    except (UnknownGame, InvalidOptions) as exc:
        print(f"potluck simulate: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(summary.to_json(), indent=2) if args.json else summary.text())
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="potluck", description="Potluck game server.")
    sub = parser.add_subparsers(dest="command", required=True)

    sim = sub.add_parser("simulate", help="play bot games and print the figures")
    sim.add_argument("game", help="game id, e.g. nutty-noodles")
    sim.add_argument("--players", type=int, default=2)
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--option", type=_option, action="append", default=[], metavar="KEY=VALUE")
    sim.add_argument("--random", action="store_true", help="random players instead of the game's bots")
    sim.add_argument("--json", action="store_true", help="print JSON")
    sim.set_defaults(func=_simulate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    raise SystemExit(main())
