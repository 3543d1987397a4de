"""Issue 27, item 10: Snollygoster's bots keep a watchable pace while people watch — the
table of a human out of the game ("Watch the others") is all bots, so the runtime plays a
Snollygoster match of bots alone, watched over the WebSocket, and its log, read over REST,
has no seat moving twice closer together than the bots' quickest pause (outside the
response windows, where every seat answers at once). This is the runtime's half (it plays
a bot's move at the time the bot chose, never sooner); the bots' own half, over 40 games,
is ``tests/snollygoster/test_play.py::test_bots_keep_a_watchable_pace_and_never_race_through_turns``."""

from __future__ import annotations

import asyncio

import httpx

from server.engine import Rng
from server.games.snollygoster import GAME
from server.games.snollygoster.bot import SnollygosterBot

from .clients import Api, WsPlayer
from .conftest import serve

ANSWERS = {"pass", "denied", "antidote", "launch"}  # a response window asks everyone at once
SPEED = 40  # game time runs this many times faster than real time (a game is ~3 game minutes)


async def test_snollygoster_bots_keep_a_watchable_pace_while_people_watch(tmp_path) -> None:
    quickest = SnollygosterBot(GAME, Rng(0)).answer_ms[0]
    async with serve(f"sqlite:///{tmp_path / 'potluck.db'}", clock_speed=SPEED, create_per_minute=0) as site:
        async with httpx.AsyncClient(base_url=site.url, timeout=20) as client:
            api = Api(client)
            match_id = await api.create(players=3, bots=3, game="snollygoster")
            watcher = await WsPlayer.connect(site.ws_url, match_id)
            try:
                for _ in range(600):
                    if (await client.get(f"/api/matches/{match_id}")).json()["status"] == "finished":
                        break
                    await asyncio.sleep(0.5)
            finally:
                await watcher.close()
            log = (await api.log(match_id)).json()["actions"]
    assert log, "the bots played nothing"
    last: dict[int, int] = {}
    hurried = []
    for entry in log:
        seat = entry["seat"]
        if seat is None:
            continue
        if entry["action"]["type"] not in ANSWERS and seat in last and entry["at"] - last[seat] < quickest:
            hurried.append((entry["seq"], seat, entry["action"]["type"], entry["at"] - last[seat]))
        last[seat] = entry["at"]
    assert hurried == []
    moves = sum(1 for e in log if e["seat"] is not None)
    assert log[-1]["at"] - log[0]["at"] >= moves * quickest // 3  # not 11 rounds in a second
