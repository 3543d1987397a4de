"""A match the game cannot set up is refused when it is created (everything ``setup`` can
refuse is checked then, by the game's own ``validate``); one that still cannot start —
stored by an older server, or a game whose ``setup`` fails — ends cleanly: finished, with
a reason everyone sees, and every endpoint answers, restarts included. The last player to
join still gets their token."""

from __future__ import annotations

from typing import Any

import pytest

from server.engine import InvalidOptions
from server.games.nutty_noodles.rules import NuttyNoodles
from server.runtime.tokens import new_match_id

from .clients import Api, WsPlayer
from .test_runtime import runtime


class BrokenNoodles(NuttyNoodles):
    """Nutty Noodles whose ``setup`` refuses every table (as a game bug would)."""

    def setup(self, *args: Any, **kwargs: Any) -> Any:
        raise InvalidOptions("The noodles are off today.")


async def test_what_setup_refuses_is_refused_at_creation(api: Api) -> None:
    total = (await api.client.get("/api/matches")).json()["total"]  # the database may be shared
    r = await api.client.post("/api/matches", json={"game": "snollygoster", "players": 3,
                                                    "options": {"team_game": True}})
    assert (r.status_code, r.json()["code"]) == (422, "invalid"), r.text
    assert "four or more" in r.json()["detail"]
    r = await api.client.post("/api/matches", json={"game": "snollygoster", "players": 3, "bots": 3,
                                                    "options": {"team_game": True}})
    assert r.status_code == 422, r.text
    assert (await api.client.get("/api/matches")).json()["total"] == total
    r = await api.client.post("/api/matches", json={"game": "snollygoster", "players": 4,
                                                    "options": {"team_game": True}})
    assert r.status_code == 201, r.text


async def test_a_match_that_cannot_start_ends_with_a_reason(served, api: Api) -> None:
    match_id = await api.create(players=2)
    live = await served.runtime.get(match_id)
    live.game = BrokenNoodles()  # as if the game changed its mind between creation and start
    watcher = await WsPlayer.connect(served.ws_url, match_id)
    await api.join(match_id, "Ann")
    seat, token = await api.join(match_id, "Bob")  # the last joiner gets a token all the same
    assert seat == 1 and token
    summary = await watcher.wait(lambda: watcher.summary.get("status") == "finished" and watcher.summary)
    assert "could not start" in summary["result"]["reason"] and "noodles are off" in summary["result"]["reason"]
    for path in (f"/api/matches/{match_id}", f"/api/matches/{match_id}/view", f"/api/matches/{match_id}/chat"):
        r = await api.client.get(path, headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200, (path, r.text)
    view = await api.view(match_id, token)
    assert (view["status"], view["view"], view["legal"]) == ("finished", None, [])
    assert "could not start" in view["result"]["reason"]
    r = await api.act(match_id, token, {"type": "roll"})
    assert (r.status_code, r.json()["code"]) == (409, "finished")
    assert (await api.log(match_id)).status_code == 409
    await watcher.close()

    served.runtime.live.pop(match_id).close()  # a restart: loaded again from the store
    r = await api.client.get(f"/api/matches/{match_id}")
    assert (r.status_code, r.json()["status"]) == (200, "finished")


async def test_a_stored_match_that_cannot_start_ends_when_loaded(database_url: str) -> None:
    """As an older server left it: a Snollygoster team game of three, stored as running."""
    async with runtime(database_url) as rt:
        record = await rt.store.create_match(id=new_match_id(), game="snollygoster", options={"team_game": True},
                                             players=3, bot_names=["B1", "B2", "B3"], seed=1, now=1)
        assert record.status == "running"
        live = await rt.get(record.id)
        assert live.status == "finished" and live.state is None
        assert "four or more" in live.summary()["result"]["reason"]
        stored = await rt.store.get_match(record.id)
        assert stored.status == "finished" and stored.result == live.record.result
        rt.live.pop(record.id).close()
        again = await rt.get(record.id)
        assert again.status == "finished" and again.record.result == stored.result


@pytest.mark.parametrize("game_id", ["nutty-noodles", "rival-restaurants", "sneaky-supper", "snollygoster"])
async def test_validate_accepts_what_setup_accepts(game_id: str) -> None:
    from server.engine import registry

    game = registry.get(game_id)
    for players in range(game.min_players, game.max_players + 1):
        game.validate(players, game.options({}))
