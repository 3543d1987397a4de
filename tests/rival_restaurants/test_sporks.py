"""Rival Restaurants: SPORKS Out — a test per rule of the expansion's rulebook, per SPORK,
per restaurant ruling and per designed ruling (see docs/rules/rival-restaurants.md)."""

from __future__ import annotations

import pytest

from server.engine import IllegalAction
from server.games.rival_restaurants import GAME
from server.games.rival_restaurants.auction import in_box
from server.games.rival_restaurants.cards import (
    ACTION_AUCTION,
    BASIC,
    CHEFS,
    CORNERS,
    GOURMET,
    INGREDIENTS,
    RECIPES,
    RESTAURANTS,
    SPORKS_OUT,
    pool,
)
from server.games.rival_restaurants.cooking import restock
from server.games.rival_restaurants.moments import fire
from server.games.rival_restaurants.sporks import shaker_on
from server.games.rival_restaurants.state import RivalRestaurantsOptions

from .helpers import act, claims_done, cook, events, give, go, hand, hold, new, serve_all, timeout, to_cook
from server.games.rival_restaurants.sporks_table import table
from server.games.rival_restaurants.sporks import things
from server.games.rival_restaurants.squad import squads

QUIET = ["clam_voyance", "sal_monella", "pork_knuckles", "auntie_pasta", "gordon_rampage", "dr_umami"]
SPORK_CHEFS = [c for c in pool(sporks_out=True).chefs if CHEFS[c].box == SPORKS_OUT]
SPORK_RESTAURANTS = [r for r in pool(sporks_out=True).restaurants if RESTAURANTS[r].box == SPORKS_OUT]


def sporks(n: int = 2, chefs=None, restaurants=None, **options):
    """A SPORKS Out match on Day 1, MONEY and MOVE, income paid."""
    return new(n, chefs, restaurants, sporks_out=True, **options)


def next_day(s, *where: str):
    """Play out the rest of today (everyone at ``where``, default the Island, cooking nothing)."""
    if s.phase == "money_move":
        s = go(s, *(where or ["island"] * len(s.players)))
    return serve_all(to_cook(s))


def auction_day(n: int = 2, chefs=None, money=None, **options):
    """Day 2 of a SPORKS Out match, in the Action Auction (money set per chef)."""
    s = next_day(sporks(n, chefs, **options))
    assert s.phase == ACTION_AUCTION and s.day == 2
    for seat, m in enumerate(money or []):
        s.bank += s.chefs[seat].money - m
        s.chefs[seat].money = m
    return s


def bid(s, seat: int, amount: int):
    return act(s, seat, {"type": "box_bid", "amount": amount})


# ---- the options and the content -------------------------------------------------------------

def test_option_sporks_out_is_off_by_default_and_titled() -> None:
    schema = RivalRestaurantsOptions.model_json_schema()["properties"]
    assert schema["sporks_out"]["title"] == "SPORKS Out" and schema["sporks_out"]["default"] is False
    assert schema["sporks_chefs"]["default"] is True
    s = GAME.setup(["A", "B"], GAME.options({}), 1)
    assert table(s) is None and s.day_plan == ["money_move", "buy_barter", "cook_counter"]
    assert GAME.view(s, 0)["sporks"] is None


def test_option_sporks_out_adds_5_chefs_5_restaurants_28_recipes_and_the_snackle_box() -> None:
    base, full = pool(), pool(sporks_out=True)
    assert len(full.chefs) == 17 and len(full.restaurants) == 13 and len(full.recipes) == 68
    assert full.action_deck == base.action_deck  # no new action cards: the Snackle Box draws from the base deck
    s = GAME.setup(["A", "B"], GAME.options({"sporks_out": True}), 1)
    assert table(s) is not None and s.day_plan[0] == ACTION_AUCTION and not in_box(s)


def test_option_sporks_chefs_off_leaves_out_the_five_chefs_and_keeps_the_rest() -> None:
    content = pool(sporks_out=True, sporks_chefs=False)
    assert not set(SPORK_CHEFS) & set(content.chefs) and len(content.chefs) == 12
    assert set(SPORK_RESTAURANTS) <= set(content.restaurants) and len(content.recipes) == 68
    for seed in range(30):
        s = GAME.setup(["A", "B", "C", "D", "E", "F"], GAME.options({"sporks_out": True, "sporks_chefs": False}), seed)
        assert not {p.chef for p in s.chefs} & set(SPORK_CHEFS) and table(s) is not None


def test_the_game_lists_its_variants_as_options() -> None:
    assert GAME.variants == {"base": {}, "sporks-out": {"sporks_out": True}}
    for options in GAME.variants.values():
        GAME.options(options)


def test_sporks_out_names_its_chefs_and_restaurants_as_the_rulebook_does() -> None:
    names = {CHEFS[c].name for c in SPORK_CHEFS}
    assert names == {"Pam Knee You", "Papa Tio", "Sloppy Joe", "Sultan Pepper Shakrh", "Wahine Poi Poi Kanakakuke"}
    assert {"Crave of Wonders", "Thai-Tanic", "The Greasy Bucket", "Green Eggs and Spam"} <= {
        RESTAURANTS[r].name for r in SPORK_RESTAURANTS}
    assert len(SPORK_RESTAURANTS) == 5 and RESTAURANTS["green_eggs_and_spam"].cuisine == "hawaiian"
    assert all(u.play.stoppable is False for c in SPORK_CHEFS for u in CHEFS[c].uses)


def test_recipes_sporks_out_has_14_basic_and_14_gourmet_made_only_of_existing_ingredients() -> None:
    new_recipes = [RECIPES[r] for r in pool(sporks_out=True).recipes if RECIPES[r].box == SPORKS_OUT]
    assert sum(r.kind == BASIC for r in new_recipes) == 14 and sum(r.kind == GOURMET for r in new_recipes) == 14
    ingredients = {i for m in pool().recipes for i in RECIPES[m].ingredients} | set(INGREDIENTS)
    for r in new_recipes:
        assert all(i in ingredients and not INGREDIENTS[i].wild and INGREDIENTS[i].market != "mystery_mart"
                   for i in r.ingredients)
        assert r.points > 0 and r.garbage >= 1
    assert {r.cuisine for r in new_recipes} == {RESTAURANTS[r].cuisine for r in SPORK_RESTAURANTS}


def test_recipes_sporks_out_a_new_recipe_cooks_like_any_other() -> None:
    s = sporks(2, restaurants=["thai_tanic", "rising_sun"])
    hold(s, 0, "pad_thai", "green_curry")
    s.chefs[0].ingredients = {}
    give(s, 0, "noodles", "egg", "lime")
    s = serve_all(cook(to_cook(go(s, "island", "island")), 0, "pad_thai"))
    assert s.chefs[0].cooked == ["pad_thai"] and s.chefs[0].popularity == 3 + 1  # the Thai cuisine bonus


# ---- the Action Auction -----------------------------------------------------------------------

def test_auction_does_not_happen_on_day_1() -> None:
    s = sporks(3)
    assert s.day == 1 and s.phase == "money_move" and not in_box(s) and GAME.deadline(s) is not None
    s = GAME.setup(["A", "B"], GAME.options({"sporks_out": True}), 5)
    assert s.phase == "money_move" and GAME.legal(s, 0)  # setup ran past the auction: never stuck


def test_auction_comes_before_money_and_move_and_the_days_income() -> None:
    s = auction_day(2, money=[500, 200])
    assert [p.money for p in s.chefs] == [500, 200]  # no income yet: leftover money only
    s = bid(bid(s, 0, 0), 1, 0)
    assert s.phase == "money_move" and [p.money for p in s.chefs] == [800, 500]
    assert s.day_plan == ["action_auction", "money_move", "buy_barter", "cook_counter"]


def test_auction_first_draws_one_action_card_face_up_into_the_snackle_box() -> None:
    s = to_cook(go(sporks(2), "island", "island"))
    top = s.action_deck[-1]
    s = serve_all(s)
    assert table(s).face_up == top and table(s).face_down is None
    assert GAME.view(s, None)["sporks"]["snackle_box"]["face_up"]["id"] == top


def test_auction_bids_are_secret_and_simultaneous() -> None:
    s = auction_day(3, money=[700, 700, 700])
    s, evs = events(s, 0, {"type": "box_bid", "amount": 600})
    for seat in (1, 2, None):
        view = GAME.view(s, seat)
        assert view["phase_view"]["bids"] == [True, False, False] and view["phase_view"]["your_bid"] is None
        assert all("600" not in e.text for e in evs if e.visible_to(seat))
    assert GAME.view(s, 0)["phase_view"]["your_bid"] == 600
    assert any(e.text == "You bid $600 for the Snackle Box." and e.to == (0,) for e in evs)


def test_auction_a_bid_may_be_changed_until_the_reveal() -> None:
    s = auction_day(2, money=[700, 700])
    s = bid(bid(s, 0, 600), 0, 100)
    s = bid(s, 1, 200)
    assert s.chefs[1].actions[-1:] != [] and table(s).sold == [200]


def test_auction_bids_are_revealed_together_and_the_highest_pays_the_bank_and_takes_the_box() -> None:
    s = auction_day(3, money=[700, 400, 0])
    card = table(s).face_up
    bank = s.bank
    s = bid(bid(s, 0, 300), 1, 400)
    assert s.phase == ACTION_AUCTION and s.chefs[1].money == 400  # not revealed until everyone has bid
    s, evs = events(s, 2, {"type": "box_bid", "amount": 0})
    reveal = next(e for e in evs if e.type == "box_won")
    assert reveal.to is None and reveal.data["bids"] == [300, 400, 0] and "$300" in reveal.text
    assert card in s.chefs[1].actions and not in_box(s)
    assert s.chefs[1].money == 400 - 400 + 300 and s.chefs[0].money == 700 + 300  # losers keep their money
    assert s.bank == bank + 400 - 900 and table(s).sold == [400]


def test_auction_bid_is_a_multiple_of_100_up_to_the_money_held() -> None:
    s = auction_day(2, money=[300, 300])
    with pytest.raises(IllegalAction, match=r"only \$300"):
        bid(s, 0, 400)
    with pytest.raises(IllegalAction, match="multiple"):
        bid(s, 0, 150)
    with pytest.raises(IllegalAction, match="multiple"):
        bid(s, 0, -100)
    assert {a["amount"] for a in GAME.legal(s, 0)} >= {0, 300}
    assert all(a["amount"] % 100 == 0 and a["amount"] <= 300 for a in GAME.legal(s, 0))


def test_auction_tie_for_the_top_bid_leaves_the_card_in_the_box() -> None:
    s = auction_day(3, money=[500, 500, 500])
    card = table(s).face_up
    s = bid(bid(bid(s, 0, 300), 1, 300), 2, 100)
    assert table(s).face_up == card and [p.money for p in s.chefs] == [800, 800, 800]
    assert table(s).last_auction["winner"] is None and table(s).sold == []


def test_auction_everyone_bidding_0_is_a_tie() -> None:
    s = auction_day(2)
    card = table(s).face_up
    s = bid(bid(s, 0, 0), 1, 0)
    assert table(s).face_up == card and all(card not in p.actions for p in s.chefs)


def test_auction_a_card_left_over_gets_a_second_one_face_down_and_the_winner_takes_both() -> None:
    s = auction_day(2)
    first = table(s).face_up
    s = next_day(bid(bid(s, 0, 0), 1, 0))
    second = table(s).face_down
    assert table(s).face_up == first and second is not None
    box = GAME.view(s, 0)["sporks"]["snackle_box"]
    assert box["face_down"] is True and box["face_up"]["id"] == first
    s = bid(bid(s, 0, 100), 1, 0)
    assert {first, second} <= set(s.chefs[0].actions) and not in_box(s)


def test_auction_another_tie_adds_nothing_more_at_most_one_face_up_and_one_face_down() -> None:
    s = auction_day(2)
    for _ in range(3):
        s = next_day(bid(bid(s, 0, 0), 1, 0))
    assert len(in_box(s)) == 2 and table(s).face_up and table(s).face_down


def test_auction_the_face_down_card_is_turned_face_up_for_everyone_when_won() -> None:
    s = auction_day(2)
    s = next_day(bid(bid(s, 0, 0), 1, 0))
    hidden = table(s).face_down
    s = bid(s, 0, 0)
    s, evs = events(s, 1, {"type": "box_bid", "amount": 100})
    won = next(e for e in evs if e.type == "box_won")
    assert won.to is None and hidden in [c["id"] for c in won.data["cards"]]
    assert hidden in [a["id"] for a in GAME.view(s, 0)["players"][1]["actions"]]


def test_auction_a_missing_bid_at_the_deadline_is_0() -> None:
    s = auction_day(2, money=[300, 300])
    assert GAME.deadline(s) == s.phase_since + s.options.auction_ms
    s = bid(s, 0, 100)
    s = timeout(s)
    assert s.phase == "money_move" and table(s).last_auction["bids"] == [100, 0] and table(s).sold == [100]


def test_auction_no_action_cards_can_be_used_during_it() -> None:
    s = auction_day(2)
    card = hand(s, 0, "windfall")
    with pytest.raises(IllegalAction, match="MONEY and MOVE"):
        act(s, 0, {"type": "play", "card": card})
    assert all(a["type"] == "box_bid" for seat in (0, 1) for a in GAME.legal(s, seat))


def test_auction_one_action_card_a_day_still_holds_for_cards_won() -> None:
    s = auction_day(2, money=[300, 300])
    s = bid(bid(s, 0, 100), 1, 0)
    first, second = hand(s, 0, "windfall"), hand(s, 0, "windfall")
    s = act(s, 0, {"type": "play", "card": first})
    with pytest.raises(IllegalAction, match="already played"):
        act(s, 0, {"type": "play", "card": second})


# ---- Pam Knee You: the boxing ring and the Boxing Gloves ----------------------------------

def ring_done(others=("sal_monella", "clam_voyance")):
    """Pam has visited the four corners (one a day); Day 5, MONEY and MOVE."""
    s = sporks(1 + len(others), ["pam_knee_you", *others])
    for corner in CORNERS:
        s = next_day(s, corner, *["island"] * len(others))
        s = bid(bid(bid(s, 0, 0), 1, 0), 2, 0) if len(others) == 2 else s
    return s


def test_spork_pam_visiting_all_4_corner_markets_completes_her_ring_and_earns_the_gloves() -> None:
    s = sporks(3, ["pam_knee_you", "sal_monella", "clam_voyance"])
    for i, corner in enumerate(CORNERS[:3]):
        s = go(s, corner, "island", "island")
        assert things(s, 0).ring == list(CORNERS[: i + 1]) and not things(s, 0).gloves
        s = serve_all(to_cook(s))
        s = bid(bid(bid(s, 0, 0), 1, 0), 2, 0)
    s = go(s, "fruit_punch", "island", "island")  # not a corner
    assert len(things(s, 0).ring) == 3
    s = bid(bid(bid(serve_all(to_cook(s)), 0, 0), 1, 0), 2, 0)
    s = go(s, CORNERS[3], "island", "island")
    assert things(s, 0).gloves == ["knockout", "rob"] and things(s, 0).ring == []  # a new ring begins


def test_spork_pam_gloves_work_at_every_location_even_the_mystery_mart() -> None:
    s = ring_done()
    s = go(s, "mystery_mart", "veg_out", "chop_shop")
    s.chefs[1].ingredients = {"onion": 1}
    s = act(s, 0, {"type": "power", "use": "rob", "target": 1, "ingredient": "onion"})
    assert s.chefs[0].ingredients.get("onion") == 1 and "rob" not in things(s, 0).gloves


def test_spork_pam_gloves_cannot_be_blocked_by_clam_voyance_or_stolen() -> None:
    s = ring_done(("clam_voyance", "sal_monella"))
    s = act(s, 1, {"type": "move", "location": "island", "foresee": 0})
    s = act(act(s, 0, {"type": "move", "location": "island"}), 2, {"type": "move", "location": "island"})
    s = act(s, 0, {"type": "power", "use": "knockout", "target": 2})
    assert s.today[2].done and not s.today[1].foreseen_hit  # Clam-Voyance saw it coming, and could not stop it
    swipe = hand(s, 1, "swipe")
    with pytest.raises(IllegalAction):  # a glove is no ingredient nor action card: nothing can take it
        act(s, 1, {"type": "play", "card": swipe, "target": 0, "ingredient": "rob"})
    with pytest.raises(IllegalAction, match="may hold only"):
        act(s, 0, {"type": "offer", "to": 1, "give": {"gloves": ["rob"]}, "get": {}})


def test_spork_pam_gloves_are_outside_the_one_action_card_a_day_limit() -> None:
    s = go(ring_done(), "island", "island", "island")
    s.chefs[0].garbage = 1
    s = act(s, 0, {"type": "play", "card": hand(s, 0, "garbage_day")})
    s = act(s, 0, {"type": "power", "use": "knockout", "target": 1})
    assert s.today[0].played and s.today[1].done


def test_spork_pam_both_gloves_on_one_day_but_never_on_the_same_chef() -> None:
    s = go(ring_done(), "island", "island", "island")
    s.chefs[1].ingredients, s.chefs[2].ingredients = {"beef": 1}, {"rice": 1}
    rice = s.chefs[0].ingredients.get("rice", 0)
    s = act(s, 0, {"type": "power", "use": "knockout", "target": 1})
    with pytest.raises(IllegalAction, match="not on the same chef"):
        act(s, 0, {"type": "power", "use": "rob", "target": 1, "ingredient": "beef"})
    s = act(s, 0, {"type": "power", "use": "rob", "target": 2, "ingredient": "rice"})
    assert things(s, 0).gloves == [] and s.chefs[0].ingredients.get("rice") == rice + 1
    with pytest.raises(IllegalAction, match="do not have that glove"):
        act(s, 0, {"type": "power", "use": "rob", "target": 1, "ingredient": "beef"})


def test_spork_pam_knockout_ends_the_targets_market_day_and_gives_a_garbage() -> None:
    s = go(ring_done(), "island", "chop_shop", "island")
    s = act(s, 1, {"type": "offer", "to": 2, "give": {"money": 100}, "get": {}})
    s = act(s, 0, {"type": "power", "use": "knockout", "target": 1})
    assert s.today[1].done and s.chefs[1].garbage == 1 and not s.offers
    with pytest.raises(IllegalAction, match="done"):
        act(s, 1, {"type": "buy", "slot": 0})


def test_spork_pam_rob_takes_an_ingredient_and_up_to_200() -> None:
    s = go(ring_done(), "island", "island", "island")
    s.chefs[1].ingredients = {"beef": 1}
    money = s.chefs[1].money
    s = act(s, 0, {"type": "power", "use": "rob", "target": 1, "ingredient": "beef"})
    assert s.chefs[1].ingredients == {} and s.chefs[1].money == money - 200


# ---- Papa Tio: Missile Craft and the Lunch Button -------------------------------------------

def papa(n=3):
    s = sporks(n, ["papa_tio", "sal_monella", "clam_voyance"][:n])
    s.chefs[0].ingredients = {"rice": 2, "onion": 1, "beef": 1}
    return s


def craft(s, ingredient, others=2):
    s = go(s, *["island"] * (others + 1))
    s = act(s, 0, {"type": "power", "use": "missile_craft", "ingredient": ingredient})
    return s


def test_spork_papa_missile_craft_builds_the_missile_one_ingredient_a_day() -> None:
    s = craft(papa(), "rice")
    assert things(s, 0).missile == ["rice"] and s.chefs[0].ingredients["rice"] == 1
    with pytest.raises(IllegalAction, match="already used Missile Craft today"):
        act(s, 0, {"type": "power", "use": "missile_craft", "ingredient": "onion"})
    with pytest.raises(IllegalAction, match="3 parts"):
        act(s, 0, {"type": "power", "use": "lunch_button", "market": "veg_out"})


def test_spork_papa_lunch_button_destroys_every_other_chefs_ingredients_of_a_market() -> None:
    s = papa()
    things(s, 0).missile = ["rice", "onion", "bread"]
    s.chefs[1].ingredients, s.chefs[2].ingredients = {"beef": 2, "rice": 1}, {"pork": 1}
    s.chefs[0].ingredients = {**s.chefs[0].ingredients, "beef": 1}
    discard = len(s.markets["chop_shop"].discard)
    s = go(s, "island", "island", "island")
    s = act(s, 0, {"type": "power", "use": "lunch_button", "market": "chop_shop"})
    assert s.chefs[1].ingredients == {"rice": 1} and s.chefs[2].ingredients == {} and s.chefs[0].ingredients["beef"] == 1
    assert len(s.markets["chop_shop"].discard) == discard + 3 and things(s, 0).missile == []


def test_spork_papa_cannot_craft_again_until_the_missile_is_launched() -> None:
    s = papa()
    things(s, 0).missile = ["rice", "onion", "bread"]
    s = go(s, "island", "island", "island")
    with pytest.raises(IllegalAction, match="launch it before crafting"):
        act(s, 0, {"type": "power", "use": "missile_craft", "ingredient": "rice"})
    s = act(s, 0, {"type": "power", "use": "lunch_button", "market": "veg_out"})
    s = act(s, 0, {"type": "power", "use": "missile_craft", "ingredient": "rice"})  # rebuilding begins
    assert things(s, 0).missile == ["rice"]


# ---- Sloppy Joe: Scraps and the Dumpster ---------------------------------------------------

def joe(**kw):
    s = go(sporks(2, ["sloppy_joe", "sal_monella"], **kw), "island", "island")
    return act(s, 0, {"type": "power", "use": "scraps", "market": "chop_shop"})


def test_spork_joe_scraps_stores_what_is_discarded_at_his_market_in_joes_dumpster() -> None:
    s = joe()
    oldest = s.markets["chop_shop"].counter[0]
    discard = list(s.markets["chop_shop"].discard)
    s = serve_all(to_cook(s))  # the oldest counter card rotates out at restocking
    assert table(s).dumpster == {"chop_shop": [oldest]} and s.markets["chop_shop"].discard == discard
    assert s.markets["veg_out"].discard  # other markets discard as usual
    assert GAME.view(s, 1)["sporks"]["dumpster"] == {"chop_shop": [oldest]}


def test_spork_joe_takes_a_dumpster_card_by_taking_garbage() -> None:
    s = joe()
    oldest = s.markets["chop_shop"].counter[0]
    s = bid(bid(serve_all(to_cook(s)), 0, 0), 1, 0)
    s = go(s, "island", "island")
    have = s.chefs[0].ingredients.get(oldest, 0)
    s = act(s, 0, {"type": "power", "use": "dumpster_dive", "market": "chop_shop", "ingredient": oldest})
    assert s.chefs[0].ingredients[oldest] == have + 1 and s.chefs[0].garbage == 1 and table(s).dumpster["chop_shop"] == []
    with pytest.raises(IllegalAction, match="not in Joe's Dumpster"):
        act(s, 0, {"type": "power", "use": "dumpster_dive", "market": "chop_shop", "ingredient": oldest})


def test_spork_joe_returns_a_markets_dumpster_cards_when_its_shelf_runs_empty_in_cook_and_counter() -> None:
    s = joe()
    m = s.markets["chop_shop"]
    table(s).dumpster["chop_shop"] = list(m.shelf) + list(m.discard)
    m.shelf, m.discard = [], []
    s, evs = events(to_cook(s), 0, {"type": "serve"}, 9000)
    s, evs = events(s, 1, {"type": "serve"}, 9000)
    assert any(e.type == "dumpster_return" for e in evs)
    assert None not in s.markets["chop_shop"].counter and table(s).dumpster["chop_shop"] in ([], [m.counter[0]])


def test_dumpster_fix_returns_when_the_restocks_own_last_card_empties_a_shelf() -> None:
    """Anytime a shelf is empty in COOK and COUNTER: also when the restock draws its last
    card onto the counter (before the fix, COOK and COUNTER ended with that shelf empty and
    its cards in the Dumpster, so it sold nothing the next day)."""
    s = to_cook(joe())
    m = s.markets["chop_shop"]
    m.discard, m.shelf = [], m.shelf[-1:]  # one card left: the restock takes it
    table(s).scraps = None
    table(s).dumpster["chop_shop"] = ["beef", "bacon"]
    s, evs = events(s, 0, {"type": "serve"}, 9000)
    s, evs = events(s, 1, {"type": "serve"}, 9000)
    m = s.markets["chop_shop"]
    assert [e.type for e in evs].count("dumpster_return") == 1
    assert table(s).dumpster["chop_shop"] == [] and m.shelf == [] and m.discard[-2:] == ["beef", "bacon"]
    assert None not in m.counter


def test_dumpster_fix_returns_on_days_joe_rests_in_kitchen_squad() -> None:
    """The return is a rule of the table, not a power of today's chef: with Kitchen Squad it
    holds on a day Joe rests (before the fix, the Dumpster was never returned then)."""
    s = GAME.setup(["Ann", "Bob"], GAME.options({"kitchen_squad": True, "sporks_out": True, "random_chefs": False}), 1, 0)
    squads(s).chefs[0] = ["sloppy_joe", "sal_monella", "dr_umami"]
    s = act(act(s, 0, {"type": "squad_chef", "chef": "sal_monella"}, 100), 1,
            {"type": "squad_chef", "chef": squads(s).chefs[1][0]}, 100)
    assert s.chefs[0].chef == "sal_monella"  # Joe rests today
    s = to_cook(go(s, "island", "island"))
    m = s.markets["chop_shop"]
    table(s).dumpster["chop_shop"] = ["beef"]
    m.discard, m.shelf = [], []
    s, evs = events(s, 0, {"type": "serve"}, 9000)
    s, evs = events(s, 1, {"type": "serve"}, 9000)
    assert any(e.type == "dumpster_return" for e in evs)
    assert table(s).dumpster["chop_shop"] == [] and "beef" in s.markets["chop_shop"].counter + s.markets["chop_shop"].shelf


def test_spork_joe_an_empty_shelf_outside_cook_and_counter_keeps_the_dumpster() -> None:
    from server.games.rival_restaurants import ops

    s = joe()
    m = s.markets["chop_shop"]
    table(s).dumpster["chop_shop"] = ["beef"]
    m.discard, m.shelf = [*m.discard, *m.shelf], []
    ops.refill_shelf(s, "chop_shop")  # BUY and BARTER now
    assert table(s).dumpster["chop_shop"] == ["beef"] and m.shelf


def test_spork_joe_dumpster_cards_are_nobodys_and_nothing_can_touch_them() -> None:
    s = joe()
    table(s).dumpster["chop_shop"] = ["beef"]
    assert "beef" not in s.chefs[0].ingredients
    with pytest.raises(IllegalAction, match="do not hold"):
        act(s, 0, {"type": "offer", "to": 1, "give": {"ingredients": ["beef"]}, "get": {}})
    with pytest.raises(IllegalAction):
        act(s, 1, {"type": "play", "card": hand(s, 1, "swipe"), "target": 0, "ingredient": "beef"})


# ---- Sultan Pepper Shakrh: the shakers --------------------------------------------------------

def shaken(shaker: str, buyer_money: int = 300):
    s = sporks(2, ["sultan_pepper_shakrh", "sal_monella"])
    s.markets["veg_out"].counter = ["onion", "garlic", "chili", "onion", "garlic", "chili"]
    s = act(s, 0, {"type": "power", "shaker": shaker, "market": "veg_out", "slot": 2})
    s.chefs[1].money = buyer_money
    return claims_done(go(s, "island", "veg_out"))


def test_spork_sultan_salt_on_a_counter_card_gives_its_buyer_2_garbage() -> None:
    s = shaken("salt")
    assert GAME.view(s, 1)["sporks"]["shakers"] == {"salt": {"market": "veg_out", "slot": 2}}
    s, evs = events(s, 1, {"type": "buy", "slot": 2})
    assert s.chefs[1].garbage == 2 and any(e.type == "surprise" for e in evs) and table(s).shakers == {}


def test_spork_sultan_pepper_makes_its_buyer_pay_him_up_to_100() -> None:
    s = shaken("pepper")
    sultan = s.chefs[0].money
    s = act(s, 1, {"type": "buy", "slot": 2})
    assert s.chefs[1].money == 300 - 100 - 100 and s.chefs[0].money == sultan + 100
    s = shaken("pepper", buyer_money=150)
    s = act(s, 1, {"type": "buy", "slot": 2})
    assert s.chefs[1].money == 0 and s.chefs[0].money == sultan + 50


def test_spork_sultan_an_unbought_shaken_card_goes_into_his_hands_at_the_end_of_the_day() -> None:
    s = shaken("salt")
    chili, money = s.chefs[0].ingredients.get("chili", 0), s.chefs[0].money
    s = serve_all(to_cook(s))
    assert s.chefs[0].ingredients["chili"] == chili + 1 and table(s).shakers == {}
    assert s.chefs[0].money == money - 100 and s.phase == ACTION_AUCTION  # its price (Day 2's income comes later)
    s = shaken("salt")
    s.chefs[0].money = 0
    s = serve_all(to_cook(s))
    assert s.chefs[0].ingredients.get("chili", 0) == chili and table(s).shakers == {}  # he cannot pay: it stays


def test_spork_sultan_the_shaker_stays_on_its_card_when_the_counter_slides() -> None:
    s = sporks(2, ["sultan_pepper_shakrh", "sal_monella"])
    s = act(s, 0, {"type": "power", "shaker": "pepper", "market": "veg_out", "slot": 3})
    m = s.markets["veg_out"]
    card, ident = m.counter[3], m.ids[3]
    restock(s)
    slot = m.ids.index(ident)
    assert slot == 2 and m.counter[slot] == card and shaker_on(s, "veg_out", m.ids[slot]) == "pepper"
    assert GAME.view(s, 1)["sporks"]["shakers"]["pepper"] == {"market": "veg_out", "slot": 2}
    assert [c["shaker"] for c in next(b for b in GAME.view(s, 1)["board"] if b["id"] == "veg_out")["counter"]
            if c][2] == "pepper"


def test_spork_sultan_buying_his_own_shaken_card_is_no_surprise() -> None:
    s = sporks(2, ["sultan_pepper_shakrh", "sal_monella"])
    s.markets["veg_out"].counter = ["onion"] * 6
    s = act(s, 0, {"type": "power", "shaker": "salt", "market": "veg_out", "slot": 0})
    s = act(claims_done(go(s, "veg_out", "island")), 0, {"type": "buy", "slot": 0})
    assert s.chefs[0].garbage == 0 and table(s).shakers == {}


# ---- Wahine: the Luau ----------------------------------------------------------------------------

def luau(shelf: list[str], where: tuple[str, ...], recipes=("onigiri", "sushi_platter")):
    s = sporks(len(where), ["wahine", "sal_monella", "clam_voyance", "pork_knuckles"][:len(where)])
    hold(s, 0, *recipes)
    s.markets["veg_out"].shelf = [*s.markets["veg_out"].shelf, *shelf]  # the top of the shelf is the end of the list
    s = act(s, 0, {"type": "power", "market": "veg_out"})
    return events_go(s, where)


def events_go(s, where):
    evs = []
    for seat, location in enumerate(where):
        s, more = events(s, seat, {"type": "move", "location": location})
        evs += more
    return s, evs


def test_spork_wahine_keeps_a_drawn_card_listed_on_her_recipe() -> None:
    s, evs = luau(["onion", "seaweed"], ("island", "veg_out", "veg_out"))
    assert s.chefs[0].ingredients.get("seaweed", 0) >= 1 and "onion" in s.markets["veg_out"].discard
    assert [p.money for p in s.chefs[1:]] == [300, 300]
    assert any(e.type == "luau_held" and "keeps the Seaweed" in e.text for e in evs)


def test_spork_wahine_a_miss_pays_every_other_chef_at_her_luau_300() -> None:
    s, _ = luau(["onion", "chili"], ("island", "veg_out", "veg_out", "chop_shop"))
    assert [p.money for p in s.chefs] == [300, 600, 600, 300]
    assert s.markets["veg_out"].discard[-2:] == ["chili", "onion"]


def test_spork_wahine_need_not_attend_and_no_card_is_drawn_for_her_when_she_does() -> None:
    shelf = ["onion", "chili"]
    s, _ = luau(shelf, ("veg_out", "veg_out", "island"))
    assert s.chefs[1].money == 600 and s.markets["veg_out"].shelf[-1] == "onion"  # one card drawn: Sal's
    s, _ = luau(["onion"], ("island", "island", "island"))
    assert [p.money for p in s.chefs] == [300, 300, 300]  # nobody came


def test_spork_wahine_keeps_a_listed_card_even_if_she_already_has_it() -> None:
    s = sporks(2, ["wahine", "sal_monella"])
    hold(s, 0, "onigiri", "sushi_platter")
    s.chefs[0].ingredients = {"seaweed": 1}
    s.markets["veg_out"].shelf = [*s.markets["veg_out"].shelf, "seaweed"]
    s = act(s, 0, {"type": "power", "market": "veg_out"})
    s, _ = events_go(s, ("island", "veg_out"))
    assert s.chefs[0].ingredients["seaweed"] == 2 and s.chefs[1].money == 300


def test_spork_wahine_luau_is_thrown_openly_before_the_reveal_once_a_day_not_at_the_mystery_mart() -> None:
    s = sporks(2, ["wahine", "sal_monella"])
    with pytest.raises(IllegalAction, match="Mystery Mart"):
        act(s, 0, {"type": "power", "market": "mystery_mart"})
    s, evs = events(s, 0, {"type": "power", "market": "fruit_punch"})
    assert any(e.type == "luau" and e.to is None for e in evs) and GAME.view(s, 1)["sporks"]["luau"] == "fruit_punch"
    with pytest.raises(IllegalAction, match="already used"):
        act(s, 0, {"type": "power", "market": "veg_out"})


def test_clam_voyance_cannot_stop_the_effect_of_any_spork() -> None:
    for chef, action, where in (
            ("wahine", {"type": "power", "market": "veg_out"}, None),
            ("sultan_pepper_shakrh", {"type": "power", "shaker": "salt", "market": "veg_out", "slot": 0}, None),
            ("papa_tio", {"type": "power", "use": "missile_craft", "ingredient": "rice"}, "island"),
            ("sloppy_joe", {"type": "power", "use": "scraps", "market": "veg_out"}, "island")):
        s = sporks(2, [chef, "clam_voyance"])
        s.chefs[0].ingredients = {**s.chefs[0].ingredients, "rice": 1}
        s = act(s, 1, {"type": "move", "location": "island", "foresee": 0})
        if where:
            s = act(s, 0, {"type": "move", "location": where})
        s, evs = events(s, 0, action)
        assert not s.today[1].foreseen_hit and not any(e.type == "stop" for e in evs), chef


def test_every_spork_chef_has_a_test_here() -> None:
    names = " ".join(n for n in globals() if n.startswith("test_spork_"))
    short = {"pam_knee_you": "pam", "papa_tio": "papa", "sloppy_joe": "joe", "sultan_pepper_shakrh": "sultan",
             "wahine": "wahine"}
    assert set(short) == set(SPORK_CHEFS) and all(f"test_spork_{short[c]}_" in names for c in SPORK_CHEFS)


# ---- restaurants ------------------------------------------------------------------------------------

def barter_day(restaurant: str, chef: str = "clam_voyance"):
    s = sporks(2, [chef, "sal_monella"], [restaurant, "rising_sun"])
    return go(s, "veg_out", "island")


def trade(s, give, get, frm=1, to=0):
    s = act(s, frm, {"type": "offer", "to": to, "give": give, "get": get})
    return act(s, to, {"type": "accept", "offer": s.offers[-1].id})


def test_crave_of_wonders_a_trade_is_both_chefs_exchanging_resources() -> None:
    s = barter_day("crave_of_wonders")
    s.chefs[0].levels, s.chefs[0].ingredients = [3], {"rice": 5}
    s.chefs[1].money = 1000
    s = trade(s, {"money": 100}, {})
    assert s.chefs[0].money == 400  # a gift is no trade
    for _ in range(4):
        s = trade(s, {"money": 100}, {"ingredients": ["rice"]})
    assert s.chefs[0].money == 400 + 400 + 300  # $100 a trade, at most $300 a day


def test_crave_of_wonders_hot_sauce_draws_face_down_cards_nobody_may_look_at_not_even_their_holder() -> None:
    s = sporks(2, ["clam_voyance", "sal_monella"], ["crave_of_wonders", "rising_sun"])
    s.chefs[0].levels = [3, 7]
    top = s.markets["veg_out"].shelf[-1]
    s, evs = events_go(s, ("veg_out", "island"))
    assert things(s, 0).hot_sauce == [top]
    for seat in (0, 1, None):
        view = GAME.view(s, seat)
        assert view["players"][0]["hot_sauce"] == [{"market": "veg_out"}]
        assert all(top not in str(e.data) and INGREDIENTS[top].name not in e.text
                   for e in evs if e.visible_to(seat) and e.type == "hot_sauce")
    assert any(e.type == "hot_sauce" and "face-down The Veg Out card" in e.text for e in evs)


def test_crave_of_wonders_hot_sauce_cards_cannot_be_cooked_swiped_or_shaken_down() -> None:
    s = sporks(2, ["clam_voyance", "pork_knuckles"], ["crave_of_wonders", "rising_sun"])
    s.chefs[0].levels = [3, 7]
    s.chefs[0].ingredients = {"rice": 1}
    hold(s, 0, "onigiri", "sushi_platter")
    s.markets["veg_out"].shelf = [*s.markets["veg_out"].shelf, "seaweed"]
    s = go(s, "veg_out", "veg_out")
    assert things(s, 0).hot_sauce == ["seaweed"]
    for action in ({"type": "power", "target": 0, "ingredient": "seaweed"},
                   {"type": "play", "card": hand(s, 1, "swipe"), "target": 0, "ingredient": "seaweed"}):
        with pytest.raises(IllegalAction, match="no such ingredient"):
            act(s, 1, action)
    with pytest.raises(IllegalAction, match="ingredients"):
        cook(to_cook(s), 0, "onigiri")


def test_crave_of_wonders_hot_sauce_a_traded_card_is_turned_face_up_by_its_receiver() -> None:
    s = sporks(2, ["clam_voyance", "sal_monella"], ["crave_of_wonders", "rising_sun"])
    s.chefs[0].levels = [3, 7]
    s.markets["veg_out"].shelf = [*s.markets["veg_out"].shelf, "seaweed"]
    s = go(s, "veg_out", "island")
    s = act(s, 0, {"type": "offer", "to": 1, "give": {"face_down": {"veg_out": 1}}, "get": {"money": 100}})
    assert "a face-down The Veg Out card" in GAME.view(s, 1)["phase_view"]["offers"]["incoming"][0]["text"]
    s, evs = events(s, 1, {"type": "accept", "offer": s.offers[0].id})
    assert things(s, 0).hot_sauce == [] and s.chefs[1].ingredients.get("seaweed", 0) >= 1
    assert any(e.type == "face_up" and "Seaweed" in e.text and e.to is None for e in evs)
    with pytest.raises(IllegalAction, match="do not hold"):
        act(s, 0, {"type": "offer", "to": 1, "give": {"face_down": {"veg_out": 1}}, "get": {}})


def test_thai_tanic_each_power_upgrades_the_previous_and_they_do_not_stack() -> None:
    s = sporks(2, restaurants=["thai_tanic", "rising_sun"])
    thai, other = RECIPES["green_curry"], RECIPES["sushi_platter"]

    def bonus(levels, recipe):
        s.chefs[0].levels = levels
        return fire(s, "dish_points", [0], {"points": 0, "recipe": recipe})[0]["points"]

    assert [bonus(lv, thai) for lv in ([], [3], [3, 7], [3, 7, 12])] == [0, 1, 2, 2]
    assert [bonus(lv, other) for lv in ([], [3], [3, 7], [3, 7, 12])] == [0, 0, 0, 1]


def test_greasy_bucket_garbage_that_replaced_an_ingredient_is_discarded_and_does_not_reduce_popularity() -> None:
    def bucket(levels, pantry):
        s = sporks(2, restaurants=["greasy_bucket", "rising_sun"])
        hold(s, 0, "biscuits_and_gravy", "fried_chicken_bucket")
        s.chefs[0].ingredients = {}
        give(s, 0, *pantry)
        s.chefs[0].levels, s.chefs[0].garbage, s.chefs[0].popularity = levels, 2, 5
        return to_cook(go(s, "island", "island"))

    s = serve_all(cook(bucket([3], ("butter", "milk")), 0, "biscuits_and_gravy"))
    dish = s.last_cook[0]
    assert dish["subs"] == [["bread", "garbage"]] and dish["penalty"] == 1  # 2 garbage, 1 used as the bread
    assert s.chefs[0].popularity == 5 + 3 + 1 - 1 and s.chefs[0].garbage == 1 + 1
    with pytest.raises(IllegalAction):  # a carb, fruit or vegetable only (designed)
        cook(bucket([3], ("bread", "butter")), 0, "biscuits_and_gravy")
    with pytest.raises(IllegalAction):  # only from Rising Dough on
        cook(bucket([], ("butter", "milk")), 0, "biscuits_and_gravy")


def _outcome(restaurant: str, threshold: int) -> dict[str, int]:
    s = sporks(2, ["clam_voyance", "sal_monella"], [restaurant, "rising_sun"])
    p = s.chefs[0]
    p.garbage, p.popularity = 5, threshold
    p.levels = [lv.threshold for lv in RESTAURANTS[restaurant].levels if lv.threshold < threshold]
    own = next(RECIPES[r] for r in pool(True).recipes if RECIPES[r].cuisine == RESTAURANTS[restaurant].cuisine)

    def lasting():
        return (fire(s, "income", [0], {"income": 0})[0]["income"],
                fire(s, "dish_points", [0], {"points": 0, "recipe": own})[0]["points"],
                fire(s, "cook_limit", [0], {"limit": 0})[0]["limit"])

    from server.games.rival_restaurants.cooking import level_ups

    before = (p.money, p.garbage, *lasting())
    level_ups(s, 0, threshold - 1)
    after = (p.money, p.garbage, *lasting())
    keys = ("money", "garbage", "income", "own cuisine points", "cook limit")
    return {k: a - b for k, a, b in zip(keys, after, before) if a != b}


@pytest.mark.parametrize("restaurant,threshold,expected", [
    ("green_eggs_and_spam", 3, {"money": 300}),
    ("green_eggs_and_spam", 7, {"own cuisine points": 1}),
    ("green_eggs_and_spam", 12, {"cook limit": 1}),
    ("havana_good_time", 3, {"income": 100}),
    ("havana_good_time", 7, {"own cuisine points": 1}),
    ("havana_good_time", 12, {"money": 300, "garbage": -5}),
    ("greasy_bucket", 12, {"own cuisine points": 1}),
])
def test_restaurant_sporks_level_up_reward(restaurant: str, threshold: int, expected: dict) -> None:
    assert _outcome(restaurant, threshold) == expected


def test_greasy_bucket_hot_sauce_dumping_at_the_island_costs_nothing() -> None:
    s = go(sporks(2, restaurants=["greasy_bucket", "rising_sun"]), "island", "island")
    s.chefs[0].levels, s.chefs[0].garbage = [3, 7], 3
    s = act(s, 0, {"type": "dump", "count": 3})
    assert s.chefs[0].garbage == 0 and s.chefs[0].money == 300


def test_crave_of_wonders_big_cheese_one_popularity_a_trade_at_most_2_a_day() -> None:
    s = barter_day("crave_of_wonders")
    s.chefs[0].levels, s.chefs[0].ingredients, s.chefs[0].popularity = [3, 7, 12], {"rice": 5}, 12
    s.chefs[1].money = 1000
    for _ in range(3):
        s = trade(s, {"money": 100}, {"ingredients": ["rice"]})
    assert s.chefs[0].popularity == 14


# ---- the base game's bends -------------------------------------------------------------------

def test_barter_can_carry_upgrades_but_never_a_second_copy() -> None:
    s = go(new(2), "island", "island")
    s.chefs[0].upgrades, s.chefs[1].upgrades = ["compost_bin", "neon_sign"], ["neon_sign"]
    s = trade(s, {"upgrades": ["compost_bin"]}, {"money": 100}, frm=0, to=1)
    assert s.chefs[1].upgrades == ["neon_sign", "compost_bin"] and s.chefs[0].upgrades == ["neon_sign"]
    s = act(s, 0, {"type": "offer", "to": 1, "give": {"upgrades": ["neon_sign"]}, "get": {}})
    s, evs = events(s, 1, {"type": "accept", "offer": s.offers[-1].id})
    assert any(e.type == "trade_failed" and "upgrade only once" in e.text for e in evs)


def test_a_chef_power_has_several_uses_each_with_its_own_limit() -> None:
    s = go(ring_done(), "island", "island", "island")
    s.chefs[2].ingredients = {"rice": 1}
    s = act(s, 0, {"type": "power", "use": "knockout", "target": 1})
    s = act(s, 0, {"type": "power", "use": "rob", "target": 2, "ingredient": "rice"})
    assert s.today[0].uses == {"knockout": 1, "rob": 1}
    assert GAME.view(s, 1)["players"][0]["uses_today"] == {"knockout": 1, "rob": 1}
    with pytest.raises(IllegalAction, match="are used as"):
        act(s, 0, {"type": "power", "use": "uppercut", "target": 1})
