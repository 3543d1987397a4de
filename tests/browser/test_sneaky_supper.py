"""Sneaky Supper in a real browser: a human seat plays a whole match against two bots by
clicking the controls the table offers (draws, the Utensil deck, Careful tokens, Retreat,
Recipes and the Craving through their composers, eating, bust picks, hand-limit discards)
up to the result screen and the tally, switching between laptop and phone width every
turn (no sideways scrolling at 390 px), while a spectator on a phone watches and sees no
secret; and the renderer alone, fed states made by the rules engine, sends exactly the
legal actions from its composers.

The server here runs its game clock 8× faster (bots pause ~0.2 s instead of 1.5 s) with
the turn and pick timers at their longest, so the human is never hurried by the clock."""

from __future__ import annotations

import time
from typing import Any, Iterator

import httpx
import pytest

from .conftest import LAPTOP, PHONE, Pages, no_horizontal_scroll, potluck_server
from .sneaky_supper_driver import OVER, Player, click, engine_situation, mount, next_move, shot
from .test_watch import create, take_seat

SLOW_TIMERS = {"turn_timer_ms": 3_600_000, "pick_timer_ms": 3_600_000}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """This module's own server, with quick bots (see the module docstring)."""
    with potluck_server(tmp_path_factory.mktemp("sneaky-serve"), POTLUCK_CLOCK_SPEED="16") as base:
        yield base


def situation(seen: dict[str, Any]) -> str:
    acts = {a["act"] for a in seen["acts"]}
    if "confirm" in acts:
        return "composer"
    for act, name in (("pick", "bust-pick"), ("bust", "noisy"), ("discard", "hand-limit"),
                      ("end_turn", "retreat"), ("craving-open", "craving")):
        if act in acts:
            return name
    return "drawing" if seen["steps"] else "turn-start"


def check_a_refused_composer(page: Any) -> None:
    """Unpick every card of the proposed way and confirm: the rules' reason appears in the
    composer (a real card is needed); then cancel."""
    selected = page.locator(".ss-hand button.ss-card.selected")
    for _ in range(8):
        if not selected.count():
            break
        selected.first.click()
    page.click(".ss [data-act=confirm]")
    error = page.wait_for_selector(".ss-composer [data-error=composer]")
    assert error.inner_text().strip()
    page.click(".ss [data-act=cancel]")
    page.wait_for_selector(".ss-composer", state="detached")


def test_a_human_plays_a_whole_match_against_bots(pages: Pages, api: httpx.Client) -> None:
    match_id = create(api, "sneaky-supper", players=3, bots=2, mish_mash=True, **SLOW_TIMERS)
    page = pages.open(f"/matches/{match_id}", who="Ann")
    page.emulate_media(reduced_motion="reduce")  # no waiting for cards to stop moving before a click
    take_seat(page, "Ann")
    page.wait_for_selector(".ss-you .ss-craving")  # seated: the secret Craving is shown
    watcher = pages.open(f"/matches/{match_id}", viewport=PHONE, who="spectator")
    watcher.emulate_media(reduced_motion="reduce")
    for p in (page, watcher):  # the match page catches a renderer's exception and warns
        p.on("console", lambda m: pages.errors.append(f"renderer: {m.text}") if "renderer failed" in m.text else None)
    watcher.wait_for_selector(".ss .ss-you.watching")
    assert page.locator(".ss-recipe").count() == 9

    player, shots, widths = Player(), set(), [LAPTOP, PHONE]
    turns, refused_once, started = 0, False, time.monotonic()
    for _ in range(600):
        seen = next_move(page)
        if seen is None:
            break
        if seen["phase"] == "turn" and seen["steps"] == 0:  # a new turn of ours: change width
            turns += 1
            page.set_viewport_size(widths[turns % 2])
            seen = next_move(page)
            assert seen is not None
        width = page.viewport_size["width"]
        assert seen["scrollWidth"] <= width, f"the table scrolls sideways at {width} px"
        label = f"{'phone' if width < 500 else 'laptop'}-{situation(seen)}"
        once = situation(seen) in ("noisy", "hand-limit") and any(x.endswith(situation(seen)) for x in shots)
        if label not in shots and not once and not label.endswith(("turn-start", "craving")):
            shots.add(label)
            shot(pages, page, label)
            if label.endswith("drawing") and "spectator" not in shots:  # Ann's sneak, seen by all
                shots.add("spectator")
                assert watcher.locator(".ss-hand, .ss-craving, .ss [data-act]").count() == 0
                no_horizontal_scroll(watcher)
                shot(pages, watcher, "phone-spectator")
        if situation(seen) == "turn-start" and not player.done.get("key D"):  # the shortcut draws
            page.keyboard.press("d")
            page.wait_for_selector(".ss[data-busy='0'] .ss-mat:not([data-steps='0'])")
            player.did("key D")
            continue
        if situation(seen) == "composer" and not refused_once:
            refused_once = True
            check_a_refused_composer(page)
            continue
        act = player.choose(seen)
        assert act is not None, f"no control to choose among: {seen['acts']}"
        if click(page, act):
            player.did(act["act"])
    else:
        pytest.fail(f"the match did not end in 600 moves ({player.done})")
    elapsed = time.monotonic() - started

    # The result screen, then the table behind it with the tally of where the points came from.
    page.wait_for_selector(OVER)
    scores = page.locator(".result-scores li").all_inner_texts()
    assert len(scores) == 3
    shot(pages, page, "result")
    page.click("#result button:has-text('See the table')")
    tally = page.wait_for_selector(".ss-tally")
    rows = page.locator(".ss-tally tbody tr")
    assert rows.count() == 3
    for row in rows.all():
        parts = [int(row.locator(f"td[data-source={k}]").inner_text()) for k in ("recipes", "cravings", "consumed", "careful")]
        assert sum(parts) == int(row.get_attribute("data-total"))
    assert page.locator(".ss-tally tr.winner").count() >= 1
    assert tally.is_visible()
    no_horizontal_scroll(page)
    shot(pages, page, f"{'phone' if page.viewport_size['width'] < 500 else 'laptop'}-tally")
    page.set_viewport_size(PHONE if page.viewport_size["width"] > 500 else LAPTOP)
    no_horizontal_scroll(page)
    shot(pages, page, f"{'phone' if page.viewport_size['width'] < 500 else 'laptop'}-tally")

    # The spectator on a phone saw the same match end, and never a secret or a control.
    watcher.wait_for_selector(OVER)
    assert watcher.locator(".ss-tally tbody tr").count() == 3
    assert watcher.locator(".ss-hand, .ss-craving, .ss-composer, .ss [data-act]").count() == 0
    no_horizontal_scroll(watcher)
    watcher.click("#result button:has-text('See the table')")
    shot(pages, watcher, "phone-spectator-tally")

    # The human really played: drew, retreated, ate, and both widths were seen.
    for act in ("draw", "retreat", "end_turn"):
        assert player.done.get(act), f"never did {act}: {player.done} in {elapsed:.0f} s"
    assert {label.split("-")[0] for label in shots} >= {"laptop", "phone"}
    print(f"Ann's moves: {player.done} in {elapsed:.1f} s")


def sent(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("window.__sent")


def same_way(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return sorted(a["cards"]) == sorted(b["cards"]) and a["tokens"] == b["tokens"] and a.get("recipe") == b.get("recipe")


def test_the_table_offers_every_composite_action(pages: Pages) -> None:
    """States made by the rules engine, drawn by the renderer alone: a Craving scored on
    someone else's turn, a Recipe cooked with a chosen way, Careful tokens at 4+ Noise, a
    bust pick; each control sends exactly an action the rules list as legal."""
    page = pages.open("/games/sneaky-supper/rules", viewport=PHONE, who="renderer")

    # Too loud: every noisy card can be hushed, or the bust accepted; the meter is red.
    view, legal = engine_situation(lambda g, s: s.phase == "noisy" and s.active == 0 and s.turn.cancelled)
    last = view["floorplan"]["path"][-1]
    mount(page, view, legal, fresh=[{"type": "draw", "data": {"step": last["step"], "card": last["card"]}}])
    assert page.locator(f".ss-mat .ss-card.ss-fresh[data-step='{last['step']}']").count() == 1  # it flips in
    assert page.locator(".ss-meter.level-4").count() == 1
    assert page.locator(".ss-meter .ss-block.hushed").count() == len(view["floorplan"]["path"]) - len(
        [p for p in view["floorplan"]["path"] if not p["cancelled"] and p["card"]["noise"] > 0]) - len(
        [p for p in view["floorplan"]["path"] if p["card"]["noise"] == 0])
    hushable = [a for a in legal if a["type"] == "careful"]
    assert page.locator(".ss-mat [data-act=careful]").count() == len(hushable)
    no_horizontal_scroll(page)
    shot(pages, page, "phone-noisy")
    page.click(f".ss [data-act=careful][data-card='{hushable[0]['card']}']")
    assert sent(page) == [hushable[0]]

    # A Craving completed during another player's turn, through its composer.
    page.set_viewport_size(LAPTOP)
    view, legal = engine_situation(lambda g, s: s.active != 0 and s.phase in ("turn", "pick", "noisy")
                                   and any(a["type"] == "craving" for a in g.legal(s, 0)))
    mount(page, view, legal)
    assert page.locator(".ss-craving[data-ready='1']").count() == 1
    page.click(".ss [data-act=craving-open]")
    page.wait_for_selector(".ss-composer[data-composer=craving]")
    shot(pages, page, "laptop-craving-composer")
    page.click(".ss [data-act=confirm]")
    assert len(sent(page)) == 1 and sent(page)[0]["type"] == "craving"
    assert any(same_way(sent(page)[0], a) for a in legal if a["type"] == "craving")

    # A Recipe on a Retreat: the board highlights it; choose the last way offered, cook it.
    view, legal = engine_situation(lambda g, s: s.phase == "retreat" and s.active == 0
                                   and len([a for a in g.legal(s, 0) if a["type"] == "recipe"]) >= 2)
    mount(page, view, legal)
    recipe = next(a for a in legal if a["type"] == "recipe")["recipe"]
    options = [a for a in legal if a["type"] == "recipe" and a["recipe"] == recipe]
    assert page.locator(f".ss-recipe[data-recipe='{recipe}'][data-can='1']").count() == 1
    page.click(f".ss [data-act=recipe-open][data-recipe='{recipe}']")
    if len(options) > 1:
        page.click(f".ss [data-act=way][data-way='{len(options) - 1}']")
    page.click(".ss [data-act=confirm]")
    assert sent(page) == [options[-1]] or same_way(sent(page)[0], options[-1])

    # A bust pick: this seat's turn to choose; every drawn card left is a button.
    page.set_viewport_size(PHONE)
    view, legal = engine_situation(lambda g, s: s.phase == "pick" and s.turn.picker() == 0 and len(s.turn.pool) >= 2)
    mount(page, view, legal)
    picks = [a for a in legal if a["type"] == "pick"]
    assert page.locator(".ss-bust.your-pick [data-act=pick]").count() == len(view["bust"]["pool"])
    no_horizontal_scroll(page)
    shot(pages, page, "phone-your-pick")
    page.click(f".ss [data-act=pick][data-card='{picks[-1]['card']}']")
    assert sent(page) == [picks[-1]]


def test_copies_alike_and_the_moment_after_a_bust(pages: Pages) -> None:
    """Copies of a card share their name in moves: in a composer each copy in the hand is
    chosen on its own (two Sliced Breads are two cards); after your own bust the table
    offers to end the turn (the Craving stays at hand)."""
    from server.games.sneaky_supper import GAME
    from tests.sneaky_supper.helpers import give, new, retreat_with

    page = pages.open("/games/sneaky-supper/rules", viewport=LAPTOP, who="renderer")
    s = new()
    give(s, 0, "sliced-bread", "sliced-bread", "kaya-butter")
    s = retreat_with(s, "gem-biscuits")
    mount(page, GAME.view(s, 0), GAME.legal(s, 0))
    page.click(".ss [data-act=recipe-open][data-recipe='simple-sandwich']")
    breads = page.locator(".ss-hand button.ss-card[data-select='sliced-bread']")
    assert breads.count() == 2 and page.locator(".ss-hand button.ss-card.selected").count() == 2  # a way: bread + kaya
    breads.nth(1).click()
    assert page.locator(".ss-hand button.ss-card[data-select='sliced-bread'].selected").count() == 2
    page.click(".ss [data-act=confirm]")
    assert sorted(sent(page)[0]["cards"]) == ["kaya-butter", "sliced-bread", "sliced-bread"]

    view, legal = engine_situation(lambda g, s: s.phase == "after_bust" and s.active == 0)
    mount(page, view, legal)
    page.click(".ss [data-act=end_turn]")
    assert sent(page) == [{"type": "end_turn"}]
