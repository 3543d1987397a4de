"""Scale-out with real server processes on one PostgreSQL database and one Redis:

- three processes, players acting at random through all of them (REST and WebSockets),
  and the owner of several matches SIGKILLed mid-play: every acknowledged action is in
  the final log, the logs have no gap and replay to the final views, the survivors never
  answer 5xx, the dead owner's matches (their timers and bots) are taken over and finish,
  and no timeout or bot move is made twice (the refused duplicates, counted by every
  process, stay at zero);
- every process killed, one started again: an all-bot match that nobody opens finishes,
  watched only through the match list;
- the owner cut off from Redis (its subscription dropped, its publishes lost) drives its
  match on without forking it.

Every wait is for a condition, with a generous bound.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from .clients import Api, WsPlayer, check_log_replays, choose
from .processes import ServerProcess
from .test_two_processes import REDIS_URL, _redis_reason

SPEED = "1.5"  # game time runs 1.5× faster: bots react in about a second, matches last ~20 s
LEASE_S = "3"  # short, for the test; generous enough for a loaded machine
REFUSALS = (200, 409, 422)  # an answer a race explains; never 5xx
WS_REFUSALS = ("illegal", "stale", "finished", "rate_limited")


@pytest.fixture
def redis_url() -> str:
    reason = _redis_reason()
    if reason:
        pytest.skip(reason)
    return REDIS_URL


def _env(redis_url: str, **more: str) -> dict[str, str]:
    return {"REDIS_URL": redis_url, "POTLUCK_LEASE_S": LEASE_S, "POTLUCK_CLOCK_SPEED": SPEED,
            "POTLUCK_PRESENCE_EVERY_S": "1", **more}


@dataclass
class Cluster:
    """The server processes, and which of them the test has killed."""

    servers: list[ServerProcess]
    dead: set[int] = field(default_factory=set)
    acks: dict[str, dict[int, tuple[int, dict]]] = field(default_factory=dict)  # match → seq → (seat, action)

    def alive(self) -> list[ServerProcess]:
        return [s for i, s in enumerate(self.servers) if i not in self.dead]

    def is_dead(self, server: ServerProcess) -> bool:
        return self.servers.index(server) in self.dead

    def kill(self, index: int) -> None:
        self.dead.add(index)  # first: a request failing from now on is the kill's doing
        self.servers[index].kill()

    def ack(self, match_id: str, seq: int, seat: int, action: dict) -> None:
        book = self.acks.setdefault(match_id, {})
        assert seq not in book, f"two actions acknowledged with seq {seq} in {match_id}"
        book[seq] = (seat, action)

    def stop(self) -> None:
        for server in self.servers:
            server.kill()


async def rest_player(cluster: Cluster, match_id: str, seat: int, token: str, rng: random.Random,
                      pause: tuple[float, float] = (0.1, 0.6)) -> None:
    """Play over REST until the match ends, each request through a live process at
    random; a request cut short by the test's kill is simply not acknowledged."""
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(timeout=30) as client:
        while True:
            server = rng.choice(cluster.alive())
            try:
                r = await client.get(f"{server.url}/api/matches/{match_id}/view", headers=headers)
                assert r.status_code == 200, r.text
                v = r.json()
                if v["status"] == "finished":
                    return
                if not v["legal"]:
                    await asyncio.sleep(0.05)
                    continue
                await asyncio.sleep(rng.uniform(*pause))
                action = choose(rng, v["legal"], v["view"], sharp=0.5)
                r = await client.post(f"{server.url}/api/matches/{match_id}/actions", json={"action": action},
                                      headers=headers)
            except httpx.TransportError:
                if cluster.is_dead(server):
                    continue
                raise
            assert r.status_code in REFUSALS, f"{server.url}: {r.status_code} {r.text}"
            if r.status_code == 200:
                cluster.ack(match_id, r.json()["seq"], seat, action)


async def ws_player(cluster: Cluster, match_id: str, seat: int, token: str, rng: random.Random) -> None:
    """Play over a WebSocket to a live process at random until the match ends; when that
    process is killed, connect to another one and play on."""
    while True:
        server = rng.choice(cluster.alive())
        try:
            p = await WsPlayer.connect(server.ws_url, match_id, token)
        except OSError:
            if cluster.is_dead(server):
                continue
            raise
        try:
            if await _play_on(cluster, p, match_id, seat, rng):
                return
        except (ConnectionError, websockets.ConnectionClosed, asyncio.TimeoutError):
            if not cluster.is_dead(server):
                raise
        finally:
            await p.close()


async def _play_on(cluster: Cluster, p: WsPlayer, match_id: str, seat: int, rng: random.Random) -> bool:
    seen = -1
    while True:
        state = await p.wait(lambda: p.states and p.state["seq"] > seen and p.state, timeout=60)
        seen = state["seq"]
        if state["status"] == "finished":
            return True
        if not state["legal"]:
            continue
        await asyncio.sleep(rng.uniform(0.1, 0.6))
        action = choose(rng, state["legal"], state["view"], sharp=0.5)
        reply = await p.act(action)
        if reply["type"] == "ack":
            cluster.ack(match_id, reply["seq"], seat, action)
        else:
            assert reply["code"] in WS_REFUSALS, reply
            seen -= 1 if reply["code"] == "rate_limited" else 0


async def metrics(server: ServerProcess, labels: bool = False) -> dict[str, float]:
    """The process's counters and gauges, summed over their labels (unless ``labels``)."""
    async with httpx.AsyncClient(timeout=10) as client:
        text = (await client.get(f"{server.url}/metrics")).text
    out: dict[str, float] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name = line.rsplit(" ", 1)[0] if labels else line.split("{")[0].split()[0]
            out[name] = out.get(name, 0.0) + float(line.split()[-1])
    return out


async def total(cluster: Cluster, name: str) -> float:
    return sum([(await metrics(s)).get(name, 0.0) for s in cluster.alive()])


async def until(condition: Any, timeout: float, what: str, every: float = 0.1) -> float:
    """Wait for ``await condition()`` to be true; returns the seconds it took."""
    started = time.monotonic()
    while not await condition():
        assert time.monotonic() - started < timeout, f"not within {timeout} s: {what}"
        await asyncio.sleep(every)
    return time.monotonic() - started


async def _seq(server: ServerProcess, match_id: str) -> int:
    async with httpx.AsyncClient(timeout=10) as client:
        return (await client.get(f"{server.url}/api/matches/{match_id}/view")).json()["seq"]


async def _check_logs(cluster: Cluster, match_ids: list[str]) -> None:
    """Each log replays (no gap) to the view every live process serves, and holds every
    acknowledged action at its seq."""
    server = cluster.alive()[0]
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        api = Api(client)
        for match_id in match_ids:
            final = await api.view(match_id)
            log = await check_log_replays(api, match_id, final["view"])
            logged = {a["seq"]: (a["seat"], a["action"]) for a in log["actions"]}
            lost = {seq: a for seq, a in cluster.acks.get(match_id, {}).items() if logged.get(seq) != a}
            assert not lost, f"acknowledged but not in the log of {match_id}: {lost}"
            for other in cluster.alive()[1:]:
                async with httpx.AsyncClient(base_url=other.url, timeout=30) as c2:
                    assert (await Api(c2).view(match_id))["view"] == final["view"]


async def test_the_owner_of_several_matches_dies_mid_play_and_the_others_carry_on(
        postgres_url: str, redis_url: str, tmp_path: Path) -> None:
    cluster = Cluster([ServerProcess(postgres_url, tmp_path / n, **_env(redis_url)) for n in "abc"])
    rng = random.Random(15)
    try:
        owner = cluster.servers[0]
        async with httpx.AsyncClient(base_url=owner.url, timeout=30) as client:
            api = Api(client)  # created and started through a: a owns them all
            matches = {"humans and a bot": await api.seated(players=3, bots=1),
                       "bots only": await api.seated(players=3, bots=3),
                       "humans only": await api.seated(players=2),
                       "one slow human and bots": await api.seated(players=3, bots=2)}
        ids = [match_id for match_id, _ in matches.values()]
        players = []
        for name, (match_id, tokens) in matches.items():
            for seat, token in enumerate(tokens):
                if name == "one slow human and bots":  # mostly idle: its throw timer moves the match
                    players.append(rest_player(cluster, match_id, seat, token, rng, pause=(1.0, 4.0)))
                elif seat % 2:
                    players.append(ws_player(cluster, match_id, seat, token, rng))
                else:
                    players.append(rest_player(cluster, match_id, seat, token, rng))
        playing = asyncio.gather(*players)
        try:
            async def mid_play() -> bool:
                return all([await _seq(owner, m) >= 3 for m in ids])

            await until(mid_play, 120, "every match under way")
            before = [await metrics(s) for s in cluster.servers]
            a = await _process(owner)
            assert await _owners(postgres_url, ids) == {m: a for m in ids}, "the process that started them owns them"
            assert sum(m["potluck_duplicate_work_refused_total"] for m in before) == 0, \
                f"steady state: no duplicates {[await metrics(s, labels=True) for s in cluster.servers]}"
            assert sum(m["potluck_duplicate_work_avoided_total"] for m in before[1:]) > 0
            seqs = {m: await _seq(owner, m) for m in ids}

            cluster.kill(0)
            survivors = {await _process(s) for s in cluster.alive()}

            async def taken_over() -> bool:  # every match finished, or driven by a survivor
                owners = await _owners(postgres_url, ids)
                return all([owners[m] in survivors or await _finished(cluster, m) for m in ids])

            takeover_s = await until(taken_over, 60, "the dead owner's matches taken over")
            after_takeover = await total(cluster, "potluck_duplicate_work_refused_total")
            owned = [(await metrics(s))["potluck_matches_owned"] for s in cluster.alive()]
            print(f"\ntakeover after SIGKILL: {takeover_s:.1f} s (lease {LEASE_S} s); matches owned by the "
                  f"survivors: {owned}; duplicates refused during the takeover: {after_takeover:.0f}")

            async def moved_on() -> bool:  # (or had finished at the kill)
                return all([await _seq(cluster.alive()[0], m) > seqs[m] or await _finished(cluster, m) for m in ids])

            await until(moved_on, 60, "every match moved on after the kill")
            await asyncio.wait_for(playing, 240)
        finally:
            playing.cancel()
            await asyncio.gather(playing, return_exceptions=True)

        async def finished() -> bool:  # the all-bot match: nobody plays it
            async with httpx.AsyncClient(base_url=cluster.alive()[0].url, timeout=30) as client:
                return all([(await Api(client).view(m))["status"] == "finished" for m in ids])

        await until(finished, 240, "every match finished")
        await _check_logs(cluster, ids)
        refused = await total(cluster, "potluck_duplicate_work_refused_total")
        assert refused == after_takeover, ("steady state after the takeover: a timeout or a bot move was made twice: "
                                           f"{[await metrics(s, labels=True) for s in cluster.alive()]}")
        assert await total(cluster, "potluck_leases_taken_over_total") >= 1
    finally:
        cluster.stop()


async def test_every_process_killed_one_restarted_finishes_an_all_bot_match_nobody_opens(
        postgres_url: str, redis_url: str, tmp_path: Path) -> None:
    env = _env(redis_url)
    cluster = Cluster([ServerProcess(postgres_url, tmp_path / n, **env) for n in "ab"])
    try:
        async with httpx.AsyncClient(base_url=cluster.servers[1].url, timeout=30) as client:
            match_id = await Api(client).create(players=4, bots=4)
        cluster.kill(0)
        cluster.kill(1)
        cluster.servers.append(ServerProcess(postgres_url, tmp_path / "c", **env))
        async with httpx.AsyncClient(base_url=cluster.servers[2].url, timeout=30) as client:
            async def listed() -> dict:
                page = (await client.get("/api/matches", params={"limit": 100})).json()
                return next(m for m in page["items"] if m["id"] == match_id)

            async def finished() -> bool:
                return (await listed())["status"] == "finished"

            assert (await listed())["status"] == "running"
            await until(finished, 240, "the all-bot match finished", every=0.5)
            log = (await Api(client).log(match_id)).json()
        assert [a["seq"] for a in log["actions"]] == list(range(1, len(log["actions"]) + 1))
        assert log["result"]["winners"]
    finally:
        cluster.stop()


class RedisLink:
    """A TCP relay between one process and Redis that the test can cut (every connection
    dropped, new ones refused) and heal: a network partition between the two."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.cut = False
        self.pipes: set[asyncio.StreamWriter] = set()
        self.server: asyncio.Server | None = None

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        return f"redis://127.0.0.1:{self.server.sockets[0].getsockname()[1]}/0"

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.cut:
            writer.close()
            return
        up_reader, up_writer = await asyncio.open_connection(*self.target)
        self.pipes |= {writer, up_writer}

        async def pump(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                dst.close()

        await asyncio.gather(pump(reader, up_writer), pump(up_reader, writer))

    def sever(self) -> None:
        self.cut = True
        for pipe in self.pipes:
            pipe.close()
        self.pipes.clear()

    def heal(self) -> None:
        self.cut = False

    async def stop(self) -> None:
        self.sever()
        if self.server:
            self.server.close()


async def test_an_owner_cut_off_from_redis_does_not_fork_its_match(
        postgres_url: str, redis_url: str, tmp_path: Path) -> None:
    host, port = redis_url.split("//")[1].split("/")[0].split(":")
    link = RedisLink((host, int(port)))
    owner_url = await link.start()
    cluster = Cluster([ServerProcess(postgres_url, tmp_path / "a", **_env(owner_url)),
                       *(ServerProcess(postgres_url, tmp_path / n, **_env(redis_url)) for n in "bc")])
    rng = random.Random(16)
    try:
        async with httpx.AsyncClient(base_url=cluster.servers[0].url, timeout=30) as client:
            match_id, tokens = await Api(client).seated(players=3, bots=1)
        others = Cluster(cluster.servers[1:], acks=cluster.acks)  # the players use b and c only
        playing = asyncio.gather(rest_player(others, match_id, 0, tokens[0], rng),
                                 ws_player(others, match_id, 1, tokens[1], rng))
        try:
            await until(lambda: _at_least(cluster.servers[1], match_id, 4), 120, "the match under way")
            link.sever()
            cut_seq = await _seq(cluster.servers[1], match_id)
            await until(lambda: _at_least(cluster.servers[1], match_id, cut_seq + 8), 120,
                        "play goes on during the partition")
            healed_seq = await _seq(cluster.servers[1], match_id)
            link.heal()
            await asyncio.wait_for(playing, 240)
        finally:
            playing.cancel()
            await asyncio.gather(playing, return_exceptions=True)
        await _check_logs(cluster, [match_id])
        async with httpx.AsyncClient(base_url=cluster.servers[1].url, timeout=30) as client:
            log = (await Api(client).log(match_id)).json()
        during = [a for a in log["actions"] if cut_seq < a["seq"] <= healed_seq]
        assert any(a["seat"] in (2, None) for a in during), "the owner stopped driving during the partition"
        assert sum([(await metrics(s))["potluck_duplicate_work_refused_total"] for s in cluster.servers]) == 0
    finally:
        cluster.stop()
        await link.stop()


async def _at_least(server: ServerProcess, match_id: str, seq: int) -> bool:
    return await _seq(server, match_id) >= seq


async def _process(server: ServerProcess) -> str:
    async with httpx.AsyncClient(timeout=10) as client:
        return (await client.get(f"{server.url}/healthz")).json()["process"]


async def _owners(postgres_url: str, ids: list[str]) -> dict[str, str | None]:
    import asyncpg

    conn = await asyncpg.connect(postgres_url.replace("+asyncpg", "", 1), timeout=10)
    try:
        rows = await conn.fetch("SELECT match_id, owner FROM match_owners WHERE match_id = ANY($1)", ids)
    finally:
        await conn.close()
    return {m: None for m in ids} | {r["match_id"]: r["owner"] for r in rows}


async def _finished(cluster: Cluster, match_id: str) -> bool:
    async with httpx.AsyncClient(timeout=10) as client:
        r = await client.get(f"{cluster.alive()[0].url}/api/matches/{match_id}")
        return r.json()["status"] == "finished"
