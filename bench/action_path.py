"""The runtime's path for one action, in one process: what callgrind can count.

    python -m bench.action_path [--game nutty-noodles] [--players 2] [--actions 300]
    python -m bench.action_path --callgrind [--actions 300]

Matches of ``--game`` (seeded, so every run plays the same actions) are created in a fresh
SQLite file and joined through the runtime; each seat has one socket (a fake that only
counts what it is sent), and the actions — worked out beforehand by replaying the seed with
the rules alone — are played one after another through ``LiveMatch.act`` (the sockets
read compact patches where the runtime offers them, as the browser does): the rules, the
commit (the SQLite writer thread included), the patches and messages for every socket, the
timers and the bots. The clock stands still (Nutty Noodles is played with no tie window,
so every round ends by a player's action and no timer fires). It prints the CPU time per
action (``time.process_time``; beside it the event loop's thread alone, ``time.thread_time``)
and the bytes sent per action.

``--callgrind`` runs that twice under ``valgrind --tool=callgrind`` — creating the same
matches, once playing a fifth of the actions and once all of them — and prints the
instructions of one action: the difference of the two totals divided by the difference of
the actions played (start-up, imports and creating the matches cancel out). Beside it the
same count for the rules alone (``apply``, every seat's view and legal actions: what any
server must ask the game), so the runtime's own share is the rest. Instruction counts do
not depend on how busy the machine is.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from server.config import Settings
from server.engine import registry
from server.runtime import Runtime, Subscriber
from server.runtime.clock import Clock
from server.runtime.collector import tune_for_serving
from server.store import Database, Store
from server.store.migrate import upgrade

START = 1_700_000_000_000
OPTIONS = {"nutty-noodles": {"tie_window_ms": 0, "roll_timeout_ms": 120_000, "round_timeout_ms": 600_000}}
SEED = 7
# the sockets read patches as the browser does: compact, or with the legal delta, where the runtime has them
_READS = inspect.signature(Subscriber).parameters
DELTA = {"reads": "compact"} if "reads" in _READS else {"legal_delta": True} if "legal_delta" in _READS else {}


class StillClock(Clock):
    """Game time stands at ``START``: nothing becomes due while the actions are played."""

    def now_ms(self) -> int:
        return START

    def seconds_until(self, at_ms: int) -> float:
        return 0.0 if at_ms <= START else 3600.0


def planned(game: Any, players: int, options: dict[str, Any], actions: int) -> list[tuple[int, list[Any]]]:
    """``(seed, [(seat, action), …])`` per match: random legal play by the rules alone,
    ``actions`` in all, each match to its end (the last one may stop sooner)."""
    rng, plans, left = random.Random(SEED), [], actions
    names = [f"P{i}" for i in range(players)]
    while left > 0:
        seed = rng.getrandbits(62)
        state = game.setup(names, game.options(options), seed, START)
        moves: list[tuple[int, Any]] = []
        while left > 0 and game.result(state) is None:
            choices = [(seat, a) for seat in range(players) for a in game.legal(state, seat)]
            if not choices:
                raise RuntimeError(f"{game.id}: nobody can act and the clock stands still")
            seat, action = rng.choice(choices)
            state, _ = game.apply(state, seat, action, START)
            moves.append((seat, action))
            left -= 1
        plans.append((seed, moves))
    return plans


def rules_only(game: Any, players: int, options: dict[str, Any], plans: list[tuple[int, list[Any]]],
               play: int) -> None:
    """What any server must ask the rules for ``play`` actions: ``apply``, then every seat's
    view (and the spectator's) and every seat's legal actions."""
    names, seats = [f"P{i}" for i in range(players)], list(range(players))
    for seed, moves in plans:
        state = game.setup(names, game.options(options), seed, START)
        for seat, action in moves:
            if play <= 0:
                return
            state, _ = game.apply(state, seat, action, START)
            game.views(state, [*seats, None])
            game.legals(state, seats)
            play -= 1


async def through_the_runtime(game_id: str, players: int, options: dict[str, Any],
                              plans: list[tuple[int, list[Any]]], play: int,
                              kept: list[str] | None = None) -> tuple[float, float, int, int]:
    """Create and join every planned match, then play ``play`` actions through the runtime;
    returns the CPU seconds (of the process, and of the event loop's thread alone) and the
    bytes and messages the sockets were sent while playing (their texts, in ``kept`` if given)."""
    folder = Path(tempfile.mkdtemp(prefix="potluck-action-path-"))
    url = f"sqlite:///{folder / 'bench.db'}"
    db = Database(url)
    await upgrade(db)
    settings = Settings(database_url=url, standin_after_s=0, lease_s=0, snapshot_every=100)
    rt = Runtime(settings, Store(db), StillClock())
    await rt.start()
    sent = [0, 0]
    playing = False

    async def send(text: str) -> None:
        sent[0] += len(text)
        sent[1] += 1
        if kept is not None and playing:
            kept.append(text)

    async def close(code: int, reason: str) -> None:
        pass

    try:
        matches = []
        for i, (seed, moves) in enumerate(plans):
            record = await rt.store.create_match(id=f"bench{i}", game=game_id, options=options, players=players,
                                                 bot_names=[], seed=seed, now=START, owner=None)
            for p in range(players):
                await rt.join(record.id, f"P{p}")
            live = await rt.get(record.id)
            for seat in range(players):
                live.subscribe(Subscriber(seat, send, close, **DELTA), [])
            matches.append((live, moves))
        for _ in range(3):
            await asyncio.sleep(0)
        tune_for_serving()  # as ``potluck serve`` sets the collector
        before, loop_before, sent[:] = time.process_time(), time.thread_time(), [0, 0]
        playing = True
        for live, moves in matches:
            for seat, action in moves:
                if play <= 0:
                    break
                await live.act(seat, action)
                for _ in range(3):  # let every socket's task send
                    await asyncio.sleep(0)
                play -= 1
        return time.process_time() - before, time.thread_time() - loop_before, sent[0], sent[1]
    finally:
        await rt.stop()
        await db.close()


TOTAL = re.compile(rb"^(?:summary|totals): (\d+)", re.M)


def instructions(args: list[str]) -> int:
    """Instructions callgrind counted running this module with ``args``."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-m",
                        "bench.action_path", *args], check=True, capture_output=True,
                       env={**os.environ, "PYTHONHASHSEED": "0"})
        return int(TOTAL.search(out.read_bytes())[1])  # type: ignore[index]


def count(args: argparse.Namespace) -> None:
    common = ["--game", args.game, "--players", str(args.players), "--actions", str(args.actions)]
    few = max(1, args.actions // 5)
    played = args.actions - few
    paths = (("runtime path", []), ("rules alone", ["--rules-only"]))
    for label, extra in paths[:1] if args.runtime_only else paths:
        low = instructions([*common, "--play", str(few), *extra])
        high = instructions([*common, "--play", str(args.actions), *extra])
        print(f"{label:>12}: {(high - low) / played:12,.0f} instructions per action "
              f"({args.game}, {args.players} seats, one socket each; {played} actions)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.action_path", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="nutty-noodles")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--actions", type=int, default=300, help="actions planned (and played)")
    parser.add_argument("--play", type=int, help="play only this many of them (default: all)")
    parser.add_argument("--rules-only", action="store_true", help="ask the rules alone, no runtime")
    parser.add_argument("--callgrind", action="store_true", help="count instructions per action with callgrind")
    parser.add_argument("--runtime-only", action="store_true", help="with --callgrind: not the rules alone")
    args = parser.parse_args()
    if args.callgrind:
        count(args)
        return
    game = registry.get(args.game)
    options = OPTIONS.get(args.game, {})
    plans = planned(game, args.players, options, args.actions)
    play = args.actions if args.play is None else args.play
    if args.rules_only:
        rules_only(game, args.players, options, plans, play)
        return
    seconds, loop, sent, messages = asyncio.run(through_the_runtime(args.game, args.players, options, plans, play))
    print(f"{args.game}: {play} actions through the runtime, {seconds / play * 1000:.3f} ms CPU per action "
          f"({loop / play * 1000:.3f} ms on the event loop's thread), {sent / max(1, messages):,.0f} B per message, "
          f"{messages / play:.2f} messages per action")


if __name__ == "__main__":
    main()
