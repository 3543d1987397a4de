"""Snollygoster in a real browser: a whole match played to the result screen by a human
seat against a bot, by clicking the controls the table offers (seeding, keeping Event
cards, placing Food, Denied and passing in response windows, trades, eating, tagging…),
with the same seat open on a phone that never scrolls sideways; a six-seat team game and
a spectator fit a phone too, and the spectator sees no secret."""

from __future__ import annotations

import json
from typing import Any

import httpx

from .conftest import LAPTOP, PHONE, Pages, no_horizontal_scroll
from .snollygoster_driver import Driver, remembered_seat
from .test_watch import create, take_seat

# Short timers so that a match of 5 rounds takes well under a minute.
FAST = {"window_ms": 1500, "turn_ms": 10_000, "step_ms": 5_000, "round_limit": 5}
# Moments the phone page is checked for sideways scrolling and photographed.
PHONE_MOMENTS = {"action", "window", "event", "place"}


def same_seat_elsewhere(pages: Pages, page: Any, match_id: str, viewport: dict[str, int], who: str) -> Any:
    """The seat ``page`` sits at, opened in a second browser (its token copied over)."""
    seat = remembered_seat(page, match_id)
    other = pages.open("/healthz", viewport=viewport, who=who)
    other.evaluate("([key, value]) => localStorage.setItem(key, value)",
                   [f"potluck:seat:{match_id}", json.dumps(seat)])
    other.goto(f"/matches/{match_id}")
    other.wait_for_selector(".sg")
    return other


def test_a_whole_match_against_a_bot_in_the_browser(pages: Pages, api: httpx.Client) -> None:
    match_id = create(api, "snollygoster", players=2, bots=1, **FAST)
    ann = pages.open(f"/matches/{match_id}", viewport=LAPTOP, who="Ann")
    take_seat(ann, "Ann")
    ann.wait_for_selector(".sg")
    phone = same_seat_elsewhere(pages, ann, match_id, PHONE, "Ann's phone")
    assert phone.get_attribute(".sg", "data-you") == ann.get_attribute(".sg", "data-you")

    # Only Ann sees her agenda and her hand, marked so.
    agenda = ann.locator(".sg-mine .sg-agenda")
    assert agenda.count() == 1 and agenda.get_attribute("data-team") in ("Comrade", "Rogue")
    assert ann.locator(".sg-hand .private-tag").count() == 1

    def moment(label: str) -> None:
        pages.shot(ann, label)
        if label in PHONE_MOMENTS:
            no_horizontal_scroll(phone)
            pages.shot(phone, f"{label}-phone")

    driver = Driver(ann, moment)
    driver.play_to_the_end(limit_s=150)

    # Every control kind the match needed was there to click.
    assert {"seed", "keep", "end_actions"} <= set(driver.clicks), driver.clicks
    # The Food Ann seeded is marked with what only she knows (while it is on the table).
    assert "seed" in driver.seen and "action" in driver.seen and "event" in driver.seen

    # The result screen, with everyone's score.
    ann.wait_for_selector("#result:not([hidden]) .result")
    result = api.get(f"/api/matches/{match_id}/view").json()["result"]
    assert result and result["winners"]
    scores = ann.locator(".result-scores li .score").all_inner_texts()
    assert sorted(float(s) for s in scores) == sorted(result["scores"])
    pages.shot(ann, "result")

    # Behind it, the table reveals every agenda and the scoring.
    ann.click("#result button:has-text('See the table')")
    rows = ann.locator(".sg-end .sg-score")
    assert rows.count() == 2
    for row in result["details"]["breakdown"]:
        shown = ann.locator(f".sg-end .sg-score[data-seat='{row['seat']}']")
        assert shown.get_attribute("data-agenda") == row["agenda"]
        assert float(shown.get_attribute("data-total")) == row["total"]
        assert row["agenda_name"] in shown.inner_text()
    assert ann.locator(".sg-end h2").inner_text().endswith("!")
    pages.shot(ann, "end-table")

    phone.wait_for_selector("#result:not([hidden]) .result")
    no_horizontal_scroll(phone)
    phone.click("#result button:has-text('See the table')")
    phone.wait_for_selector(".sg-end")
    no_horizontal_scroll(phone)
    pages.shot(phone, "end-table-phone")


def test_a_six_seat_team_game_fits_a_phone_and_a_spectator_sees_no_secret(pages: Pages, api: httpx.Client) -> None:
    match_id = create(api, "snollygoster", players=6, bots=5, team_game=True, **FAST)
    ann = pages.open(f"/matches/{match_id}", viewport=PHONE, who="Ann")
    take_seat(ann, "Ann")
    ann.wait_for_selector(".sg")
    assert ann.locator(".sg-player").count() == 6
    assert ann.locator(".sg-mine .sg-agenda").get_attribute("data-team") in ("Comrade", "Rogue")
    watcher = pages.open(f"/matches/{match_id}", viewport=PHONE, who="spectator")
    watcher.wait_for_selector(".sg")

    # Ann's turn to seed comes round: an unsafe Food into somebody else's stash.
    ann.click(".sg [data-seed-kind='unsafe']", timeout=40_000)
    no_horizontal_scroll(ann)
    pages.shot(ann, "seed-phone")
    button = ann.locator(".sg-move [data-act='seed'][data-stash]:not([data-stash='0'])").first
    stash = button.get_attribute("data-stash")
    button.click()
    known = ann.locator(f".sg-player[data-seat='{stash}'] .sg-food[data-know='unsafe'][data-how='placed']")
    known.wait_for()
    assert known.locator(".sg-know").get_attribute("data-knowledge") == "you placed: unsafe"
    no_horizontal_scroll(ann)

    # The spectator sees the Food arrive, but not what it is, nor any agenda or hand.
    food = known.get_attribute("data-food")
    seen = watcher.locator(f".sg-food[data-food='{food}']")
    seen.wait_for()
    assert seen.get_attribute("data-know") == "" and "you placed" not in seen.inner_text()
    assert watcher.locator(".sg-agenda, .sg-hand, [data-action]").count() == 0
    no_horizontal_scroll(watcher)
    pages.shot(watcher, "spectator-phone")
    laptop = pages.open(f"/matches/{match_id}", viewport=LAPTOP, who="laptop spectator")
    laptop.wait_for_selector(".sg")
    pages.shot(laptop, "spectator-laptop")
