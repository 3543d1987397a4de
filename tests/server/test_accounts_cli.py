"""``potluck accounts`` for the person who runs the server: list, a one-time reset link that
works once, rename, and delete (the past seats keep the name as plain text)."""

from __future__ import annotations

import asyncio

import pytest

from server.cli import main

from .conftest import serve
from .test_accounts import LIFTED, PASSWORD, browser, me, sign_up


async def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = await asyncio.to_thread(main, ["accounts", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


async def test_the_operator_lists_resets_renames_and_deletes(tmp_path, monkeypatch, capsys) -> None:
    url = f"sqlite:///{tmp_path / 'potluck.db'}"
    monkeypatch.setenv("DATABASE_URL", url)
    async with serve(url, **LIFTED) as site:
        async with browser(site) as client, browser(site) as other:
            await sign_up(client, "Forgetful")
            match_id = (await client.post("/api/matches", json={"game": "nutty-noodles", "players": 2})).json()["id"]
            await client.post(f"/api/matches/{match_id}/join", json={"name": "Forgetful"})

            code, out, _ = await cli(capsys, "list")
            assert code == 0 and "Forgetful" in out and "1 seat" in out and "1 account" in out
            assert PASSWORD not in out and "$argon2" not in out

            code, out, _ = await cli(capsys, "reset", "forgetful", "--url", site.url)
            assert code == 0
            token = out.strip().splitlines()[-1].split("/reset#", 1)[1]
            r = await other.post("/api/accounts/reset", json={"token": token, "password": "a brand new secret"})
            assert r.status_code == 200 and (await me(other))["name"] == "Forgetful"
            assert await me(client) is None  # the reset ended the other sessions
            again = await other.post("/api/accounts/reset", json={"token": token, "password": "another new secret"})
            assert again.status_code == 401  # once only
            assert (await client.post("/api/session", json={"name": "Forgetful", "password": PASSWORD})).status_code == 401
            assert (await client.post("/api/session", json={"name": "Forgetful",
                                                             "password": "a brand new secret"})).status_code == 200

            code, out, _ = await cli(capsys, "rename", "Forgetful", "Remembers")
            assert code == 0 and "Remembers" in out
            assert (await me(client))["name"] == "Remembers"
            assert (await client.get("/api/players/Remembers/ratings")).json()["account"]

            code, _, err = await cli(capsys, "delete", "nobody")
            assert code == 1 and "no account" in err
            code, out, _ = await cli(capsys, "delete", "Remembers")
            assert code == 0 and await me(client) is None
            seats = (await client.get(f"/api/matches/{match_id}")).json()["seats"]
            assert [(s["name"], s["account"]) for s in seats] == [("Forgetful", False)]
            code, out, _ = await cli(capsys, "list")
            assert "0 accounts" in out
