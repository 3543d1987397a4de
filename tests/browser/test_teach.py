"""Teach mode in a real browser (issue 26): a first game of each of the four games (and
SPORKS Out) played to its end at phone width (390 px) with hints on, by a newcomer who
reads the Teacher panel, asks "What would you do?" and plays the suggestion; screenshots
of a hint, a suggestion and an explained refusal, and the result, in
``test-artifacts/screenshots/teach-<game>-*.png``.

Nutty Noodles starts from the lobby's "Learn to play" (you against an easy bot, relaxed
timers); the others are set up the same way over the API with a short game's options
(Rival Restaurants to 5 popularity). The server's clock runs 8× faster, so bots and timers
pass quickly while the rules see ordinary figures."""

from __future__ import annotations

from typing import Any, Iterator

import httpx
import pytest

from .conftest import PHONE, Pages, no_horizontal_scroll, potluck_server
from .sneaky_supper_driver import OVER
from .test_accessibility import serious_violations
from .test_watch import take_seat

SHORT = {  # (options, players) of a short first game, teach mode on
    "sneaky-supper": {},
    "snollygoster": {},
    "rival-restaurants": {"goal": 5},
    "sporks-out": {"goal": 5, "sporks_out": True},
}
MOVES = 800  # a first game's decisions, at the most


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with potluck_server(tmp_path_factory.mktemp("teach-serve"), POTLUCK_CLOCK_SPEED="8") as base:
        yield base


def seq(page: Any) -> str:
    return page.get_attribute("#match", "data-seq") or ""


def next_change(page: Any, was: str, timeout_ms: int = 3000) -> None:
    """Wait (a little) for the table to move on from change ``was``, or the end."""
    try:
        page.wait_for_function("([was, over]) => document.querySelector('#match').dataset.seq !== was"
                               " || !!document.querySelector(over)", arg=[was, OVER], timeout=timeout_ms)
    except Exception:  # noqa: BLE001 - nothing moved yet: look again
        pass


class Newcomer:
    """Plays by the Teacher: reads the panel, asks for a suggestion, plays it; takes the
    screenshots of the first hint, suggestion and refusal."""

    def __init__(self, pages: Pages, page: Any, game: str) -> None:
        self.pages, self.page, self.game = pages, page, game
        pages.test_name = f"teach-{game}"  # the screenshots' names
        self.shots: set[str] = set()
        self.played = 0

    def shot(self, label: str) -> None:
        if label not in self.shots:
            self.shots.add(label)
            self.pages.shot(self.page, label)

    def move(self) -> bool:
        """One decision; False once the game is over."""
        page = self.page
        if page.locator(OVER).count():
            return False
        was = seq(page)
        ask = page.locator("#teach .teach-ask")
        if not ask.count():
            next_change(page, was)
            return True
        if "hint" not in self.shots:
            self.check_the_hint()
        try:
            ask.click(timeout=2000)
            page.wait_for_selector("#teach .teach-play, #teach .teach-suggestion:not(:has-text('Thinking'))",
                                          timeout=5000)
        except Exception:  # noqa: BLE001 - the table moved on meanwhile (the panel was drawn again)
            return True
        if "suggestion" not in self.shots and page.locator("#teach .teach-play").count():
            text = page.inner_text("#teach .teach-suggestion")
            assert text.startswith("I would:") and "Rules §" in text
            self.shot("suggestion")
        button = page.locator("#teach .teach-play")
        if not button.count():
            next_change(page, was)
            return True
        try:
            if "refusal" not in self.shots and self.played < 4:  # twice at once: the second may be refused
                button.evaluate("b => { b.click(); b.click(); }", timeout=2000)
                self.look_for_a_refusal()
            else:
                button.click(timeout=2000)
        except Exception:  # noqa: BLE001 - the table moved on before the click
            return True
        self.played += 1
        next_change(page, was)
        return True

    def check_the_hint(self) -> None:
        page = self.page
        panel = page.locator("#teach")
        assert panel.locator(".teach-summary").inner_text().startswith("You may ")
        first = panel.locator(".teach-choice").first
        link = first.locator("a.teach-link")
        href = link.get_attribute("href")
        assert href and href.startswith(f"/games/{self.rules_game()}/rules#")
        assert first.locator("q").inner_text().strip()
        no_horizontal_scroll(page)
        assert serious_violations(page) == []
        self.shot("hint")

    def rules_game(self) -> str:
        return "rival-restaurants" if self.game == "sporks-out" else self.game

    def look_for_a_refusal(self) -> None:
        try:
            rule = self.page.wait_for_selector("#refusal:not([hidden]) .refusal-rule", timeout=1500)
        except Exception:  # noqa: BLE001 - both were accepted (drawing twice is allowed)
            return
        assert "The rule:" in rule.inner_text() and rule.query_selector("a.teach-link")
        self.shot("refusal")

    def play_to_the_end(self) -> None:
        for _ in range(MOVES):
            if not self.move():
                break
        else:
            pytest.fail(f"{self.game}: no end after {MOVES} decisions ({self.played} played)")
        page = self.page
        page.wait_for_selector(OVER)
        assert page.locator(".result-scores li").count() == 2
        assert page.locator("#teach").is_hidden(), "no hints once the game is over"
        self.shot("result")
        assert self.played > 0 and {"hint", "suggestion"} <= self.shots


def test_learn_to_play_nutty_noodles_from_the_lobby(pages: Pages) -> None:
    page = pages.open("/", viewport=PHONE, who="Maria")
    page.emulate_media(reduced_motion="reduce")
    page.fill("#player-name", "Maria")
    page.click(".game-card[data-game='nutty-noodles'] button.learn")
    page.wait_for_url("**/matches/*")
    match_id = page.get_attribute("#match", "data-match")
    summary = httpx.get(f"{pages.base}/api/matches/{match_id}", timeout=20).json()
    assert summary["options"]["teach"] is True and summary["players"] == 2
    assert [s["level"] for s in summary["seats"] if s["bot"]] == ["easy"]
    page.wait_for_selector("#teach .teach-choice[data-kind=ready]")
    newcomer = Newcomer(pages, page, "nutty-noodles")
    newcomer.play_to_the_end()
    assert "refusal" in newcomer.shots, "saying ready twice at once is refused, with its rule"


def test_hints_can_be_hidden_mid_game_and_shown_again(pages: Pages, api: httpx.Client) -> None:
    page = seated(pages, api, "sneaky-supper")
    page.wait_for_selector("#teach .teach-choice")
    page.click("#teach .teach-off")
    page.wait_for_selector("#teach .teach-on")
    assert page.locator("#teach .teach-choice").count() == 0
    page.reload()
    page.wait_for_selector("#teach .teach-on")  # remembered for this match
    page.click("#teach .teach-on")
    page.wait_for_selector("#teach .teach-choice")


def seated(pages: Pages, api: httpx.Client, game: str) -> Any:
    options = {**SHORT[game], "teach": True}
    real = "rival-restaurants" if game == "sporks-out" else game
    r = api.post("/api/matches", json={"game": real, "players": 2, "bots": ["easy"], "options": options,
                                       "rated": False})
    assert r.status_code == 201, r.text
    page = pages.open(f"/matches/{r.json()['id']}", viewport=PHONE, who="Ann")
    page.emulate_media(reduced_motion="reduce")
    take_seat(page, "Ann")
    return page


@pytest.mark.parametrize("game", list(SHORT))
def test_a_first_game_with_hints_to_its_end_at_phone_width(pages: Pages, api: httpx.Client, game: str) -> None:
    page = seated(pages, api, game)
    page.wait_for_selector("#teach:not([hidden])")
    Newcomer(pages, page, game).play_to_the_end()
