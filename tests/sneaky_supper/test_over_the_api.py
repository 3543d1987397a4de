"""A whole Sneaky Supper match through the real server: random REST clients at every seat,
bust picks and Craving reactions from any seat included. (Bot seats play at a human pace in
real time, so they are left to the simulations.)"""

from __future__ import annotations

import asyncio
import random

import httpx

from tests.server.clients import Api, check_log_replays
from tests.server.conftest import serve


async def test_random_rest_clients_finish_a_match(tmp_path) -> None:
    async with serve(f"sqlite:///{tmp_path / 'potluck.db'}") as served:
        async with httpx.AsyncClient(base_url=served.url, timeout=20) as client:
            api = Api(client)
            match_id = await api.create(players=4, game="sneaky-supper", mish_mash=True)
            tokens = [(await api.join(match_id, f"P{i}"))[1] for i in range(4)]
            rng = random.Random(5)

            async def player(token: str) -> None:
                while True:
                    v = await api.view(match_id, token)
                    if v["status"] == "finished":
                        return
                    assert v["view"]["prompt"] and v["view"]["hand"] is not None
                    if not v["legal"]:
                        await asyncio.sleep(0.005)
                        continue
                    r = await api.act(match_id, token, rng.choice(v["legal"]))
                    assert r.status_code in (200, 409, 422), r.text

            await asyncio.wait_for(asyncio.gather(*(player(t) for t in tokens)), 120)
            final = await api.view(match_id)
            assert final["result"]["winners"] and final["legal"] == []
            assert final["view"]["tally"] and final["view"]["phase"] == "over"
            await check_log_replays(api, match_id, final["view"])
