"""The server serves every registered game without knowing it: for each one, random
clients play legal actions over REST; every answer is a 200 or a documented refusal,
spectators see a view without legal actions, and the log replays to the served view."""

from __future__ import annotations

import random
from typing import AsyncIterator

import httpx
import pytest

from server.engine import registry
from server.engine.playout import Entry, replay

from .clients import Api
from .conftest import serve

STEPS = 40


@pytest.fixture
async def api(tmp_path) -> AsyncIterator[Api]:
    async with serve(f"sqlite:///{tmp_path / 'db.sqlite'}") as served, \
            httpx.AsyncClient(base_url=served.url, timeout=30) as client:
        api = Api(client)
        api.served = served  # type: ignore[attr-defined]
        yield api


@pytest.mark.parametrize("game_id", sorted(registry.games()))
async def test_random_clients_play_any_registered_game(api: Api, game_id: str) -> None:
    game = registry.get(game_id)
    players = game.min_players
    match_id = await api.create(players=players, game=game_id)
    tokens = [(await api.join(match_id, f"P{i}"))[1] for i in range(players)]
    rng = random.Random(game_id)
    for _ in range(STEPS):
        views = [await api.view(match_id, t) for t in tokens]
        if views[0]["status"] == "finished":
            break
        movers = [(seat, v) for seat, v in enumerate(views) if v["legal"]]
        if not movers:
            break  # only time can move this game on
        seat, v = rng.choice(movers)
        r = await api.act(match_id, tokens[seat], rng.choice(v["legal"]))
        assert r.status_code in (200, 409, 422), r.text
    spectator = await api.view(match_id)
    assert spectator["legal"] == [] and spectator["view"]["you"] is None
    entries = await api.served.runtime.store.actions(match_id)  # type: ignore[attr-defined]
    assert entries, f"{game_id}: nobody could play"
    record = await api.served.runtime.store.get_match(match_id)  # type: ignore[attr-defined]
    state = replay(game, record.seat_names(), record.options, record.seed,
                   [Entry(e.seat, e.action, e.at) for e in entries if e.seq <= spectator["seq"]],
                   record.started_at)
    assert game.view(state, None) == spectator["view"]
