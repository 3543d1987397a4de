"""The match page draws the table once per change: a change your own action made waits for
the action's ack, so the renderer's redraw on the ack (``ctx.redraw()``) is the same
drawing, not a second one."""

from __future__ import annotations

import httpx

from .conftest import Pages
from tests.server.clients import answer

from .nutty import throw_if_mine, view_on_screen

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
    for page in (ann, bea):
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
