"""Sneaky Supper: one test per rule of the rulebook (and per designed ruling)."""

from __future__ import annotations

import pytest

from server.engine import TIMEOUT, IllegalAction
from server.games.sneaky_supper import GAME
from server.games.sneaky_supper.cards import (
    CRAVING, CRAVINGS, HAND_LIMIT, MAX_TOKENS, RECIPE, RECIPES, SEARCH_CARDS, TYPE, card,
)

from .helpers import (
    a_type, act, all_cards, as_dealt, draw_until_busted, draws, give, ingredients, new, pass_turn,
    quiet_food, retreat_with, run, stack, stack_utensils, types_where,
)

DRAW = {"type": "draw"}
RETREAT = {"type": "retreat"}
END = {"type": "end_turn"}

LOUD_ACCIDENT = a_type(kind="accident", noise=3, icon=False)
ICON_ACCIDENT = a_type(kind="accident", icon=True)
QUIET_ACCIDENT = a_type(kind="accident", noise=0)
LOUD_FOOD = a_type(kind="food", noise=3, icon=False)
ONE_FOOD = a_type(kind="food", noise=1)
QUIET = quiet_food(1)[0]


def kinds(actions: list[dict]) -> set[str]:
    return {a["type"] for a in actions} - {"craving"}


def recipe_action(rid: str, cards: list[str], tokens: int = 0) -> dict:
    return {"type": "recipe", "recipe": rid, "cards": cards, "tokens": tokens}


# ---- setup -----------------------------------------------------------------------------------

def test_setup_each_player_gets_a_secret_craving_and_one_careful_token() -> None:
    s = new(4)
    assert s.tokens == [1, 1, 1, 1]
    assert len(set(s.cravings)) == 4 and None not in s.cravings
    assert len(s.craving_deck) == len(CRAVINGS) - 4
    assert len(s.deck) == 80 and len(s.udeck) == 8 and not any(s.hands)
    assert s.active == 0 and s.phase == "turn"


# ---- during your turn ------------------------------------------------------------------------

def test_first_draw_of_a_turn_is_compulsory() -> None:
    s = new()
    assert kinds(GAME.legal(s, 0)) == {"draw"}
    for action in (RETREAT, {"type": "draw_utensil"}, {"type": "end_turn"}):
        with pytest.raises(IllegalAction):
            act(s, 0, action)


def test_only_the_active_player_draws() -> None:
    s = new()
    assert kinds(GAME.legal(s, 1)) == set()
    with pytest.raises(IllegalAction, match="Ana's turn"):
        act(s, 1, DRAW)


def test_drawn_cards_go_face_up_on_the_floorplan_in_order() -> None:
    s = new()
    taken = stack(s, *quiet_food(2))
    s = draws(s, 2)
    view = GAME.view(s, 2)
    assert [step["card"]["id"] for step in view["floorplan"]["path"]] == taken
    assert view["floorplan"]["noise"] == sum(card(c).noise for c in taken)


def test_utensil_deck_only_from_the_second_card() -> None:
    s = new()
    stack(s, QUIET)
    with pytest.raises(IllegalAction, match="first card must come from the Search deck"):
        act(s, 0, {"type": "draw_utensil"})
    s, _ = act(s, 0, DRAW)
    assert "draw_utensil" in kinds(GAME.legal(s, 0))
    spoon = stack_utensils(s, "wooden-spoon")[0]
    s, _ = act(s, 0, {"type": "draw_utensil"})
    assert s.turn.path[-1] == spoon and card(spoon).kind == "utensil"


def test_utensil_deck_only_once_a_turn() -> None:
    s = new()
    stack(s, *quiet_food(2))
    stack_utensils(s, "wooden-spoon", "chopsticks")
    s = run(s, (0, DRAW), (0, {"type": "draw_utensil"}))
    assert "draw_utensil" not in kinds(GAME.legal(s, 0))
    with pytest.raises(IllegalAction, match="once per turn"):
        act(s, 0, {"type": "draw_utensil"})
    s, _ = act(s, 0, DRAW)  # the Search deck is still allowed
    assert len(s.turn.path) == 3


def test_at_most_seven_cards_and_overwhelming_success_on_the_seventh() -> None:
    s = new()
    seven = [t for t in types_where(noise=0) if TYPE[t].kind != "accident"][:7]
    assert len(seven) == 7, "the card data needs 7 silent non-Accident cards for this test"
    stack(s, *seven)
    s = draws(s, 7)
    assert s.phase == "retreat" and s.turn.outcome == "overwhelming"
    assert "draw" not in kinds(GAME.legal(s, 0))
    s, _ = act(s, 0, END)  # no hand limit this turn
    assert len(s.hands[0]) == 7 and s.active == 1


def test_overwhelming_success_after_careful_tokens_hush_the_seventh_card() -> None:
    s = new()
    five = [t for t in types_where(noise=0) if TYPE[t].kind != "accident"][:5]
    stack(s, *five, ONE_FOOD, LOUD_FOOD)
    s = draws(s, 7)
    assert s.phase == "noisy" and s.turn.noise() == 4
    loud = s.turn.path[-1]
    s, _ = act(s, 0, {"type": "careful", "card": loud})
    assert s.phase == "retreat" and s.turn.outcome == "overwhelming"


# ---- noise and careful tokens ----------------------------------------------------------------

def test_noise_of_four_or_more_is_busted_without_careful_tokens() -> None:
    s = new()
    s.tokens[0] = 0
    stack(s, ONE_FOOD, LOUD_ACCIDENT)
    s, events = act(s, 0, DRAW)
    assert s.phase == "turn"
    s, events = act(s, 0, DRAW)
    assert [e.type for e in events][1:3] == ["busted", "pick"]
    assert s.last_turn["outcome"] == "busted" and s.active == 1


def test_careful_token_cancels_one_cards_noise_even_at_four_or_more() -> None:
    s = new()
    loud, other = stack(s, LOUD_FOOD, ONE_FOOD)
    s = draws(s, 2)
    assert s.phase == "noisy" and s.turn.noise() == 4
    assert kinds(GAME.legal(s, 0)) == {"careful", "bust"}
    s, _ = act(s, 0, {"type": "careful", "card": loud})
    assert s.phase == "turn" and s.turn.noise() == 1 and s.tokens[0] == 0
    assert GAME.view(s, 1)["floorplan"]["path"][0]["cancelled"] is True
    s, _ = act(s, 0, DRAW)  # and the sneak goes on
    assert len(s.turn.path) == 3


def test_careful_token_may_be_used_at_any_point_of_the_turn() -> None:
    s = new()
    loud = stack(s, LOUD_FOOD)[0]
    s, _ = act(s, 0, DRAW)
    assert s.phase == "turn" and s.turn.noise() == 3
    s, _ = act(s, 0, {"type": "careful", "card": loud})
    assert s.turn.noise() == 0


def test_careful_token_only_snuffs_a_noisy_card_drawn_this_turn() -> None:
    s = new()
    quiet, noisy = stack(s, QUIET, ONE_FOOD)
    s = draws(s, 2)
    with pytest.raises(IllegalAction, match="no Noise"):
        act(s, 0, {"type": "careful", "card": quiet})
    with pytest.raises(IllegalAction, match="did not draw"):
        act(s, 0, {"type": "careful", "card": s.deck[-1]})
    s.tokens[0] = 0
    with pytest.raises(IllegalAction, match="no Careful token"):
        act(s, 0, {"type": "careful", "card": noisy})


def test_careful_tokens_are_at_most_three() -> None:
    s = new()
    s.tokens[0] = MAX_TOKENS
    stack(s, ONE_FOOD, ICON_ACCIDENT)
    s = draws(s, 2)
    s, _ = act(s, 0, {"type": "bust"})
    assert s.active == 1 and s.tokens[0] == MAX_TOKENS


# ---- busted ----------------------------------------------------------------------------------

def _busted(players: int = 3, foods: tuple[str, ...] = (), tokens: int = 0, last: str = LOUD_ACCIDENT):
    """Ana draws ``foods`` (fewer than 4 Noise), then ``last`` and a loud Accident: Busted,
    with no tokens to save her. Returns the state and the foods' card ids."""
    s = new(players)
    s.tokens[0] = tokens
    assert sum(TYPE[t].noise for t in foods) < 4
    taken = stack(s, *foods, last, LOUD_ACCIDENT)
    return draw_until_busted(s), taken[: len(foods)]


def test_busted_accidents_are_discarded_first() -> None:
    s, taken = _busted(foods=(QUIET, QUIET))
    accidents = [c for c in s.turn.path if card(c).kind == "accident"]
    assert accidents and all(c in s.discard for c in accidents)
    assert sorted(s.turn.pool) == sorted(taken)


def test_busted_each_player_in_turn_order_chooses_one_drawn_card() -> None:
    foods = tuple(quiet_food(4))
    s, taken = _busted(foods=foods)
    assert s.phase == "pick" and s.turn.order == [1, 2, 0]
    assert kinds(GAME.legal(s, 1)) == {"pick"} and not kinds(GAME.legal(s, 2))
    with pytest.raises(IllegalAction, match="Bo's pick"):
        act(s, 2, {"type": "pick", "card": taken[0]})
    s, _ = act(s, 1, {"type": "pick", "card": taken[2]})
    s, _ = act(s, 2, {"type": "pick", "card": taken[0]})
    s, _ = act(s, 0, {"type": "pick", "card": taken[3]})
    assert s.hands == [[taken[3]], [taken[2]], [taken[0]]]
    assert taken[1] in s.discard  # the leftover
    assert s.active == 0 and s.phase == "after_bust"  # a moment for Ana's Craving
    s, _ = act(s, 0, END)
    assert s.active == 1 and s.phase == "turn"


def test_busted_with_fewer_cards_than_players_the_last_get_nothing() -> None:
    s, taken = _busted(players=4, foods=(QUIET, QUIET))
    assert s.turn.order == [1, 2]
    s, _ = act(s, 1, {"type": "pick", "card": taken[1]})
    # Cy's pick of the single card left is no choice: it is simply taken.
    assert s.hands == [[], [taken[1]], [taken[0]], []]
    assert s.active == 1


def test_busted_player_gains_a_careful_token() -> None:
    s, _ = _busted(foods=(QUIET,))
    assert s.tokens[0] == 1


def test_busted_with_the_icon_gains_one_more_careful_token() -> None:
    s, _ = _busted(foods=(QUIET,), last=ICON_ACCIDENT)
    assert s.tokens[0] == 2
    s, _ = _busted(foods=(QUIET,), last=ICON_ACCIDENT, tokens=2)
    assert s.tokens[0] == MAX_TOKENS


def test_busted_picks_are_seen_by_everyone() -> None:
    s, taken = _busted(foods=tuple(quiet_food(3)))
    s, _ = act(s, 1, {"type": "pick", "card": taken[1]})
    for viewer in (None, 0, 2):
        bo = GAME.view(s, viewer)["players"][1]
        assert [c["id"] for c in bo["hand_known"]] == [taken[1]]


def test_hand_limit_also_applies_after_being_busted() -> None:
    s = new()
    give(s, 0, *quiet_food(4))
    s.tokens[0] = 0
    stack(s, *types_where(kind="food", noise=1)[:3], LOUD_ACCIDENT)
    s = draws(s, 4)
    assert s.phase == "pick" and len(s.turn.pool) == 3
    s, _ = act(s, 1, {"type": "pick", "card": s.turn.pool[0]})
    s, _ = act(s, 2, {"type": "pick", "card": s.turn.pool[0]})
    assert len(s.hands[0]) == 5 and s.phase == "after_bust"
    s, _ = act(s, 0, END)
    assert s.phase == "discard"


# ---- retreat ---------------------------------------------------------------------------------

def test_retreat_discards_accidents_and_keeps_the_other_cards() -> None:
    s = new()
    food, accident = QUIET, QUIET_ACCIDENT
    taken = stack(s, food, accident)
    s = draws(s, 2)
    s, _ = act(s, 0, RETREAT)
    assert s.hands[0] == [taken[0]] and taken[1] in s.discard


def test_retreat_complete_any_number_of_recipes() -> None:
    cheap = sorted(RECIPES, key=lambda r: sum(n.count for n in r.needs))[:2]
    s = new()
    held = give(s, 0, *ingredients(cheap[0].needs), *ingredients(cheap[1].needs))
    s = retreat_with(s, QUIET)
    n0 = sum(n.count for n in cheap[0].needs)
    s, _ = act(s, 0, recipe_action(cheap[0].id, held[:n0]))
    s, _ = act(s, 0, recipe_action(cheap[1].id, held[n0:]))
    assert s.completed[0] == [cheap[0].id, cheap[1].id]
    assert s.points[0]["recipes"] == cheap[0].points + cheap[1].points
    assert s.recipes_left[cheap[0].id] == cheap[0].copies - 1


def test_recipe_needs_exactly_its_ingredients() -> None:
    r = RECIPE["simple-sandwich"]
    s = new()
    give(s, 0, *ingredients(r.needs))
    wrong = give(s, 0, a_type(kind="food", group="drink"))
    s = retreat_with(s, QUIET)
    with pytest.raises(IllegalAction, match="do not make"):
        act(s, 0, recipe_action(r.id, [s.hands[0][0], wrong[0]]))
    with pytest.raises(IllegalAction, match="do not make"):  # an extra card is not allowed
        act(s, 0, recipe_action(r.id, s.hands[0][:3]))


def test_each_recipe_type_has_two_cards_to_claim() -> None:
    r = RECIPE["simple-sandwich"]
    s = new()
    cards = give(s, 0, *ingredients(r.needs))
    s = retreat_with(s, QUIET)
    s.recipes_left[r.id] = 0
    with pytest.raises(IllegalAction, match="already claimed"):
        act(s, 0, recipe_action(r.id, cards))


def test_recipes_only_when_retreating() -> None:
    r = RECIPE["simple-sandwich"]
    s = new()
    cards = give(s, 0, *ingredients(r.needs))
    with pytest.raises(IllegalAction):
        act(s, 0, recipe_action(r.id, cards))


def test_consume_one_card_for_the_points_on_it() -> None:
    s = new()
    gem = give(s, 0, "gem-biscuits", QUIET)
    s = retreat_with(s, QUIET)
    s, _ = act(s, 0, {"type": "consume", "card": gem[0]})
    assert s.points[0]["consumed"] == 2 and gem[0] in s.discard
    with pytest.raises(IllegalAction, match="already consumed"):
        act(s, 0, {"type": "consume", "card": gem[1]})


def test_doodled_up_noodles_needs_a_utensil_instant_noodles_and_two_different_raw() -> None:
    r = RECIPE["doodled-up-noodles"]
    assert r.points == 7
    raw = types_where(group="raw")
    same = [t for t in raw if raw.count(t) >= 2][0]
    other = next(t for t in raw if t != same)
    s = new()
    ok = give(s, 0, "chopsticks", "instant-noodles", same, other)
    twin = give(s, 0, same)
    s = retreat_with(s, QUIET)
    with pytest.raises(IllegalAction, match="2 different Raw"):
        act(s, 0, recipe_action(r.id, ok[:3] + twin))
    s, _ = act(s, 0, recipe_action(r.id, ok))
    assert s.points[0]["recipes"] == 7


# ---- the secret stash and mish-mash ------------------------------------------------------------

def test_secret_stash_careful_tokens_stand_for_any_ingredient_including_utensils() -> None:
    r = RECIPE["doodled-up-noodles"]
    s = new()
    cards = give(s, 0, "instant-noodles", "eggs")
    s = retreat_with(s, QUIET)
    s.tokens[0] = 2  # one for the Utensil, one for the second Raw ingredient
    with pytest.raises(IllegalAction):
        act(s, 0, recipe_action(r.id, cards, tokens=1))
    s, _ = act(s, 0, recipe_action(r.id, cards, tokens=2))
    assert s.tokens[0] == 0 and s.points[0]["recipes"] == 7


def test_secret_stash_needs_at_least_one_real_card() -> None:
    r = RECIPE["simple-sandwich"]
    s = retreat_with(new(), QUIET)
    s.tokens[0] = 3
    with pytest.raises(IllegalAction, match="(?i)at least one real card"):
        act(s, 0, recipe_action(r.id, [], tokens=2))


def test_secret_stash_also_completes_cravings() -> None:
    s = new()
    craving = CRAVING[s.cravings[1]]
    snack = give(s, 1, craving.snacks[0])
    s.tokens[1] = 2
    s, _ = act(s, 1, {"type": "craving", "cards": snack, "tokens": 2})
    assert s.points[1]["cravings"] == craving.points and s.tokens[1] == 0


def test_mish_mash_any_two_ingredients_stand_for_one_when_enabled() -> None:
    """The rulebook's example: Eggs and Ice Cream as the bread of a Simple Sandwich."""
    r = RECIPE["simple-sandwich"]
    for enabled in (False, True):
        s = new(mish_mash=enabled)
        cards = give(s, 0, "eggs", "ice-cream", "kaya-butter")
        s = retreat_with(s, QUIET)
        if not enabled:
            with pytest.raises(IllegalAction):
                act(s, 0, recipe_action(r.id, cards))
            continue
        s, _ = act(s, 0, recipe_action(r.id, cards))
        assert s.completed[0] == [r.id]


def test_mish_mash_never_stands_for_or_uses_a_utensil() -> None:
    r = RECIPE["doodled-up-noodles"]
    s = new(mish_mash=True)
    base = give(s, 0, "instant-noodles", "eggs", "tomato")
    pair = give(s, 0, *quiet_food(2))
    utensil = give(s, 0, "chopsticks")
    s = retreat_with(s, QUIET)
    with pytest.raises(IllegalAction):  # two foods cannot be the Utensil
        act(s, 0, recipe_action(r.id, base + pair))
    s, _ = act(s, 0, recipe_action(r.id, base + utensil))
    assert s.completed[0] == [r.id]


def test_mish_mash_a_utensil_cannot_be_half_of_a_pair() -> None:
    r = RECIPE["simple-sandwich"]
    s = new(mish_mash=True)
    kaya = give(s, 0, "kaya-butter")
    pair = give(s, 0, *quiet_food(2))
    utensil = give(s, 0, "chopsticks")
    s = retreat_with(s, ONE_FOOD)
    with pytest.raises(IllegalAction):
        act(s, 0, recipe_action(r.id, kaya + [pair[0]] + utensil))
    s, _ = act(s, 0, recipe_action(r.id, kaya + pair))
    assert s.completed[0] == [r.id]


def test_mish_mash_also_completes_cravings() -> None:
    s = new(mish_mash=True)
    craving = CRAVING[s.cravings[1]]
    cards = give(s, 1, craving.snacks[0], craving.snacks[1], *quiet_food(4)[2:4])
    assert GAME.view(s, 1)["craving_ready"] is True
    s, _ = act(s, 1, {"type": "craving", "cards": cards, "tokens": 0})
    assert s.points[1]["cravings"] == craving.points


# ---- ending a turn ---------------------------------------------------------------------------

def test_hand_limit_four_the_player_chooses_what_to_discard_face_down() -> None:
    s = new()
    give(s, 0, *quiet_food(4))
    s = retreat_with(s, *types_where(kind="food", noise=1)[:2])
    s, _ = act(s, 0, END)
    assert s.phase == "discard"
    assert kinds(GAME.legal(s, 0)) == {"discard"}
    assert [a["card"] for a in GAME.legal(s, 0) if a["type"] == "discard"] == sorted(set(s.hands[0]))
    gone = s.hands[0][1]
    s, events = act(s, 0, {"type": "discard", "card": gone})
    public = [e for e in events if e.to is None]
    assert all(gone not in str(e.to_json()) for e in public)
    assert any(e.to == (0,) and e.data["card"]["id"] == gone for e in events)
    s, _ = act(s, 0, {"type": "discard", "card": s.hands[0][0]})
    assert len(s.hands[0]) == HAND_LIMIT and s.active == 1
    ana = GAME.view(s, 1)["players"][0]
    assert ana["hand_size"] == 4 and ana["hand_known"] == [] and len(ana["hand_maybe"]) == 6


def test_discard_pile_goes_shuffled_under_the_deck_after_a_recipe() -> None:
    r = RECIPE["simple-sandwich"]
    s = new()
    cards = give(s, 0, *ingredients(r.needs))
    s.discard.append(s.deck.pop(0))
    as_dealt(s)
    s = retreat_with(s, QUIET)
    s = run(s, (0, recipe_action(r.id, cards)), (0, END))
    assert s.discard == [] and set(cards) <= set(s.deck[:3]) and s.segments[0] == 3


def test_discard_pile_stays_without_a_recipe() -> None:
    s = retreat_with(new(), QUIET, QUIET_ACCIDENT)
    s, _ = act(s, 0, END)
    assert len(s.discard) == 1 and s.segments == [len(s.deck)]


def test_utensil_discards_are_shuffled_back_into_the_utensil_deck() -> None:
    r = RECIPE["doodled-up-noodles"]
    s = new()
    cards = give(s, 0, "instant-noodles", "eggs", "tomato")
    stack(s, QUIET)
    spoon = stack_utensils(s, "wooden-spoon")
    s = run(s, (0, DRAW), (0, {"type": "draw_utensil"}), (0, RETREAT))
    s, _ = act(s, 0, recipe_action(r.id, cards + spoon))
    assert s.udiscard == spoon and spoon[0] not in s.discard
    s, _ = act(s, 0, END)
    assert s.udiscard == [] and spoon[0] in s.udeck and len(s.udeck) == 8


def test_empty_search_deck_is_rebuilt_from_the_discard_pile() -> None:
    s = new()
    s.discard, s.deck = list(s.deck), []
    as_dealt(s)
    s.segments, s.segments_known, s.segments_down, s.segments_up = [], [], [], []
    s, events = act(s, 0, DRAW)
    assert any(e.type == "rebuild" for e in events)
    assert len(s.deck) == 79 and s.discard == [] and s.segments == [79]


def test_with_nothing_left_to_draw_turns_pass_and_the_game_ends() -> None:
    s = retreat_with(new(), QUIET)
    rest = s.deck + s.discard
    s.hands[1] += rest[::2]
    s.hands[2] += rest[1::2]
    s.seen[1] += rest[::2]
    s.seen[2] += rest[1::2]
    s.deck, s.discard = [], []
    as_dealt(s)
    s.segments, s.segments_known, s.segments_down, s.segments_up = [], [], [], []
    s.cravings = [None, None, None]  # no last call: straight to the tally
    s, events = act(s, 0, END)
    assert [e.type for e in events].count("skip") == 3
    assert s.phase == "over" and s.end_reason == "nothing was left to draw"
    assert sorted(all_cards(s)) == sorted([*SEARCH_CARDS, *s.udeck])


# ---- cravings --------------------------------------------------------------------------------

def test_craving_scored_at_any_moment_even_on_another_players_turn() -> None:
    s = new()
    craving = CRAVING[s.cravings[1]]
    drink = a_type(kind="food", group="drink")
    cards = give(s, 1, *craving.snacks, drink)
    actions = [a for a in GAME.legal(s, 1) if a["type"] == "craving"]
    assert actions and s.active == 0
    before = list(s.craving_deck)
    s, events = act(s, 1, {"type": "craving", "cards": cards, "tokens": 0})
    assert s.points[1]["cravings"] == craving.points and s.scored_cravings[1] == [craving.id]
    assert s.cravings[1] == before[-1]  # a new Craving is drawn
    private = [e for e in events if e.to is not None]
    assert private and all(e.to == (1,) for e in private)
    assert GAME.deadline(s) == GAME.deadline(new())  # a reaction leaves Ana's timer alone


def test_craving_can_be_scored_right_after_taking_a_card_from_a_bust() -> None:
    s = new()
    craving = CRAVING[s.cravings[1]]
    give(s, 1, craving.snacks[0], a_type(kind="food", group="drink"))
    s.tokens[0] = 0
    taken = stack(s, craving.snacks[1], LOUD_ACCIDENT)
    stack(s, LOUD_ACCIDENT)
    s = draw_until_busted(s)
    assert s.hands[1][-1] == taken[0]  # Bo, first to pick, took the only card
    assert [a for a in GAME.legal(s, 1) if a["type"] == "craving"]


def test_a_craving_completed_with_a_card_from_your_own_bust_scores_in_your_own_turn() -> None:
    """Cravings score at any moment: the busted player, taking the last card of the bust,
    may complete theirs before the turn ends (and the hand limit comes)."""
    s = new()
    craving = CRAVING[s.cravings[0]]
    give(s, 0, craving.snacks[0], a_type(kind="food", group="drink"), a_type(group="raw"))
    s.tokens[0] = 0
    stack(s, QUIET, QUIET, craving.snacks[1], LOUD_ACCIDENT, LOUD_ACCIDENT)
    s = draw_until_busted(s)
    s, _ = act(s, 1, {"type": "pick", "card": QUIET})
    s, _ = act(s, 2, {"type": "pick", "card": QUIET})
    assert s.active == 0 and s.phase == "after_bust" and s.hands[0][-1] == craving.snacks[1]
    assert kinds(GAME.legal(s, 0)) == {"end_turn"}
    way = next(a for a in GAME.legal(s, 0) if a["type"] == "craving" and a["tokens"] == 0)
    s, _ = act(s, 0, way)
    assert s.points[0]["cravings"] == craving.points and s.active == 0 and s.phase == "after_bust"
    s, _ = act(s, 0, END)
    assert s.active == 1 and s.phase == "turn"


def test_the_pause_after_a_bust_ends_by_the_pick_timer() -> None:
    s = new()
    s.tokens[0] = 0
    stack(s, QUIET, LOUD_ACCIDENT, LOUD_ACCIDENT)
    s = draw_until_busted(s)  # Bo takes the only card; Ana holds none: no pause
    assert s.active == 1
    s = new()
    give(s, 0, QUIET)
    s.tokens[0] = 0
    stack(s, LOUD_ACCIDENT, LOUD_ACCIDENT)
    s = draw_until_busted(s)
    assert s.phase == "after_bust" and GAME.deadline(s) == s.since + s.options.pick_timer_ms
    s, _ = act(s, None, {"type": "timeout"}, GAME.deadline(s))
    assert s.active == 1 and s.phase == "turn"


def test_craving_needs_its_two_snacks_and_a_drink() -> None:
    s = new()
    craving = CRAVING[s.cravings[1]]
    other = next(t for t in types_where(group="snack") if t not in craving.snacks)
    drink = a_type(kind="food", group="drink")
    cards = give(s, 1, craving.snacks[0], other, drink)
    s.tokens[1] = 0
    assert not [a for a in GAME.legal(s, 1) if a["type"] == "craving"]
    with pytest.raises(IllegalAction, match="do not make"):
        act(s, 1, {"type": "craving", "cards": cards, "tokens": 0})
    with pytest.raises(IllegalAction, match="Careful tokens"):
        act(s, 1, {"type": "craving", "cards": cards[:1] + cards[2:], "tokens": 1})


# ---- the end ---------------------------------------------------------------------------------

def test_twenty_points_gives_every_other_player_one_final_turn() -> None:
    s = new()
    s.points[0]["recipes"] = 18
    gem = give(s, 0, "gem-biscuits")
    s = retreat_with(s, QUIET)
    s, events = act(s, 0, {"type": "consume", "card": gem[0]})
    assert s.triggered_by == 0 and s.final_left == [1, 2]
    s, _ = act(s, 0, END)
    seen = []
    while s.phase not in ("over", "last_call"):
        seen.append(s.active)
        s = pass_turn(s)
    assert seen == [1, 2]


def test_reaching_twenty_on_someone_elses_turn_skips_your_next_turn() -> None:
    s = new()
    s.points[1]["recipes"] = 20 - CRAVING[s.cravings[1]].points
    craving = CRAVING[s.cravings[1]]
    cards = give(s, 1, *craving.snacks, a_type(kind="food", group="drink"))
    s, _ = act(s, 1, {"type": "craving", "cards": cards, "tokens": 0})  # during Ana's turn
    assert s.triggered_by == 1 and s.final_left == [0, 2]
    seen = []
    while s.phase not in ("over", "last_call"):
        seen.append(s.active)
        s = pass_turn(s)
    assert seen == [0, 2, 0]  # Ana's turn goes on, Bo is skipped, then Cy and Ana


def test_remaining_careful_tokens_score_one_point_each_at_the_end() -> None:
    s = _last_turn_retreat_with()
    s.tokens = [3, 2, 0]
    s, _ = act(s, 0, END)
    assert s.phase == "over"
    assert [p["careful"] for p in s.points] == [3, 2, 0] and s.tokens == [0, 0, 0]
    assert GAME.result(s).scores == [23.0, 2.0, 0.0]


def test_most_points_wins_and_ties_are_shared() -> None:
    s = _last_turn_retreat_with()
    s.points[1]["recipes"], s.points[2]["recipes"] = 20, 5
    s.tokens = [0, 0, 0]
    assert GAME.result(s) is None
    s, events = act(s, 0, END)
    result = GAME.result(s)
    assert result is not None and result.winners == [0, 1] and result.scores == [20.0, 20.0, 5.0]
    assert "share the victory" in result.reason and events[-1].type == "game_over"


def _last_turn_retreat_with():
    """Ana, who reached 20 points, is Retreating in the last turn of the game."""
    s = new()
    s.points[0]["recipes"] = 20
    s.triggered_by, s.final_left = 0, []
    s.cravings = [None, None, None]
    return retreat_with(s, QUIET_ACCIDENT)


def test_last_call_after_the_final_turn_for_a_craving_completed_by_a_bust_pick() -> None:
    s = new()
    craving = CRAVING[s.cravings[0]]
    give(s, 0, craving.snacks[0], a_type(kind="food", group="drink"))
    s.tokens = [0, 0, 0]
    s.points[1]["recipes"] = 20
    s.triggered_by, s.final_left, s.active = 1, [], 2  # Cy's final turn
    taken = stack(s, craving.snacks[1], LOUD_ACCIDENT, LOUD_ACCIDENT)
    s = draw_until_busted(s, seat=2)
    assert s.phase == "last_call" and s.last_call == [0] and taken[0] in s.hands[0]
    assert {"type": "pass"} in GAME.legal(s, 0)
    ways = [a for a in GAME.legal(s, 0) if a["type"] == "craving"]
    s, _ = act(s, 0, ways[0])
    assert s.phase == "over" and s.points[0]["cravings"] == craving.points


# ---- time ------------------------------------------------------------------------------------

def test_turn_timer_draws_the_compulsory_card_and_retreats() -> None:
    s = new()
    taken = stack(s, QUIET)
    with pytest.raises(IllegalAction, match="Nothing is due"):
        act(s, None, dict(TIMEOUT), GAME.deadline(s) - 1)
    s, _ = act(s, None, dict(TIMEOUT), GAME.deadline(s))
    assert s.hands[0] == taken and s.active == 1


def test_pick_timer_takes_the_card_worth_most_points() -> None:
    richest = max(types_where(kind="food", noise=1), key=lambda t: TYPE[t].points)
    foods = (*quiet_food(2), richest)
    s, taken = _busted(foods=foods)
    best = max(s.turn.pool, key=lambda c: card(c).points)
    s, _ = act(s, None, dict(TIMEOUT), GAME.deadline(s))
    assert s.hands[1] == [best]


def test_noisy_timer_accepts_the_bust() -> None:
    s = new()
    stack(s, LOUD_FOOD, ONE_FOOD)
    s = draws(s, 2)
    assert s.phase == "noisy"
    s, _ = act(s, None, dict(TIMEOUT), GAME.deadline(s))
    assert s.turn.outcome == "busted"


def test_bad_actions_are_refused_with_a_reason() -> None:
    s = new()
    for action in ({"type": "pick", "card": "S01"}, {"type": "consume", "card": 3},
                   {"type": "craving", "cards": "S01"}, {"type": "fly"}):
        with pytest.raises(IllegalAction) as exc:
            act(s, 0, action)
        assert exc.value.reason


def test_a_craving_that_brings_the_hand_within_the_limit_ends_the_discarding() -> None:
    s = new(mish_mash=True)
    craving = CRAVING[s.cravings[0]]
    snacks = give(s, 0, *craving.snacks)
    s = retreat_with(s, *[t for t in types_where(kind="food", noise=1) if t not in craving.snacks][:3])
    s, _ = act(s, 0, END)
    assert s.phase == "discard" and len(s.hands[0]) == 5
    s, _ = act(s, 0, {"type": "craving", "cards": snacks + s.hands[0][2:4], "tokens": 0})
    assert len(s.hands[0]) == 1 and s.active == 1 and s.phase == "turn"
