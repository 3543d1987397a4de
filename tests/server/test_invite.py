"""Issue 27, item 1: the invite link works for friends on the network. A server listening
on every interface gives its network address (which really opens the match from there),
one listening on loopback only says so plainly, and the link comes with its QR code."""

from __future__ import annotations

from urllib.parse import urlsplit

import httpx
import pytest
import segno

from server.api.invite import invite_for, is_loopback, network_addresses

from .conftest import Served, serve


def finder_patterns(rows: list[str]) -> bool:
    """A QR code's three 7×7 corner squares: dark ring, light ring, dark 3×3 centre."""
    n = len(rows)

    def square(top: int, left: int) -> bool:
        for y in range(7):
            for x in range(7):
                ring = max(abs(y - 3), abs(x - 3))
                if (rows[top + y][left + x] == "1") != (ring != 2):
                    return False
        return True

    return square(0, 0) and square(0, n - 7) and square(n - 7, 0)


async def create(client: httpx.AsyncClient) -> str:
    r = await client.post("/api/matches", json={"game": "nutty-noodles", "players": 2})
    assert r.status_code == 201, r.text
    return r.json()["id"]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_invite_link_works_for_friends_on_the_network(database_url: str) -> None:
    if not network_addresses():
        pytest.skip("this machine is on no network: there is no address to invite friends to")
    async with serve(database_url, host="0.0.0.0") as served, \
            httpx.AsyncClient(base_url=served.url, timeout=20) as host:
        match_id = await create(host)
        invite = (await host.get(f"/api/matches/{match_id}/invite")).json()  # asked by 127.0.0.1
        assert invite["reach"] == "network"
        address = urlsplit(invite["url"])
        assert not is_loopback(address.hostname) and address.path == f"/matches/{match_id}"
        # A friend's browser opens the link by the network address, and can take a seat.
        async with httpx.AsyncClient(timeout=20) as friend:
            page = await friend.get(invite["url"])
            assert page.status_code == 200 and f'data-match="{match_id}"' in page.text
            origin = f"{address.scheme}://{address.netloc}"
            joined = await friend.post(f"{origin}/api/matches/{match_id}/join", json={"name": "Priya"})
            assert joined.status_code == 200, joined.text
        # The QR code is the link's: a square of the size of its version, with finder patterns.
        qr = invite["qr"]
        assert len(qr) == 17 + 4 * segno.make(invite["url"], error="m").version
        assert all(len(row) == len(qr) for row in qr) and finder_patterns(qr)


async def test_invite_link_says_plainly_when_the_server_listens_on_loopback_only(served: Served) -> None:
    async with httpx.AsyncClient(base_url=served.url, timeout=20) as host:  # listens on 127.0.0.1
        match_id = await create(host)
        invite = (await host.get(f"/api/matches/{match_id}/invite")).json()
    assert invite["reach"] == "this_computer"
    assert "this computer only" in invite["note"] and "--host 0.0.0.0" in invite["note"]
    assert finder_patterns(invite["qr"])


def test_invite_link_prefers_the_public_url_then_the_address_the_browser_used() -> None:
    path = "/matches/abc"
    assert invite_for(path, "http://127.0.0.1:8000", ("127.0.0.1", 8000),
                      "https://games.example/").url == "https://games.example/matches/abc"
    friendly = invite_for(path, "http://192.168.1.20:8000", ("0.0.0.0", 8000), "")
    assert (friendly.url, friendly.reach) == ("http://192.168.1.20:8000/matches/abc", "network")
    bound = invite_for(path, "http://localhost:8000", ("192.168.1.20", 8000), "")
    assert (bound.url, bound.reach) == ("http://192.168.1.20:8000/matches/abc", "network")
    for host in ("127.0.0.1", "localhost", "[::1]", "127.0.1.1"):
        assert invite_for(path, f"http://{host}:8000", (host.strip("[]"), 8000), "").reach == "this_computer"
