"""Rival Restaurants: a test per chef, restaurant level, action card, upgrade and special —
each checks what the card does through the real rules."""

from __future__ import annotations

import pytest

from server.engine import IllegalAction
from server.games.rival_restaurants import GAME
from server.games.rival_restaurants.cards import RECIPES, RESTAURANTS, UPGRADES, pool
from server.games.rival_restaurants.cooking import level_ups
from server.games.rival_restaurants.moments import fire

from .helpers import act, claims_done, cook, give, go, hand, hold, new, serve_all, to_cook


def kitchen(chef: str = "clam_voyance", restaurant: str = "rising_sun", recipes=("onigiri", "sushi_platter"),
            pantry=("rice", "seaweed"), garbage: int = 0):
    """Seat 0 with this chef and restaurant, these recipes and ingredients, in COOK and COUNTER."""
    s = new(2, [chef, "sal_monella"], [restaurant, "luchador_picante"])
    hold(s, 0, *recipes)
    s.chefs[0].ingredients = {}
    give(s, 0, *pantry)
    s.chefs[0].garbage = garbage
    return to_cook(go(s, "island", "island"))


def cooked(s, recipe, extras=None):
    """Cook ``recipe`` with seat 0, everyone serves; the record of the dish."""
    s = serve_all(cook(s, 0, recipe, extras))
    return s, next(r for r in s.last_cook if r["seat"] == 0)


# ---- chefs -------------------------------------------------------------------------------------

def test_chef_biff_brobeque_uses_meat_for_any_vegetable() -> None:
    s = kitchen("biff_brobeque", recipes=("teriyaki_chicken", "sushi_platter"), pantry=("chicken", "rice", "beef"))
    s, dish = cooked(s, "teriyaki_chicken")
    assert dish["subs"] == [["garlic", "beef"]]
    with pytest.raises(IllegalAction):
        cook(kitchen(recipes=("teriyaki_chicken", "sushi_platter"), pantry=("chicken", "rice", "beef")),
             0, "teriyaki_chicken")


def test_chef_biff_brobeque_is_paid_300_and_1_popularity_for_a_dish_with_two_meats() -> None:
    s = kitchen("biff_brobeque", "rising_sun", recipes=("hot_dog", "smokehouse"),
                pantry=("beef", "pork", "potato", "onion", "chili", "pork", "bread", "onion"))
    money = s.chefs[0].money
    s.chefs[0].levels = [3, 7, 12]
    s = serve_all(cook(s, 0, "smokehouse"))
    assert s.chefs[0].money == money + 300 + 300  # the bonus, and the next day's income
    assert s.last_cook[0]["points"] == 7 + 1  # and 1 extra popularity
    s2 = kitchen("biff_brobeque", "rising_sun", recipes=("hot_dog", "smokehouse"), pantry=("pork", "bread", "onion"))
    s2.chefs[0].levels = [3, 7, 12]
    s2 = serve_all(cook(s2, 0, "hot_dog"))
    assert s2.chefs[0].money == money + 300 and s2.last_cook[0]["points"] == 3


def test_chef_pork_knuckles_takes_an_ingredient_at_his_location_paying_price_plus_200() -> None:
    s = new(3, ["pork_knuckles", "sal_monella", "clam_voyance"])
    s.chefs[1].ingredients = {"onion": 1}
    s = go(s, "veg_out", "veg_out", "chop_shop")
    s = act(s, 0, {"type": "power", "target": 1, "ingredient": "onion"})
    assert s.chefs[0].ingredients.get("onion", 0) >= 1 and s.chefs[1].ingredients == {}
    assert (s.chefs[0].money, s.chefs[1].money) == (0, 600)
    with pytest.raises(IllegalAction, match="already used"):
        act(s, 0, {"type": "power", "target": 2, "ingredient": "beef"})


def test_chef_pork_knuckles_only_shakes_down_chefs_at_his_location_and_never_at_the_mystery_mart() -> None:
    s = new(3, ["pork_knuckles", "sal_monella", "clam_voyance"])
    s.chefs[1].ingredients, s.chefs[2].ingredients = {"beef": 1}, {"beef": 1}
    s = go(s, "mystery_mart", "mystery_mart", "chop_shop")
    with pytest.raises(IllegalAction, match="Mystery Mart"):
        act(s, 0, {"type": "power", "target": 1, "ingredient": "beef"})
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "power", "target": 2, "ingredient": "beef"})


def test_chef_clam_voyance_stops_the_first_play_of_the_chef_he_foresaw() -> None:
    s = new(2, ["clam_voyance", "sal_monella"])
    card = hand(s, 1, "windfall")
    s = act(s, 0, {"type": "move", "location": "island", "foresee": 1})
    s = act(s, 1, {"type": "play", "card": card})
    assert s.chefs[1].money == 300 and card in s.action_discard
    assert s.chefs[0].money == 300 + 200  # his reward, paid when it comes true


def test_chef_clam_voyance_stops_one_play_a_day_and_only_of_the_foreseen_chef() -> None:
    s = new(3, ["clam_voyance", "sal_monella", "pork_knuckles"])
    s.chefs[1].garbage = 2
    card = hand(s, 1, "health_inspection")
    s = act(s, 0, {"type": "move", "location": "veg_out", "foresee": 1})
    s = act(s, 1, {"type": "move", "location": "veg_out"})
    s = act(s, 2, {"type": "move", "location": "veg_out"})
    s = act(s, 1, {"type": "power", "target": 2})
    assert (s.chefs[1].garbage, s.chefs[2].garbage) == (2, 0) and s.today[0].foreseen_hit
    s = act(s, 1, {"type": "play", "card": card, "target": 2})
    assert s.chefs[2].garbage == 2  # his foresight works once a day
    s.chefs[0].ingredients = {"bread": 1}
    s = act(s, 2, {"type": "power", "target": 0, "ingredient": "bread"})
    assert s.chefs[2].ingredients.get("bread") == 1  # a chef he did not foresee


def test_only_clam_voyance_foresees() -> None:
    with pytest.raises(IllegalAction, match="Only Clam-Voyance"):
        act(new(2, ["sal_monella", "clam_voyance"]), 0, {"type": "move", "location": "island", "foresee": 1})


def test_chef_penny_pincher_earns_100_more_income() -> None:
    s = new(2, ["penny_pincher", "sal_monella"])
    assert [p.money for p in s.chefs] == [400, 300]


def test_chef_marco_polenta_earns_400_alone_at_his_location() -> None:
    s = go(new(3, ["marco_polenta", "sal_monella", "clam_voyance"]), "veg_out", "island", "island")
    assert s.chefs[0].money == 700
    s = go(new(3, ["marco_polenta", "sal_monella", "clam_voyance"]), "veg_out", "veg_out", "island")
    assert s.chefs[0].money == 300
    s = go(new(3, ["marco_polenta", "sal_monella", "clam_voyance"]), "mystery_mart", "island", "island")
    assert s.chefs[0].money == 300  # location-based powers do not work at the Mystery Mart


def test_chef_julia_chopper_pays_100_less_for_meat_and_dairy_at_her_location() -> None:
    s = new(2, ["julia_chopper", "sal_monella"])
    s.markets["chop_shop"].counter = ["beef", "pork", "chicken", "fish", "shrimp", "bacon"]
    s = claims_done(go(s, "chop_shop", "island"))
    s = act(s, 0, {"type": "buy", "slot": 0})
    assert s.chefs[0].money == 200
    s = new(2, ["julia_chopper", "sal_monella"])
    s.markets["veg_out"].counter = ["onion"] * 6
    s = claims_done(go(s, "veg_out", "island"))
    assert act(s, 0, {"type": "buy", "slot": 0}).chefs[0].money == 200  # vegetables: full price


def test_chef_tex_mex_rex_earns_250_per_barter_where_both_give_at_most_500_a_day() -> None:
    s = go(new(2, ["tex_mex_rex", "sal_monella"]), "island", "island")
    s.chefs[0].ingredients = {"rice": 5}
    s = act(s, 1, {"type": "offer", "to": 0, "give": {"money": 10}, "get": {}})
    s = act(s, 0, {"type": "accept", "offer": s.offers[0].id})
    assert s.chefs[0].money == 310  # a gift is not a barter
    for _ in range(3):
        s = act(s, 1, {"type": "offer", "to": 0, "give": {"money": 10}, "get": {"ingredients": ["rice"]}})
        s = act(s, 0, {"type": "accept", "offer": s.offers[0].id})
    assert s.chefs[0].money == 310 + 30 + 500 and s.today[0].trade_bonus == 500
    assert s.chefs[1].money == 300 - 40  # his partner gets nothing extra


def test_chef_sal_monella_pays_another_chef_200_to_take_one_of_her_garbage() -> None:
    s = go(new(2, ["sal_monella", "clam_voyance"]), "island", "chop_shop")
    with pytest.raises(IllegalAction, match="no garbage"):
        act(s, 0, {"type": "power", "target": 1})
    s.chefs[0].garbage = 2
    s = act(s, 0, {"type": "power", "target": 1})
    assert (s.chefs[0].garbage, s.chefs[1].garbage) == (1, 1)
    assert (s.chefs[0].money, s.chefs[1].money) == (100, 500)


def test_chef_dumpster_dan_takes_one_garbage_less_per_recipe() -> None:
    s, dish = cooked(kitchen("dumpster_dan", recipes=("teriyaki_chicken", "sushi_platter"),
                             pantry=("chicken", "rice", "garlic")), "teriyaki_chicken")
    assert dish["garbage"] == RECIPES["teriyaki_chicken"].garbage - 1


def test_chef_auntie_pasta_cooks_a_basic_recipe_missing_one_cheap_ingredient_once_a_day() -> None:
    s, dish = cooked(kitchen("auntie_pasta", pantry=("rice",)), "onigiri")
    assert dish["subs"] == [["seaweed", None]] and s.chefs[0].popularity == 3
    with pytest.raises(IllegalAction):  # not meat or dairy
        cook(kitchen("auntie_pasta", recipes=("quesadilla", "sushi_platter"), pantry=("tortilla",)), 0, "quesadilla")
    with pytest.raises(IllegalAction):  # not a gourmet recipe
        cook(kitchen("auntie_pasta", pantry=("fish", "shrimp", "rice", "seaweed")), 0, "sushi_platter")
    s = kitchen("auntie_pasta", pantry=("rice", "rice", "noodles", "egg"))
    s.chefs[0].upgrades = ["second_stove"]
    hold(s, 0, "onigiri", "tamago_ramen")  # two basics: only one grandma's secret a day
    s = cook(s, 0, "onigiri")
    with pytest.raises(IllegalAction):
        cook(s, 0, "tamago_ramen")


def test_chef_dr_umami_uses_ingredients_of_the_same_market_twice_per_dish() -> None:
    s, dish = cooked(kitchen("dr_umami", pantry=("rice", "onion")), "onigiri")
    assert dish["subs"] == [["seaweed", "onion"]]
    _, dish = cooked(kitchen("dr_umami", recipes=("chow_mein", "sushi_platter"), pantry=("noodles", "onion", "chili")),
                     "chow_mein")
    assert dish["subs"] == [["mushroom", "chili"], ["garlic", "onion"]]
    with pytest.raises(IllegalAction):
        cook(kitchen("dr_umami", recipes=("aloo_gobi", "sushi_platter"), pantry=("rice", "garlic", "garlic", "garlic")),
             0, "aloo_gobi")


def test_chef_gordon_rampage_earns_one_more_for_a_gourmet_recipe() -> None:
    s, dish = cooked(kitchen("gordon_rampage", pantry=("fish", "shrimp", "rice", "seaweed", "avocado")),
                     "sushi_platter")
    assert dish["points"] == 7 + 1 + 1  # the recipe, the cuisine bonus, Gordon
    s, dish = cooked(kitchen("gordon_rampage"), "onigiri")
    assert dish["points"] == 3


def test_every_base_chef_has_a_test_here() -> None:
    names = {name for name in globals() if name.startswith("test_chef_")}
    assert all(any(c in n for n in names) for c in pool().chefs)  # SPORKS Out's: test_sporks.py


# ---- restaurants: every level-up reward ---------------------------------------------------

def _outcome(restaurant: str, threshold: int) -> dict[str, int]:
    """What reaching a level does: money, action cards, garbage now; income, dish points and
    garbage from then on (against the same chef before the level)."""
    s = new(2, ["clam_voyance", "sal_monella"], [restaurant, "rising_sun" if restaurant != "rising_sun" else "wok_this_way"])
    p = s.chefs[0]
    p.garbage, p.popularity = 5, threshold
    p.levels = [lv.threshold for lv in RESTAURANTS[restaurant].levels if lv.threshold < threshold]
    cuisine = RESTAURANTS[restaurant].cuisine
    own = next(r for r in RECIPES.values() if r.cuisine == cuisine and r.kind == "basic")
    foreign = next(r for r in RECIPES.values() if r.cuisine != cuisine and r.kind == "gourmet")

    def lasting():
        return (fire(s, "income", [0], {"income": 0})[0]["income"],
                fire(s, "dish_points", [0], {"points": 0, "recipe": own})[0]["points"],
                fire(s, "dish_points", [0], {"points": 0, "recipe": foreign})[0]["points"],
                fire(s, "dish_garbage", [0], {"garbage": 0, "recipe": own})[0]["garbage"])

    before = (p.money, len(p.actions), p.garbage, *lasting())
    level_ups(s, 0, threshold - 1)
    after = (p.money, len(p.actions), p.garbage, *lasting())
    keys = ("money", "actions", "garbage", "income", "own cuisine points", "other gourmet points", "dish garbage")
    return {k: a - b for k, a, b in zip(keys, after, before) if a != b}


LEVELS = {
    ("rising_sun", 3): {"money": 300},
    ("rising_sun", 7): {"dish garbage": -1},
    ("rising_sun", 12): {"garbage": -5},
    ("luchador_picante", 3): {"money": 300},
    ("luchador_picante", 7): {"own cuisine points": 1},
    ("luchador_picante", 12): {"own cuisine points": 1, "other gourmet points": 1},
    ("pasta_la_vista", 3): {"income": 100},
    ("pasta_la_vista", 7): {"own cuisine points": 1},
    ("pasta_la_vista", 12): {"garbage": -5},
    ("wok_this_way", 3): {"money": 200, "garbage": -2},
    ("wok_this_way", 7): {"own cuisine points": 1},
    ("wok_this_way", 12): {"dish garbage": -1},
    ("curry_favor", 3): {"money": 300},
    ("curry_favor", 7): {"income": 100},
    ("curry_favor", 12): {"dish garbage": -1},
    ("crepe_expectations", 3): {"money": 300},
    ("crepe_expectations", 7): {"own cuisine points": 1},
    ("crepe_expectations", 12): {"garbage": -5},
    ("grill_seeker", 3): {"money": 200},
    ("grill_seeker", 7): {"money": 200, "garbage": -2},
    ("grill_seeker", 12): {"own cuisine points": 1, "other gourmet points": 1},
    ("feta_attraction", 3): {"garbage": -2},
    ("feta_attraction", 7): {"own cuisine points": 1},
    ("feta_attraction", 12): {"money": 300, "actions": 2},
}


@pytest.mark.parametrize("restaurant,threshold", sorted(LEVELS), ids=lambda v: str(v))
def test_restaurant_level_up_reward(restaurant: str, threshold: int) -> None:
    assert _outcome(restaurant, threshold) == LEVELS[(restaurant, threshold)]


def test_every_base_restaurant_level_has_a_test() -> None:
    assert set(LEVELS) == {(r, lv.threshold) for r in pool().restaurants for lv in RESTAURANTS[r].levels}


def test_a_level_that_replaces_the_earlier_ones_hides_them(monkeypatch) -> None:
    from dataclasses import replace

    from server.games.rival_restaurants import cards

    base = RESTAURANTS["grill_seeker"]
    levels = (base.levels[0], replace(base.levels[1], effects=(cards._income(100),)),
              replace(base.levels[2], effects=(cards._income(300),), replaces_previous=True))
    monkeypatch.setitem(RESTAURANTS, "grill_seeker", replace(base, levels=levels))
    s = new(2, restaurants=["grill_seeker", "rising_sun"])
    s.chefs[0].levels = [3, 7]
    assert fire(s, "income", [0], {"income": 0})[0]["income"] == 100
    s.chefs[0].levels = [3, 7, 12]
    assert fire(s, "income", [0], {"income": 0})[0]["income"] == 300


# ---- action cards --------------------------------------------------------------------------

def market_day(n=2, where=("island", "island"), chefs=None):
    return go(new(n, chefs), *where)


def test_action_windfall_gains_300() -> None:
    s = new()
    s = act(s, 0, {"type": "play", "card": hand(s, 0, "windfall")})
    assert s.chefs[0].money == 600


def test_action_flash_sale_takes_100_off_what_you_buy_or_claim_at_your_location_today() -> None:
    s = new()
    s.markets["veg_out"].counter = ["onion", "garlic", "chili", "onion", "garlic", "chili"]
    s = go(s, "veg_out", "island")
    s = act(s, 0, {"type": "play", "card": hand(s, 0, "flash_sale")})
    s = act(s, 0, {"type": "claim", "slot": 0})
    s = act(s, 0, {"type": "buy", "slot": 1})
    assert s.chefs[0].money == 300


def test_action_flash_sale_does_not_work_at_the_mystery_mart() -> None:
    s = new()
    s.markets["mystery_mart"].counter = ["chocolate", "tofu", "wine"]
    s = go(s, "mystery_mart", "island")
    s = act(s, 0, {"type": "play", "card": hand(s, 0, "flash_sale")})
    s = act(s, 0, {"type": "claim", "slot": 0})
    assert s.chefs[0].money == 200


def test_action_home_delivery_buys_a_counter_card_anywhere() -> None:
    s = new()
    s.markets["chop_shop"].counter = ["beef", "pork", "chicken", "fish", "shrimp", "bacon"]
    s = go(s, "island", "veg_out")
    card = hand(s, 0, "home_delivery")
    s = act(s, 0, {"type": "play", "card": card, "market": "chop_shop", "slot": 0})
    assert s.chefs[0].ingredients.get("beef", 0) >= 1 and s.chefs[0].money == 100
    assert s.markets["chop_shop"].counter[0] is None


def test_action_pickpocket_takes_up_to_200_from_another_chef() -> None:
    s = market_day()
    s = act(s, 0, {"type": "play", "card": hand(s, 0, "pickpocket"), "target": 1})
    assert (s.chefs[0].money, s.chefs[1].money) == (500, 100)
    s = market_day()
    s.chefs[1].money = 50
    s = act(s, 0, {"type": "play", "card": hand(s, 0, "pickpocket"), "target": 1})
    assert (s.chefs[0].money, s.chefs[1].money) == (350, 0)


def test_action_swipe_takes_an_ingredient_and_pays_100() -> None:
    s = market_day()
    s.chefs[1].ingredients = {"beef": 1}
    s = act(s, 0, {"type": "play", "card": hand(s, 0, "swipe"), "target": 1, "ingredient": "beef"})
    assert s.chefs[1].ingredients == {} and (s.chefs[0].money, s.chefs[1].money) == (200, 400)


def test_action_health_inspection_gives_another_chef_2_garbage() -> None:
    s = market_day()
    s = act(s, 0, {"type": "play", "card": hand(s, 0, "health_inspection"), "target": 1})
    assert s.chefs[1].garbage == 2


def test_action_menu_shakeup_replaces_a_recipe_with_one_of_the_same_kind() -> None:
    s = market_day()
    hold(s, 0, "onigiri", "sushi_platter")
    top = s.decks["gourmet"][-1]
    s = act(s, 0, {"type": "play", "card": hand(s, 0, "menu_shakeup"), "kind": "gourmet"})
    assert s.chefs[0].recipes == ["onigiri", top] and "sushi_platter" in s.recipe_discards["gourmet"]


def test_action_garbage_day_dumps_up_to_2_garbage_for_free() -> None:
    s = market_day()
    s.chefs[0].garbage = 3
    s = act(s, 0, {"type": "play", "card": hand(s, 0, "garbage_day")})
    assert s.chefs[0].garbage == 1 and s.chefs[0].money == 300


def test_action_rave_review_adds_2_to_every_dish_today() -> None:
    s = kitchen()
    s = act(s, 0, {"type": "play", "card": hand(s, 0, "rave_review")})
    s, dish = cooked(s, "onigiri")
    assert dish["points"] == 3 + 2 and not s.today[0].effects


def test_action_secret_ingredient_counts_one_missing_ingredient_as_present() -> None:
    s = kitchen(pantry=("rice",))
    s = act(s, 0, {"type": "play", "card": hand(s, 0, "secret_ingredient")})
    s, dish = cooked(s, "onigiri")
    assert dish["subs"] == [["seaweed", None]] and s.chefs[0].popularity == 3


def test_action_overtime_cooks_one_more_recipe_today() -> None:
    s = kitchen(pantry=("rice", "seaweed", "fish", "shrimp", "rice", "seaweed", "avocado"))
    s = act(s, 0, {"type": "play", "card": hand(s, 0, "overtime")})
    s = serve_all(cook(cook(s, 0, "onigiri"), 0, "sushi_platter"))
    assert s.chefs[0].cooked == ["onigiri", "sushi_platter"]
    assert s.chefs[0].popularity == 3 + (8 - 1)  # the second dish pays for the first one's garbage


def test_action_bad_review_costs_another_chef_2_popularity_per_dish_today() -> None:
    s = kitchen()
    s = act(s, 1, {"type": "play", "card": hand(s, 1, "bad_review"), "target": 0})
    s, dish = cooked(s, "onigiri")
    assert dish["points"] == 3 - 2


# ---- upgrades ------------------------------------------------------------------------------

def test_upgrade_cash_register_earns_100_more_income() -> None:
    s = new()
    s.chefs[0].upgrades = ["cash_register"]
    s = serve_all(to_cook(go(s, "island", "island")))
    assert s.chefs[0].money == 300 + 400


def test_upgrade_second_stove_cooks_one_more_recipe_every_day() -> None:
    s = kitchen(pantry=("rice", "seaweed", "fish", "shrimp", "rice", "seaweed", "avocado"))
    s.chefs[0].upgrades = ["second_stove"]
    s = serve_all(cook(cook(s, 0, "onigiri"), 0, "sushi_platter"))
    assert len(s.chefs[0].cooked) == 2


def test_upgrade_compost_bin_takes_one_garbage_less() -> None:
    s = kitchen(recipes=("teriyaki_chicken", "sushi_platter"), pantry=("chicken", "rice", "garlic"))
    s.chefs[0].upgrades = ["compost_bin"]
    s, dish = cooked(s, "teriyaki_chicken")
    assert dish["garbage"] == 1


def test_upgrade_neon_sign_adds_one_for_your_cuisine() -> None:
    s = kitchen()
    s.chefs[0].upgrades = ["neon_sign"]
    s, dish = cooked(s, "onigiri")
    assert dish["points"] == 2 + 1 + 1


def test_upgrade_spice_rack_stands_in_with_an_ingredient_of_the_same_market() -> None:
    s = kitchen(pantry=("rice", "garlic"))
    s.chefs[0].upgrades = ["spice_rack"]
    s, dish = cooked(s, "onigiri")
    assert dish["subs"] == [["seaweed", "garlic"]]


def test_every_upgrade_has_a_test_and_a_price() -> None:
    assert all(any(n.startswith(f"test_upgrade_{u}") for n in globals()) for u in UPGRADES)
    assert all(u.price > 0 for u in UPGRADES.values())


# ---- Mystery Mart specials -----------------------------------------------------------------

def test_special_chocolate_adds_one_popularity() -> None:
    s, dish = cooked(kitchen(pantry=("rice", "seaweed", "chocolate")), "onigiri", ["chocolate"])
    assert dish["points"] == 4 and "chocolate" not in s.chefs[0].ingredients


def test_special_wine_adds_one_or_two_with_a_gourmet_recipe() -> None:
    _, dish = cooked(kitchen(pantry=("rice", "seaweed", "wine")), "onigiri", ["wine"])
    assert dish["points"] == 4
    _, dish = cooked(kitchen(pantry=("fish", "shrimp", "rice", "seaweed", "avocado", "wine")), "sushi_platter", ["wine"])
    assert dish["points"] == 8 + 2


def test_special_secret_sauce_cancels_the_garbage_penalty() -> None:
    _, dish = cooked(kitchen(pantry=("rice", "seaweed", "secret_sauce"), garbage=3), "onigiri", ["secret_sauce"])
    assert dish["penalty"] == 0 and dish["score"] == 3


def test_special_tofu_takes_two_garbage_less() -> None:
    _, dish = cooked(kitchen(recipes=("onigiri", "tonkotsu_ramen"),
                             pantry=("pork", "noodles", "egg", "mushroom", "onion", "tofu")), "tonkotsu_ramen", ["tofu"])
    assert dish["garbage"] == RECIPES["tonkotsu_ramen"].garbage - 2


def test_special_extras_must_be_held() -> None:
    with pytest.raises(IllegalAction):
        cook(kitchen(), 0, "onigiri", ["wine"])
    assert GAME.legal(kitchen(pantry=("rice", "seaweed", "wine")), 0)[:2] == [
        {"type": "cook", "recipe": "onigiri", "extras": []}, {"type": "cook", "recipe": "onigiri", "extras": ["wine"]}]
