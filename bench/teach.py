"""What teach mode costs, counted by valgrind's callgrind (stable on a busy machine).

    .venv/bin/python -m bench.teach GAME [--players 2] [--steps 200] [--what hints|views|suggest]

One random game (``bench.callgrind.states``, a fixed seed) is played first and set to teach
mode; then is counted, once per change: ``hints`` — ``Game.taught`` over the views already
built (the hints of every seat, which is all a teach match adds to a change); ``views`` —
those views (``Game.views`` for every seat), to compare with; ``suggest`` — one "What
would you do?" (``Game.suggest``) for the seat that has something to do, on every tenth
change. Printed: instructions per change (or per suggestion).
"""

from __future__ import annotations

import argparse
import operator
import os
import re
import subprocess
import sys
import tempfile
from typing import Any

from server.engine import registry

from .callgrind import states


def taught(game: Any, played: list[Any]) -> list[Any]:
    """The same states, in a match set up with ``teach: true``."""
    options = game.options({**played[0].options.model_dump(), "teach": True})
    out = []
    for state in played:
        copy = state.clone()
        copy.options = options
        out.append(copy)
    return out


def work(game: Any, players: int, played: list[Any], what: str) -> int:
    """The counted work of ``views`` or ``suggest``; returns how many times it was done."""
    seats: list[int | None] = list(range(players))
    if what == "suggest":
        asked = 0
        for n, state in enumerate(played[::10]):
            seat = next((s for s in seats if game.legal(state, s)), None)
            if seat is not None:
                game.suggest(state, seat, 0, seed=n)
                asked += 1
        return asked
    for state in played:  # "views"
        game.views(state, seats)
    return len(played)


def inside(args: argparse.Namespace) -> None:
    game = registry.get(args.game)
    played = taught(game, states(game, args.players, args.steps))
    if args.what == "hints":  # the views are not counted: build them outside, then only the hints
        seats = list(range(args.players))
        built = [(state, game.views(state, seats)) for state in played]
        print(operator.call(lambda: [game.taught(s, v) for s, v in built] and len(built)))
        return
    print(operator.call(work, game, args.players, played, args.what))


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.teach", description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--what", default="hints", choices=("hints", "views", "suggest"))
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inside:
        inside(args)
        return
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=_operator_call",
             f"--callgrind-out-file={out}", sys.executable, "-m", "bench.teach", args.game, "--players",
             str(args.players), "--steps", str(args.steps), "--what", args.what, "--inside"],
            capture_output=True, text=True, check=True, env={**os.environ, "PYTHONHASHSEED": "0"})
    total = re.search(r"Collected : (\d+)", run.stderr)
    assert total, run.stderr[-2000:]
    times = int(run.stdout.split()[-1])
    unit = "suggestion" if args.what == "suggest" else "change"
    print(f"{args.game} ({args.players} players, teach mode): {args.what}: "
          f"{int(total.group(1)) / max(times, 1):,.0f} instructions per {unit} ({times} counted)")


if __name__ == "__main__":
    main()
