"""Instructions a game spends per change on what the runtime asks after it, counted by
valgrind's callgrind (stable on a busy machine, unlike a clock).

    .venv/bin/python -m bench.callgrind GAME [--players N] [--steps 300] [--what views,legals]

One random game (a fixed seed) at the largest table is played first; then, once per change
in order, as the runtime does for a match whose every seat and a spectator are connected:
``Game.views`` for every seat and the spectator, and ``Game.legals`` for every seat
(``--what fanout``: the runtime's whole fan-out, ``SeatViews.messages``: views, legal
actions, patches and encoded messages; ``--what steps``: ``bench.engine``'s steps, every
seat's ``legal`` and one ``apply`` from each state). Only that work is counted (it runs inside
``operator.call``, where callgrind collects), divided by the changes: instructions per
change. The collector runs once before the count (from 2026-12-07: earlier figures may
hold one full collection over the kept states, ~20 % of Sneaky Supper's). Needs
``valgrind`` on the PATH; ``--inside`` is the counted child.
"""

from __future__ import annotations

import argparse
import gc
import operator
import os
import re
import subprocess
import sys
import tempfile
from typing import Any

from server.engine import TIMEOUT, IllegalAction, Rng, registry
from server.engine.playout import player_names
from server.runtime.seat_views import WHOLE, SeatViews
from server.runtime.step import settled


def states(game: Any, players: int, steps: int, seed: int = 3) -> list[Any]:
    """The states of one random game (random legal play, timeouts when due), from its set-up."""
    return [state for state, _ in timed_states(game, players, steps, seed)]


def timed_states(game: Any, players: int, steps: int, seed: int = 3) -> list[tuple[Any, int]]:
    """``states``, each with the game-clock time it was reached at."""
    rng = Rng(seed)
    state = game.setup(player_names(players), game.options(None), seed, 0)
    out, now = [(state, 0)], 0
    while game.result(state) is None and len(out) <= steps:
        moves = [(seat, a) for seat in range(players) for a in game.legal(state, seat)]
        now += rng.randint(20, 400)
        deadline = game.deadline(state)
        try:
            if deadline is not None and (deadline <= now or not moves):
                now = max(now, deadline)
                state, _ = game.apply(state, None, dict(TIMEOUT), now)
            else:
                seat, action = rng.choice(moves)
                state, _ = game.apply(state, seat, action, now)
        except IllegalAction:
            continue
        out.append((state, now))
    return out


def steps(game: Any, players: int, played: list[tuple[Any, int]], seed: int = 5) -> None:
    """``bench.engine``'s steps from each state played: one ``legal`` call for every seat
    and one ``apply`` of a random legal action (a timeout when due or when none is legal)."""
    rng = Rng(seed)
    for state, at in played:
        moves = [(seat, a) for seat in range(players) for a in game.legal(state, seat)]
        now = at + rng.randint(20, 400)
        deadline = game.deadline(state)
        try:
            if deadline is not None and (deadline <= now or not moves):
                game.apply(state, None, dict(TIMEOUT), max(now, deadline))
            elif moves:
                seat, action = rng.choice(moves)
                game.apply(state, seat, action, now)
        except IllegalAction:
            pass


def work(game: Any, players: int, played: list[tuple[Any, int]], what: str) -> None:
    seats: list[int | None] = [*range(players), None]
    if what == "steps":
        steps(game, players, played)
        return
    if what == "fanout":
        views = SeatViews(game)
        common = {"status": "running", "deadline": None, "now": 0, "result": None}
        sockets = {seat: (WHOLE,) for seat in seats}
        for seq, (state, _) in enumerate(played):
            views.messages(settled(game, state, seq, []), sockets, common)
        return
    for state, _ in played:
        if "views" in what:
            game.views(state, seats)
        if "legals" in what:
            game.legals(state, list(range(players)))


def inside(args: argparse.Namespace) -> None:
    game = registry.get(args.game)
    players = args.players or game.max_players
    played = timed_states(game, players, args.steps)
    gc.collect()  # a full collection the playing left due is not counted as the work's
    operator.call(work, game, players, played, args.what)  # the counted call
    print(len(played))


def count(args: argparse.Namespace) -> tuple[int, int]:
    """(instructions, changes) of the counted work."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=_operator_call",
             f"--callgrind-out-file={out}", sys.executable, "-m", "bench.callgrind", args.game,
             "--players", str(args.players), "--steps", str(args.steps), "--what", args.what, "--inside"],
            capture_output=True, text=True, check=True, env={**os.environ, "PYTHONHASHSEED": "0"})
        total = re.search(r"Collected : (\d+)", run.stderr)
        assert total, run.stderr[-2000:]
        return int(total.group(1)), int(run.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.callgrind", description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=0, help="default: the game's largest table")
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--what", default="views,legals", help="views, legals, views,legals, fanout or steps")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inside:
        inside(args)
        return
    total, changes = count(args)
    players = args.players or registry.get(args.game).max_players
    print(f"{args.game} ({players} players, {changes} changes): {args.what}: "
          f"{total / changes:,.0f} instructions per change")


if __name__ == "__main__":
    main()
