"""Rival Restaurants against the public facts (issue 12): each rule the public sources
settle, tested by name; the rest are marked as designed on the rules page."""

from __future__ import annotations

import json

import pytest

from server.engine import IllegalAction, Rng
from server.engine.playout import play
from server.games.rival_restaurants import GAME
from server.games.rival_restaurants.cards import (
    CHOOSE_RESTAURANT,
    GARBAGE_TOKENS,
    MARKETS,
    RECIPES,
    RESTAURANTS,
    pool,
)
from server.games.rival_restaurants.ops import garbage_supply

from .helpers import NAMES, act, claims_done, cook, give, go, hand, hold, new, serve_all, timeout, to_cook
from server.games.rival_restaurants.sporks_table import table
from server.games.rival_restaurants.choosing import choice_of


# ---- garbage: the box's 32 tokens --------------------------------------------------------------

def test_the_garbage_supply_is_the_boxs_32_tokens_less_what_the_chefs_hold() -> None:
    s = new(3)
    assert GARBAGE_TOKENS == 32 and garbage_supply(s) == 32
    s.chefs[0].garbage, s.chefs[2].garbage = 5, 4
    assert garbage_supply(s) == 23 and GAME.view(s, 1)["island"]["garbage_supply"] == 23


def test_dumped_garbage_goes_back_to_the_supply() -> None:
    s = go(new(), "island", "island")
    s.chefs[0].garbage, s.chefs[0].money = 3, 300
    s = act(s, 0, {"type": "dump", "count": 2})
    assert garbage_supply(s) == 32 - 1


def test_when_the_garbage_supply_runs_short_a_cook_takes_what_is_left() -> None:
    s = new()
    hold(s, 0, "teriyaki_chicken", "sushi_platter")  # 2 garbage
    s.chefs[0].ingredients = {}
    give(s, 0, "chicken", "rice", "garlic")
    s.chefs[1].garbage = GARBAGE_TOKENS - 1  # one token left
    s = serve_all(cook(to_cook(go(s, "island", "island")), 0, "teriyaki_chicken"))
    assert RECIPES["teriyaki_chicken"].garbage == 2
    assert s.chefs[0].garbage == 1 and garbage_supply(s) == 0 and s.last_cook[0]["garbage"] == 1


def test_with_the_garbage_supply_empty_a_card_that_gives_garbage_gives_none() -> None:
    s = go(new(), "island", "island")
    s.chefs[0].garbage = GARBAGE_TOKENS
    s = act(s, 0, {"type": "play", "card": hand(s, 0, "health_inspection"), "target": 1})
    assert s.chefs[1].garbage == 0 and s.chefs[0].garbage == GARBAGE_TOKENS


def test_garbage_changing_hands_between_chefs_needs_no_supply() -> None:
    s = go(new(), "island", "island")
    s.chefs[0].garbage, s.chefs[1].money = GARBAGE_TOKENS, 500
    s = act(s, 0, {"type": "offer", "to": 1, "give": {"garbage": 2}, "get": {"money": 100}})
    s = act(s, 1, {"type": "accept", "offer": s.offers[0].id})
    assert (s.chefs[0].garbage, s.chefs[1].garbage) == (GARBAGE_TOKENS - 2, 2)


def test_joe_cannot_take_a_dumpster_card_when_the_garbage_supply_is_empty() -> None:
    s = go(new(2, ["sloppy_joe", "sal_monella"], sporks_out=True), "island", "island")
    table(s).dumpster["chop_shop"] = ["beef"]
    s.chefs[1].garbage = GARBAGE_TOKENS
    with pytest.raises(IllegalAction, match="garbage supply is empty"):
        act(s, 0, {"type": "power", "use": "dumpster_dive", "market": "chop_shop", "ingredient": "beef"})
    s.chefs[1].garbage -= 1
    s = act(s, 0, {"type": "power", "use": "dumpster_dive", "market": "chop_shop", "ingredient": "beef"})
    assert s.chefs[0].ingredients.get("beef") and s.chefs[0].garbage == 1


# ---- face-down shelf cards ---------------------------------------------------------------------

def test_buy_the_top_face_down_shelf_card_at_your_market_at_its_price() -> None:
    s = new()
    s.chefs[0].money = 300
    s = claims_done(go(s, "veg_out", "island"))
    top, shelf = s.markets["veg_out"].shelf[-1], len(s.markets["veg_out"].shelf)
    have = s.chefs[0].ingredients.get(top, 0)
    assert {"type": "buy_shelf"} in GAME.legal(s, 0)
    s = act(s, 0, {"type": "buy_shelf"})
    assert s.chefs[0].ingredients[top] == have + 1 and s.chefs[0].money == 300 - MARKETS["veg_out"].price
    assert len(s.markets["veg_out"].shelf) == shelf - 1


def test_the_shelf_price_never_depends_on_the_hidden_card() -> None:
    s = claims_done(go(new(2, ["julia_chopper", "sal_monella"]), "chop_shop", "island"))
    s.chefs[0].money = 100  # Julia pays $100 less for meat: any meat card, sight unseen
    s = act(s, 0, {"type": "buy_shelf"})
    assert s.chefs[0].money == 0 and sum(s.chefs[0].ingredients.get(i, 0) for i in
                                         MARKETS["chop_shop"].counts) >= 1


def test_no_shelf_buying_before_claims_are_settled_at_the_island_or_at_the_mystery_mart() -> None:
    s = new(3)
    for p in s.chefs:
        p.money = 1000
    s = go(s, "veg_out", "island", "mystery_mart")
    with pytest.raises(IllegalAction, match="not settled"):
        act(s, 0, {"type": "buy_shelf"})
    s = claims_done(s)
    for seat in (1, 2):
        with pytest.raises(IllegalAction, match="only at an ingredient market"):
            act(s, seat, {"type": "buy_shelf"})
    assert {"type": "buy_shelf"} not in GAME.legal(s, 2)


def test_buying_a_shelf_card_needs_the_money() -> None:
    s = claims_done(go(new(), "chop_shop", "island"))
    s.chefs[0].money = 100
    with pytest.raises(IllegalAction, match="costs \\$200"):
        act(s, 0, {"type": "buy_shelf"})
    assert {"type": "buy_shelf"} not in GAME.legal(s, 0)


# ---- restaurants: dealt or chosen --------------------------------------------------------------

def choosing(n: int = 3, **options):
    return GAME.setup(NAMES[:n], GAME.options({"restaurants": "chosen", **options}), 1, 0)


def choose(s, seat: int, restaurant: str, at: int = 100):
    return act(s, seat, {"type": "choose_restaurant", "restaurant": restaurant}, at)


def test_option_restaurants_are_dealt_by_default_or_chosen() -> None:
    assert GAME.options({}).restaurants == "dealt"
    assert all(p.restaurant in RESTAURANTS for p in GAME.setup(NAMES[:3], GAME.options({}), 1, 0).chefs)
    with pytest.raises(ValueError):
        GAME.options({"restaurants": "drafted"})


def test_chosen_restaurants_are_chosen_on_day_1_before_the_income() -> None:
    s = choosing()
    assert s.phase == CHOOSE_RESTAURANT and s.day == 1
    assert all(p.restaurant == "" and p.money == 0 for p in s.chefs)
    assert {a["restaurant"] for a in GAME.legal(s, 0)} == set(pool().restaurants)
    assert GAME.view(s, 0)["players"][0]["restaurant"] is None


def test_restaurant_choices_are_secret_until_everyone_has_chosen_and_may_change() -> None:
    s = choose(choosing(), 0, "rising_sun")
    s, evs = GAME.apply(s, 0, {"type": "choose_restaurant", "restaurant": "wok_this_way"}, 200)
    assert choice_of(s, 0) == "wok_this_way" and all(e.to == (0,) for e in evs)
    for seat in (1, None):
        view = GAME.view(s, seat)
        assert "wok_this_way" not in json.dumps(view["phase_view"]["chosen"]) + json.dumps(view["players"])
        assert view["phase_view"]["chosen"] == [True, False, False]
    assert GAME.view(s, 0)["phase_view"]["your_choice"] == "wok_this_way"


def test_restaurant_choices_are_revealed_together_and_a_lone_choice_is_granted() -> None:
    s = choose(choose(choose(choosing(), 0, "rising_sun"), 1, "wok_this_way"), 2, "curry_favor")
    assert [p.restaurant for p in s.chefs] == ["rising_sun", "wok_this_way", "curry_favor"]
    assert s.phase == "money_move" and all(p.money == 300 for p in s.chefs)


def test_a_restaurant_chosen_by_several_goes_to_one_at_random_and_the_others_choose_again() -> None:
    winners = set()
    for seed in range(12):
        s = GAME.setup(NAMES[:3], GAME.options({"restaurants": "chosen"}), seed, 0)
        s = choose(choose(choose(s, 0, "rising_sun"), 1, "rising_sun"), 2, "curry_favor", at=500)
        winner = next(i for i in (0, 1) if s.chefs[i].restaurant == "rising_sun")
        loser = 1 - winner
        winners.add(winner)
        assert s.phase == CHOOSE_RESTAURANT and s.chefs[loser].restaurant == "" and s.phase_since == 500
        assert {a["restaurant"] for a in GAME.legal(s, loser)} == set(pool().restaurants) - {"rising_sun", "curry_favor"}
        assert GAME.legal(s, winner) == []
        s = choose(s, loser, "wok_this_way", at=600)
        assert s.chefs[loser].restaurant == "wok_this_way" and s.phase == "money_move"
    assert winners == {0, 1}


def test_a_chef_who_has_not_chosen_by_the_deadline_gets_a_free_restaurant_at_random() -> None:
    s = choose(choosing(), 0, "rising_sun")
    s = timeout(s)
    assert s.phase == "money_move" and s.chefs[0].restaurant == "rising_sun"
    rest = [p.restaurant for p in s.chefs[1:]]
    assert all(r in RESTAURANTS and r != "rising_sun" for r in rest) and len(set(rest)) == 2


def test_restaurants_chosen_with_sporks_out_come_from_its_pool_too() -> None:
    s = choosing(2, sporks_out=True)
    assert {a["restaurant"] for a in GAME.legal(s, 0)} == set(pool(sporks_out=True).restaurants)


def test_leak_other_chefs_restaurant_choices_are_re_dealt() -> None:
    s = choose(choosing(), 1, "rising_sun")
    assert GAME.view(GAME.determinize(s, 0, Rng(1)), 0) == GAME.view(s, 0)
    seen = {choice_of(GAME.determinize(s, 0, Rng(k)), 1) for k in range(30)}
    assert len(seen) > 2 and choice_of(GAME.determinize(s, 1, Rng(2)), 1) == "rising_sun"


def test_bots_choose_restaurants_and_play_a_chosen_match_to_the_end() -> None:
    out = play(GAME, 3, {"restaurants": "chosen"}, 5)
    assert GAME.result(out.state) is not None and out.rejected == 0
    assert sum(e.action["type"] == "choose_restaurant" for e in out.log) >= 3
