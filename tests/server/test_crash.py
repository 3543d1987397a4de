"""Crash: a server killed with SIGKILL mid-match and started again serves the same view at
the same seq, loses no acknowledged action, and the match plays on to a result."""

from __future__ import annotations

import asyncio
import random

import httpx

from .clients import Api, answer
from .processes import ServerProcess

# no timer may fire while the server is down: a restart must find the match as it was
# (tie window 0: a correct placement ends its round at once, no 250 ms closing phase)
SLOW_TIMERS = {"roll_timeout_ms": 120_000, "round_timeout_ms": 600_000, "tie_window_ms": 0}


async def _step(api: Api, match_id: str, tokens: list[str], rng: random.Random,
                acked: dict[int, tuple[int, dict]]) -> bool:
    """One action by a seat that may act (mostly the right one, sometimes a random legal
    one); returns False once the match is over."""
    public = await api.view(match_id)
    if public["status"] == "finished":
        return False
    view = public["view"]
    placed = {p["seat"] for p in view["throw"]["placements"]}
    movers = [view["thrower"]] if view["phase"] == "roll" else [
        i for i in range(len(tokens)) if i not in placed]
    seat = rng.choice(movers)
    action = {"type": "roll"} if view["phase"] == "roll" else answer(view)
    if rng.random() < 0.25:
        legal = (await api.view(match_id, tokens[seat]))["legal"]
        action = rng.choice(legal) if legal else action
    r = await api.act(match_id, tokens[seat], action)
    if r.status_code == 200:
        acked[r.json()["seq"]] = (seat, action)
    return True


async def _views(api: Api, match_id: str, tokens: list[str]) -> list[dict]:
    out = [await api.view(match_id, t) for t in [*tokens, None]]
    return [{k: v for k, v in view.items() if k != "now"} for view in out]


async def _flood_then_kill(server: ServerProcess, api: Api, match_id: str, tokens: list[str],
                           acked: dict[int, tuple[int, dict]]) -> None:
    """Actions in flight from every seat when the process is killed."""
    rng = random.Random(7)

    async def keep_acting() -> None:
        try:
            while await _step(api, match_id, tokens, rng, acked):
                pass
        except httpx.HTTPError:
            pass  # the server died under us

    tasks = [asyncio.create_task(keep_acting()) for _ in range(3)]
    await asyncio.sleep(0.4)
    server.kill()
    await asyncio.gather(*tasks)


async def test_sigkill_loses_nothing_and_the_match_plays_on(database_url: str, tmp_path) -> None:
    rng = random.Random(1)
    acked: dict[int, tuple[int, dict]] = {}
    server = ServerProcess(database_url, tmp_path / "run1")
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=10) as client:
            api = Api(client)
            match_id, tokens = await api.seated(players=3, **SLOW_TIMERS)
            for _ in range(25):
                await _step(api, match_id, tokens, rng, acked)
            before = await _views(api, match_id, tokens)
            assert before[0]["seq"] > 5
        server.kill()

        server = ServerProcess(database_url, tmp_path / "run2")
        async with httpx.AsyncClient(base_url=server.url, timeout=10) as client:
            api = Api(client)
            assert await _views(api, match_id, tokens) == before, "a restart changed the match"
            await _flood_then_kill(server, api, match_id, tokens, acked)

        server = ServerProcess(database_url, tmp_path / "run3")
        async with httpx.AsyncClient(base_url=server.url, timeout=10) as client:
            api = Api(client)
            assert (await api.view(match_id))["seq"] >= max(acked, default=0)
            while await _step(api, match_id, tokens, rng, acked):
                pass
            log = (await api.log(match_id)).json()
        logged = {a["seq"]: (a["seat"], a["action"]) for a in log["actions"]}
        assert sorted(logged) == list(range(1, len(logged) + 1))
        lost = {seq: entry for seq, entry in acked.items() if logged.get(seq) != entry}
        assert not lost, f"acknowledged but not in the log: {lost}"
        assert log["result"]["winners"]
    finally:
        server.kill()
