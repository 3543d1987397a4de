"""The behaviour corpus: recorded games that a restructured engine must replay exactly.

    .venv/bin/python -m tests.corpus.record [GAME ...]     # record anew (overwrites)

Each game of the corpus is a seed and a log of actions, played once (random legal play or
the game's own bots), with a chain of digests of everything the runtime and the players
receive at every step: every seat's view and the spectator's, every seat's legal actions,
each audience's share of the events, the deadline and the result; a refused action's reason
too. ``test_corpus.py`` replays each log and checks the chain at every checkpoint, so a
change of structure or speed that changes what anyone sees, may do or is told fails.

Record anew only on purpose (a rule fixed on purpose), and say in the commit which games
changed and why.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import itertools
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import orjson

from server.engine import TIMEOUT, Game, IllegalAction, InvalidOptions, Rng, registry
from server.engine.events import for_seat
from server.engine.playout import level_bots, play, player_names

DATA = Path(__file__).with_name("data")
CHECK_EVERY = 25  # steps between stored checkpoints of the digest chain
ORJSON = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


@dataclass(frozen=True)
class Case:
    """One game to record: the table, the options, who plays and the seed."""

    players: int
    options: dict[str, Any]
    mode: str  # "random", or bot levels per seat joined by "," ("normal,easy")
    seed: int


# ---- what is digested ----------------------------------------------------------------

def step_payload(game: Game[Any, Any], state: Any, events: list[Any], refused: str | None) -> bytes:
    """Everything anyone receives after one step, encoded canonically: the views of every
    seat and the spectator (``Game.views``, as the runtime builds them), every seat's legal
    actions (their order too: bots and random players choose by it), each audience's
    events, the deadline and the result; or the reason an action was refused."""
    if refused is not None:
        return orjson.dumps({"refused": refused})
    seats: list[int | None] = [*range(len(state.players)), None]
    result = game.result(state)
    return orjson.dumps({
        "views": [v for _, v in sorted(game.views(state, seats).items(), key=lambda kv: (kv[0] is None, kv[0] or 0))],
        "legal": [game.legal(state, seat) for seat in seats[:-1]],
        "events": [[e.to_json() for e in for_seat(events, seat)] for seat in seats],
        "deadline": game.deadline(state),
        "result": result.to_json() if result else None,
    }, option=ORJSON)


def chain(previous: str, payload: bytes) -> str:
    return hashlib.sha256(previous.encode() + payload).hexdigest()


def replay_digests(game: Game[Any, Any], record: dict[str, Any]) -> Iterator[tuple[int, str]]:
    """(step, digest) after the set-up (step 0) and after every logged entry, replaying
    ``record``'s log; a refused entry must be refused again (its reason is digested)."""
    names = player_names(record["players"])
    state = game.setup(names, game.options(record["options"]), record["seed"], 0)
    digest = chain("", step_payload(game, state, [], None))
    yield 0, digest
    for step, (seat, action, at_ms, refused) in enumerate(record["log"], 1):
        try:
            new_state, events = game.apply(state, seat, action, at_ms)
        except IllegalAction as exc:
            digest = chain(digest, step_payload(game, state, [], exc.reason))
        else:
            state = new_state
            digest = chain(digest, step_payload(game, state, events, None))
        yield step, digest


# ---- playing the games ---------------------------------------------------------------

def random_log(game: Game[Any, Any], case: Case, max_steps: int) -> list[list[Any]]:
    """Random legal play: at each step any seat's legal action, chosen uniformly, some
    20–400 ms after the last; time's ``timeout`` when the deadline comes first or nobody
    can act. Refused picks stay in the log (with their reason)."""
    rng = Rng(case.seed ^ 0xC0DE)
    state = game.setup(player_names(case.players), game.options(case.options), case.seed, 0)
    log: list[list[Any]] = []
    now = 0
    while game.result(state) is None and len(log) < max_steps:
        moves = [(seat, a) for seat in range(case.players) for a in game.legal(state, seat)]
        now += rng.randint(20, 400)
        deadline = game.deadline(state)
        if deadline is not None and (deadline <= now or not moves):
            now = max(now, deadline)
            seat, action = None, dict(TIMEOUT)
        elif not moves:
            raise RuntimeError(f"{game.id} {case}: stalled")
        else:
            seat, action = rng.choice(moves)
        try:
            state, _ = game.apply(state, seat, action, now)
            log.append([seat, action, now, None])
        except IllegalAction as exc:
            log.append([seat, action, now, exc.reason])
    return log


def bot_log(game: Game[Any, Any], case: Case, max_steps: int) -> list[list[Any]]:
    levels = list(itertools.islice(itertools.cycle(case.mode.split(",")), case.players))
    out = play(game, case.players, case.options, case.seed, bots=level_bots(levels), max_steps=max_steps)
    return [[e.seat, e.action, e.at_ms, None] for e in out.log]


def record(game: Game[Any, Any], case: Case, max_steps: int) -> dict[str, Any]:
    log = (random_log if case.mode == "random" else bot_log)(game, case, max_steps)
    out = {"players": case.players, "options": case.options, "mode": case.mode, "seed": case.seed,
           "log": log, "checkpoints": {}}
    for step, digest in replay_digests(game, out):
        if step % CHECK_EVERY == 0 or step == len(log):
            out["checkpoints"][str(step)] = digest
    return out


# ---- which games ---------------------------------------------------------------------

SHORT_RR = {"market_ms": 10_000, "claim_ms": 2_000, "move_ms": 5_000, "cook_ms": 5_000, "auction_ms": 5_000}


def rival_restaurants_cases() -> list[Case]:
    """Every option combination that changes the rules, at every table size it allows,
    mostly in short games (a few days, short timers: random play reaches every phase
    sooner) and some at full length, by random play and by the bots."""
    cases: list[Case] = []
    seed = itertools.count(1)
    for sporks, chefs, chosen, shuffled, squad in itertools.product(
            (False, True), (True, False), (False, True), (True, False), (False, True)):
        if chefs is False and not sporks:
            continue
        options: dict[str, Any] = {"sporks_out": sporks, "sporks_chefs": chefs, "kitchen_squad": squad,
                                   "restaurants": "chosen" if chosen else "dealt", "random_chefs": shuffled}
        for players in ([2] if squad else range(2, 7)):
            for days, mode in ((3, "random"), (4, "random"), (5, "normal"), (3, "easy," * (players - 1) + "hard")):
                cases.append(Case(players, {**options, **SHORT_RR, "max_days": days}, mode.strip(","), next(seed)))
    for players in range(2, 7):
        for sporks in (False, True):
            cases.append(Case(players, {"sporks_out": sporks}, "normal", next(seed)))
            cases.append(Case(players, {"sporks_out": sporks, "max_days": 6}, "random", next(seed)))
    return cases


def variant_cases(game: Game[Any, Any], per_size: int) -> list[Case]:
    """Each of the game's variants at every table size, by random play and by the bots."""
    cases: list[Case] = []
    seed = itertools.count(1)
    for options in game.variants.values():
        for players in range(game.min_players, game.max_players + 1):
            try:
                game.validate(players, game.options(options))
            except InvalidOptions:
                continue
            for mode in itertools.islice(itertools.cycle(["random", "normal", "easy,hard"]), per_size):
                levels = mode if mode == "random" else ",".join(
                    itertools.islice(itertools.cycle(mode.split(",")), players))
                cases.append(Case(players, dict(options), levels, next(seed)))
    return cases


def cases_for(game_id: str) -> list[Case]:
    game = registry.get(game_id)
    if game_id == "rival-restaurants":
        return rival_restaurants_cases()
    return variant_cases(game, per_size=3 if game_id == "nutty-noodles" else 8)


MAX_STEPS = {"rival-restaurants": 4000, "nutty-noodles": 3000, "sneaky-supper": 3000, "snollygoster": 3000}


def path_for(game_id: str) -> Path:
    return DATA / f"{game_id}.json.gz"


def load(game_id: str) -> list[dict[str, Any]]:
    with gzip.open(path_for(game_id), "rt") as f:
        return json.load(f)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.corpus.record", description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=sorted(registry.games()))
    args = parser.parse_args(argv)
    DATA.mkdir(exist_ok=True)
    for game_id in args.games:
        game = registry.get(game_id)
        records = []
        for case in cases_for(game_id):
            records.append(record(game, case, MAX_STEPS[game_id]))
            print(f"{game_id} {case.players}p {case.mode:24} {len(records[-1]['log']):5} steps",
                  file=sys.stderr, flush=True)
        with gzip.open(path_for(game_id), "wt", compresslevel=9) as f:
            json.dump(records, f, separators=(",", ":"))
        print(f"{game_id}: {len(records)} games, {sum(len(r['log']) for r in records)} steps", flush=True)


if __name__ == "__main__":
    main()
