"""Sneaky Supper's option corpus replays to the same digests: every combination of its
options (``sneaky_supper_options.py``), every table size, random play and the bots."""

from __future__ import annotations

import pytest

from server.engine import registry

from .record import replay_digests
from .sneaky_supper_options import GAME_ID, PATH, cases, load

CHUNKS = 12  # the games are checked in this many tests (pytest-xdist spreads them)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_every_option_combination_replays_to_the_same_digests(chunk: int) -> None:
    game = registry.get(GAME_ID)
    records = load()[chunk::CHUNKS]
    assert records, f"no recorded games in chunk {chunk}"
    for record in records:
        about = f"{record['players']} players, {record['mode']}, seed {record['seed']}, options {record['options']}"
        wanted = record["checkpoints"]
        got = {str(step): digest for step, digest in replay_digests(game, record) if str(step) in wanted}
        differs = [step for step in wanted if got.get(step) != wanted[step]]
        assert not differs, f"{GAME_ID} ({about}): what the seats see differs by step {differs[0]}"


def test_the_corpus_covers_every_combination() -> None:
    """The stored games are those the recorder would record (a combination added to the
    schema is recorded, not forgotten)."""
    stored = [(r["players"], r["options"], r["mode"], r["seed"]) for r in load()]
    wanted = [(c.players, c.options, c.mode, c.seed) for c in cases()]
    assert stored == wanted, "record anew: python -m tests.corpus.sneaky_supper_options"
    assert PATH.stat().st_size > 0
