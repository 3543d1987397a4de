"""Spectators, private events, the generic renderer and the result screen, with the
test-only game Secret Snack (tests/browser/plugins): each draw is a public line for
everyone and a private "You drew …" for the drawer alone."""

from __future__ import annotations

from typing import Any

import httpx

from .conftest import Pages
from .plugins.secret_snack import SNACKS


def create(api: httpx.Client, game: str, players: int, bots: int, **options: Any) -> str:
    response = api.post("/api/matches", json={"game": game, "players": players, "bots": bots, "options": options})
    assert response.status_code == 201, response.text
    return response.json()["id"]


def take_seat(page: Any, name: str) -> None:
    page.fill("#join-name", name)
    page.click("form.join-form button[type=submit]")


def test_a_spectator_sees_no_private_event(pages: Pages, api: httpx.Client) -> None:
    match_id = create(api, "secret-snack", players=2, bots=1, draws=2)
    ann = pages.open(f"/matches/{match_id}", who="Ann")
    take_seat(ann, "Ann")
    watcher = pages.open(f"/matches/{match_id}", who="spectator")

    # The generic renderer: the prompt and a button per legal action.
    for _ in range(2):
        ann.click("button.action.legal:not([disabled])")
        ann.wait_for_selector(f".log-entry.private >> nth={_}")
    ann.wait_for_selector("#result:not([hidden])")
    watcher.wait_for_selector("#result:not([hidden])")

    private = ann.locator(".log-entry.private")
    assert private.count() == 2
    assert all("You drew" in t for t in private.all_inner_texts())
    assert ann.locator(".log-entry.private .private-tag").count() == 2
    pages.shot(ann, "player")

    assert watcher.locator("#match.spectating").count() == 1
    assert watcher.locator(".log-entry", has_text="Ann draws a snack.").count() == 2
    assert watcher.locator(".log-entry", has_text="Bot 1 draws a snack.").count() == 2
    assert watcher.locator(".log-entry.private").count() == 0
    text = watcher.inner_text("body")
    assert "You drew" not in text
    assert not [s for s in SNACKS if s in text], "a snack's name reached the spectator"
    # Spectators read the table talk but cannot write, act, or ask for a rematch.
    assert watcher.locator("#chat-form").is_hidden()
    assert watcher.locator("#chat-readonly").is_visible()
    assert watcher.locator("button.action").count() == 0
    assert watcher.locator("#play-again").count() == 0
    pages.shot(watcher, "spectator")


def test_result_screen_and_play_again_with_the_same_players(pages: Pages, api: httpx.Client) -> None:
    match_id = create(api, "secret-snack", players=3, bots=1, draws=1)
    bea = pages.open(f"/matches/{match_id}", who="Bea")
    bea.click("#join-name")
    bea.keyboard.type("Be")
    ann = pages.open(f"/matches/{match_id}", who="Ann")
    take_seat(ann, "Ann")
    bea.wait_for_selector("#join .seat-list li:has-text('Ann')")  # the summary came, the form was redrawn…
    bea.keyboard.type("a")  # …and Bea goes on typing her name
    assert bea.input_value("#join-name") == "Bea"
    bea.click("form.join-form button[type=submit]")
    watcher = pages.open(f"/matches/{match_id}", who="spectator")
    ann.click("button.action.legal")
    bea.click("button.action.legal")
    result = ann.wait_for_selector("#result:not([hidden]) .result")
    assert "win" in ann.inner_text("#result-title")
    scores = ann.locator(".result-scores li").all_inner_texts()
    assert len(scores) == 3 and all(s.strip().endswith("1") for s in scores)
    pages.shot(ann, "result")
    assert result.is_visible()

    # Ann asks the server for a rematch and sits down there, in her seat
    ann.click("#play-again")
    ann.wait_for_url(lambda url: match_id not in url, wait_until="commit")
    new_id = ann.url.rstrip("/").rsplit("/", 1)[-1]
    summary = api.get(f"/api/matches/{new_id}").json()
    assert (summary["game"], summary["players"], summary["bots"]) == ("secret-snack", 3, 1)
    assert summary["options"]["draws"] == 1
    assert [(s["seat"], s["name"]) for s in summary["seats"] if not s["bot"]] == [(0, "Ann")]
    assert [(s["seat"], s["name"]) for s in summary["seats"] if s["bot"]] == [(2, "Bot 1")]
    assert api.get(f"/api/matches/{match_id}").json()["rematch"] == new_id

    # Everyone still at the old table is told at once (no chat line): Bea joins under her
    # name, in her old seat; the spectator may watch it
    bea.click("#rematch-offer button.join-rematch")
    bea.wait_for_url(f"**/matches/{new_id}", wait_until="commit")
    bea.wait_for_selector("#match[data-you='1'][data-seq]", state="attached")
    watcher.wait_for_selector(f"#rematch-offer a[href='/matches/{new_id}']")
    assert watcher.locator("#chat li").count() == 0
    pages.shot(watcher, "rematch-offer")
    ann.wait_for_selector("button.action.legal")  # the rematch runs, and it is Ann's turn
    # who is at the table arrives by the socket: Bea there, and then away
    ann.wait_for_selector(".player[data-seat='1'] .presence.on")
    bea.close()
    ann.wait_for_selector(".player[data-seat='1'] .presence.off")
