"""Rival Restaurants with SPORKS Out in a real browser. Situations built with the rules and
drawn by the renderer alone — the Action Auction with its secret bid, the Snackle Box's
face-down card seen as a back, Pam's gloves, Hot Sauce cards by their backs, the Luau and the
Sultan's shaker, Papa Tio's missile, Joe's Dumpster — where every control sends an action
the rules accept and the table fits a phone; then a whole match against bots."""

from __future__ import annotations

import json
from typing import Any

from server.games.rival_restaurants import GAME
from server.games.rival_restaurants.cards import INGREDIENTS, action_kind

from . import sporks_situations as situations
from .conftest import LAPTOP, PHONE, Pages, no_horizontal_scroll
from .rival_restaurants_driver import legal_for, sent, show, state_message
from .test_rival_restaurants import click_and_take, top_shot
from server.games.rival_restaurants.sporks_table import table


def drawn(pages: Pages, s: Any, seat: int, viewport: dict[str, int]) -> Any:
    """A page drawing ``s`` as ``seat`` sees it (the renderer alone, on the rules page)."""
    page = pages.open("/games/rival-restaurants/rules", viewport=viewport, who=situations.THREE[seat])
    show(page, s, seat)
    return page


def test_sporks_auction_bid_is_secret_and_the_face_down_card_is_a_back(pages: Pages) -> None:
    """Ann sees her own bid and only whether the others have bid; the Snackle Box shows its
    face-up card and, beside it, a card back — and nothing Ann's page receives names the
    face-down card."""
    shot = top_shot(pages)
    s = situations.auction()
    hidden = table(s).face_down
    message = state_message(s, 0)
    said = json.dumps(message)
    box = json.dumps(message["view"]["sporks"]).replace(action_kind(table(s).face_up).name, "")
    assert hidden not in said and action_kind(hidden).name not in box, box
    assert message["view"]["sporks"]["snackle_box"]["face_down"] is True
    assert "500" not in json.dumps(message["view"]["phase_view"])  # Bo's bid is his own

    page = drawn(pages, s, 0, PHONE)
    assert page.locator(".rr-snackle .rr-action-card.face-up").count() == 1
    assert page.locator(".rr-snackle .rr-action-card.face-down[data-back=action]").count() == 1
    assert page.locator(".rr-box-bid[data-your-bid='300'] .rr-your-bid").inner_text() == "$300"
    assert page.locator(".rr-bidders-list li[data-bid=true]").count() == 2
    assert page.locator(".rr-steps li.now[data-step=action_auction]").count() == 1
    assert page.locator(".rr-clock[data-clock=phase] .rr-clock-label").inner_text() == "Bids revealed in"
    no_horizontal_scroll(page)
    shot(page, "phone-auction-secret-bid")
    page.fill("#rr-box-bid", "700")
    bid = click_and_take(page, ".rr-box-bid button[data-act=box_bid]")
    assert bid == {"type": "box_bid", "amount": 700} and legal_for(s, 0, bid) is None
    page.click(".rr-box-bid button[data-preset='0']")
    assert click_and_take(page, ".rr-box-bid button[data-act=box_bid]") == {"type": "box_bid", "amount": 0}
    page.fill("#rr-box-bid", "200")
    page.press("#rr-box-bid", "Enter")  # the keyboard alone: type and press Enter
    assert sent(page)[-1] == {"type": "box_bid", "amount": 200}

    page = drawn(pages, s, 0, LAPTOP)
    shot(page, "laptop-auction-secret-bid")
    # The reveal: every bid in the Snackle Box's last line; the winner took both cards.
    s = GAME.apply(s, 2, {"type": "box_bid", "amount": 100}, s.phase_since + 500)[0]
    show(page, s, 0)
    line = page.locator(".rr-last-auction").inner_text()
    assert "Ann $300" in line and "Bo $500" in line and "Cy $100" in line and "Bo paid $500" in line, line
    assert page.locator(".rr-snackle .rr-action-card").count() == 0


def test_sporks_pam_gloves_and_hot_sauce_backs(pages: Pages) -> None:
    """Pam's two gloves are SPORK buttons whose composers send what the rules accept; Bo's
    Hot Sauce card is a back for Ann (and for Bo), and can be asked for in a barter offer."""
    shot = top_shot(pages)
    s = situations.gloves()
    hidden = table(s).chefs[1].hot_sauce[0]
    for seat in (0, 1, None):
        view = GAME.view(s, seat)
        assert view["players"][1]["hot_sauce"] == [{"market": "veg_out"}]
        assert view["players"][1]["ingredients"].get(hidden, 0) == s.chefs[1].ingredients.get(hidden, 0)
    page = drawn(pages, s, 0, PHONE)
    assert page.locator(".rr-me .rr-glove").count() == 2
    assert page.locator(".rr-others .rr-chef[data-seat='1'] .rr-hot-sauce .rr-ing-back[data-back=veg_out]").count() == 1
    assert INGREDIENTS[hidden].name not in page.locator(".rr-others .rr-chef[data-seat='1'] .rr-hot-sauce").inner_text()
    no_horizontal_scroll(page)
    shot(page, "phone-gloves")
    page.click(".rr-plays button[data-act=power][data-use=knockout]")
    knockout = click_and_take(page, ".rr-play-composer button[data-target='2']")
    page.click(".rr-plays button[data-act=power][data-use=rob]")
    page.click(".rr-play-composer button[data-target='1']")
    rob = click_and_take(page, ".rr-play-composer button[data-ingredient] >> nth=0")
    assert knockout == {"type": "power", "use": "knockout", "target": 2}, knockout
    assert rob["use"] == "rob" and rob["target"] == 1, rob
    assert legal_for(s, 0, knockout) is None and legal_for(s, 0, rob) is None

    page.click("button[data-act=open-barter]")
    page.click(".rr-partner[data-seat='1']")
    page.click(".rr-bundle.get button[data-item='face_down:veg_out'][data-step='1']")
    page.fill(".rr-bundle.give input[data-field=money]", "100")
    no_horizontal_scroll(page)
    shot(page, "phone-hot-sauce-offer")
    offer = click_and_take(page, ".rr-barter-composer button[data-act=offer]")
    assert offer == {"type": "offer", "to": 1, "give": {"money": 100}, "get": {"face_down": {"veg_out": 1}}}, offer
    assert legal_for(s, 0, offer) is None

    page = drawn(pages, s, 1, LAPTOP)
    assert page.locator(".rr-me .rr-hot-sauce .rr-ing-back").count() == 1  # its holder sees a back too
    shot(page, "laptop-hot-sauce-holder")


def test_sporks_luau_and_the_sultans_shaker(pages: Pages) -> None:
    """Wahine's Luau is marked on its market for all; the Sultan's shaker goes onto the
    counter card clicked."""
    shot = top_shot(pages)
    s = situations.luau()
    page = drawn(pages, s, 0, PHONE)
    assert page.locator(".rr-market.luau[data-location=veg_out] .rr-luau").count() == 1
    page.click(".rr-plays button[data-act=power]")
    page.click(".rr-play-composer button[data-shaker=pepper]")
    shake = click_and_take(page, ".rr-card[data-market=dairy_king][data-slot='1']")
    assert shake == {"type": "power", "shaker": "pepper", "market": "dairy_king", "slot": 1}, shake
    assert legal_for(s, 0, shake) is None
    no_horizontal_scroll(page)
    shot(page, "phone-luau")
    s = GAME.apply(s, 0, shake, s.phase_since + 500)[0]
    page = drawn(pages, s, 2, LAPTOP)
    assert page.locator(".rr-card[data-market=dairy_king][data-slot='1'] .rr-shaker.pepper").count() == 1
    sultan = page.locator(".rr-others .rr-chef[data-seat='0'] .rr-shakers")
    assert sultan.locator("[data-shaker=pepper][data-out=true]").count() == 1, sultan.inner_text()
    assert "Luau today at The Veg Out" in page.locator(".rr-others .rr-chef[data-seat='1'] .rr-luau-line").inner_text()
    shot(page, "laptop-luau-and-shaker")


def test_sporks_papa_tios_missile_and_joes_dumpster(pages: Pages) -> None:
    shot = top_shot(pages)
    s = situations.missile()
    page = drawn(pages, s, 0, PHONE)
    assert page.locator(".rr-me .rr-missile[data-parts='2'] .rr-ing").count() == 2
    page.click(".rr-plays button[data-act=power][data-use=missile_craft]")
    craft = click_and_take(page, ".rr-play-composer button[data-ingredient='chili']")
    assert craft == {"type": "power", "use": "missile_craft", "ingredient": "chili"} and legal_for(s, 0, craft) is None
    s = GAME.apply(s, 0, craft, s.phase_since + 500)[0]
    s.today[0].uses = {}
    show(page, s, 0)
    page.click(".rr-plays button[data-act=power][data-use=lunch_button]")
    launch = click_and_take(page, ".rr-play-composer button[data-market=veg_out]")
    assert launch == {"type": "power", "use": "lunch_button", "market": "veg_out"} and legal_for(s, 0, launch) is None
    no_horizontal_scroll(page)
    shot(page, "phone-missile")

    s = situations.dumpster()
    card = table(s).dumpster["chop_shop"][0]
    show(page, s, 0)
    assert page.locator(".rr-market[data-location=chop_shop] .rr-dumpster").count() == 1
    assert page.locator(".rr-market[data-location=chop_shop] .rr-scraps").count() == 1
    page.click(".rr-plays button[data-act=power][data-use=dumpster_dive]")
    dive = click_and_take(page, f".rr-play-composer button[data-ingredient='{card}']")
    assert dive == {"type": "power", "use": "dumpster_dive", "market": "chop_shop", "ingredient": card}
    assert legal_for(s, 0, dive) is None
    page.click(".rr-plays button[data-act=power][data-use=scraps]")
    scraps = click_and_take(page, ".rr-play-composer button[data-market=fruit_punch]")
    assert scraps == {"type": "power", "use": "scraps", "market": "fruit_punch"} and legal_for(s, 0, scraps) is None
    no_horizontal_scroll(page)
    shot(page, "phone-dumpster")
