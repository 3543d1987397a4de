"""Snollygoster in a real browser: a whole match played to the result screen by a human
seat against two bots, by clicking the controls the table offers (seeding, keeping Event
cards, placing Food, Denied and passing in response windows, inspecting and tagging,
trades, eating…), switching to phone width at moments worth a look (no sideways
scrolling at 390 px); a six-seat team game and a spectator fit a phone too, and the
spectator sees no secret.

The server here runs its game clock 16 times faster (bots pause ~0.15 s instead of
2.5 s) with every timer at its longest, so the human is never hurried by the clock."""

from __future__ import annotations

from typing import Iterator

import httpx
import pytest

from .conftest import LAPTOP, PHONE, Pages, no_horizontal_scroll, potluck_server
from .snollygoster_driver import Driver
from .test_watch import create, take_seat

SLOW_TIMERS = {"window_ms": 60_000, "turn_ms": 1_800_000, "step_ms": 600_000, "round_limit": 5}
# The table as a seat sees it (a first state may still be the one a visitor sees).
SEATED = ".sg-player.you"
# Moments the table is also checked at phone width and photographed there.
PHONE_MOMENTS = {"action", "window", "event", "place"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """This module's own server, with quick bots (see the module docstring)."""
    with potluck_server(tmp_path_factory.mktemp("snollygoster-serve"), POTLUCK_CLOCK_SPEED="16") as base:
        yield base


def test_a_whole_match_against_bots_in_the_browser(pages: Pages, api: httpx.Client) -> None:
    match_id = create(api, "snollygoster", players=3, bots=2, **SLOW_TIMERS)
    ann = pages.open(f"/matches/{match_id}", viewport=LAPTOP, who="Ann")
    ann.emulate_media(reduced_motion="reduce")  # no waiting for a card to stop moving before a click
    take_seat(ann, "Ann")
    ann.wait_for_selector(SEATED)

    # Only Ann sees her agenda and her hand, marked so.
    agenda = ann.locator(".sg-mine .sg-agenda")
    assert agenda.count() == 1 and agenda.get_attribute("data-team") in ("Comrade", "Rogue")
    assert ann.locator(".sg-hand .private-tag").count() == 1

    def on_a_phone(label: str) -> None:
        ann.set_viewport_size(PHONE)
        no_horizontal_scroll(ann)
        pages.shot(ann, f"{label}-phone")
        ann.set_viewport_size(LAPTOP)

    def moment(label: str) -> None:
        pages.shot(ann, label)
        if label in PHONE_MOMENTS:
            on_a_phone(label)

    driver = Driver(ann, moment)
    driver.play_to_the_end(limit_s=240)  # a safety net: it takes ~30 s

    # The controls a turn needs were there to click, and the moments worth a look came.
    assert {"seed", "keep", "end_actions"} <= set(driver.clicks), driver.clicks
    assert {"seed", "action", "event"} <= driver.seen, driver.seen

    # The result screen, with everyone's score.
    ann.wait_for_selector("#result:not([hidden]) .result")
    result = api.get(f"/api/matches/{match_id}/view").json()["result"]
    assert result and result["winners"]
    scores = ann.locator(".result-scores li .score").all_inner_texts()
    assert sorted(float(s) for s in scores) == sorted(result["scores"])
    pages.shot(ann, "result")

    # Behind it, the table reveals every agenda and the scoring.
    ann.click("#result button:has-text('See the table')")
    assert ann.locator(".sg-end .sg-score").count() == 3
    for row in result["details"]["breakdown"]:
        shown = ann.locator(f".sg-end .sg-score[data-seat='{row['seat']}']")
        assert shown.get_attribute("data-agenda") == row["agenda"]
        assert float(shown.get_attribute("data-total")) == row["total"]
        assert row["agenda_name"] in shown.inner_text()
    assert ann.locator(".sg-end h2").inner_text().endswith("!")
    pages.shot(ann, "end-table")
    on_a_phone("end-table")


def test_a_six_seat_team_game_fits_a_phone_and_a_spectator_sees_no_secret(pages: Pages, api: httpx.Client) -> None:
    match_id = create(api, "snollygoster", players=6, bots=5, team_game=True, **SLOW_TIMERS)
    ann = pages.open(f"/matches/{match_id}", viewport=PHONE, who="Ann")
    take_seat(ann, "Ann")
    ann.wait_for_selector(SEATED)
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
