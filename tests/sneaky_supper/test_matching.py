"""The kept answers of ``can_fill`` (a hand's types, ruled out by ``may_fill`` or searched
once) are the answers of a fresh search of the very hand, on many seeded hands."""

from __future__ import annotations

import pytest

from server.engine import Rng
from server.games.sneaky_supper.cards import ACCIDENT, CRAVINGS, RECIPES, SEARCH_CARDS, UTENSIL_CARDS, card
from server.games.sneaky_supper.matching import can_fill, search_can_fill, slots_of, ways

HANDS = 16_000
CHUNKS = 4
KEPT = [c for c in (*SEARCH_CARDS, *UTENSIL_CARDS) if card(c).kind != ACCIDENT]  # what a hand can hold
NEEDS = [r.needs for r in RECIPES] + [c.needs for c in CRAVINGS]


def seeded_hand(rng: Rng) -> tuple[list[str], int, bool]:
    """A hand of 0–8 cards, 0–3 Careful tokens, Mish-Mash or not."""
    return rng.shuffled(KEPT)[:rng.randint(0, 8)], rng.randint(0, 3), rng.below(2) == 1


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_kept_answers_are_a_fresh_searchs(chunk: int) -> None:
    rng = Rng(chunk)
    fillable = 0
    for _ in range(HANDS // CHUNKS):
        hand, tokens, mish_mash = seeded_hand(rng)
        for needs in NEEDS:
            fresh = search_can_fill(slots_of(needs), hand, tokens, mish_mash)
            assert can_fill(needs, hand, tokens, mish_mash) is fresh, (needs, hand, tokens, mish_mash)
            fillable += fresh
    assert fillable > HANDS // CHUNKS  # the hands are not all hopeless


def test_can_fill_says_whether_ways_lists_one() -> None:
    rng = Rng(99)
    for _ in range(500):
        hand, tokens, mish_mash = seeded_hand(rng)
        for needs in NEEDS:
            assert can_fill(needs, hand, tokens, mish_mash) is bool(ways(needs, hand, tokens, mish_mash))
