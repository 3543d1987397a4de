"""Accessibility in a real browser. axe-core (``axe-playwright-python``, which carries
axe's script) finds no serious or critical violation on the lobby, a player's page, a
replay, and each game's table from a seat and from the spectators' chairs (SPORKS Out too). Every game is
played with the keyboard alone — Tab to a control, Enter, or the game's keys — its first
moves, and focus is always visible; the prompt and new log lines are announced (live
regions); seats differ by shape as well as colour; reduced motion stops animations.

The server runs its game clock 4 times faster (bots are quick) with every timer at its
longest, so a keyboard player is never hurried."""

from __future__ import annotations

from typing import Any, Iterator

import httpx
import pytest

from . import sporks_situations
from .conftest import Pages
from .finished import server_with
from .nutty import serve_by_keys
from .rival_restaurants_driver import show
from .test_watch import create, take_seat

axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright",
                                     reason="axe-playwright-python is not installed (pip install -e '.[dev]')")

SERIOUS = {"serious", "critical"}
ROOTS = {"nutty-noodles": ".nn", "sneaky-supper": ".ss", "snollygoster": ".sg", "rival-restaurants": ".rr"}
SLOW = {
    "nutty-noodles": {"tie_window_ms": 2_000},
    "sneaky-supper": {"turn_timer_ms": 3_600_000, "pick_timer_ms": 3_600_000},
    "snollygoster": {"window_ms": 60_000, "turn_ms": 1_800_000, "step_ms": 600_000},
    "rival-restaurants": {"market_ms": 600_000, "claim_ms": 120_000, "move_ms": 300_000, "cook_ms": 300_000},
}


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    matches = {"finished": {"game_id": "rival-restaurants", "humans": ["Ann"], "bots": 2, "seed": 2}}
    with server_with(tmp_path_factory.mktemp("a11y-serve"), matches, POTLUCK_CLOCK_SPEED="4") as served:
        yield served


@pytest.fixture(scope="module")
def server(stored: tuple[str, dict[str, str]]) -> str:
    return stored[0]


def serious_violations(page: Any) -> list[str]:
    """axe's serious and critical findings on the page as it is now, one line each."""
    results = axe_playwright.Axe().run(page)
    return [f"{v['impact']} {v['id']}: {v['help']} at {[n['target'] for n in v['nodes']][:6]}"
            for v in results.response["violations"] if v["impact"] in SERIOUS]


def seated(pages: Pages, api: httpx.Client, game: str, players: int = 3) -> tuple[str, Any]:
    """A match of ``game`` against bots with Ann seated (her page, reduced motion)."""
    match_id = create(api, game, players=players, bots=players - 1, **SLOW[game])
    page = pages.open(f"/matches/{match_id}", who="Ann")
    page.emulate_media(reduced_motion="reduce")
    take_seat(page, "Ann")
    page.wait_for_selector(f"#match[data-you='0'] {ROOTS[game]}")
    return match_id, page


def test_no_serious_violation_on_the_lobby_a_replay_and_a_players_page(
        pages: Pages, stored: tuple[str, dict[str, str]]) -> None:
    match_id = stored[1]["finished"]
    lobby = pages.open("/", who="lobby")
    lobby.wait_for_selector(f"#finished-matches [data-match='{match_id}']")
    assert serious_violations(lobby) == []
    replay = pages.open(f"/matches/{match_id}/replay?step=40&seat=0", who="replay")
    replay.wait_for_selector("#replay[data-step='40'] .rr")
    assert serious_violations(replay) == []
    replay.select_option("#replay-seat", "")
    replay.wait_for_selector("#replay[data-step='40'][data-seat=''] .rr.watching")
    assert serious_violations(replay) == []
    player = pages.open("/players/Ann", who="history")
    player.wait_for_selector("#history .match-row")
    assert serious_violations(player) == []


@pytest.mark.parametrize("game", sorted(ROOTS))
def test_no_serious_violation_at_a_table_seated_or_watching(pages: Pages, api: httpx.Client, game: str) -> None:
    match_id, page = seated(pages, api, game)
    assert serious_violations(page) == []
    pages.shot(page, "seat")
    watcher = pages.open(f"/matches/{match_id}", who="spectator")
    watcher.emulate_media(reduced_motion="reduce")
    watcher.wait_for_selector(f"#match.spectating {ROOTS[game]}")
    assert serious_violations(watcher) == []


def test_no_serious_violation_at_a_sporks_out_table(pages: Pages, api: httpx.Client) -> None:
    """A SPORKS Out table seated and watching, and its new parts drawn from situations: the
    Action Auction with a secret bid and a face-down card, Pam's gloves with Hot Sauce backs,
    the Luau with the Sultan's shaker composer open."""
    match_id = create(api, "rival-restaurants", players=3, bots=2, sporks_out=True, **SLOW["rival-restaurants"])
    page = pages.open(f"/matches/{match_id}", who="Ann")
    page.emulate_media(reduced_motion="reduce")
    take_seat(page, "Ann")
    page.wait_for_selector("#match[data-you='0'] .rr .rr-snackle")
    assert serious_violations(page) == []
    watcher = pages.open(f"/matches/{match_id}", who="spectator")
    watcher.wait_for_selector("#match.spectating .rr .rr-snackle")
    assert serious_violations(watcher) == []
    for build, seat, opened in ((sporks_situations.auction, 0, None), (sporks_situations.gloves, 0, "knockout"),
                                (sporks_situations.luau, 0, "power")):
        drawn = pages.open("/games/rival-restaurants/rules", who=build.__name__)
        drawn.emulate_media(reduced_motion="reduce")
        show(drawn, build(), seat)
        if opened:
            drawn.click(f".rr-plays button[data-act=power]{'' if opened == 'power' else f'[data-use={opened}]'}")
        assert serious_violations(drawn) == [], build.__name__


# ---- the keyboard alone ----------------------------------------------------------------

def tab_to(page: Any, selector: str, limit: int = 250) -> None:
    """Press Tab until a control matching ``selector`` has the focus, and check that the
    focus can be seen there (``:focus-visible`` and a real outline)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        focused = page.evaluate("""s => {
            const el = document.activeElement;
            if (!el || !el.matches(s)) return null;
            const style = getComputedStyle(el);
            return {visible: el.matches(':focus-visible'), outline: style.outlineStyle, width: parseFloat(style.outlineWidth)};
        }""", selector)
        if focused:
            assert focused["visible"] and focused["outline"] != "none" and focused["width"] >= 2, focused
            return
    raise AssertionError(f"Tab never reached {selector}")


def my_lines(page: Any) -> int:
    return page.locator("#log .log-entry", has_text="Ann").count()


def test_nutty_noodles_by_keyboard(pages: Pages, api: httpx.Client) -> None:
    _, page = seated(pages, api, "nutty-noodles", players=2)
    served = 0
    for _ in range(6):
        if served >= 2:
            break
        page.wait_for_selector("button.roll, .nn-dice.live, #result:not([hidden])", timeout=30_000)
        if page.locator("#result:not([hidden])").count():
            break
        if page.locator("button.roll").count():  # Ann throws: Tab to the button, Enter
            tab_to(page, "button.roll")
            page.keyboard.press("Enter")
        page.wait_for_selector(".nn-dice.live")
        before = page.locator(".log-entry[data-type=place]", has_text="Ann").count()
        serve_by_keys(page)  # the table's number, then the bowl's letter
        try:
            page.wait_for_function("n => [...document.querySelectorAll('.log-entry[data-type=place]')]"
                                   ".filter(e => e.textContent.includes('Ann')).length > n", arg=before, timeout=5_000)
            served += 1
        except Exception:  # the bot served first: the next throw
            pass
        page.wait_for_selector(".nn[data-phase=roll], #result:not([hidden])")
    assert served >= 1, "Ann never served by keyboard"
    pages.shot(page, "played")


def test_sneaky_supper_by_keyboard(pages: Pages, api: httpx.Client) -> None:
    _, page = seated(pages, api, "sneaky-supper")
    page.wait_for_selector(".ss [data-act=draw]:not([disabled])", timeout=60_000)
    before = my_lines(page)
    page.keyboard.press("d")  # the game's key for "draw"
    page.wait_for_function("n => [...document.querySelectorAll('#log .log-entry')]"
                           ".filter(e => e.textContent.includes('Ann')).length > n", arg=before)
    page.wait_for_selector(".ss [data-act]:not([disabled])")
    before = my_lines(page)
    tab_to(page, ".ss button[data-act]:not([disabled]):not([data-act=craving-open])")
    page.keyboard.press("Enter")
    page.wait_for_function("n => [...document.querySelectorAll('#log .log-entry')]"
                           ".filter(e => e.textContent.includes('Ann')).length > n", arg=before)
    pages.shot(page, "played")


def test_snollygoster_by_keyboard(pages: Pages, api: httpx.Client) -> None:
    _, page = seated(pages, api, "snollygoster")
    page.wait_for_selector(".sg [data-seed-kind]", timeout=60_000)
    tab_to(page, ".sg [data-seed-kind='safe']")
    page.keyboard.press("Enter")
    seed = ".sg [data-action*='\"seed\"']:not([disabled])"
    page.wait_for_selector(seed)
    before = my_lines(page)
    tab_to(page, seed)
    page.keyboard.press("Enter")
    page.wait_for_function("n => [...document.querySelectorAll('#log .log-entry')]"
                           ".filter(e => e.textContent.includes('Ann')).length > n", arg=before)
    pages.shot(page, "played")


def test_rival_restaurants_by_keyboard(pages: Pages, api: httpx.Client) -> None:
    _, page = seated(pages, api, "rival-restaurants")
    page.wait_for_selector(".rr[data-phase=money_move] button.rr-go:not([disabled])", timeout=30_000)
    tab_to(page, "button.rr-go:not([disabled])")
    page.keyboard.press("Enter")
    page.wait_for_selector("button.rr-go.picked, .rr[data-phase=buy_barter]")
    page.wait_for_selector(".rr[data-phase=buy_barter] button[data-act=done].legal", timeout=60_000)
    page.keyboard.press("d")  # the game's key for "done"
    page.wait_for_selector(".rr[data-phase=buy_barter] button[data-act=done].legal", state="detached")
    pages.shot(page, "played")


# ---- announced, told apart, still ---------------------------------------------------------

def test_prompt_and_log_are_announced_seats_have_shapes_and_motion_can_stop(pages: Pages, api: httpx.Client) -> None:
    match_id, page = seated(pages, api, "nutty-noodles", players=4)
    assert page.get_attribute("#prompt-text", "aria-live") == "polite"
    assert page.get_attribute("#log", "aria-live") == "polite"
    assert page.locator("#countdown[aria-live]").count() == 0  # a ticking clock is not read out
    # every seat's marker has a shape of its own, so colour is not the only difference
    page.wait_for_selector(".player[data-seat='3'] .chip")
    shapes = page.eval_on_selector_all(".players .player .chip", "els => els.map(e => getComputedStyle(e).borderRadius)")
    assert len(shapes) == 4 and len(set(shapes)) == 4, shapes
    # reduced motion: whatever animates or transitions, ends at once
    assert longest_motion_ms(page) <= 1
    normal = pages.open(f"/matches/{match_id}", who="spectator")  # no preference: motion as designed
    normal.wait_for_selector(".nn")
    assert longest_motion_ms(normal) >= 50


def longest_motion_ms(page: Any) -> float:
    """The longest animation or transition any element of the page has, in ms."""
    return page.evaluate("""() => Math.max(...[...document.querySelectorAll('*')].flatMap(el => {
        const s = getComputedStyle(el);
        return [s.animationDuration, s.transitionDuration].flatMap(d => d.split(','))
            .map(d => parseFloat(d) * (d.trim().endsWith('ms') ? 1 : 1000));
    }))""")
