"""A whole Sneaky Supper match through the real server: random REST clients at every seat,
bust picks and Craving reactions from any seat included. (Bot seats play at a human pace in
real time, so they are left to the simulations.)"""

from __future__ import annotations

import asyncio
import random

import httpx

from tests.server.clients import Api, check_log_replays, play_over_rest
from tests.server.conftest import serve


async def test_random_rest_clients_finish_a_match(tmp_path) -> None:
    async with serve(f"sqlite:///{tmp_path / 'potluck.db'}") as served:
        async with httpx.AsyncClient(base_url=served.url, timeout=20) as client:
            api = Api(client)
            match_id = await api.create(players=4, game="sneaky-supper", mish_mash=True)
            tokens = [(await api.join(match_id, f"P{i}"))[1] for i in range(4)]
            rng = random.Random(5)

            def check(v: dict) -> None:
                assert v["view"]["prompt"] and v["view"]["hand"] is not None

            plays = (play_over_rest(api, match_id, t, rng, sharp=0, check=check) for t in tokens)
            await asyncio.wait_for(asyncio.gather(*plays), 120)
            final = await api.view(match_id)
            assert final["result"]["winners"] and final["legal"] == []
            assert final["view"]["tally"] and final["view"]["phase"] == "over"
            await check_log_replays(api, match_id, final["view"])
