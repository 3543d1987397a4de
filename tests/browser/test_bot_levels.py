"""The lobby offers the bots' level: one per bot seat in the create form, one for all in
"Play now vs bots"; the table shows each bot's level."""

from __future__ import annotations

from .conftest import PHONE, Pages, no_horizontal_scroll


def _match_of(page) -> dict:
    return page.evaluate("id => fetch(`/api/matches/${id}`).then(r => r.json())", page.url.rsplit("/", 1)[1])


def test_the_create_form_sets_a_level_per_bot_seat(pages: Pages) -> None:
    page = pages.open("/", viewport=PHONE, who="Ann")
    page.fill("#player-name", "Ann")
    page.click(".game-card[data-game='sneaky-supper'] button.setup")
    form = page.locator("form.create-form[data-game='sneaky-supper']")
    form.locator("select[name=players]").select_option("3")
    form.locator("select[name=bots]").select_option("2")
    assert form.locator("select[name=level]").count() == 2
    form.locator("select[name=level]").nth(0).select_option("hard")
    form.locator("select[name=level]").nth(1).select_option("easy")
    no_horizontal_scroll(page)
    pages.shot(page, "lobby-bot-levels")
    form.locator("button[type=submit]").click()
    page.wait_for_url("**/matches/*")
    seats = _match_of(page)["seats"]
    assert [(s["name"], s["level"]) for s in seats] == [("Ann", None), ("Bot 1", "hard"), ("Bot 2", "easy")]
    page.wait_for_selector(".tag:text-is('hard bot')")


def test_play_now_with_easy_bots(pages: Pages) -> None:
    page = pages.open("/", who="Bea")
    page.fill("#player-name", "Bea")
    page.locator(".game-card[data-game='nutty-noodles'] select.play-level").select_option("easy")
    page.click(".game-card[data-game='nutty-noodles'] button.play-now")
    page.wait_for_url("**/matches/*")
    match = _match_of(page)
    assert [(s["name"], s["level"]) for s in match["seats"]] == [("Bea", None), ("Bot 1", "easy"), ("Bot 2", "easy")]
    assert match["status"] == "running"
    page.wait_for_selector(".nn")
