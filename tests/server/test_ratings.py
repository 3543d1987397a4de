"""Ratings over REST, on each database: a match between accounts played to its end rates
them (the winner first on the leaderboard, a point on each chart, the ratings beside
their names in the lobby); a match created with ``rated: false`` rates nobody; opening the
finished match on a restarted server replays it without rating it again."""

from __future__ import annotations

import httpx

from server.store.skill import bot_rating

from .clients import Api, play_to_the_end
from .conftest import serve
from .test_accounts import LIFTED, browser, sign_up


async def _play(site, players: list[httpx.AsyncClient], rated: bool = True) -> str:
    """A Nutty Noodles match of these signed-in players, played to its end over REST with
    their session cookies only (no seat token)."""
    api = Api(players[0])
    r = await players[0].post("/api/matches", json={"game": "nutty-noodles", "players": len(players),
                                                     "options": {"tie_window_ms": 0}, "rated": rated})
    assert r.status_code == 201, r.text
    match_id = r.json()["id"]
    assert r.json()["match"]["rated"] is rated
    for client in players:
        assert (await client.post(f"/api/matches/{match_id}/join", json={"name": "x"})).status_code == 200

    class BySession(Api):
        async def act(self, match_id: str, token, action, expect_seq=None, **extra):  # type: ignore[override]
            return await players[token].post(f"/api/matches/{match_id}/actions", json={"action": action})

    await play_to_the_end(BySession(api.client), match_id, list(range(len(players))))
    return match_id


async def test_a_finished_match_rates_its_accounts_once(database_url: str) -> None:
    async with serve(database_url, **LIFTED) as site:
        async with browser(site) as ann, browser(site) as bob:
            await sign_up(ann, "Ann")
            await sign_up(bob, "Bob")
            match_id = await _play(site, [ann, bob])
            summary = (await ann.get(f"/api/matches/{match_id}")).json()
            winner = summary["seats"][summary["result"]["winners"][0]]["name"]
            board = (await ann.get("/api/games/nutty-noodles/leaderboard")).json()
            assert [s["name"] for s in board["items"]] == [winner, ({"Ann", "Bob"} - {winner}).pop()]
            assert board["total"] == 2 and all(s["matches"] == 1 for s in board["items"])
            assert board["items"][0]["rating"] > board["items"][1]["rating"]
            listed = (await ann.get("/api/matches?status=finished")).json()["items"][0]
            assert {s["name"]: s["rating"] for s in listed["seats"]} == {s["name"]: s["rating"] for s in board["items"]}
            chart = (await ann.get("/api/players/ann/ratings")).json()
            assert chart["account"] and [p["match"] for p in chart["chart"]] == [match_id]
            seats = (await ann.get(f"/api/matches/{match_id}/ratings")).json()
            assert sorted(s["seat"] for s in seats) == [0, 1] and all(s["matches"] == 1 for s in seats)
            friendly = await _play(site, [ann, bob], rated=False)
            after = (await ann.get("/api/games/nutty-noodles/leaderboard")).json()
            assert after["items"] == board["items"], "a friendly match changed the ratings"
            assert (await ann.get("/api/players/nobody-at-all/ratings")).json() == {
                "name": "nobody-at-all", "account": False, "ratings": [], "chart": []}
    async with serve(database_url, **LIFTED) as again:  # a new process replays the matches
        async with httpx.AsyncClient(base_url=again.url) as client:
            for m in (match_id, friendly):
                assert (await client.get(f"/api/matches/{m}/view")).json()["status"] == "finished"
            assert (await client.get("/api/games/nutty-noodles/leaderboard")).json()["items"] == board["items"]


async def test_a_bot_seat_shows_its_levels_fixed_rating(database_url: str) -> None:
    async with serve(database_url, **LIFTED) as site:
        async with browser(site) as solo:
            await sign_up(solo, "Solo")
            r = await solo.post("/api/matches", json={"game": "nutty-noodles", "players": 2, "bots": ["hard"]})
            match_id = r.json()["id"]
            await solo.post(f"/api/matches/{match_id}/join", json={"name": "Solo"})
            seats = {s["seat"]: s for s in (await solo.get(f"/api/matches/{match_id}/ratings")).json()}
            anchor = bot_rating("nutty-noodles", "hard")
            assert seats[1]["bot"] and seats[1]["rating"] == round(anchor.mu - 3 * anchor.sigma, 2)
            assert seats[0]["matches"] == 0 and seats[0]["rating"] == 0.0


async def test_unknown_game_has_no_leaderboard(database_url: str) -> None:
    async with serve(database_url) as site:
        async with httpx.AsyncClient(base_url=site.url) as client:
            r = await client.get("/api/games/no-such-game/leaderboard")
            assert r.status_code == 404 and "no-such-game" in r.json()["detail"]
