"""A whole Snollygoster team game through the real server: random clients on WebSockets at
every seat, choosing only from what ``legal`` offers them (any-time cards, Denied, trades
and acknowledgements from any seat included). Every seat sees the end with every agenda
revealed and team totals, and the published log replays to the result."""

from __future__ import annotations

import asyncio
import random

import httpx

from tests.server.clients import Api, WsPlayer, check_log_replays, play_over_websocket
from tests.server.conftest import serve

FAST = {"window_ms": 1_000, "turn_ms": 10_000, "step_ms": 5_000, "round_limit": 5}


async def test_random_clients_finish_a_team_game_over_the_api(tmp_path) -> None:
    async with serve(f"sqlite:///{tmp_path / 'potluck.db'}") as served:
        async with httpx.AsyncClient(base_url=served.url, timeout=20) as client:
            api = Api(client)
            match_id = await api.create(players=4, game="snollygoster", team_game=True, **FAST)
            tokens = [(await api.join(match_id, f"P{i}"))[1] for i in range(4)]
            players = [await WsPlayer.connect(served.ws_url, match_id, t) for t in tokens]
            rng = random.Random(6)
            # sharp=0: every move a random legal one (the sharp answer is Nutty Noodles').
            ends = await asyncio.wait_for(asyncio.gather(*(play_over_websocket(p, rng, sharp=0) for p in players)), 120)
            for seat, end in enumerate(ends):
                assert end["view"]["you"] == seat and end["view"]["phase"] == "over"
                assert all(p["agenda"] for p in end["view"]["players"])
            final = await api.view(match_id)
            assert final["result"]["winners"] and final["legal"] == [] and final["deadline"] is None
            assert set(final["result"]["details"]["team_totals"]) == {"Comrade", "Rogue"}
            await check_log_replays(api, match_id, final["view"])
            for p in players:
                await p.close()
