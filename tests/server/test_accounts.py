"""Accounts over REST and the WebSocket, on each database: claiming a name, signing in and
out, the session cookie (HttpOnly, SameSite=Lax, rotated at sign-in, stored hashed), no
cross-site requests with it, the same refusal for an unknown name and a wrong password,
sign-in limits, claimed names at the table, and a seat that follows its account to
another device."""

from __future__ import annotations

import asyncio
import json
from typing import Any, AsyncIterator

import httpx
import pytest
import websockets
from sqlalchemy import text

from server.api import passwords
from server.api.sessions import COOKIE
from server.runtime.tokens import token_hash

from .clients import Api, play_to_the_end
from .conftest import Served, serve

PASSWORD = "correct horse battery"
LIFTED = {"signin_per_address_burst": 1000, "signin_per_name_burst": 1000, "create_per_minute": 0}


@pytest.fixture
async def site(database_url: str) -> AsyncIterator[Served]:
    async with serve(database_url, **LIFTED) as s:
        yield s


def browser(site: Served) -> httpx.AsyncClient:
    """A client that keeps cookies and says it is one of the server's own pages."""
    return httpx.AsyncClient(base_url=site.url, timeout=20, headers={"Origin": site.url})


async def sign_up(client: httpx.AsyncClient, name: str, password: str = PASSWORD) -> httpx.Response:
    return await client.post("/api/accounts", json={"name": name, "password": password})


async def me(client: httpx.AsyncClient) -> dict[str, Any] | None:
    r = await client.get("/api/me")
    assert r.status_code == 200, r.text
    return r.json()["account"]


async def test_sign_up_sign_out_sign_in(site: Served) -> None:
    async with browser(site) as client:
        r = await sign_up(client, "Maria")
        assert r.status_code == 201, r.text
        assert r.json()["account"]["name"] == "Maria" and PASSWORD not in r.text
        cookie = r.headers["set-cookie"]
        assert "HttpOnly" in cookie and "samesite=lax" in cookie.lower() and "Secure" not in cookie  # plain http
        assert (await me(client))["name"] == "Maria"
        assert (await client.delete("/api/session")).status_code == 200
        assert await me(client) is None
        r = await client.post("/api/session", json={"name": "maria", "password": PASSWORD})
        assert r.status_code == 200, r.text
        assert (await me(client))["name"] == "Maria"


async def test_the_session_is_stored_hashed_and_rotated_at_sign_in(site: Served) -> None:
    async with browser(site) as client:
        await sign_up(client, "Rotor")
        first = client.cookies[COOKIE]
        await client.post("/api/session", json={"name": "Rotor", "password": PASSWORD})
        second = client.cookies[COOKIE]
        assert second != first
        async with httpx.AsyncClient(base_url=site.url, cookies={COOKIE: first}) as old:
            assert await me(old) is None  # the previous session ended with the sign-in
        stored = await site.runtime.store.db.read(
            lambda conn: [r[0] for r in conn.execute(text("SELECT token_hash FROM sessions"))])
        assert token_hash(second) in stored and second not in stored


@pytest.mark.parametrize("password, why", [("short1!", "at least 10"), ("Password123!", "most common"),
                                           ("qwertyuiop", "most common"), ("i-am-Walter-White", "your name")])
async def test_a_weak_password_is_refused_and_nothing_is_made(site: Served, password: str, why: str) -> None:
    async with browser(site) as client:
        r = await sign_up(client, "walter white", password)
        assert r.status_code == 422 and why in r.json()["detail"], r.text
        assert password not in r.text
        assert await site.runtime.store.accounts.named("walter white") is None


async def test_a_name_is_claimed_case_and_unicode_insensitively(site: Served) -> None:
    async with browser(site) as a, browser(site) as b:
        assert (await sign_up(a, "Maria")).status_code == 201
        for other in ("MARIA", "ｍａｒｉａ", " maria "):
            r = await sign_up(b, other)
            assert r.status_code == 403 and r.json()["code"] == "name_claimed", (other, r.text)
            assert "belongs to an account" in r.json()["detail"]


async def test_unknown_name_and_wrong_password_get_the_same_answer_after_the_same_work(
        site: Served, monkeypatch: pytest.MonkeyPatch) -> None:
    verified: list[str] = []
    real = passwords.hasher

    class Counting:
        def hash(self, password: str) -> str:
            return real.hash(password)

        def verify(self, stored: str, password: str) -> bool:
            verified.append(stored)
            return real.verify(stored, password)

    monkeypatch.setattr(passwords, "hasher", Counting())
    async with browser(site) as client:
        await sign_up(client, "Known")
        await client.delete("/api/session")
        wrong = await client.post("/api/session", json={"name": "Known", "password": "not the password"})
        unknown = await client.post("/api/session", json={"name": "Nobody", "password": "not the password"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"detail": "Wrong name or password.", "code": "bad_credentials"}
    assert len(verified) == 2 and verified[1] == passwords.dummy_hash()  # a hash was checked for both


async def test_sign_in_is_limited_per_name_and_per_address(database_url: str) -> None:
    async with serve(database_url, signin_per_name_burst=3, signin_per_name_per_minute=1,
                     signin_per_address_burst=6, signin_per_address_per_minute=1) as site:
        async with browser(site) as client:
            await sign_up(client, "Target")
            codes = [(await client.post("/api/session", json={"name": "TARGET", "password": "guess guess"})).status_code
                     for _ in range(3)]
            limited = await client.post("/api/session", json={"name": "target", "password": PASSWORD})
            assert codes == [401, 401, 401] and limited.status_code == 429, limited.text
            assert int(limited.headers["Retry-After"]) >= 1
            others = [(await client.post("/api/session", json={"name": f"n{i}", "password": "guess guess"})).status_code
                      for i in range(2)]
            assert others == [401, 429]  # the address has spent its six (one on the sign-up)


async def test_sign_in_limits_hold_across_processes(database_url: str) -> None:
    """Two servers on one database share the counts: what one spent, the other refuses."""
    limits = {"signin_per_name_burst": 3, "signin_per_name_per_minute": 1, "signin_per_address_burst": 1000}
    async with serve(database_url, **limits) as one, serve(database_url, **limits) as two:
        async with browser(one) as a, browser(two) as b:
            await sign_up(a, "Shared")
            guesses = [(await client.post("/api/session", json={"name": "shared", "password": "guess guess"}))
                       for client in (a, b, a)]
            assert [r.status_code for r in guesses] == [401, 401, 401]
            for client in (b, a):
                limited = await client.post("/api/session", json={"name": "Shared", "password": PASSWORD})
                assert limited.status_code == 429 and limited.json()["code"] == "rate_limited", limited.text
                assert int(limited.headers["Retry-After"]) >= 1
        kept = await one.runtime.store.db.read(lambda conn: conn.execute(text("SELECT key FROM attempts")).all())
        assert kept and not any("127.0.0.1" in k or "shared" in k for (k,) in kept)  # digests only


async def test_a_cookie_request_that_changes_something_must_come_from_this_server(database_url: str) -> None:
    async with serve(database_url, allowed_origins="https://friends.example", **LIFTED) as site:
        async with browser(site) as client:
            await sign_up(client, "Careful")
            cookies = {COOKIE: client.cookies[COOKIE]}
        body = {"game": "nutty-noodles", "players": 2}
        async with httpx.AsyncClient(base_url=site.url, cookies=cookies) as bare:
            r = await bare.post("/api/matches", json=body)
            assert r.status_code == 403 and r.json()["code"] == "cross_origin", r.text
            r = await bare.post("/api/matches", json=body, headers={"Origin": "https://evil.example"})
            assert r.status_code == 403 and r.json()["code"] == "cross_origin"
            r = await bare.delete("/api/session", headers={"Origin": "http://127.0.0.1:1"})  # another port
            assert r.status_code == 403
            assert (await me(bare))["name"] == "Careful"  # reading needs no Origin; the session lives on
            assert (await bare.post("/api/matches", json=body, headers={"Origin": site.url})).status_code == 201
            r = await bare.post("/api/matches", json=body, headers={"Origin": "https://friends.example"})
            assert r.status_code == 201
        async with httpx.AsyncClient(base_url=site.url) as program:  # no cookie, no Origin: a REST client
            assert (await program.post("/api/matches", json=body)).status_code == 201


async def test_a_claimed_name_needs_its_account_at_the_table(site: Served) -> None:
    async with browser(site) as maria, browser(site) as stranger:
        await sign_up(maria, "Maria")
        match_id = await Api(stranger).create(players=3)
        for name in ("Maria", "maria", "MARÍA".replace("Í", "I")):
            r = await stranger.post(f"/api/matches/{match_id}/join", json={"name": name})
            assert r.status_code == 403 and r.json()["code"] == "name_claimed", r.text
            assert "sign in" in r.json()["detail"]
        assert (await stranger.post(f"/api/matches/{match_id}/join", json={"name": "Mario"})).status_code == 200
        r = await maria.post(f"/api/matches/{match_id}/join", json={"name": "whatever I typed"})
        assert r.status_code == 200, r.text
        seats = r.json()["match"]["seats"]
        assert [(s["name"], s["account"]) for s in seats] == [("Mario", False), ("Maria", True)]


async def test_a_claimed_names_page_is_its_accounts_history_under_every_name(site: Served) -> None:
    """Before "Zed" was claimed a stranger played as Zed; the account played one match as
    Zed, then was renamed Zack: /players/Zack is the account's one match (seated as Zed),
    /players/Zed, no longer anyone's, is the name's two."""
    async with browser(site) as zed, browser(site) as stranger:
        guest = Api(stranger)
        before = await guest.create(players=2, tie_window_ms=0)
        tokens = [(await guest.join(before, name))[1] for name in ("Zed", "Other")]
        await play_to_the_end(guest, before, tokens)
        await sign_up(zed, "Zed")
        mine = await guest.create(players=2, tie_window_ms=0)
        tokens = [(await Api(zed).join(mine, "Zed"))[1], (await guest.join(mine, "Other"))[1]]
        await play_to_the_end(guest, mine, tokens)
        account = await site.runtime.store.accounts.named("Zed")
        await site.runtime.store.accounts.rename(account.id, "Zack")
        for path in ("/api/players/zack/matches", "/api/players/Zack"):
            r = (await stranger.get(path)).json()
            assert (r["name"], r["account"]) == ("Zack", True), r
        page = (await stranger.get("/api/players/zack/matches")).json()
        assert [(m["id"], m["seats"][m["seat"]]["name"]) for m in page["items"]] == [(mine, "Zed")]
        assert (await stranger.get("/api/players/Zack")).json()["played"] == 1
        name_page = (await stranger.get("/api/players/Zed/matches")).json()
        assert name_page["account"] is False and {m["id"] for m in name_page["items"]} == {before, mine}


async def test_a_renamed_account_cannot_take_a_second_seat_at_one_table(site: Served) -> None:
    async with browser(site) as ann, browser(site) as friend:
        await sign_up(ann, "Ann")
        match_id = await Api(friend).create(players=3)
        assert (await ann.post(f"/api/matches/{match_id}/join", json={"name": "Ann"})).status_code == 200
        account = await site.runtime.store.accounts.named("Ann")
        await site.runtime.store.accounts.rename(account.id, "Annie")
        r = await ann.post(f"/api/matches/{match_id}/join", json={"name": "Annie"})
        assert r.status_code == 409 and r.json()["code"] == "already_seated", r.text
        assert "'Ann'" in r.json()["detail"] and "seat 1" in r.json()["detail"]
        seats = (await friend.get(f"/api/matches/{match_id}")).json()["seats"]
        assert [s["name"] for s in seats if s.get("name")] == ["Ann"]  # nothing was taken


async def test_a_seat_opens_on_another_device_over_rest_and_the_websocket(site: Served) -> None:
    async with browser(site) as laptop, browser(site) as phone, browser(site) as friend:
        await sign_up(laptop, "Walker")
        match_id = await Api(friend).create(players=2)
        await friend.post(f"/api/matches/{match_id}/join", json={"name": "Friend"})
        await laptop.post(f"/api/matches/{match_id}/join", json={"name": "Walker"})
        assert (await phone.post("/api/session", json={"name": "Walker", "password": PASSWORD})).status_code == 200
        view = (await phone.get(f"/api/matches/{match_id}/view")).json()
        assert view["seat"] == 1 and view["view"]["you"] == 1
        assert (await friend.get(f"/api/matches/{match_id}/view")).json()["seat"] is None  # no token: spectating
        headers = {"Cookie": f"{COOKIE}={phone.cookies[COOKIE]}", "Origin": site.url}
        async with websockets.connect(f"{site.ws_url}/ws/matches/{match_id}", additional_headers=headers) as ws:
            state = await _first(ws, "state")
            assert state["view"]["you"] == 1
        tables = (await phone.get("/api/me/tables")).json()
        assert [t["match"]["id"] for t in tables["waiting"]] == [match_id] and tables["waiting"][0]["seat"] == 1
        assert (await friend.get("/api/me/tables")).status_code == 401


async def test_your_tables_put_those_waiting_for_your_move_first(site: Served) -> None:
    """Nutty Noodles starts with one seat to throw (drawn from the seed): new tables are
    set until one waits for this player and a later one for the other; the older one,
    waiting for your move, comes first (else the newest would)."""
    async with browser(site) as me_, browser(site) as other:
        await sign_up(me_, "Mover")
        waiting_for: dict[bool, str] = {}
        for _ in range(40):
            match_id = await Api(other).create(players=2)
            await me_.post(f"/api/matches/{match_id}/join", json={"name": "Mover"})
            await other.post(f"/api/matches/{match_id}/join", json={"name": "Other"})
            mine = bool((await me_.get(f"/api/matches/{match_id}/view")).json()["legal"])
            if mine in waiting_for or (not mine and True not in waiting_for):
                await site.runtime.store.end_unstarted(match_id, 1, {"winners": [], "scores": [], "reason": "x"})
                continue
            waiting_for[mine] = match_id
            if len(waiting_for) == 2:
                break
        tables = (await me_.get("/api/me/tables")).json()["waiting"]
        assert [(t["match"]["id"], t["your_move"]) for t in tables] == [(waiting_for[True], True),
                                                                        (waiting_for[False], False)]


async def _first(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), 20))
        if msg["type"] == kind:
            return msg


async def test_passkey_ceremonies_refuse_what_does_not_fit(site: Served) -> None:
    """Adding a passkey needs a session; a challenge is answered once, by the account it was
    made for; a credential the server does not know or a forged answer signs nobody in."""
    async with browser(site) as client, browser(site) as other:
        assert (await client.post("/api/me/passkeys/options")).status_code == 401
        await sign_up(client, "Keyholder")
        ceremony = (await client.post("/api/me/passkeys/options")).json()
        options = ceremony["options"]
        assert options["rp"]["id"] == "127.0.0.1" and options["user"]["name"] == "Keyholder"
        assert options["authenticatorSelection"]["residentKey"] == "required"
        await sign_up(other, "Thief")
        r = await other.post("/api/me/passkeys", json={"challenge_id": ceremony["challenge_id"], "credential": {}})
        assert r.status_code == 422 and "expired or was already answered" in r.json()["detail"]
        r = await client.post("/api/me/passkeys", json={"challenge_id": ceremony["challenge_id"], "credential": {}})
        assert r.status_code == 422  # spent by the thief's try: start again
        ceremony = (await client.post("/api/me/passkeys/options")).json()
        r = await client.post("/api/me/passkeys", json={"challenge_id": ceremony["challenge_id"],
                                                        "credential": {"id": "x", "response": {}}})
        assert r.status_code == 422 and r.json()["detail"] == "This passkey was not accepted; try again."
        assert (await client.get("/api/me/passkeys")).json() == []

        signin = (await other.post("/api/session/passkey/options")).json()
        assert "allowCredentials" not in signin["options"] or signin["options"]["allowCredentials"] == []
        r = await other.post("/api/session/passkey", json={"challenge_id": signin["challenge_id"],
                                                           "credential": {"id": "bm9ib2R5", "rawId": "bm9ib2R5"}})
        assert r.status_code == 401 and r.json()["code"] == "bad_credentials"
        assert (await me(other))["name"] == "Thief"  # a refused sign-in leaves the session as it was
