"""Teach mode over the API (issue 26): the hints travel in the seat's own view (REST and
WebSocket), never in a spectator's; "What would you do?" answers the seat only, in teach
mode only."""

from __future__ import annotations

import httpx

from .clients import Api, WsPlayer
from .conftest import serve


async def test_a_teach_match_shows_its_seat_hints_and_suggests(database_url: str) -> None:
    async with serve(database_url) as served, httpx.AsyncClient(base_url=served.url) as client:
        api = Api(client)
        match_id, (token,) = await api.seated(players=2, bots=1, teach=True, ready_check=True)
        mine = await api.view(match_id, token)
        hints = mine["view"]["hints"]
        assert [m["kind"] for m in hints["may"]] == ["ready"]
        assert hints["may"][0]["clause"]["href"] == "/games/nutty-noodles/rules#nn-ready"
        assert hints["summary"] == "You may say you are ready."
        assert "hints" not in (await api.view(match_id))["view"], "a spectator sees no hints"
        ws = await WsPlayer.connect(served.ws_url, match_id, token)
        assert (await ws.wait(lambda: ws.states and ws.state))["view"]["hints"] == hints
        watcher = await WsPlayer.connect(served.ws_url, match_id)
        assert "hints" not in (await watcher.wait(lambda: watcher.states and watcher.state))["view"]
        tip = await client.get(f"/api/matches/{match_id}/suggestion", headers={"Authorization": f"Bearer {token}"})
        assert tip.status_code == 200, tip.text
        assert tip.json()["action"] == {"type": "ready"} and tip.json()["reason"].startswith("Say you are ready")
        assert (await client.get(f"/api/matches/{match_id}/suggestion")).status_code == 401
        # after a change the hints reach the socket in its patch, like the rest of its view
        assert (await ws.act({"type": "ready"}))["type"] == "ack"
        moved = await ws.wait(lambda: ws.states and ws.state["view"]["phase"] != "ready" and ws.state)
        assert "ready" not in [m["kind"] for m in moved["view"]["hints"]["may"]]
        assert moved["view"]["hints"] == (await api.view(match_id, token))["view"]["hints"] or \
            moved["seq"] != (await api.view(match_id, token))["seq"]
        assert ws.patches, "the change came as a patch"
        await ws.close()
        await watcher.close()


async def test_no_hints_nor_suggestions_without_teach_mode(database_url: str) -> None:
    async with serve(database_url) as served, httpx.AsyncClient(base_url=served.url) as client:
        api = Api(client)
        match_id, (token,) = await api.seated(players=2, bots=1, ready_check=True)
        assert "hints" not in (await api.view(match_id, token))["view"]
        tip = await client.get(f"/api/matches/{match_id}/suggestion", headers={"Authorization": f"Bearer {token}"})
        assert tip.status_code == 409 and "teach" in tip.json()["detail"]
