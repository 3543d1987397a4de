"""Sneaky Supper components: the counts and named cards of the rulebook, and a designed set
that can actually be played (every Recipe and Craving can be made from the decks)."""

from __future__ import annotations

from collections import Counter

from server.games.sneaky_supper.cards import (
    ACCIDENT, CRAVINGS, DRINK, RAW, RECIPE, RECIPES, SEARCH_CARDS, SEARCH_COUNTS, SNACK, TYPE,
    UTENSIL, UTENSIL_CARDS, card,
)
from server.games.sneaky_supper.matching import fits

from .helpers import ingredients


def test_components_80_search_cards_with_food_accidents_and_some_utensils() -> None:
    assert len(SEARCH_CARDS) == 80
    kinds = Counter(card(c).kind for c in SEARCH_CARDS)
    assert kinds["food"] and kinds[ACCIDENT] and kinds[UTENSIL]


def test_components_8_utensil_cards_all_utensils() -> None:
    assert len(UTENSIL_CARDS) == 8
    assert {card(c).kind for c in UTENSIL_CARDS} == {UTENSIL}


def test_components_9_recipe_types_of_2_cards_and_9_cravings() -> None:
    assert len(RECIPES) == 9 and {r.copies for r in RECIPES} == {2}
    assert len(CRAVINGS) == 9 and len({c.snacks for c in CRAVINGS}) == 9


def test_every_card_makes_0_1_or_3_noise_and_some_carry_the_careful_icon() -> None:
    cards = list(SEARCH_CARDS) + list(UTENSIL_CARDS)
    assert {card(c).noise for c in cards} == {0, 1, 3}
    assert any(card(c).icon for c in SEARCH_CARDS)
    assert all(card(c).points >= 0 for c in cards)


def test_named_cards_of_the_rulebook() -> None:
    assert TYPE["gem-biscuits"].points == 2
    assert TYPE["seasoned-seaweed"].points == 3
    assert TYPE["seasoned-seaweed"].noise > TYPE["gem-biscuits"].noise  # "slightly noisier"
    assert TYPE["sliced-bread"].points == 1
    doodled = RECIPE["doodled-up-noodles"]
    assert doodled.points == 7
    assert [(n.what, n.count, n.different) for n in doodled.needs] == [
        (UTENSIL, 1, False), ("instant-noodles", 1, False), (RAW, 2, True)]
    assert {n.what for n in RECIPE["simple-sandwich"].needs} == {"sliced-bread", "kaya-butter"}


def test_cravings_ask_for_two_specific_snacks_and_any_drink() -> None:
    for c in CRAVINGS:
        assert all(TYPE[t].group == SNACK for t in c.snacks) and c.snacks[0] != c.snacks[1]
        assert c.needs[2].what == DRINK and c.points > 0


def test_every_recipe_and_craving_can_be_made_from_the_search_deck() -> None:
    for needs in [r.needs for r in RECIPES] + [c.needs for c in CRAVINGS]:
        types = ingredients(needs)
        for t, n in Counter(types).items():
            assert SEARCH_COUNTS.get(t, 0) >= n, f"not enough {t}"
        assert not Counter(types) - Counter(SEARCH_CARDS)
        assert fits(needs, types, 0, mish_mash=False)
