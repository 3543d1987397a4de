"""Accounts in Chromium: claim a name and sign in with a password and with a passkey
(Chromium's virtual authenticator, through the DevTools protocol), a claimed name refused
to a second browser, a seat opened from another device, your tables, the leaderboard and
the rating chart, each page without a serious accessibility fault (axe). The pages are opened at ``localhost`` (a passkey's relying party is a
host name, never an address)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .conftest import LAPTOP, PHONE, Pages, no_horizontal_scroll
from .test_accessibility import serious_violations

PASSWORD = "a table for six please"


@pytest.fixture
def site(server: str) -> str:
    return server.replace("127.0.0.1", "localhost")


def open_at(pages: Pages, site: str, path: str, who: str, viewport: dict[str, int] = LAPTOP) -> Any:
    return pages.open(path, viewport, who, base=site)


def claim(page: Any, name: str) -> None:
    page.goto("/signin#claim")
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.fill("#signup-again", PASSWORD)
    page.click("#signup-form button[type=submit]")
    page.wait_for_url("**/me")
    page.wait_for_selector(f"#account-nav[data-account='{name}']")


def sign_in(page: Any, name: str, typed: str | None = None) -> None:
    page.goto("/signin")
    page.fill("#signin-name", typed or name)
    page.fill("#signin-password", PASSWORD)
    page.click("#signin-form button[type=submit]")
    page.wait_for_url("**/me")
    page.wait_for_selector(f"#account-nav[data-account='{name}']")


def sign_out(page: Any) -> None:
    page.click("#signout")
    page.wait_for_selector("#signin-link")


def virtual_authenticator(page: Any) -> Any:
    """A platform authenticator that holds discoverable credentials and says yes at once."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True, "automaticPresenceSimulation": True}})
    return cdp


def test_claim_a_name_then_sign_in_with_a_password_and_with_a_passkey(pages: Pages, site: str) -> None:
    page = open_at(pages, site, "/", "Passkey Pat")
    page.wait_for_selector("#signin-link")
    claim(page, "Passkey Pat")
    virtual_authenticator(page)
    page.click("#passkey-add")
    page.wait_for_selector("#passkey-count >> text=1 passkey on this account")
    sign_out(page)
    sign_in(page, "Passkey Pat", typed="passkey pat")  # names compare without case
    sign_out(page)
    page.goto("/signin")
    page.click("#passkey-signin")
    page.wait_for_url("**/me")
    page.wait_for_selector("#account-nav[data-account='Passkey Pat']")
    page.goto("/signin")
    page.set_viewport_size(PHONE)
    no_horizontal_scroll(page)
    pages.shot(page, "signin-phone")
    assert serious_violations(page) == []


def test_a_claimed_name_is_refused_to_a_second_browser(pages: Pages, site: str, api: httpx.Client) -> None:
    owner = open_at(pages, site, "/", "Maria")
    claim(owner, "Maria Claimed")
    match_id = api.post("/api/matches", json={"game": "secret-snack", "players": 2}).json()["id"]
    stranger = open_at(pages, site, f"/matches/{match_id}", "stranger")
    stranger.fill("#join-name", "MARIA CLAIMED")
    stranger.click("form.join-form button[type=submit]")
    stranger.wait_for_selector(".toast >> text=belongs to an account")
    refusals = [e for e in pages.errors if e.startswith("stranger:") and "status of 403" in e]
    assert len(refusals) == 1, pages.errors
    pages.errors.remove(refusals[0])
    assert api.get(f"/api/matches/{match_id}").json()["seats"] == []
    owner.goto(f"/matches/{match_id}")
    owner.fill("#join-name", "Maria Claimed")
    owner.click("form.join-form button[type=submit]")
    owner.wait_for_selector("#join h2 >> text=Waiting for players")
    assert [s["name"] for s in api.get(f"/api/matches/{match_id}").json()["seats"]] == ["Maria Claimed"]


def test_a_seat_opens_on_another_device_and_is_among_your_tables(pages: Pages, site: str) -> None:
    laptop = open_at(pages, site, "/", "laptop")
    claim(laptop, "Two Devices")
    laptop.goto("/")
    laptop.wait_for_function("() => document.getElementById('player-name').value === 'Two Devices'")
    card = laptop.locator(".game-card[data-game='secret-snack']")
    card.locator(".play-now").click()
    laptop.wait_for_url("**/matches/*")
    match_id = laptop.url.rstrip("/").split("/")[-1]
    laptop.wait_for_selector("#players .player.you")

    phone = open_at(pages, site, "/", "phone", viewport=PHONE)
    sign_in(phone, "Two Devices")
    phone.goto("/")
    phone.wait_for_selector(f"#running-matches .match-row[data-match='{match_id}'] a >> text=Your seat")
    phone.goto("/me")
    phone.wait_for_selector(f"#tables-waiting [data-match='{match_id}']")
    assert serious_violations(phone) == []
    phone.click(f"#tables-waiting [data-match='{match_id}'] a")
    phone.wait_for_url(f"**/matches/{match_id}")
    phone.wait_for_selector("#players .player.you .pname >> text=Two Devices")
    phone.wait_for_selector("#players .tag.rating")  # the bot's fixed rating, and the account's
    no_horizontal_scroll(phone)
    pages.shot(phone, "other-device-phone")


def _play_rated(site: str, names: list[str], rounds: int) -> None:
    """``rounds`` Secret Snack matches between these new accounts, played over REST with
    their session cookies (each seat plays its first legal action until the end)."""
    clients = [httpx.Client(base_url=site, timeout=20, headers={"Origin": site}) for _ in names]
    try:
        for client, name in zip(clients, names):
            assert client.post("/api/accounts", json={"name": name, "password": PASSWORD}).status_code == 201
        for _ in range(rounds):
            match_id = clients[0].post("/api/matches", json={"game": "secret-snack", "players": len(names),
                                                              "options": {"draws": 1}}).json()["id"]
            for client in clients:
                assert client.post(f"/api/matches/{match_id}/join", json={"name": "me"}).status_code == 200
            while clients[0].get(f"/api/matches/{match_id}").json()["status"] != "finished":
                for client in clients:
                    view = client.get(f"/api/matches/{match_id}/view").json()
                    if view["legal"]:
                        client.post(f"/api/matches/{match_id}/actions", json={"action": view["legal"][0]})
    finally:
        for client in clients:
            client.close()


def test_the_leaderboard_and_the_rating_chart(pages: Pages, site: str) -> None:
    _play_rated(site, ["Chart Ann", "Chart Bob"], rounds=3)
    board = open_at(pages, site, "/games/secret-snack/leaderboard", "reader")
    board.wait_for_selector("#standings tbody tr[data-name='Chart Ann']")
    names = board.locator("#standings tbody tr[data-name^='Chart']").evaluate_all("rows => rows.map(r => r.dataset.name)")
    assert sorted(names) == ["Chart Ann", "Chart Bob"]
    assert serious_violations(board) == []
    board.click("#standings a >> text=Chart Ann")
    board.wait_for_url("**/players/Chart%20Ann")
    board.wait_for_selector("#rating-chart svg.rating-chart")
    assert board.locator("#rating-chart svg.rating-chart circle").count() == 3
    assert board.locator("#ratings-table tbody tr[data-game='secret-snack']").count() == 1
    board.wait_for_function("document.querySelectorAll('#history li.match-row').length === 3")
    assert "is an account" in board.locator("#names-note").inner_text()  # the account's history, not a name's
    board.set_viewport_size(PHONE)
    no_horizontal_scroll(board)
    pages.shot(board, "rating-chart-phone")
    assert serious_violations(board) == []
