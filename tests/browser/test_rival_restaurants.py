"""Rival Restaurants in a real browser: a whole match against two bots, played by clicking
what the table offers, to the result screen; then situations built with the rules and
drawn by the renderer alone, where every control must send an action the rules accept and
the table at phone width (390 px) — auction, offers, the barter composer, the Island shop,
the cook declaration, the pick — never scrolls sideways.

The server here runs its game clock 4 times faster (bots pause 0.2–1.2 s and say done at
the market after 5 s) with every timer at its longest (the market 150 s of real time), so
the human is never hurried: each phase ends when the human has finished it."""

from __future__ import annotations

from typing import Any, Iterator

import httpx
import pytest

from server.games.rival_restaurants import GAME

from .conftest import LAPTOP, PHONE, Pages, no_horizontal_scroll, potluck_server
from .rival_restaurants_driver import (OFFER_COMPOSED, SEATED, RivalDriver, legal_for, sent, show, situation,
                                       table, wait_phase_ends)
from .test_watch import create, take_seat

SLOW_TIMERS = {"market_ms": 600_000, "claim_ms": 120_000, "move_ms": 300_000, "cook_ms": 300_000,
               "max_days": 3, "goal": 5}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """This module's own server, with quick bots (see the module docstring)."""
    with potluck_server(tmp_path_factory.mktemp("rival-serve"), POTLUCK_CLOCK_SPEED="4") as base:
        yield base


def top_shot(pages: Pages) -> Any:
    """``pages.shot`` from the top of the page (a full-page shot keeps the scroll position,
    so the sticky top bar would land mid-page)."""
    def shot(page: Any, label: str) -> Any:
        page.evaluate("window.scrollTo(0, 0)")
        return pages.shot(page, label)
    return shot


def watch_the_renderer(page: Any) -> list[str]:
    """The page draws a table it cannot render as a note and a console warning (not an
    error): collect those warnings."""
    failures: list[str] = []
    page.on("console", lambda m: failures.append(m.text) if m.type == "warning" and "renderer" in m.text else None)
    return failures


def test_rival_restaurants_match_to_the_end_against_bots(pages: Pages, api: httpx.Client) -> None:
    shot = top_shot(pages)
    match_id = create(api, "rival-restaurants", players=3, bots=2, **SLOW_TIMERS)
    page = pages.open(f"/matches/{match_id}", viewport=LAPTOP, who="Ann")
    failures = watch_the_renderer(page)
    take_seat(page, "Ann")
    page.wait_for_selector(SEATED, timeout=30_000)
    watcher = pages.open(f"/matches/{match_id}", viewport=PHONE, who="spectator")

    # The board: the Island in the centre, six markets around it, four on the corners, each
    # with its counter face up and the size of its shelf.
    assert page.locator(".rr-loc").count() == 7
    assert page.locator(".rr-market.corner").count() == 4
    assert page.locator(".rr-island").count() == 1
    assert page.locator(".rr-market[data-shelf]").count() == 6
    assert page.locator(".rr-card[data-ingredient]").count() == 5 * 6 + 3
    assert page.locator(".rr-me .rr-recipe").count() == 2
    assert page.locator(".rr-others .rr-chef").count() == 2

    driver = RivalDriver(page, shot)
    watcher.wait_for_selector(".rr")
    went = driver.move(day=1)
    # The pick is secret: until the reveal, the spectator sees no standee (Ann sees her own).
    assert watcher.evaluate("""() => document.querySelector('.rr').dataset.phase !== 'money_move'
        || document.querySelectorAll('.rr-standee-wrap').length === 0""")
    wait_phase_ends(page, "money_move", 1)

    # The reveal: everybody's standee on the board, the market clock running.
    page.wait_for_selector(".rr[data-phase=buy_barter]")
    assert page.locator(".rr-standee-wrap").count() == 3
    assert page.locator(f".rr-loc[data-location='{went}'] .rr-standee-wrap[data-seat='0']").count() == 1
    assert page.locator(".rr-clock[data-clock=market]").count() == 1
    # A page opened mid-phase shows the time already gone: the bar runs from the phase's start.
    watcher.reload()
    left = watcher.wait_for_function("""() => {
        const el = document.querySelector('.rr-clock[data-clock=market]');
        return el && el.style.getPropertyValue('--left') && Number(el.style.getPropertyValue('--left')); }""").json_value()
    assert 0 < left < 1, left  # a bar measured from the page's first look would be full (1)
    watcher.wait_for_selector(".rr-standee-wrap")
    no_horizontal_scroll(watcher)

    driver.play_to_the_end(limit_s=900)  # a hang guard; screenshots of day 1 on the way

    page.wait_for_selector("#result:not([hidden]) .result")
    scores = page.locator(".result-scores li")
    assert scores.count() == 3
    assert page.locator(".result-scores li.winner").count() >= 1
    shot(page, "result")
    page.click("#result button:has-text('See the table')")
    assert table(page)["phase"] == "over"
    shot(page, "laptop-over")
    # The driver claimed at its market and built a barter offer in the composer.
    assert OFFER_COMPOSED in driver.did and ("claim" in driver.did or driver.days[0]["went"] == "island"), driver.did
    assert driver.days and driver.days[0]["day"] == 1, driver.days
    watcher.wait_for_selector("#result:not([hidden])")
    watcher.click("#result button:has-text('See the table')")
    no_horizontal_scroll(watcher)
    shot(watcher, "phone-spectator-over")
    assert failures == []


def click_and_take(page: Any, selector: str) -> dict[str, Any]:
    """Click a control and return the action the renderer sent for it."""
    before = len(sent(page))
    page.click(selector)
    actions = sent(page)
    assert len(actions) == before + 1, f"{selector} sent {actions[before:]}"
    return actions[-1]


def test_rival_restaurants_market_controls_send_what_the_rules_accept(pages: Pages) -> None:
    """Every market control (bid, pass, accept, decline, withdraw, the barter composer,
    action cards with a target, an ingredient, a counter card or a recipe kind, the chef's
    power, done) sends an action the rules accept — drawn at phone width."""
    shot = top_shot(pages)
    s = situation("market")
    page = pages.open("/games/rival-restaurants/rules", viewport=PHONE, who="Ann")
    show(page, s, 0)
    auction = s.auctions[0].id
    legal = GAME.legal(s, 0)
    assert page.locator(".rr-auction.yours").count() == 1
    assert page.locator(".rr-auction [data-leader='1']").count() == 1  # Bo leads
    assert click_and_take(page, "button[data-act=bid]") == {"type": "bid", "auction": auction, "amount": 300}
    assert click_and_take(page, "button[data-act=pass]") == {"type": "pass", "auction": auction}
    incoming, outgoing = s.offers[0].id, s.offers[1].id
    assert click_and_take(page, f".rr-offer.in[data-offer='{incoming}'] button[data-act=accept]") == {"type": "accept", "offer": incoming}
    assert click_and_take(page, "button[data-act=decline]") == {"type": "decline", "offer": incoming}
    assert click_and_take(page, f".rr-offer.out[data-offer='{outgoing}'] button[data-act=withdraw]") == {"type": "withdraw", "offer": outgoing}

    page.click("button[data-act=open-barter]")
    page.click(".rr-partner[data-seat='2']")
    page.click(".rr-bundle.give button[data-item^='ingredient:'][data-step='1'] >> nth=0")
    page.click(".rr-bundle.give button[data-item^='action:']")
    page.click(".rr-bundle.get button[data-item^='ingredient:'][data-step='1'] >> nth=1")
    page.fill(".rr-bundle.get input[data-field=money]", "60")
    no_horizontal_scroll(page)
    shot(page, "phone-composer")
    offer = click_and_take(page, ".rr-barter-composer button[data-act=offer]")
    assert offer["to"] == 2 and offer["give"]["actions"] and offer["get"]["money"] == 60, offer
    assert len(offer["give"]["ingredients"]) == 1 and len(offer["get"]["ingredients"]) == 1, offer

    page.click(".rr-plays button[data-card='swipe-1']")
    page.click(".rr-play-composer button[data-target='1']")
    swipe = click_and_take(page, ".rr-play-composer button[data-ingredient] >> nth=0")
    page.click(".rr-plays button[data-card='home_delivery-1']")
    assert page.locator(".rr-board.picking-slot").count() == 1
    delivery = click_and_take(page, ".rr-card[data-market='dairy_king'][data-slot='2']")
    assert delivery == {"type": "play", "card": "home_delivery-1", "market": "dairy_king", "slot": 2}
    page.click(".rr-plays button[data-card='menu_shakeup-1']")
    shakeup = click_and_take(page, ".rr-play-composer button[data-kind='gourmet']")
    page.click(".rr-plays button[data-act=power]")
    page.click(".rr-play-composer button[data-target='1']")
    cheap = next(a["ingredient"] for a in legal if a["type"] == "power")
    power = click_and_take(page, f".rr-play-composer button[data-ingredient='{cheap}']")
    done = click_and_take(page, "button[data-act=done]")
    for action in (offer, swipe, delivery, shakeup, power, done):
        assert legal_for(s, 0, action) is None, (action, legal_for(s, 0, action))
    shot(page, "phone-auction")

    page.set_viewport_size(LAPTOP)
    page.click("button[data-act=open-barter]")
    page.click(".rr-partner[data-seat='1']")
    page.click(".rr-bundle.give button[data-item^='recipe:']")
    page.click(".rr-bundle.get button[data-item^='ingredient:'][data-step='1'] >> nth=2")
    shot(page, "laptop-composer")


def test_rival_restaurants_island_cook_and_move_controls(pages: Pages) -> None:
    """The Island shop (an upgrade, an action card, dumping garbage), the cook declaration
    with a special added, and Clam-Voyance's pick with a chef foreseen send what the rules
    accept; each fits a phone. An action the table has no control for still gets a button."""
    shot = top_shot(pages)
    s = situation("island")
    page = pages.open("/games/rival-restaurants/rules", viewport=PHONE, who="Ann")
    show(page, s, 0)
    no_horizontal_scroll(page)
    shot(page, "phone-island")
    upgrade = click_and_take(page, "button[data-act=buy_upgrade][data-upgrade='second_stove']")
    card = click_and_take(page, "button[data-act=buy_action]")
    page.click(".rr-shop [data-field=dump] button[data-step='1']")
    dump = click_and_take(page, "button[data-act=dump]")
    assert (upgrade, card, dump) == ({"type": "buy_upgrade", "upgrade": "second_stove"}, {"type": "buy_action"}, {"type": "dump", "count": 2})
    assert all(legal_for(s, 0, a) is None for a in (upgrade, card, dump))

    s = situation("cook")
    recipe = s.chefs[0].recipes[0]
    page = pages.open("/games/rival-restaurants/rules", viewport=PHONE, who="Ann")
    show(page, s, 0)
    page.click(f".rr-dish[data-recipe='{recipe}'] button[data-extra='chocolate']")
    cook = click_and_take(page, f".rr-dish[data-recipe='{recipe}'] button[data-act=cook]")
    assert cook == {"type": "cook", "recipe": recipe, "extras": ["chocolate"]}
    assert legal_for(s, 0, cook) is None
    assert click_and_take(page, "button[data-act=serve]") == {"type": "serve"}
    assert page.locator(f".rr-me .rr-recipe.ready[data-recipe='{recipe}']").count() == 1
    no_horizontal_scroll(page)
    shot(page, "phone-cook-ready")

    s = situation("move")
    page = pages.open("/games/rival-restaurants/rules", viewport=PHONE, who="Ann")
    show(page, s, 0)
    no_horizontal_scroll(page)
    shot(page, "phone-move")
    page = pages.open("/games/rival-restaurants/rules", viewport=LAPTOP, who="Ann")
    spork = {"type": "spork_bid", "amount": 1}  # an action no control knows (an expansion's)
    show(page, s, 0, extra_legal=(spork,))
    assert click_and_take(page, ".rr-other-actions button") == spork
    page.click(".rr-foresee button[data-foresee='1']")
    move = click_and_take(page, "button.rr-go[data-location='fruit_punch']")
    assert move == {"type": "move", "location": "fruit_punch", "foresee": 1}
    assert legal_for(s, 0, move) is None
    shot(page, "laptop-foresee")
