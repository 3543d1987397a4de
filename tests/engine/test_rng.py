"""The seeded RNG that lives in game states."""

from __future__ import annotations

import pickle
from collections import Counter

import pytest

from server.engine import Rng


def test_same_seed_same_sequence_other_seed_other_sequence() -> None:
    a, b, c = Rng(42), Rng(42), Rng(43)
    seq_a = [a.next64() for _ in range(10)]
    assert seq_a == [b.next64() for _ in range(10)]
    assert seq_a != [c.next64() for _ in range(10)]


def test_below_stays_in_range_and_covers_it_evenly() -> None:
    rng = Rng(1)
    counts = Counter(rng.below(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    assert all(9_000 < n < 11_000 for n in counts.values())
    with pytest.raises(ValueError):
        rng.below(0)


def test_randint_includes_both_ends_and_random_is_in_unit_interval() -> None:
    rng = Rng(2)
    assert {rng.randint(-1, 1) for _ in range(200)} == {-1, 0, 1}
    assert all(0.0 <= rng.random() < 1.0 for _ in range(1000))


def test_shuffle_is_a_permutation_and_depends_on_the_seed() -> None:
    items = list(range(30))
    a, b = Rng(5).shuffled(items), Rng(6).shuffled(items)
    assert sorted(a) == items and a != items and a != b


def test_state_survives_pickle_and_copies_are_independent() -> None:
    rng = Rng(9)
    rng.next64()
    copy = pickle.loads(pickle.dumps(rng))
    assert copy == rng and copy.next64() == rng.next64()
    fork = rng.fork()
    assert fork != rng
