"""Rival Restaurants' match options in a real browser, drawn by the renderer alone from
states built with the rules: choosing a restaurant, Kitchen Squad's choice of today's chef,
the runner sent with the pick and buying through it, and a face-down shelf card. Every
control sends an action the rules accept, and the table fits a phone."""

from __future__ import annotations

from typing import Any

from server.games.rival_restaurants import GAME

from .conftest import PHONE, Pages, no_horizontal_scroll
from .rival_restaurants_driver import legal_for, show
from .test_rival_restaurants import click_and_take, top_shot
from server.games.rival_restaurants.squad import squad_of

NAMES = ["Ann", "Bo"]


def setup(**options: Any) -> Any:
    return GAME.setup(NAMES, GAME.options({"random_chefs": False, **options}), 11, 0)


def test_choosing_a_restaurant_sends_a_choice_the_rules_accept(pages: Pages) -> None:
    s = GAME.apply(setup(restaurants="chosen"), 1, {"type": "choose_restaurant", "restaurant": "wok_this_way"}, 100)[0]
    page = pages.open("/games/rival-restaurants/rules", viewport=PHONE, who="Ann")
    show(page, s, 0)
    assert page.locator(".rr-choose-list > li").count() == 8
    assert page.locator(".rr-choose .tag[data-seat='1']:not(.muted)").count() == 1  # Bo has chosen (never what)
    top_shot(pages)(page, "phone-choose-restaurant")
    choice = click_and_take(page, "button[data-choose='curry_favor']")
    assert choice == {"type": "choose_restaurant", "restaurant": "curry_favor"} and legal_for(s, 0, choice) is None
    no_horizontal_scroll(page)


def test_kitchen_squad_today_chef_runner_and_runner_buy(pages: Pages) -> None:
    s = setup(kitchen_squad=True)
    squad = squad_of(s, 0)
    page = pages.open("/games/rival-restaurants/rules", viewport=PHONE, who="Ann")
    show(page, s, 0)
    assert page.locator(".rr-squad-choice li[data-chef]").count() == 3
    shot = top_shot(pages)
    shot(page, "phone-squad-choice")
    pick = click_and_take(page, f"button[data-squad='{squad[1]}']")
    assert pick == {"type": "squad_chef", "chef": squad[1]} and legal_for(s, 0, pick) is None
    no_horizontal_scroll(page)

    s = GAME.apply(GAME.apply(s, 0, pick, 100)[0], 1, {"type": "squad_chef", "chef": squad_of(s, 1)[0]}, 100)[0]
    show(page, s, 0)
    page.click(".rr-runner button[data-runner='veg_out']")
    shot(page, "phone-runner")
    move = click_and_take(page, "button.rr-go[data-location='island']")
    assert move == {"type": "move", "location": "island", "runner": "veg_out"} and legal_for(s, 0, move) is None
    no_horizontal_scroll(page)

    s = GAME.apply(GAME.apply(s, 0, move, 200)[0], 1, {"type": "move", "location": "chop_shop"}, 200)[0]
    show(page, s, 0)
    assert page.locator(".rr-market[data-location='veg_out'] .rr-standee-wrap.runner[data-seat='0']").count() == 1
    shot(page, "phone-runner-shop")
    buy = click_and_take(page, ".rr-runner-shop button[data-act=runner_buy] >> nth=0")
    assert buy["type"] == "runner_buy" and legal_for(s, 0, buy) is None
    no_horizontal_scroll(page)


def test_buying_a_face_down_shelf_card_sends_what_the_rules_accept(pages: Pages) -> None:
    s = setup()
    s = GAME.apply(GAME.apply(s, 0, {"type": "move", "location": "veg_out"}, 100)[0], 1,
                   {"type": "move", "location": "island"}, 100)[0]
    s = GAME.apply(s, 0, {"type": "no_claim"}, 200)[0]
    page = pages.open("/games/rival-restaurants/rules", viewport=PHONE, who="Ann")
    show(page, s, 0)
    buy = click_and_take(page, ".rr-market[data-location='veg_out'] button[data-act=buy_shelf]")
    assert buy == {"type": "buy_shelf"} and legal_for(s, 0, buy) is None
    no_horizontal_scroll(page)


def test_an_upgrade_can_be_put_in_a_barter_offer(pages: Pages) -> None:
    s = setup()
    s.chefs[0].upgrades = ["compost_bin"]
    s = GAME.apply(GAME.apply(s, 0, {"type": "move", "location": "island"}, 100)[0], 1,
                   {"type": "move", "location": "island"}, 100)[0]
    page = pages.open("/games/rival-restaurants/rules", viewport=PHONE, who="Ann")
    show(page, s, 0)
    page.click("button[data-act=open-barter]")
    page.click(".rr-partner[data-seat='1']")
    page.click(".rr-bundle.give button[data-item='upgrade:compost_bin']")
    page.fill(".rr-bundle.get input[data-field=money]", "100")
    offer = click_and_take(page, ".rr-barter-composer button[data-act=offer]")
    assert offer == {"type": "offer", "to": 1, "give": {"upgrades": ["compost_bin"]}, "get": {"money": 100}}, offer
    assert legal_for(s, 0, offer) is None
    no_horizontal_scroll(page)


def test_no_serious_accessibility_violation_in_the_new_choices(pages: Pages) -> None:
    """axe finds nothing serious in the restaurant choice, today's chef and the runner picker."""
    from .test_accessibility import serious_violations  # skipped with it where axe is not installed

    chosen = setup(restaurants="chosen")
    squad = setup(kitchen_squad=True)
    picking = squad
    for seat in (0, 1):
        picking = GAME.apply(picking, seat, {"type": "squad_chef", "chef": squad_of(picking, seat)[0]}, 100)[0]
    for name, state in (("choice", chosen), ("squad", squad), ("runner", picking)):
        page = pages.open("/games/rival-restaurants/rules", who=name)
        page.emulate_media(reduced_motion="reduce")
        show(page, state, 0)
        assert serious_violations(page) == [], name
