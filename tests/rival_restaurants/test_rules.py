"""Rival Restaurants: a test per rule (FACTS.md and our designed rulings)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from server.engine import TIMEOUT, IllegalAction
from server.games.rival_restaurants import GAME
from server.games.rival_restaurants.cards import (
    ACTION_CARDS,
    CHEFS,
    CORNERS,
    CUISINES,
    INGREDIENTS,
    ISLAND,
    LOCATIONS,
    MARKETS,
    RECIPES,
    RESTAURANTS,
    UPGRADES,
    pool,
)
from server.games.rival_restaurants.cooking import match

from .helpers import NAMES, act, claims_done, cook, events, give, go, hand, hold, new, serve_all, timeout, to_cook
from server.games.rival_restaurants.sporks_table import table


# ---- components ------------------------------------------------------------------------------

def test_board_has_the_island_in_the_centre_and_six_markets_four_on_corners() -> None:
    assert len(LOCATIONS) == 7 and LOCATIONS[ISLAND].position == (1, 1)
    assert len(MARKETS) == 6 and len(CORNERS) == 4
    assert all(LOCATIONS[c].position in {(0, 0), (2, 0), (0, 2), (2, 2)} for c in CORNERS)


def test_chop_shop_and_dairy_king_sell_at_200_carbs_fruit_and_vegetables_at_100() -> None:
    assert MARKETS["chop_shop"].name == "Chop Shop" and MARKETS["dairy_king"].name == "Dairy King"
    assert {MARKETS[m].category: MARKETS[m].price for m in MARKETS if m != "mystery_mart"} == {
        "meat": 200, "dairy": 200, "carbs": 100, "fruit": 100, "vegetables": 100}
    for m in MARKETS.values():
        for ingredient in m.counts:
            assert INGREDIENTS[ingredient].market == m.id


def test_the_mystery_mart_sells_chocolate_secret_sauce_tofu_wine_and_alien_goo() -> None:
    assert set(MARKETS["mystery_mart"].counts) == {"chocolate", "secret_sauce", "tofu", "wine", "alien_goo"}
    assert INGREDIENTS["alien_goo"].wild and not INGREDIENTS["wine"].wild


def test_there_are_12_chefs_8_restaurants_and_36_action_cards() -> None:
    base = pool()
    assert len(base.chefs) == 12 and len(base.restaurants) == 8 and len(base.action_deck) == 36
    assert {"biff_brobeque", "pork_knuckles", "clam_voyance"} <= set(base.chefs)
    assert RESTAURANTS["rising_sun"].cuisine == "japanese" and "luchador_picante" in base.restaurants
    assert len({RESTAURANTS[r].cuisine for r in base.restaurants}) == 8
    assert all(c.phase in ("money_move", "buy_barter", "cook_counter") for c in CHEFS.values())


def test_a_match_deals_only_from_the_pools_its_options_choose() -> None:
    base = GAME.setup(NAMES, GAME.options({}), 3)
    assert {p.chef for p in base.chefs} <= set(pool().chefs) and table(base) is None
    dealt = {r for d in base.decks.values() for r in d} | {r for p in base.chefs for r in p.recipes}
    assert dealt == set(pool().recipes) and len(dealt) == 40


def test_restaurants_level_up_at_3_7_and_12_named_rising_dough_hot_sauce_big_cheese() -> None:
    for r in RESTAURANTS.values():
        assert [(lv.threshold, lv.name) for lv in r.levels] == [(3, "Rising Dough"), (7, "Hot Sauce"), (12, "Big Cheese")]


def test_recipe_decks_are_basic_and_gourmet_with_every_cuisine_in_each() -> None:
    for content in (pool(), pool(sporks_out=True)):
        for kind in ("basic", "gourmet"):
            cuisines = {RECIPES[r].cuisine for r in content.recipes if RECIPES[r].kind == kind}
            assert cuisines == {RESTAURANTS[r].cuisine for r in content.restaurants}
    for r in RECIPES.values():
        assert r.points > 0 and r.garbage >= 1 and all(i in INGREDIENTS and not INGREDIENTS[i].wild
                                                       for i in r.ingredients)


def test_setup_gives_each_chef_one_ingredient_from_every_market_but_the_mystery_mart() -> None:
    s = GAME.setup(["A", "B", "C"], GAME.options({}), 4)
    for p in s.chefs:
        markets = Counter(INGREDIENTS[i].market for i, n in p.ingredients.items() for _ in range(n))
        assert markets == {m: 1 for m in MARKETS if m != "mystery_mart"}


def test_setup_gives_a_chef_a_restaurant_a_basic_and_a_gourmet_recipe_and_an_action_card() -> None:
    s = GAME.setup(["A", "B", "C", "D"], GAME.options({}), 5)
    assert len({p.chef for p in s.chefs}) == 4 and len({p.restaurant for p in s.chefs}) == 4
    for p in s.chefs:
        assert sorted(RECIPES[r].kind for r in p.recipes) == ["basic", "gourmet"]
        assert len(p.actions) == 1


def test_chefs_and_restaurants_are_dealt_at_random() -> None:
    deals = {tuple(p.chef for p in GAME.setup(["A", "B"], GAME.options({}), seed).chefs) for seed in range(12)}
    assert len(deals) > 6


def test_counters_are_face_up_and_shelves_face_down() -> None:
    s = new()
    view = GAME.view(s, 0)
    chop = next(loc for loc in view["board"] if loc["id"] == "chop_shop")
    assert [c["ingredient"] for c in chop["counter"]] == s.markets["chop_shop"].counter
    assert chop["shelf"] == len(s.markets["chop_shop"].shelf)
    assert "shelf" not in json.dumps(view["players"])


def test_the_first_day_starts_with_300_income() -> None:
    s = new(3)
    assert s.phase == "money_move" and [p.money for p in s.chefs] == [300, 300, 300]


# ---- MONEY and MOVE ------------------------------------------------------------------------

def test_picks_are_secret_until_everyone_has_picked() -> None:
    s = act(new(3), 0, {"type": "move", "location": "chop_shop"})
    for seat in (1, 2, None):
        view = GAME.view(s, seat)
        assert "chop_shop" not in json.dumps(view["players"]) and view["players"][0]["picked"]
    assert GAME.view(s, 0)["mine"]["pick"] == "chop_shop"


def test_a_pick_may_be_changed_until_the_reveal() -> None:
    s = act(new(), 0, {"type": "move", "location": "chop_shop"})
    s = act(s, 0, {"type": "move", "location": "dairy_king"})
    s = act(s, 1, {"type": "move", "location": "island"})
    assert s.today[0].location == "dairy_king"


def test_picks_are_revealed_together_when_all_have_picked() -> None:
    s = act(new(), 0, {"type": "move", "location": "chop_shop"})
    assert s.phase == "money_move" and s.today[0].location is None
    s, evs = events(s, 1, {"type": "move", "location": "fruit_punch"})
    assert s.phase == "buy_barter" and [t.location for t in s.today] == ["chop_shop", "fruit_punch"]
    assert any(e.type == "reveal" and e.to is None for e in evs)


def test_at_the_move_deadline_chefs_who_have_not_picked_go_to_the_island() -> None:
    s = act(new(), 0, {"type": "move", "location": "veg_out"})
    assert GAME.deadline(s) == s.phase_since + s.options.move_ms
    s = timeout(s)
    assert [t.location for t in s.today] == ["veg_out", ISLAND]


def test_nobody_moves_again_that_day() -> None:
    s = go(new(), "chop_shop", "island")
    with pytest.raises(IllegalAction, match="MONEY and MOVE"):
        act(s, 0, {"type": "move", "location": "island"})


def test_a_pick_must_be_one_of_the_seven_locations() -> None:
    with pytest.raises(IllegalAction, match="no such location"):
        act(new(), 0, {"type": "move", "location": "moon"})


# ---- BUY and BARTER: claims and auctions --------------------------------------------------

def chop(s, counter=("beef", "pork", "chicken", "fish", "shrimp", "bacon")):
    s.markets["chop_shop"].counter = list(counter)
    return s


def test_each_chef_first_claims_one_counter_card_before_buying() -> None:
    s = go(chop(new()), "chop_shop", "chop_shop")
    with pytest.raises(IllegalAction, match="not settled"):
        act(s, 0, {"type": "buy", "slot": 1})
    s = act(s, 0, {"type": "claim", "slot": 0})
    with pytest.raises(IllegalAction, match="already made your claim"):
        act(s, 0, {"type": "claim", "slot": 1})


def test_a_lone_claim_pays_the_price_and_takes_the_card_once_all_have_claimed() -> None:
    s = go(chop(new()), "chop_shop", "chop_shop")
    s = act(s, 0, {"type": "claim", "slot": 0})
    before = s.chefs[0].ingredients.get("beef", 0)
    assert s.chefs[0].money == 300 and s.markets["chop_shop"].counter[0] == "beef"
    s = act(s, 1, {"type": "claim", "slot": 2})
    assert s.chefs[0].ingredients["beef"] == before + 1 and s.chefs[0].money == 100
    assert s.chefs[1].money == 100 and s.markets["chop_shop"].counter[:3] == [None, "pork", None]


def test_two_claims_on_one_card_start_an_auction_among_the_claimants() -> None:
    s = go(chop(new(3)), "chop_shop", "chop_shop", "chop_shop")
    s = act(s, 0, {"type": "claim", "slot": 0})
    s = act(s, 1, {"type": "claim", "slot": 0})
    s = act(s, 2, {"type": "no_claim"})
    assert len(s.auctions) == 1 and s.auctions[0].bidders == [0, 1] and s.markets["chop_shop"].counter[0] == "beef"


def contested(n: int = 2):
    s = go(chop(new(n)), *["chop_shop"] * n)
    for seat in range(n):
        s = act(s, seat, {"type": "claim", "slot": 0})
    return s, s.auctions[0].id


def test_auction_opens_at_the_card_price_and_raises_by_at_least_100() -> None:
    s, a = contested()
    with pytest.raises(IllegalAction, match=r"at least \$200"):
        act(s, 0, {"type": "bid", "auction": a, "amount": 100})
    s = act(s, 0, {"type": "bid", "auction": a, "amount": 200})
    with pytest.raises(IllegalAction, match=r"at least \$300"):
        act(s, 1, {"type": "bid", "auction": a, "amount": 250})
    with pytest.raises(IllegalAction, match="already have the high bid"):
        act(s, 0, {"type": "bid", "auction": a, "amount": 300})


def test_the_high_bid_is_promised_money_that_cannot_be_spent_elsewhere() -> None:
    s, a = contested()
    s.chefs[0].money = 300
    s = act(s, 0, {"type": "bid", "auction": a, "amount": 300})
    assert s.available(0) == 0 and GAME.view(s, 1)["players"][0]["reserved"] == 300
    with pytest.raises(IllegalAction, match="to spend"):
        act(s, 0, {"type": "buy", "slot": 1})


def test_the_last_bidder_standing_pays_the_high_bid_and_takes_the_card() -> None:
    s, a = contested()
    s = act(s, 0, {"type": "bid", "auction": a, "amount": 200})
    s = act(s, 1, {"type": "bid", "auction": a, "amount": 300})
    with pytest.raises(IllegalAction, match="already have the high bid"):
        act(s, 1, {"type": "pass", "auction": a})
    s = act(s, 0, {"type": "pass", "auction": a})
    assert not s.auctions and s.chefs[1].money == 0 and s.chefs[1].ingredients.get("beef", 0) >= 1
    assert s.markets["chop_shop"].counter[0] is None and s.chefs[0].money == 300


def test_when_every_claimant_passes_the_card_stays_on_the_counter() -> None:
    s, a = contested()
    s = act(s, 0, {"type": "pass", "auction": a})
    s = act(s, 1, {"type": "pass", "auction": a})
    assert not s.auctions and s.markets["chop_shop"].counter[0] == "beef"
    s = act(s, 1, {"type": "buy", "slot": 0})
    assert s.markets["chop_shop"].counter[0] is None


def test_an_auction_unsettled_when_time_runs_out_gives_the_card_to_nobody() -> None:
    s, a = contested()
    beef = [p.ingredients.get("beef", 0) for p in s.chefs]
    s = act(s, 0, {"type": "bid", "auction": a, "amount": 200})
    s = timeout(s)
    assert s.phase == "cook_counter" and s.chefs[0].money == 300 and s.fizzled_auctions == 1
    assert [p.ingredients.get("beef", 0) for p in s.chefs] == beef


def test_the_claim_window_closing_settles_the_claims_made() -> None:
    s = go(chop(new()), "chop_shop", "chop_shop")
    s = act(s, 0, {"type": "claim", "slot": 4})
    assert GAME.deadline(s) == s.phase_since + s.options.claim_ms
    s = timeout(s)
    assert s.phase == "buy_barter" and s.markets["chop_shop"].claims_resolved
    assert s.markets["chop_shop"].counter[4] is None and s.chefs[0].money == 100
    assert GAME.deadline(s) == s.phase_since + s.options.market_ms


def test_a_claim_needs_the_money_to_pay_for_the_card() -> None:
    s = go(chop(new()), "chop_shop", "island")
    s.chefs[0].money = 100
    with pytest.raises(IllegalAction, match="cannot pay"):
        act(s, 0, {"type": "claim", "slot": 0})


def test_there_are_no_claims_at_the_island() -> None:
    s = go(new(), "island", "chop_shop")
    with pytest.raises(IllegalAction, match="Island"):
        act(s, 0, {"type": "claim", "slot": 0})


# ---- buying, the Island -------------------------------------------------------------------

def test_buy_anything_on_the_counter_at_your_own_location_only() -> None:
    s = claims_done(go(chop(new()), "chop_shop", "island"))
    s = act(s, 0, {"type": "buy", "slot": 5})
    assert s.chefs[0].money == 100 and s.markets["chop_shop"].counter[5] is None
    assert s.chefs[0].ingredients.get("bacon", 0) >= 1
    with pytest.raises(IllegalAction, match="at a market"):
        act(s, 1, {"type": "buy", "slot": 0})


def test_buying_needs_the_money() -> None:
    s = claims_done(go(chop(new()), "chop_shop", "island"))
    s.chefs[0].money = 150
    with pytest.raises(IllegalAction, match="costs"):
        act(s, 0, {"type": "buy", "slot": 0})


def test_the_island_sells_upgrades_and_action_cards() -> None:
    s = go(new(), "island", "chop_shop")
    s.chefs[0].money = 1000
    s = act(s, 0, {"type": "buy_upgrade", "upgrade": "compost_bin"})
    assert s.chefs[0].upgrades == ["compost_bin"] and s.chefs[0].money == 1000 - UPGRADES["compost_bin"].price
    with pytest.raises(IllegalAction, match="already have"):
        act(s, 0, {"type": "buy_upgrade", "upgrade": "compost_bin"})
    cards = len(s.chefs[0].actions)
    s = act(s, 0, {"type": "buy_action"})
    assert len(s.chefs[0].actions) == cards + 1 and s.chefs[0].money == 700 - 200


def test_garbage_is_dumped_at_the_island_for_100_each() -> None:
    s = go(new(), "island", "chop_shop")
    s.chefs[0].garbage = 3
    s = act(s, 0, {"type": "dump", "count": 2})
    assert s.chefs[0].garbage == 1 and s.chefs[0].money == 100
    with pytest.raises(IllegalAction, match="only at the Island"):
        act(s, 1, {"type": "dump", "count": 1})


# ---- barter -------------------------------------------------------------------------------

def test_barter_any_mix_between_any_two_chefs_anywhere_is_carried_out_whole() -> None:
    s = go(new(), "island", "chop_shop")
    s.chefs[0].ingredients, s.chefs[1].ingredients = {"rice": 2}, {"beef": 1}
    s.chefs[0].garbage = 1
    card = s.chefs[0].actions[0]
    s = act(s, 0, {"type": "offer", "to": 1, "give": {"ingredients": {"rice": 2}, "money": 100, "garbage": 1,
                                                       "actions": [card]},
                   "get": {"ingredients": ["beef"]}})
    offer = s.offers[0].id
    s = act(s, 1, {"type": "accept", "offer": offer})
    assert s.chefs[0].ingredients == {"beef": 1} and s.chefs[1].ingredients == {"rice": 2}
    assert (s.chefs[0].money, s.chefs[1].money) == (200, 400)
    assert (s.chefs[0].garbage, s.chefs[1].garbage) == (0, 1) and card in s.chefs[1].actions


def test_barter_falls_through_if_a_side_no_longer_holds_what_it_offered() -> None:
    s = go(new(), "island", "chop_shop")
    s.chefs[0].ingredients, s.chefs[1].ingredients = {"rice": 1}, {}
    s = act(s, 0, {"type": "offer", "to": 1, "give": {"ingredients": ["rice"]}, "get": {"money": 100}})
    s.chefs[1].money = 50
    s, evs = events(s, 1, {"type": "accept", "offer": s.offers[0].id})
    assert any(e.type == "trade_failed" for e in evs) and not s.offers
    assert s.chefs[0].ingredients == {"rice": 1} and s.chefs[1].money == 50


def test_barter_never_leaves_a_chef_with_two_recipes_of_a_kind() -> None:
    s = go(new(), "island", "chop_shop")
    basic = next(r for r in s.chefs[0].recipes if RECIPES[r].kind == "basic")
    s = act(s, 0, {"type": "offer", "to": 1, "give": {"recipes": [basic]}, "get": {"money": 100}})
    s, evs = events(s, 1, {"type": "accept", "offer": s.offers[0].id})
    assert any(e.type == "trade_failed" and "one basic" in e.text for e in evs)
    other = next(r for r in s.chefs[1].recipes if RECIPES[r].kind == "basic")
    s = act(s, 0, {"type": "offer", "to": 1, "give": {"recipes": [basic]}, "get": {"recipes": [other]}})
    s = act(s, 1, {"type": "accept", "offer": s.offers[0].id})
    assert other in s.chefs[0].recipes and basic in s.chefs[1].recipes


def test_you_can_only_offer_what_you_hold() -> None:
    s = go(new(), "island", "chop_shop")
    s.chefs[0].ingredients = {}
    with pytest.raises(IllegalAction, match="do not hold"):
        act(s, 0, {"type": "offer", "to": 1, "give": {"ingredients": ["beef"]}, "get": {}})
    with pytest.raises(IllegalAction, match="must hold something"):
        act(s, 0, {"type": "offer", "to": 1, "give": {}, "get": {}})


def test_an_offer_may_be_declined_or_withdrawn() -> None:
    s = go(new(), "island", "chop_shop")
    s = act(s, 0, {"type": "offer", "to": 1, "give": {"money": 100}, "get": {}})
    s = act(s, 0, {"type": "offer", "to": 1, "give": {"money": 200}, "get": {}})
    first, second = s.offers[0].id, s.offers[1].id
    with pytest.raises(IllegalAction, match="not your offer"):
        act(s, 1, {"type": "withdraw", "offer": first})
    s = act(s, 1, {"type": "decline", "offer": first})
    s = act(s, 0, {"type": "withdraw", "offer": second})
    assert not s.offers and s.chefs[1].money == 300


def test_a_chef_has_at_most_four_open_offers() -> None:
    s = go(new(), "island", "chop_shop")
    for _ in range(4):
        s = act(s, 0, {"type": "offer", "to": 1, "give": {"money": 10}, "get": {}})
    with pytest.raises(IllegalAction, match="at most 4"):
        act(s, 0, {"type": "offer", "to": 1, "give": {"money": 10}, "get": {}})


def test_offers_are_seen_only_by_the_two_chefs() -> None:
    s = go(new(3), "island", "chop_shop", "veg_out")
    s = act(s, 0, {"type": "offer", "to": 1, "give": {"money": 100}, "get": {}})
    assert GAME.view(s, 0)["phase_view"]["offers"]["outgoing"][0]["to"] == 1
    assert GAME.view(s, 1)["phase_view"]["offers"]["incoming"][0]["from"] == 0
    for seat in (2, None):
        assert GAME.view(s, seat)["phase_view"]["offers"] == {"incoming": [], "outgoing": []}


# ---- the end of the market ------------------------------------------------------------------

def test_the_market_ends_early_when_every_chef_says_done() -> None:
    s = go(new(), "island", "island")
    s = act(s, 0, {"type": "done"})
    assert s.phase == "buy_barter" and GAME.legal(s, 0) == []
    s = act(s, 1, {"type": "done"})
    assert s.phase == "cook_counter"


def test_the_market_closes_when_its_time_runs_out() -> None:
    s = go(new(), "island", "island", at=4000)
    assert GAME.deadline(s) == 4000 + 60_000
    with pytest.raises(IllegalAction, match="Nothing is due"):
        act(s, None, dict(TIMEOUT), 63_999)
    s = timeout(s)
    assert s.phase == "cook_counter"


def test_saying_done_waives_the_claim_passes_auctions_and_closes_offers() -> None:
    s, a = contested(3)
    s = act(s, 2, {"type": "offer", "to": 0, "give": {"money": 100}, "get": {}})
    s = act(s, 0, {"type": "done"})
    assert s.auctions[0].bidders == [1, 2] and not s.offers


# ---- COOK and COUNTER -------------------------------------------------------------------

def cooking(n=2, chefs=None, restaurants=None, recipes=("onigiri", "sushi_platter"), pantry=("rice", "seaweed")):
    s = new(n, chefs, restaurants)
    hold(s, 0, *recipes)
    s.chefs[0].ingredients = {}
    give(s, 0, *pantry)
    return to_cook(go(s, *["island"] * n))


def test_a_dish_scores_its_points_plus_the_cuisine_bonus() -> None:
    s = cook(cooking(), 0, "onigiri")  # The Rising Sun is Japanese: 2 + 1
    s = serve_all(s)
    assert s.chefs[0].popularity == 3 and s.last_cook[0]["points"] == 3


def test_a_dish_of_another_cuisine_scores_its_points_only() -> None:
    s = cooking(restaurants=["luchador_picante", "rising_sun"])
    s = serve_all(cook(s, 0, "onigiri"))
    assert s.chefs[0].popularity == 2


def test_each_garbage_already_held_costs_one_popularity() -> None:
    s = cooking()
    s.chefs[0].garbage, s.chefs[0].popularity = 2, 5
    s = serve_all(cook(s, 0, "onigiri"))
    assert s.chefs[0].popularity == 5 + 3 - 2 and s.last_cook[0]["penalty"] == 2


def test_a_dish_may_score_below_zero_but_popularity_never_drops_below_zero() -> None:
    s = cooking()
    s.chefs[0].garbage, s.chefs[0].popularity = 5, 1
    s = serve_all(cook(s, 0, "onigiri"))
    assert s.last_cook[0]["score"] == -2 and s.chefs[0].popularity == 0


def test_after_cooking_take_the_garbage_and_draw_a_recipe_of_the_same_kind() -> None:
    s = cooking()
    s = serve_all(cook(s, 0, "onigiri"))
    assert s.chefs[0].garbage == RECIPES["onigiri"].garbage
    assert "onigiri" not in s.chefs[0].recipes and "onigiri" in s.recipe_discards["basic"]
    assert sorted(RECIPES[r].kind for r in s.chefs[0].recipes) == ["basic", "gourmet"]


def test_used_ingredients_go_to_their_markets_discard_piles() -> None:
    s = cooking()
    rice = len(s.markets["carb_wash"].discard)
    s = serve_all(cook(s, 0, "onigiri"))
    assert s.chefs[0].ingredients == {}
    assert s.markets["carb_wash"].discard.count("rice") >= 1 and len(s.markets["carb_wash"].discard) >= rice


def test_a_chef_cooks_at_most_one_recipe_a_day() -> None:
    s = cooking(pantry=("rice", "seaweed", "fish", "shrimp", "rice", "seaweed", "avocado"))
    s = cook(s, 0, "onigiri")
    with pytest.raises(IllegalAction, match="another recipe"):
        cook(s, 0, "sushi_platter")


def test_you_cannot_cook_without_the_ingredients() -> None:
    s = cooking(pantry=("rice",))
    with pytest.raises(IllegalAction, match="ingredients"):
        cook(s, 0, "onigiri")
    with pytest.raises(IllegalAction, match="do not hold"):
        cook(s, 0, "lasagna")


def test_declared_dishes_stay_secret_until_everyone_has_served() -> None:
    s = cook(cooking(), 0, "onigiri")
    s = act(s, 0, {"type": "serve"})
    assert "onigiri" not in json.dumps(GAME.view(s, 1)["players"][0]["ready"]) and GAME.view(s, 1)["players"][0]["ready"]
    assert "onigiri" not in json.dumps({k: v for k, v in GAME.view(s, 1).items() if k != "players"})
    assert GAME.view(s, 0)["mine"]["dishes"] == [{"recipe": "onigiri", "extras": []}]


def test_at_the_cook_deadline_chefs_cook_what_they_have_declared() -> None:
    s = cook(cooking(), 0, "onigiri")
    s = timeout(s)
    assert s.chefs[0].popularity == 3 and s.phase == "money_move" and s.day == 2


def test_alien_goo_stands_in_for_any_one_ingredient() -> None:
    s = serve_all(cook(cooking(pantry=("rice", "alien_goo")), 0, "onigiri"))
    assert s.chefs[0].popularity == 3 and s.last_cook[0]["subs"] == [["seaweed", "alien_goo"]]
    assert match(RECIPES["sushi_platter"], {"alien_goo": 4, "rice": 1}, []) is not None
    assert match(RECIPES["sushi_platter"], {"alien_goo": 3, "rice": 1}, []) is None


def test_levels_pay_their_reward_once_when_first_reached() -> None:
    s = cooking()
    s.chefs[0].popularity = 1
    money = s.chefs[0].money
    s = serve_all(cook(s, 0, "onigiri"))  # 1 + 3 = 4: Rising Dough of The Rising Sun, $300
    assert s.chefs[0].levels == [3] and s.chefs[0].money == money + 300 + 300  # and day 2's income
    s = serve_all(to_cook(go(s, "island", "island")))
    assert s.chefs[0].levels == [3] and s.chefs[0].money == money + 900
    assert GAME.view(s, 1)["players"][0]["restaurant"]["levels"][0]["reached"] is True


def test_counters_are_restocked_from_the_shelves_and_the_oldest_card_rotates_out() -> None:
    s = claims_done(go(chop(new()), "chop_shop", "island"))
    s = act(s, 0, {"type": "buy", "slot": 2})
    top = s.markets["chop_shop"].shelf[-2:]
    s = serve_all(to_cook(s))
    assert s.markets["chop_shop"].counter == ["pork", "fish", "shrimp", "bacon", top[1], top[0]]
    assert "beef" in s.markets["chop_shop"].discard


def test_an_empty_shelf_is_refilled_from_the_markets_discard_pile() -> None:
    s = claims_done(go(chop(new()), "chop_shop", "island"))
    m = s.markets["chop_shop"]
    m.discard, m.shelf = [*m.discard, *m.shelf], []
    s = serve_all(to_cook(act(s, 0, {"type": "buy", "slot": 0})))
    assert None not in s.markets["chop_shop"].counter


def test_a_chef_left_without_a_recipe_of_a_kind_draws_one() -> None:
    s = go(new(), "island", "island")
    hold(s, 1, next(r for r in s.chefs[1].recipes if RECIPES[r].kind == "gourmet"))
    basic = next(r for r in s.chefs[0].recipes if RECIPES[r].kind == "basic")
    s = act(s, 0, {"type": "offer", "to": 1, "give": {"recipes": [basic]}, "get": {}})
    s = act(s, 1, {"type": "accept", "offer": s.offers[0].id})
    assert len(s.chefs[0].recipes) == 1 and basic in s.chefs[1].recipes
    s = serve_all(to_cook(s))
    assert sorted(RECIPES[r].kind for r in s.chefs[0].recipes) == ["basic", "gourmet"]


# ---- action cards: one a day, in their phase ---------------------------------------------

def test_one_action_card_a_day() -> None:
    s = new()
    first, second = hand(s, 0, "windfall"), hand(s, 0, "windfall")
    s = act(s, 0, {"type": "play", "card": first})
    with pytest.raises(IllegalAction, match="already played"):
        act(s, 0, {"type": "play", "card": second})


def test_an_action_card_is_played_only_in_its_phase() -> None:
    s = new()
    card = hand(s, 0, "rave_review")
    with pytest.raises(IllegalAction, match="COOK and COUNTER"):
        act(s, 0, {"type": "play", "card": card})


def test_a_played_action_card_goes_to_the_discard_pile() -> None:
    s = new()
    card = hand(s, 0, "windfall")
    s = act(s, 0, {"type": "play", "card": card})
    assert card in s.action_discard and card not in s.chefs[0].actions


# ---- the end --------------------------------------------------------------------------------

def test_the_game_ends_on_the_day_someone_reaches_20() -> None:
    s = cooking()
    s.chefs[0].popularity = 17
    s = serve_all(cook(s, 0, "onigiri"))
    assert s.phase == "over" and GAME.result(s).winners == [0] and GAME.deadline(s) is None
    assert GAME.legal(s, 0) == [] and GAME.view(s, 0)["result"]["winners"] == [0]


def test_tie_break_most_popularity_then_gourmet_recipes_cooked_then_money() -> None:
    s = cooking()
    s.phase = "over"
    for p, pop, gourmet, money in zip(s.chefs, (22, 22), (1, 1), (500, 400)):
        p.popularity, p.gourmet_cooked, p.money = pop, gourmet, money
    assert GAME.result(s).winners == [0]
    s.chefs[1].gourmet_cooked = 2
    assert GAME.result(s).winners == [1]
    s.chefs[1].popularity = 23
    s.chefs[1].gourmet_cooked = 0
    assert GAME.result(s).winners == [1]
    s.chefs[0].popularity, s.chefs[1].popularity, s.chefs[1].gourmet_cooked, s.chefs[1].money = 22, 22, 1, 500
    assert GAME.result(s).winners == [0, 1]


def test_designed_the_closing_day_ends_the_game_with_the_most_popular_chef() -> None:
    s = new(max_days=3)
    for _ in range(3):
        s = serve_all(to_cook(go(s, "island", "island")))
    assert s.phase == "over" and s.day == 3 and "after 3 days" in GAME.result(s).reason


def test_actions_after_the_deadline_wait_for_the_clock() -> None:
    s = new()
    with pytest.raises(IllegalAction, match="Time is up"):
        act(s, 0, {"type": "move", "location": "island"}, at=s.phase_since + s.options.move_ms + 1)


def test_every_view_has_game_you_phase_prompt_and_players() -> None:
    s = go(new(3), "chop_shop", "island", "veg_out")
    for seat in (0, 1, 2, None):
        view = GAME.view(s, seat)
        assert view["game"] == "rival-restaurants" and view["you"] == seat and view["phase"] == "buy_barter"
        assert isinstance(view["prompt"], str) and view["prompt"]
        assert all({"name", "score"} <= set(p) for p in view["players"])
    assert "Claim" in GAME.view(s, 0)["prompt"] and "Island" in GAME.view(s, 1)["prompt"]


def test_a_view_shows_the_viewers_own_price_of_each_counter_card() -> None:
    """Julia Chopper's Sweet Talk: $100 less for meat she buys at her location; the view
    prices each counter card for its viewer as the rules would charge them."""
    s = go(new(2, chefs=["julia_chopper", "sal_monella"]), "chop_shop", "chop_shop")
    julia, sal = (next(m for m in GAME.view(s, seat)["board"] if m["id"] == "chop_shop") for seat in (0, 1))
    for mine, theirs in zip(julia["counter"], sal["counter"], strict=True):
        if mine is None:
            continue
        assert theirs["your_price"] == mine["price"]
        assert mine["your_price"] == max(0, mine["price"] - 100)
    spectator = next(m for m in GAME.view(s, None)["board"] if m["id"] == "chop_shop")
    assert all(c is None or c["your_price"] is None for c in spectator["counter"])


def test_a_view_says_when_the_phase_began_and_how_long_it_lasts() -> None:
    s = new()
    view = GAME.view(s, 0)
    assert view["phase_length"] == s.options.move_ms
    assert view["deadline"] == view["phase_started"] + view["phase_length"]


def test_the_rules_page_lists_every_chef_restaurant_card_upgrade_recipe_and_ingredient() -> None:
    page = (Path(__file__).parents[2] / "docs" / "rules" / "rival-restaurants.md").read_text()
    names = [c.name for c in CHEFS.values()] + [r.name for r in RESTAURANTS.values()]
    names += [u.name for u in UPGRADES.values()] + [r.name for r in RECIPES.values()]
    names += [i.name for i in INGREDIENTS.values()] + [a.name for a in ACTION_CARDS.values()]
    names += [m.name for m in MARKETS.values()]
    assert [n for n in names if n not in page] == []
    for c in CHEFS.values():
        assert c.text in page, f"{c.name}'s power text differs on the rules page"
    for r in RECIPES.values():
        row = f"| {r.name} | {CUISINES[r.cuisine]} | {', '.join(INGREDIENTS[i].name for i in r.ingredients)} |"
        assert f"{row} {r.points} | {r.garbage} |" in page, f"{r.name} differs on the rules page"
    for restaurant in RESTAURANTS.values():
        assert all(lv.text in page for lv in restaurant.levels)
    for u in UPGRADES.values():
        assert f"| **{u.name}** | ${u.price} | {u.text} |" in page
