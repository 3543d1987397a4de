"""The compose stack, up for real: nginx in front of three Potluck replicas on PostgreSQL
and Redis, the images being this checkout's and Debian stand-ins for the official ones
(``images.standin``; an override file swaps the image names, nothing else). Requests
through the proxy reach every replica (no sticky sessions), and a match is played through
it over REST and WebSockets, its log replaying to what everyone saw."""

from __future__ import annotations

import asyncio
import random
import secrets
import subprocess
import time
from pathlib import Path
from typing import Iterator

import httpx
import pytest

from tests.server.clients import Api, WsPlayer, check_log_replays, play_over_rest, play_over_websocket
from tests.test_docker import compose_command

from . import images
from .conftest import free_port

ROOT = images.ROOT


@pytest.fixture
def stack(potluck_image: str, docker_base: str, tmp_path: Path) -> Iterator[str]:
    """The stack, up; yields the proxy's URL. Taken down with its volumes afterwards."""
    compose = compose_command()
    if compose is None:
        pytest.skip("neither docker compose nor docker-compose is installed (apt-get install docker-compose)")
    swaps = {"proxy": images.standin("nginx", docker_base), "postgres": images.standin("postgres", docker_base),
             "redis": images.standin("redis", docker_base), "potluck": potluck_image}
    override = tmp_path / "images.yml"
    override.write_text("services:\n" + "".join(f"  {s}:\n    image: {i}\n" for s, i in swaps.items()))
    port = free_port()
    command = [*compose, "-p", f"potluck-test-{secrets.token_hex(4)}", "-f", str(ROOT / "docker-compose.yml"),
               "-f", str(override)]
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "POTLUCK_PORT": str(port),
           "POSTGRES_PASSWORD": secrets.token_hex(8),
           "POTLUCK_FRONT_SUBNET": f"172.30.{random.randrange(64, 250)}.0/24"}  # stacks side by side

    def run(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*command, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)

    try:
        up = run("up", "-d", "--no-build")
        assert up.returncode == 0, up.stdout[-3000:] + up.stderr[-3000:]
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 180
        while True:
            try:
                if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError("the proxy never answered:\n" + run("logs", "--tail", "50").stdout[-6000:])
            time.sleep(0.5)
        replicas = run("ps", "-q", "potluck").stdout.split()
        assert len(replicas) == 3, f"expected 3 Potluck replicas, found {len(replicas)}"
        yield url
    finally:
        run("down", "-v", "--remove-orphans", timeout=300)


async def test_a_match_is_played_through_the_proxy_on_three_replicas(stack: str) -> None:
    async with httpx.AsyncClient(base_url=stack, timeout=30) as client:
        processes = {(await client.get("/healthz")).json()["process"] for _ in range(30)}
        assert len(processes) >= 2, "the proxy sends every request to the same replica"
        # finding 9 of issue 23: an X-Forwarded-For of the client's own counts for nothing
        spoofed = await client.get("/metrics", headers={"X-Forwarded-For": "127.0.0.1"})
        assert spoofed.status_code == 403, "the replicas believed the client's own X-Forwarded-For"

        api = Api(client)
        match_id = await api.create(players=3, tie_window_ms=0)
        tokens = [(await api.join(match_id, f"P{i}"))[1] for i in range(3)]
        ws_url = stack.replace("http://", "ws://", 1)
        sockets = [await WsPlayer.connect(ws_url, match_id, t) for t in tokens[:2]]
        watcher = await WsPlayer.connect(ws_url, match_id)
        rng = random.Random(4)
        await asyncio.wait_for(asyncio.gather(*(play_over_websocket(p, rng, sharp=0.8) for p in sockets),
                                              play_over_rest(api, match_id, tokens[2], rng, sharp=0.8)), 180)
        final = await api.view(match_id)
        await check_log_replays(api, match_id, final["view"])
        for p in (*sockets, watcher):  # every socket, on whichever replica, heard the end
            state = await p.wait(lambda: p.states and p.state["status"] == "finished" and p.state, timeout=60)
            assert state["seq"] == final["seq"]
            await p.close()
