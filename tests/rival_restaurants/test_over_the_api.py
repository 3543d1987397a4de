"""A whole Rival Restaurants match through the real server: random clients on WebSockets at
every seat, all acting at once and choosing only from what ``legal`` offers them (claims,
bids, buys, the Island, barter offers and answers, action cards, cooking). Every seat sees
the end, the match reaches its result and the published log replays to it. (Bot seats play
at a human pace in real time, so they are left to the simulations and the browser test.)"""

from __future__ import annotations

import asyncio
import random

import httpx
import pytest

from tests.server.clients import Api, WsPlayer, check_log_replays, play_over_rest, play_over_websocket
from tests.server.conftest import serve

QUICK = {"market_ms": 10_000, "claim_ms": 2_000, "move_ms": 5_000, "cook_ms": 5_000, "max_days": 4, "goal": 8}


async def test_random_clients_finish_a_match_over_the_api(tmp_path) -> None:
    async with serve(f"sqlite:///{tmp_path / 'potluck.db'}") as served:
        async with httpx.AsyncClient(base_url=served.url, timeout=20) as client:
            api = Api(client)
            match_id, tokens = await api.seated(players=4, game="rival-restaurants", **QUICK)
            players = [await WsPlayer.connect(served.ws_url, match_id, t) for t in tokens]
            rng = random.Random(7)
            ends = await asyncio.wait_for(asyncio.gather(*(play_over_websocket(p, rng, sharp=0) for p in players)), 150)
            assert [end["view"]["phase"] for end in ends] == ["over"] * 4
            final = await api.view(match_id)
            assert final["result"]["winners"] and final["legal"] == [] and final["deadline"] is None
            log = await check_log_replays(api, match_id, final["view"])
            played = {a["action"]["type"] for a in log["actions"] if a["seat"] is not None}
            assert {"move", "claim", "offer", "done", "serve"} <= played, played
            for p in players:
                await p.close()


@pytest.mark.parametrize("players", [2, 4, 6])
async def test_random_rest_clients_finish_a_sporks_out_match(tmp_path, players: int) -> None:
    """SPORKS Out over REST: random clients at every seat, the Action Auction's secret
    bids included; no view a seat reads ever shows a face-down card's face."""
    def check(v: dict) -> None:
        for p in v["view"]["players"]:
            assert all(set(card) == {"market"} for card in p["hot_sauce"])
        box = v["view"]["sporks"]["snackle_box"]
        assert box["face_down"] in (True, False)

    async with serve(f"sqlite:///{tmp_path / 'potluck.db'}") as served:
        async with httpx.AsyncClient(base_url=served.url, timeout=20) as client:
            api = Api(client)
            match_id, tokens = await api.seated(players=players, game="rival-restaurants", sporks_out=True,
                                                auction_ms=5_000, **QUICK)
            await asyncio.wait_for(asyncio.gather(*(play_over_rest(api, match_id, token, random.Random(seat),
                                                                   check=check)
                                                    for seat, token in enumerate(tokens))), 240)
            final = await api.view(match_id)
            assert final["result"]["winners"] and final["legal"] == []
            log = await check_log_replays(api, match_id, final["view"])
            played = {a["action"]["type"] for a in log["actions"] if a["seat"] is not None}
            assert {"box_bid", "move", "done", "serve"} <= played, played


async def test_random_rest_clients_finish_a_kitchen_squad_match(tmp_path) -> None:
    """Kitchen Squad over REST: two random clients choose their restaurants and today's
    chef, send runners and buy through them; the match ends and its log replays."""
    async with serve(f"sqlite:///{tmp_path / 'potluck.db'}") as served:
        async with httpx.AsyncClient(base_url=served.url, timeout=20) as client:
            api = Api(client)
            match_id, tokens = await api.seated(players=2, game="rival-restaurants", kitchen_squad=True,
                                                restaurants="chosen", **QUICK)
            await asyncio.wait_for(asyncio.gather(*(play_over_rest(api, match_id, token, random.Random(seat))
                                                    for seat, token in enumerate(tokens))), 240)
            final = await api.view(match_id)
            assert final["result"]["winners"] and final["legal"] == []
            log = await check_log_replays(api, match_id, final["view"])
            played = {a["action"]["type"] for a in log["actions"] if a["seat"] is not None}
            assert {"choose_restaurant", "squad_chef", "move", "done", "serve"} <= played, played


async def test_kitchen_squad_is_refused_for_more_than_two_players_over_the_api(tmp_path) -> None:
    async with serve(f"sqlite:///{tmp_path / 'potluck.db'}") as served:
        async with httpx.AsyncClient(base_url=served.url, timeout=20) as client:
            r = await client.post("/api/matches", json={"game": "rival-restaurants", "players": 3,
                                                        "options": {"kitchen_squad": True}})
            assert 400 <= r.status_code < 500 and "two-player mode" in r.text, r.text
