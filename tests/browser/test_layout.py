"""Pages at phone width (390 px) never scroll sideways; the variants' tables look right
at both widths (screenshots)."""

from __future__ import annotations

import httpx
import pytest

from .conftest import LAPTOP, PHONE, Pages, no_horizontal_scroll
from .nutty import throw_if_mine
from .test_watch import create, take_seat


def test_lobby_and_rules_fit_a_phone(pages: Pages) -> None:
    page = pages.open("/", viewport=PHONE)
    page.fill("#player-name", "Ann")
    page.click(".game-card[data-game='nutty-noodles'] button.setup")
    page.click(".game-card[data-game='nutty-noodles'] details.more-options summary")
    no_horizontal_scroll(page)
    pages.shot(page, "lobby-phone")
    page.goto("/games/nutty-noodles/rules")
    assert page.locator(".designed").count() >= 3  # what we designed is marked
    no_horizontal_scroll(page)
    pages.shot(page, "rules-phone")


@pytest.mark.parametrize("options", [
    {"mode": "basic"},
    {"mode": "advanced", "panic_in_the_kitchen": True, "scrambled": True, "order_please": True},
], ids=["basic", "advanced-panic-scrambled"])
def test_nutty_noodles_table_fits_a_phone(pages: Pages, api: httpx.Client, options: dict) -> None:
    match_id = create(api, "nutty-noodles", players=4, bots=3, **options)
    phone = pages.open(f"/matches/{match_id}", viewport=PHONE, who="player")
    take_seat(phone, "Ann")
    phone.wait_for_selector("button.roll, .nn-dice.live")
    throw_if_mine(phone)
    phone.wait_for_selector(".nn-dice.live")  # mid-race: dice, tokens and timers all shown
    bowls = phone.locator(".bowl")
    assert bowls.count() == (20 if options["mode"] == "advanced" else 16)
    if options.get("panic_in_the_kitchen"):
        assert phone.locator(".nn-bowls.scattered").count() == 1
    if options.get("scrambled"):
        assert phone.locator(".bowl.scrambled").count() == bowls.count()
    no_horizontal_scroll(phone)
    pages.shot(phone, "phone")
    watcher = pages.open(f"/matches/{match_id}", viewport=PHONE, who="spectator")
    watcher.wait_for_selector(".nn")
    no_horizontal_scroll(watcher)
    laptop = pages.open(f"/matches/{match_id}", viewport=LAPTOP, who="laptop spectator")
    laptop.wait_for_selector(".nn")
    pages.shot(laptop, "laptop")
