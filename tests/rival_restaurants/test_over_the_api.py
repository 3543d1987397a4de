"""A whole Rival Restaurants match through the real server: random REST clients at every
seat, all acting at once and choosing only from what ``legal`` offers them (claims, bids,
buys, the Island, barter offers and answers, action cards, cooking). The match reaches its
result and the published log replays to it. (Bot seats play at a human pace in real time,
so they are left to the simulations and the browser test.)"""

from __future__ import annotations

import asyncio
import random

import httpx

from tests.server.clients import Api, check_log_replays
from tests.server.conftest import serve

QUICK = {"market_ms": 10_000, "claim_ms": 2_000, "move_ms": 5_000, "cook_ms": 5_000, "max_days": 4, "goal": 8}


async def test_random_rest_clients_finish_a_match(tmp_path) -> None:
    async with serve(f"sqlite:///{tmp_path / 'potluck.db'}") as served:
        async with httpx.AsyncClient(base_url=served.url, timeout=20) as client:
            api = Api(client)
            match_id = await api.create(players=4, game="rival-restaurants", **QUICK)
            tokens = [(await api.join(match_id, f"P{i}"))[1] for i in range(4)]
            rng = random.Random(7)
            kinds: set[str] = set()

            async def player(token: str) -> None:
                while True:
                    v = await api.view(match_id, token)
                    if v["status"] == "finished":
                        return
                    assert v["view"]["prompt"] and v["view"]["mine"] is not None
                    if not v["legal"]:
                        await asyncio.sleep(0.005)
                        continue
                    action = rng.choice(v["legal"])
                    r = await api.act(match_id, token, action)
                    assert r.status_code in (200, 409, 422), r.text  # 409/422: someone else moved first
                    if r.status_code == 200:
                        kinds.add(action["type"])

            await asyncio.wait_for(asyncio.gather(*(player(t) for t in tokens)), 150)
            final = await api.view(match_id)
            assert final["result"]["winners"] and final["legal"] == [] and final["deadline"] is None
            assert final["view"]["phase"] == "over" and len(final["result"]["scores"]) == 4
            assert {"move", "done", "serve"} <= kinds, kinds
            await check_log_replays(api, match_id, final["view"])
