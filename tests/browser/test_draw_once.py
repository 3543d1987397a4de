"""The match page draws the table once per change: a change your own action made waits for
the action's ack, so the renderer's redraw on the ack (``ctx.redraw()``) is the same
drawing, not a second one — in Nutty Noodles, and at the Rival Restaurants table, whose
renderer redraws after an acknowledged offer (it closes the barter composer)."""

from __future__ import annotations

import httpx

from .conftest import LAPTOP, Pages
from tests.server.clients import answer

from .nutty import throw_if_mine, view_on_screen
from .rival_restaurants_driver import CLICK_MS, SEND_OFFER, RivalDriver
from .test_rival_restaurants import SLOW_TIMERS
from .test_watch import create, take_seat

# no tie window: a right bowl ends the round at once, so one serve is one change
OPTIONS = {"tie_window_ms": 0, "roll_timeout_ms": 120_000, "round_timeout_ms": 600_000}


def draws(page) -> int:  # type: ignore[no-untyped-def]
    return int(page.get_attribute("#match", "data-draws") or 0)


# each drawing of the table replaces its elements in one task: count the tasks that did
COUNT_BOARD_DRAWINGS = """() => {
    window.__drawings = 0;
    new MutationObserver(() => { window.__drawings += 1; })
        .observe(document.querySelector('#board'), {childList: true, subtree: true});
}"""


def test_your_own_action_is_drawn_once(pages: Pages, server: str) -> None:
    created = httpx.post(f"{server}/api/matches", json={"game": "nutty-noodles", "players": 2, "options": OPTIONS})
    assert created.status_code == 201, created.text
    match_id = created.json()["id"]
    ann, bea = (pages.open(f"/matches/{match_id}", who=name) for name in ("Ann", "Bea"))
    for page, name in ((ann, "Ann"), (bea, "Bea")):
        page.fill("#join-name", name)
        page.click("form.join-form button[type=submit]")
    for page in (ann, bea):  # each page's seat view, not the visitor's view it replaces
        page.wait_for_function("() => document.querySelector('#match').dataset.you")
        page.wait_for_selector(".nn[data-phase=roll]")
    thrower, other = (ann, bea) if ann.locator("button.roll").count() else (bea, ann)
    assert throw_if_mine(thrower)
    other.wait_for_function("() => Number(document.querySelector('#match').dataset.seq) >= 1")
    other.wait_for_selector(".nn-dice.live")
    action = answer(view_on_screen(other))
    assert action is not None
    table = "takeaway" if action["type"] == "takeaway" else str(action["table"])
    other.click(f".nn-tables [data-table='{table}']:not([disabled])")
    before = draws(other)
    other.evaluate(COUNT_BOARD_DRAWINGS)
    other.click(f".bowl[data-bowl='{action['bowl']}']")  # the action: its patch, then its ack
    other.wait_for_function("() => Number(document.querySelector('#match').dataset.seq) >= 2")
    other.wait_for_selector(".nn[data-phase=roll]")
    assert draws(other) == before + 1, "the page drew the change more than once"
    # the click's own drawing (the bowl pressed), then the change with the ack: nothing between
    assert other.evaluate("() => window.__drawings") == 2, "the change and the redraw on its ack were drawn apart"


# the seq held at each drawing of the table (``data-draws`` counts them)
RECORD_DRAWN_SEQS = """() => {
    const match = document.querySelector('#match');
    window.__drawn = [];
    new MutationObserver(() => { window.__drawn.push(Number(match.dataset.seq)); })
        .observe(match, {attributes: true, attributeFilter: ['data-draws']});
}"""


def test_your_own_offer_at_the_rival_restaurants_table_is_drawn_once(pages: Pages, api: httpx.Client) -> None:
    """An offer sent from the barter composer: its change arrives as a patch, then its ack,
    on which the renderer closes the composer and asks for a redraw; the page draws that
    change once (the bots' changes meanwhile are drawn once each too: no seq twice)."""
    match_id = create(api, "rival-restaurants", players=3, bots=2, **SLOW_TIMERS)
    page = pages.open(f"/matches/{match_id}", viewport=LAPTOP, who="Ann")
    take_seat(page, "Ann")
    # the seat's own view (its legal Go buttons), not the visitor's it replaces
    page.wait_for_selector(".rr[data-phase=money_move] button.rr-go.legal", timeout=30_000)
    driver = RivalDriver(page, lambda page, label: None)
    driver.move(day=1)
    page.wait_for_selector(".rr[data-phase=buy_barter] .rr-standee-wrap", timeout=60_000)
    # compose an offer (clicks that change only this page), as a player does
    assert driver.ui_click("button[data-act=open-barter]")
    assert driver.ui_click(".rr-barter-composer .rr-partner"), "nobody to trade with at the market"
    if not driver.ui_click(".rr-bundle.get button[data-item^='ingredient:'][data-step='1']:not([disabled])"):
        assert driver.ui_click(".rr-bundle.get button[data-item^='recipe:']")
    page.fill(".rr-bundle.give input[data-field=money]", "100", timeout=CLICK_MS)
    page.wait_for_selector(f"{SEND_OFFER}.legal")
    page.evaluate(RECORD_DRAWN_SEQS)
    page.click(f"{SEND_OFFER}.legal")  # the action: its patch, then its ack (and the redraw on it)
    page.wait_for_selector(".rr-offer.out", state="attached")
    page.wait_for_selector(".rr-barter-composer", state="detached")  # closed on the ack
    drawn = page.evaluate("() => window.__drawn")
    assert drawn, "the offer was never drawn"
    assert len(drawn) == len(set(drawn)), f"a change was drawn more than once: the seqs drawn were {drawn}"
