"""Playing Nutty Noodles through the page, as a sharp player: read the dice, the tables
and the bowls off the screen, work out the answer, and click it (or type it)."""

from __future__ import annotations

from typing import Any

from tests.server.clients import answer

RACE = ".nn[data-phase=race], .nn[data-phase=closing]"


def view_on_screen(page: Any) -> dict[str, Any]:
    """What the board shows, in the shape of a view: phase, the throw's dice, tables."""
    return page.evaluate("""() => ({
        phase: document.querySelector('.nn').dataset.phase,
        throw: {dice: [...document.querySelectorAll('.nn-dice.live .die')].map(d => d.dataset.face)},
        tables: [...document.querySelectorAll('.nn-tables [data-table]')]
            .filter(t => t.dataset.table !== 'takeaway')
            .map(t => t.dataset.monster ? {id: t.dataset.monster} : null),
    })""")


def say_ready(page: Any) -> None:
    """The lobby's matches begin with the ready check: press "I'm ready"."""
    # A locator, not an element handle: a redraw replaces the button, and the click finds
    # the new one.
    page.locator(".nn[data-phase=ready] button.ready").click()
    page.wait_for_selector(".nn[data-phase=ready] button.ready", state="detached")


def throw_if_mine(page: Any) -> bool:
    """Click "Throw the dice" if this seat throws; returns whether it did."""
    button = page.locator("button.roll")
    if button.count():
        button.click()
        return True
    return False


def serve_by_clicks(page: Any) -> dict[str, Any]:
    """Wait for the dice, then click the right table (or takeaway) and the right bowl."""
    page.wait_for_selector(".nn-dice.live")
    action = answer(view_on_screen(page))
    assert action is not None
    table = "takeaway" if action["type"] == "takeaway" else str(action["table"])
    page.click(f".nn-tables [data-table='{table}']:not([disabled])")
    page.click(f".bowl[data-bowl='{action['bowl']}']")
    return action


def serve_by_keys(page: Any) -> dict[str, Any]:
    """The same with two key presses: the table's number (0: takeaway), the bowl's letter."""
    page.wait_for_selector(".nn-dice.live")
    action = answer(view_on_screen(page))
    assert action is not None
    key = page.get_attribute(f".bowl[data-bowl='{action['bowl']}']", "data-key")
    page.keyboard.press("0" if action["type"] == "takeaway" else str(action["table"] + 1))
    page.keyboard.press(key.lower())
    return action
