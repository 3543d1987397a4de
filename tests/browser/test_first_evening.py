"""Issue 27: what a new group trips over on a first evening with Potluck, each moment
played in the browser as the group met it, at 1280 px and at phone width (screenshots
in ``test-artifacts/screenshots/first_evening-*``)."""

from __future__ import annotations

from typing import Any, Iterator
from urllib.parse import urlsplit

import httpx
import pytest

from server.api.invite import is_loopback, network_addresses

from .conftest import LAPTOP, PHONE, Pages, no_horizontal_scroll, potluck_server

SIZES = {"laptop": LAPTOP, "phone": PHONE}


@pytest.fixture(scope="module")
def lan_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server listening on every interface, as `potluck serve --host 0.0.0.0` (its URL on 127.0.0.1)."""
    if not network_addresses():
        pytest.skip("this machine is on no network: there is no address to invite friends to")
    with potluck_server(tmp_path_factory.mktemp("lan-serve"), host="0.0.0.0") as base:
        yield base


def create(base: str, game: str = "nutty-noodles", players: int = 2, bots: int = 0, **options: Any) -> str:
    r = httpx.post(f"{base}/api/matches", json={"game": game, "players": players, "bots": bots, "options": options},
                   timeout=20)
    assert r.status_code == 201, r.text
    return r.json()["id"]


@pytest.mark.parametrize("size", SIZES)
def test_invite_link_works_for_friends_on_the_network(browser: Any, lan_server: str, size: str) -> None:
    pages = Pages(browser, lan_server, f"first_evening-invite-{size}")
    try:
        match_id = create(lan_server)
        host = pages.open(f"/matches/{match_id}", viewport=SIZES[size], who="Maria")  # by 127.0.0.1
        host.fill("#join-name", "Maria")
        host.click("form.join-form button[type=submit]")
        host.wait_for_selector(".invite[data-reach=network] .qr")
        link = host.input_value("#invite-link")
        assert not is_loopback(urlsplit(link).hostname) and link.endswith(f"/matches/{match_id}")
        assert host.locator(".invite-note.warning").count() == 0
        qr = host.locator(".invite .qr").bounding_box()
        assert qr and qr["width"] >= 120, "the QR code is too small to scan"
        no_horizontal_scroll(host)
        pages.shot(host, "waiting-room")
        # The friend opens the link from the network and takes the other seat.
        friend = pages.open(link, viewport=PHONE, who="Priya")
        friend.fill("#join-name", "Priya")
        friend.click("form.join-form button[type=submit]")
        for page in (host, friend):
            page.wait_for_selector(".nn")
    finally:
        pages.close()
    assert pages.errors == []


@pytest.mark.parametrize("size", SIZES)
def test_invite_link_warns_when_the_server_listens_on_this_computer_only(pages: Pages, server: str,
                                                                         size: str) -> None:
    match_id = create(server)  # the shared test server listens on 127.0.0.1
    page = pages.open(f"/matches/{match_id}", viewport=SIZES[size], who="Maria")
    note = page.wait_for_selector(".invite[data-reach=this_computer] .invite-note.warning")
    assert "this computer only" in note.inner_text() and "--host 0.0.0.0" in note.inner_text()
    pages.shot(page, f"loopback-{size}")


@pytest.mark.parametrize("size", SIZES)
def test_rules_pages_show_lists_as_lists_and_fold_the_developers_part(pages: Pages, size: str) -> None:
    page = pages.open("/games/snollygoster/rules", viewport=SIZES[size])
    turn = page.locator("h2:text-is('A turn') + p + ol > li")
    assert turn.count() == 3 and turn.nth(2).locator("ul > li").count() == 4
    folded = page.locator("details.developers").first
    assert not folded.evaluate("d => d.open") and not folded.locator("code").first.is_visible()
    no_horizontal_scroll(page)
    pages.shot(page, f"rules-{size}")
