"""Replays and history in a real browser: a finished match stepped through, jumped in
(slider and keys), played at speed and watched from each seat and the spectators' —
each game drawn by its own renderer; the address names the move and seat and opens there
again; a running match's replay is refused; the result screen and the lobby link to
replays; a player's page lists what was played under a name, with wins per game."""

from __future__ import annotations

from typing import Any, Iterator

import httpx
import pytest

from .conftest import LAPTOP, PHONE, Pages, no_horizontal_scroll
from .finished import server_with
from .test_watch import create

ROOTS = {"nutty-noodles": ".nn", "sneaky-supper": ".ss", "snollygoster": ".sg", "rival-restaurants": ".rr"}
MATCHES = {
    "ann": {"game_id": "nutty-noodles", "humans": ["Ann"], "bots": 1, "seed": 3},
    "ann-again": {"game_id": "nutty-noodles", "humans": ["Bea", "Ann"], "bots": 1, "seed": 4},
    **{game: {"game_id": game, "humans": ["Ann"], "bots": 2, "seed": 7} for game in ROOTS},
}


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    with server_with(tmp_path_factory.mktemp("replay-serve"), MATCHES) as served:
        yield served


@pytest.fixture(scope="module")
def server(stored: tuple[str, dict[str, str]]) -> str:
    return stored[0]


@pytest.fixture(scope="module")
def ids(stored: tuple[str, dict[str, str]]) -> dict[str, str]:
    return stored[1]


def at_step(page: Any, step: int, seat: str = "") -> None:
    page.wait_for_selector(f"#replay[data-step='{step}'][data-seat='{seat}']")


def visible_log(page: Any) -> list[int]:
    return [int(s) for s in page.eval_on_selector_all("#log .log-entry:not([hidden])", "els => els.map(e => e.dataset.seq)")]


def test_step_jump_play_and_watch_from_every_seat(pages: Pages, api: httpx.Client, ids: dict[str, str]) -> None:
    match_id = ids["ann"]
    outline = api.get(f"/api/matches/{match_id}/replay").json()
    steps, winner = outline["steps"], outline["seats"][outline["result"]["winners"][0]]["name"]
    page = pages.open(f"/matches/{match_id}/replay", who="viewer")
    at_step(page, 0)
    assert page.locator(".nn").count() == 1  # the live table's renderer
    assert visible_log(page) == [] and page.locator("[data-replay-step=back]").is_disabled()
    assert page.locator(".nn-tokens").count() == 0  # the spectators' view: no tokens in hand

    # step forward and back, by button and by key
    page.click("[data-replay-step=forward]")
    at_step(page, 1)
    assert visible_log(page) and set(visible_log(page)) == {1}
    assert page.locator("#log .log-entry.current").count() >= 1
    page.keyboard.press("ArrowRight")
    at_step(page, 2)
    page.keyboard.press("ArrowLeft")
    at_step(page, 1)
    assert "step=1" in page.url

    # jump: the slider, then End and Home on it
    page.locator("#replay-slider").fill(str(steps // 2))
    at_step(page, steps // 2)
    assert max(visible_log(page)) <= steps // 2
    page.focus("#replay-slider")
    page.keyboard.press("End")
    at_step(page, steps)
    result = page.locator("#replay-result")
    assert result.is_visible() and f"{winner} wins" in result.inner_text()
    assert page.locator("[data-replay-step=forward]").is_disabled()
    pages.shot(page, "end")
    page.keyboard.press("Home")
    at_step(page, 0)

    # watch from Ann's seat, then the bot's: each sees its own table
    page.click("[data-replay-step=last]")
    at_step(page, steps)
    page.select_option("#replay-seat", "0")
    at_step(page, steps, "0")
    assert page.locator(".nn-tokens").count() == 1
    assert page.locator(".player.you[data-seat='0']").count() == 1
    page.locator("#replay-slider").fill("3")
    at_step(page, 3, "0")
    shown = page.evaluate("() => document.querySelector('.nn').dataset.phase")
    assert shown == api.get(f"/api/matches/{match_id}/replay/3", params={"seat": 0}).json()["view"]["phase"]
    page.select_option("#replay-seat", "1")
    at_step(page, 3, "1")
    assert page.locator(".player.you[data-seat='1']").count() == 1

    # the address names the move and the seat: a link opens the same table
    assert page.url.endswith("/replay?step=3&seat=1")
    friend = pages.open(page.url, who="friend")
    at_step(friend, 3, "1")
    assert friend.input_value("#replay-seat") == "1"

    # play at speed, then pause
    page.select_option("#replay-speed", "8")
    page.click("#replay-play")
    page.wait_for_function("() => Number(document.querySelector('#replay').dataset.step) >= 6")
    page.click("#replay-play")
    assert page.get_attribute("#replay-play", "aria-pressed") == "false"
    pages.shot(page, "seat")


def test_every_game_replays_with_its_renderer_and_each_seat_keeps_its_secrets(
        pages: Pages, api: httpx.Client, ids: dict[str, str]) -> None:
    for game, root in ROOTS.items():
        match_id = ids[game]
        outline = api.get(f"/api/matches/{match_id}/replay", params={"seat": 0}).json()
        middle = outline["steps"] // 2
        private = [e for e in outline["events"] if e["private"] and e["seq"] <= middle]
        page = pages.open(f"/matches/{match_id}/replay?step={middle}&seat=0", who=f"{game} Ann")
        at_step(page, middle, "0")
        page.wait_for_selector(root)
        assert page.locator("#log .log-entry.private:not([hidden])").count() == len(private)
        pages.shot(page, f"{game}-seat")
        watcher = pages.open(f"/matches/{match_id}/replay?step={middle}", viewport=PHONE, who=f"{game} spectator")
        at_step(watcher, middle)
        watcher.wait_for_selector(root)
        assert watcher.locator("#log .log-entry.private").count() == 0
        text = watcher.inner_text("#log")
        assert not [e["text"] for e in private if e["text"] in text]
        no_horizontal_scroll(watcher)
        pages.shot(watcher, f"{game}-spectator-phone")
    assert any(api.get(f"/api/matches/{ids[g]}/replay", params={"seat": 0}).json()["events"][i]["private"]
               for g in ROOTS for i in range(3)), "some game had secrets to keep"


def test_a_running_match_has_no_replay(pages: Pages, api: httpx.Client) -> None:
    match_id = create(api, "nutty-noodles", players=2, bots=1)
    assert api.post(f"/api/matches/{match_id}/join", json={"name": "Zed"}).status_code == 200
    page = pages.open(f"/matches/{match_id}/replay", who="curious")
    refused = page.wait_for_selector("#refused:not([hidden])")
    assert "still being played" in refused.inner_text()
    assert page.get_attribute("#refused a.primary", "href") == f"/matches/{match_id}"
    assert page.locator(".table-area").is_hidden() and page.locator(".nn").count() == 0
    assert page.get_attribute("#replay", "data-refused") == "not_finished"
    pages.shot(page, "refused")
    # the browser logs the refused request (409) as a console error: that one is expected
    refusals = [e for e in pages.errors if e.startswith("curious:") and "status of 409" in e]
    assert len(refusals) == 1, pages.errors
    pages.errors.remove(refusals[0])


def test_the_result_screen_and_the_lobby_lead_to_replays(pages: Pages, ids: dict[str, str]) -> None:
    match_id = ids["ann"]
    page = pages.open(f"/matches/{match_id}", who="Ann")
    page.wait_for_selector("#result:not([hidden]) .result")
    page.click("#result a.replay-link")
    page.wait_for_url(f"**/matches/{match_id}/replay")
    at_step(page, 0)
    lobby = pages.open("/", who="lobby")
    lobby.wait_for_selector(f"#finished-matches a[href='/matches/{match_id}/replay']")
    assert lobby.locator("#finished-matches a[href='/players/Ann']").count() >= 1
    pages.shot(lobby, "lobby")


def test_a_players_page_lists_what_was_played_under_the_name(pages: Pages, api: httpx.Client,
                                                              ids: dict[str, str]) -> None:
    tally = api.get("/api/players/Ann").json()
    page = pages.open("/players/Ann", who="visitor")
    page.wait_for_selector("#wins tr[data-game='nutty-noodles']")
    assert "Names are not identity" in page.inner_text("#names-note")
    for row in tally["games"]:
        cells = page.locator(f"#wins tr[data-game='{row['game']}'] td").all_inner_texts()
        assert cells == [str(row["played"]), str(row["won"])]
    assert tally["played"] == len(MATCHES)  # Ann sat at every stored match
    history = page.locator("#history .match-row")
    assert history.count() == tally["played"]
    first = history.first
    replay = first.locator("a.btn").get_attribute("href")
    assert replay == f"/matches/{first.get_attribute('data-match')}/replay"
    assert page.locator("#history a[href='/players/Bea']").count() == 1  # the other names lead on
    no_horizontal_scroll(page)
    pages.shot(page, "laptop")
    page.set_viewport_size(PHONE)
    no_horizontal_scroll(page)
    pages.shot(page, "phone")
    page.set_viewport_size(LAPTOP)
    first.locator("a.btn").click()
    page.wait_for_url("**/replay")
    at_step(page, 0)
