"""The image users build (the unchanged Dockerfile), built and run:

- it serves ``/healthz`` and the lobby, its own HEALTHCHECK command passes, and a match is
  played to the end over REST;
- its SQLite database lives in the ``/data`` volume: a container killed and started
  again, or a new container on the same volume, has every match as it was;
- on this machine's PostgreSQL and Redis (host network), two containers serve one match:
  actions through either, sockets on either hear every move.
"""

from __future__ import annotations

import asyncio
import json
import random

import httpx

from tests.server.clients import Api, WsPlayer, check_log_replays, play_over_rest, play_to_the_end

from . import images
from .conftest import container

SHARP = {"tie_window_ms": 0}  # a right placement ends its round at once


async def test_the_image_serves_the_lobby_passes_its_health_check_and_plays_a_match(potluck_image: str) -> None:
    with container(potluck_image) as box:
        async with httpx.AsyncClient(base_url=box.url, timeout=30) as client:
            lobby = await client.get("/")
            assert lobby.status_code == 200 and "Nutty Noodles" in lobby.text
            assert (await client.get("/static/js/client.js")).status_code == 200
            api = Api(client)
            match_id, tokens = await api.seated(players=2, **SHARP)
            final = await play_to_the_end(api, match_id, tokens)
            await check_log_replays(api, match_id, final["view"])
        inspect = json.loads(images.docker("inspect", box.id).stdout)[0]
        assert inspect["Config"]["User"] not in ("", "root", "0")
        health = inspect["Config"]["Healthcheck"]["Test"]
        assert health[0] == "CMD"
        assert images.docker("exec", box.id, *health[1:], check=False).returncode == 0, "the HEALTHCHECK fails"


async def test_the_sqlite_volume_survives_a_restart_and_a_new_container(potluck_image: str,
                                                                        docker_volume: str) -> None:
    mount = ["-v", f"{docker_volume}:/data"]
    with container(potluck_image, *mount) as box:
        async with httpx.AsyncClient(base_url=box.url, timeout=30) as client:
            api = Api(client)
            match_id, tokens = await api.seated(players=2, roll_timeout_ms=120_000, round_timeout_ms=600_000)
            thrower = (await api.view(match_id))["view"]["thrower"]
            assert (await api.act(match_id, tokens[thrower], {"type": "roll"})).status_code == 200
            before = await api.view(match_id, tokens[0])
        images.docker("kill", box.id)  # SIGKILL: nothing is flushed on the way out
        images.docker("start", box.id)
        box.wait_healthy()
        async with httpx.AsyncClient(base_url=box.url, timeout=30) as client:
            again = await Api(client).view(match_id, tokens[0])
            assert (again["seq"], again["view"]) == (before["seq"], before["view"])
    with container(potluck_image, *mount) as fresh:  # the first container is gone; its volume stays
        async with httpx.AsyncClient(base_url=fresh.url, timeout=30) as client:
            again = await Api(client).view(match_id, tokens[0])
            assert (again["seq"], again["view"]) == (before["seq"], before["view"])


async def test_two_containers_on_postgres_and_redis_serve_one_match(potluck_image: str, postgres_for_docker: str,
                                                                   redis_for_docker: str) -> None:
    env = {"DATABASE_URL": postgres_for_docker, "REDIS_URL": redis_for_docker}
    with container(potluck_image, env=env, host_network=True) as a, \
            container(potluck_image, env=env, host_network=True) as b:
        async with httpx.AsyncClient(base_url=a.url, timeout=30) as ca, \
                httpx.AsyncClient(base_url=b.url, timeout=30) as cb:
            apis = [Api(ca), Api(cb)]
            match_id = await apis[0].create(players=2, **SHARP)
            tokens = [(await apis[i].join(match_id, f"P{i}"))[1] for i in range(2)]
            watcher = await WsPlayer.connect(b.ws_url, match_id)
            rng = random.Random(3)
            played = await asyncio.wait_for(asyncio.gather(
                *(play_over_rest(apis, match_id, t, rng, sharp=0.8) for t in tokens)), 180)
            final = await apis[1].view(match_id)
            await check_log_replays(apis[0], match_id, final["view"])
            heard = await watcher.wait(lambda: watcher.states and watcher.state["status"] == "finished"
                                       and watcher.state, timeout=60)
            assert heard["seq"] == final["seq"] and heard["view"] == final["view"]
            await watcher.close()
            assert sum(map(len, played)) > 0
            processes = {(await api.client.get("/healthz")).json()["process"] for api in apis}
            assert len(processes) == 2
