"""Behaviour is kept: every recorded game of the corpus replays to the same digests.

A digest covers, after every step, every seat's view and the spectator's, every seat's
legal actions in order, each audience's events, the deadline and the result (``record.py``).
A structural or speed change that alters any of them fails here, naming the game and the
first checkpoint whose chain differs.
"""

from __future__ import annotations

from typing import Any

import pytest

from server.engine import registry

from .record import DATA, cases_for, load, replay_digests

GAMES = sorted(registry.games())
CHUNKS = 8  # each game's records are checked in this many tests (pytest-xdist spreads them)


def _describe(record: dict[str, Any]) -> str:
    return f"{record['players']} players, {record['mode']}, seed {record['seed']}, options {record['options']}"


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("game_id", GAMES)
def test_corpus_replays_to_the_same_digests(game_id: str, chunk: int) -> None:
    game = registry.get(game_id)
    records = load(game_id)[chunk::CHUNKS]
    assert records, f"no recorded games for {game_id} (chunk {chunk})"
    for record in records:
        checkpoints = record["checkpoints"]
        checked = 0
        for step, digest in replay_digests(game, record):
            expected = checkpoints.get(str(step))
            if expected is None:
                continue
            assert digest == expected, (
                f"{game_id} ({_describe(record)}): what the seats see differs by step {step} "
                f"(the last checkpoint that matched is before it)")
            checked += 1
        assert checked == len(checkpoints), f"{game_id} ({_describe(record)}): the log is shorter than recorded"


@pytest.mark.parametrize("game_id", GAMES)
def test_corpus_covers_every_case(game_id: str) -> None:
    """The stored corpus is the one ``record.py`` would record: same tables, options,
    players and seeds (so a case added to ``record.py`` is recorded, not forgotten)."""
    stored = [(r["players"], r["options"], r["mode"], r["seed"]) for r in load(game_id)]
    wanted = [(c.players, c.options, c.mode, c.seed) for c in cases_for(game_id)]
    assert stored == wanted, f"record the corpus anew: python -m tests.corpus.record {game_id}"
    assert (DATA / f"{game_id}.json.gz").stat().st_size > 0
