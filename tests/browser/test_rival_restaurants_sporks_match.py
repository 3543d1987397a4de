"""A whole SPORKS Out match in a real browser against two bots, played by clicking what the
table offers, to the result screen: Ann is Pam Knee You (the seed deals her; Bot 1 is
Wahine), so every day's Luau is thrown, and visiting the four corner markets on Days 1–4
earns her the Boxing Gloves, which she uses from Day 4 on (the Rob Glove needs a bot
holding an ingredient, which may take a day more: the match runs 6 days). Screenshots: the auction with her
secret bid, the Luau, the gloves (and the Snackle Box's face-down card, when a tie leaves
one). The server's game clock runs 4 times faster, every timer at its longest."""

from __future__ import annotations

import json
from typing import Any, Iterator

import httpx
import pytest

from server.games.rival_restaurants import GAME
from server.games.rival_restaurants.cards import CORNERS

from .conftest import LAPTOP, PHONE, Pages, no_horizontal_scroll, potluck_server
from .rival_restaurants_driver import SEATED
from .sporks_driver import SporksDriver, store_waiting_match
from .test_rival_restaurants import top_shot, watch_the_renderer
from .test_watch import take_seat
from server.games.rival_restaurants.sporks_table import table

SEED = 139  # deals Ann Pam Knee You and Bot 1 Wahine (checked below)
PLAYERS = ["Ann", "Bot 1", "Bot 2"]
OPTIONS = {"sporks_out": True, "market_ms": 600_000, "claim_ms": 120_000, "move_ms": 300_000,
           "cook_ms": 300_000, "auction_ms": 300_000, "max_days": 6, "goal": 60}


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    workdir = tmp_path_factory.mktemp("sporks-serve")
    match_id = store_waiting_match(workdir / "potluck.db", SEED, PLAYERS, bots=2, options=OPTIONS)
    with potluck_server(workdir, POTLUCK_CLOCK_SPEED="4") as base:
        yield base, match_id


@pytest.fixture(scope="module")
def server(seeded: tuple[str, str]) -> str:
    return seeded[0]


def test_the_seed_deals_pam_to_ann_and_wahine_to_a_bot() -> None:
    s = GAME.setup(PLAYERS, GAME.options(OPTIONS), SEED, 0)
    assert s.chefs[0].chef == "pam_knee_you" and s.chefs[1].chef == "wahine"


def test_sporks_out_match_to_the_end_against_bots(pages: Pages, seeded: tuple[str, str]) -> None:
    shot = top_shot(pages)
    match_id = seeded[1]
    lobby = pages.open("/", who="lobby")  # the create form offers the expansion's two options
    lobby.click("button.setup[data-game=rival-restaurants]")
    lobby.wait_for_selector("#opt-rival-restaurants-sporks_out[type=checkbox]")
    assert lobby.locator("#opt-rival-restaurants-sporks_chefs[type=checkbox]").count() == 1

    page = pages.open(f"/matches/{match_id}", viewport=LAPTOP, who="Ann")
    failures = watch_the_renderer(page)
    frames: list[str] = []  # what Ann's page received over its WebSocket
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
    take_seat(page, "Ann")
    page.wait_for_selector(SEATED)
    watcher = pages.open(f"/matches/{match_id}", viewport=PHONE, who="spectator")
    assert page.locator(".rr-snackle").count() == 1
    assert page.locator(".rr-me .rr-uses li[data-use]").count() == 2  # Pam's two gloves, SPORKs

    driver = SporksDriver(page, shot)
    driver.play_to_the_end(limit_s=1800)  # a hang guard

    page.wait_for_selector("#result:not([hidden]) .result")
    shot(page, "result")
    assert {"bid", "bids revealed", "luau", "knockout", "rob"} <= driver.did, sorted(driver.did)
    assert {d["went"] for d in driver.days[:4]} == set(CORNERS), driver.days  # her boxing ring, day by day
    log = page.locator("#log .log-entry")
    types = set(log.evaluate_all("els => els.map(e => e.dataset.type)"))
    assert {"box_fill", "luau", "luau_held", "gloves", "knockout", "rob"} <= types, sorted(types)
    assert types & {"box_won", "box_tie"}, sorted(types)
    page.click("#result button:has-text('See the table')")
    shot(page, "laptop-over")
    watcher.wait_for_selector("#result:not([hidden])")
    watcher.click("#result button:has-text('See the table')")
    no_horizontal_scroll(watcher)
    shot(watcher, "phone-spectator-over")
    assert failures == []
    assert_no_face_down_card_reached_the_page(seeded[0], match_id, frames)


def assert_no_face_down_card_reached_the_page(base: str, match_id: str, frames: list[str]) -> None:
    """Replay the match's log: no message Ann's page received names the Snackle Box's
    face-down card (its copy id) while that card lay face down."""
    log = httpx.get(f"{base}/api/matches/{match_id}/log", timeout=30).json()
    s = GAME.setup(log["players"], GAME.options(log["options"]), log["seed"], log["started_at"])
    face_down = {0: table(s).face_down}
    for entry in log["actions"]:
        s = GAME.apply(s, entry["seat"], entry["action"], entry["at"])[0]
        face_down[entry["seq"]] = table(s).face_down
    checked = 0
    for frame in frames:
        message = json.loads(frame)
        card = face_down.get(message.get("seq", -1)) if message.get("type") in ("state", "patch") else None
        if card is not None:
            checked += 1
            assert card not in frame, (message["seq"], card)
    assert frames
    if any(face_down.values()):  # a tie left a card face down: it was checked in what arrived then
        assert checked > 0, "no message arrived while a card lay face down"
