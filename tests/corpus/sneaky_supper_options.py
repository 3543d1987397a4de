"""Sneaky Supper's option corpus: every combination of its options, replayed exactly.

    .venv/bin/python -m tests.corpus.sneaky_supper_options     # record anew (overwrites)

The main corpus (``record.py``) plays Sneaky Supper's variants; this one plays every
combination of the values its option schema enumerates (``mish_mash``, ``pace``,
``move_hours``) at every table size the game allows, each by random play, by the normal
bots and by easy and hard bots together. In the random games the whole table sits idle
now and then, so time makes its default moves (a forced draw and Retreat, a bust, discards,
a pick by points, the end of a last call); they run with the shortest timers the schema
allows (by turns, the pace's own). Bot games keep the default timers. The engine-wide ``teach`` option is left out: the rules never read it (only the runtime's hints
do), so it could not change what is digested.

The games are recorded and digested as ``record.py`` does (views of every seat and the
spectator, legal actions, events, deadline, result, every step), and
``test_sneaky_supper_options.py`` replays them. Record anew only on purpose, and say why.
"""

from __future__ import annotations

import gzip
import itertools
import json
import sys
from pathlib import Path
from typing import Any

from server.engine import Game, Rng, registry

from .record import CHECK_EVERY, DATA, Case, random_log, record, replay_digests

GAME_ID = "sneaky-supper"
PATH: Path = DATA / "sneaky-supper-options.json.gz"
MAX_STEPS = 3000
IDLE = "random+idle"
MODES = (IDLE, "normal", "easy,hard")
IDLE_EVERY = 8  # the table sits idle at one step in this many, on average
NOT_RULES = frozenset({"teach"})  # options the game's rules never read


def enumerated_options() -> dict[str, list[Any]]:
    """Each option of the schema with a finite set of values (booleans, enums), with
    those values in schema order; the rules-free options left out."""
    game = registry.get(GAME_ID)
    props = game.options_model.model_json_schema()["properties"]
    out: dict[str, list[Any]] = {}
    for name, prop in props.items():
        if name in NOT_RULES:
            continue
        if prop.get("type") == "boolean":
            out[name] = [False, True]
        elif "enum" in prop:
            out[name] = list(prop["enum"])
    return out


def shortest_timers() -> dict[str, int]:
    """The integer options of the schema (the timers) at their minimum."""
    props = registry.get(GAME_ID).options_model.model_json_schema()["properties"]
    return {name: prop["minimum"] for name, prop in props.items()
            if prop.get("type") == "integer" and "enum" not in prop and "minimum" in prop}


def cases() -> list[Case]:
    """Every combination of the enumerated options × every table size × each mode."""
    game = registry.get(GAME_ID)
    choices = enumerated_options()
    seed = itertools.count(1)
    out: list[Case] = []
    for values in itertools.product(*choices.values()):
        options = dict(zip(choices, values))
        for players in range(game.min_players, game.max_players + 1):
            for mode in MODES:
                if mode == IDLE:
                    out.append(Case(players, {**options, **shortest_timers()}, mode, next(seed)))
                    continue
                levels = ",".join(itertools.islice(itertools.cycle(mode.split(",")), players))
                out.append(Case(players, options, levels, next(seed)))
    return out


class Idling:
    """The game as a table that sits idle now and then: at a step (each begins with seat
    0's legal actions) nobody may act, one step in ``every`` on average, so random play
    waits for the deadline and time makes its default move. Only for playing the log:
    the digests are the real game's."""

    def __init__(self, game: Game[Any, Any], rng: Rng, every: int) -> None:
        self.game, self.rng, self.every, self.idle = game, rng, every, False

    def legal(self, state: Any, seat: int) -> list[Any]:
        if seat == 0:
            self.idle = self.rng.below(self.every) == 0
        return [] if self.idle else self.game.legal(state, seat)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)


def record_case(game: Game[Any, Any], case: Case) -> dict[str, Any]:
    """``record.record``, but a random game is played by an idling table."""
    if case.mode != IDLE:
        return record(game, case, MAX_STEPS)
    log = random_log(Idling(game, Rng(case.seed), IDLE_EVERY), case, MAX_STEPS)  # type: ignore[arg-type]
    out: dict[str, Any] = {"players": case.players, "options": case.options, "mode": case.mode,
                           "seed": case.seed, "log": log}
    out["checkpoints"] = {str(step): digest for step, digest in replay_digests(game, out)
                          if step % CHECK_EVERY == 0 or step == len(log)}
    return out


def load() -> list[dict[str, Any]]:
    with gzip.open(PATH, "rt") as f:
        return json.load(f)  # type: ignore[no-any-return]


def main() -> None:
    game = registry.get(GAME_ID)
    records = []
    for case in cases():
        records.append(record_case(game, case))
        print(f"{case.players}p {case.mode:24} {case.options} {len(records[-1]['log']):5} steps",
              file=sys.stderr, flush=True)
    DATA.mkdir(exist_ok=True)
    with gzip.open(PATH, "wt", compresslevel=9) as f:
        json.dump(records, f, separators=(",", ":"))
    print(f"{GAME_ID} options: {len(records)} games, {sum(len(r['log']) for r in records)} steps", flush=True)


if __name__ == "__main__":
    main()
