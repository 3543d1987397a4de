"""Issue 23, the second red team and the faults of the services: one test per finding of
the store and the API, named after it (the runtime's findings are in
``test_runtime_faults``, ``test_slow_sockets`` and ``test_limits``)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from server.api.replays import Replays
from server.app import RedactTokens
from server.store import ChatRecord

from .clients import Api, answer
from .conftest import Served, serve
from .disks import fill, small_disk
from .processes import REPO, ServerProcess
from .stored import stored_match


async def test_history_offset_past_a_64_bit_integer_is_422_not_500(api: Api) -> None:
    """Finding 11: ``?offset=9223372036854775808`` overflowed the database's integer."""
    for offset in ("9223372036854775808", "9223372036854775807", "1000000001"):
        r = await api.client.get("/api/players/Ann/matches", params={"offset": offset})
        assert (r.status_code, r.json()["code"]) == (422, "invalid"), (offset, r.text)
    assert (await api.client.get("/api/players/Ann/matches", params={"offset": 1_000_000_000})).status_code == 200


async def test_history_does_not_count_matches_that_never_started(api: Api, served: Served) -> None:
    """Finding 13: a table whose seats never filled ends unplayed; it is nobody's history."""
    name = f"Una {secrets.token_hex(4)}"
    match_id = await api.create(players=2)
    await api.join(match_id, name)
    ended = await served.runtime.store.expire_unfilled(2**62, 1, {"reason": "nobody came"})
    assert match_id in ended
    page = (await api.client.get(f"/api/players/{name}/matches")).json()
    assert (page["total"], page["items"]) == (0, [])
    assert (await api.client.get(f"/api/players/{name}")).json()["played"] == 0


def test_a_seat_token_under_a_name_that_does_not_authenticate_is_redacted_from_logs() -> None:
    """Finding 13: ``?t=<token>`` or ``?seat=<token>`` reached the log in clear."""
    token = secrets.token_urlsafe(32)
    for query in (f"t={token}", f"seat={token}&legal=delta", f"tok={token}", f"key={token}"):
        record = logging.LogRecord("uvicorn.error", logging.INFO, __file__, 1, '%s - "WebSocket %s" [accepted]',
                                   ("127.0.0.1:5", f"/ws/matches/abc?{query}"), None)
        RedactTokens().filter(record)
        assert token not in record.getMessage(), query
    kept = "/ws/matches/Xy3_abcdefgh?legal=delta&game=rival-restaurants"
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "%s", (kept,), None)
    RedactTokens().filter(record)
    assert record.getMessage() == kept


class Freezer:
    """A TCP relay in front of PostgreSQL that can stop relaying, as a frozen (SIGSTOPped)
    server looks from outside: connections open and stay open, nothing answers; on thaw
    everything held is relayed."""

    def __init__(self, database_url: str) -> None:
        self.url = make_url(database_url)
        self.thawed = asyncio.Event()
        self.thawed.set()
        self.server: asyncio.Server | None = None

    async def __aenter__(self) -> "Freezer":
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        return self

    async def __aexit__(self, *_: object) -> None:
        self.thawed.set()
        assert self.server is not None
        self.server.close()

    @property
    def database_url(self) -> str:
        assert self.server is not None
        port = self.server.sockets[0].getsockname()[1]
        return self.url.set(host="127.0.0.1", port=port).render_as_string(hide_password=False)

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(self.url.host, self.url.port or 5432)
        await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer), return_exceptions=True)

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                await self.thawed.wait()
                writer.write(data)
                await writer.drain()
        finally:
            writer.close()


def only_503_with_retry_after(answers: list[Any]) -> list[httpx.Response]:
    """The answers, each asserted to be no 5xx but a 503 with ``Retry-After``."""
    for i, r in enumerate(answers):
        assert isinstance(r, httpx.Response), f"no answer to #{i}: {r!r}"
        assert r.status_code < 500 or (r.status_code == 503 and r.headers.get("retry-after")), (r.status_code, r.text)
    return answers


async def test_a_database_frozen_past_the_pool_timeout_answers_503_with_retry_after_not_500(postgres_url: str) -> None:
    """Finding 2: a PostgreSQL frozen longer than the pool timeout gave plain 500s after 30 s,
    and ``/healthz`` hung. Now every wait is bounded (``store_timeout_s``) and ends in 503."""
    async with Freezer(postgres_url) as relay, serve(relay.database_url, store_timeout_s=1) as served:
        async with httpx.AsyncClient(base_url=served.url, timeout=20) as client:
            api = Api(client)
            match_id, tokens = await api.seated(players=2)
            thrower = (await api.view(match_id, tokens[0]))["view"]["thrower"]
            relay.thawed.clear()
            answers = await asyncio.gather(
                *(client.get(f"/api/matches/{match_id}") for _ in range(40)),
                api.act(match_id, tokens[thrower], {"type": "roll"}), client.get("/healthz"),
                client.post("/api/matches", json={"game": "nutty-noodles", "players": 2, "bots": 0, "options": {}}),
                return_exceptions=True)
            statuses = {r.status_code for r in only_503_with_retry_after(answers)}
            assert 503 in statuses
            health = await client.get("/healthz")
            assert health.status_code == 503 and health.headers["retry-after"], health.text
            relay.thawed.set()
            await until_healthy(client)
            r = await api.act(match_id, tokens[thrower], {"type": "roll"})
            assert r.status_code in (200, 409, 422), r.text  # played now, or the frozen attempt went through
            assert (await api.view(match_id))["seq"] == 1


async def until_healthy(client: httpx.AsyncClient, timeout: float = 20) -> None:
    async def wait() -> None:
        while (await client.get("/healthz")).status_code != 200:
            await asyncio.sleep(0.05)

    await asyncio.wait_for(wait(), timeout)


def sqlite_file(served: Served) -> Path:
    return Path(served.app.state.db.url.database)


async def test_the_sqlite_wal_is_checkpointed_and_kept_small(tmp_path: Path) -> None:
    """Finding 4: the WAL swallowed a nearly full disk (the whole database lived in it)."""
    async with serve(f"sqlite:///{tmp_path / 'potluck.db'}") as served:
        store = served.runtime.store
        record = await store.create_match(id="m1", game="nutty-noodles", options={}, players=2,
                                          bot_names=["A", "B"], seed=1, now=1)
        await asyncio.gather(*(store.add_chat(record.id, ChatRecord(0, "A", "y" * 5000, i)) for i in range(700)))
        wal = Path(f"{sqlite_file(served)}-wal")
        assert sqlite_file(served).stat().st_size > 2_000_000  # most of the chat reached the database…

        async def until_the_wal_is_cut_back() -> None:  # …and the WAL is cut back to 1 MiB as it restarts
            while wal.stat().st_size > 1 << 20:
                await store.add_chat(record.id, ChatRecord(0, "A", "a line", 0))
                await asyncio.sleep(0.2)

        await asyncio.wait_for(until_the_wal_is_cut_back(), 10)


async def test_healthz_is_503_with_the_reason_while_sqlite_writes_fail() -> None:
    """Finding 4: ``/healthz`` said 200 while every write was refused (a full disk), and the
    refused action answered 500. Now both are 503 (with the reason, and ``Retry-After``)."""
    with small_disk("3m") as disk:
        async with serve(f"sqlite:///{disk / 'potluck.db'}") as served:
            async with httpx.AsyncClient(base_url=served.url, timeout=20) as client:
                api = Api(client)
                match_id, tokens = await api.seated(players=2)
                thrower = (await api.view(match_id))["view"]["thrower"]
                filler = fill(disk)
                with contextlib.suppress(DBAPIError, sqlite3.Error):  # the WAL's room, then none
                    for i in range(20_000):
                        await served.runtime.store.add_chat(match_id, ChatRecord(0, "P0", "z" * 400, i))
                r = await api.act(match_id, tokens[thrower], {"type": "roll"})
                assert r.status_code == 503 and r.json()["code"] == "unavailable" and r.headers["retry-after"], r.text
                health = await client.get("/healthz")
                assert health.status_code == 503 and health.headers["retry-after"], health.text
                assert "full" in health.json()["reason"], health.text
                filler.unlink()
                assert (await api.act(match_id, tokens[thrower], {"type": "roll"})).status_code == 200
                assert (await client.get("/healthz")).status_code == 200


async def test_a_deleted_wal_is_noticed_and_writes_are_refused_with_503(tmp_path: Path) -> None:
    """Finding 5: the server acknowledged 30 s of writes into an unlinked ``-wal``; a crash
    then lost them. Now it refuses them (503), and what it acknowledged before is kept."""
    url = f"sqlite:///{tmp_path / 'potluck.db'}"
    async with serve(url) as served:
        async with httpx.AsyncClient(base_url=served.url, timeout=20) as client:
            api = Api(client)
            match_id, tokens = await api.seated(players=2)
            thrower = (await api.view(match_id))["view"]["thrower"]
            assert (await api.act(match_id, tokens[thrower], {"type": "roll"})).status_code == 200
            Path(f"{sqlite_file(served)}-wal").unlink()
            view = (await api.view(match_id))["view"]
            r = await api.act(match_id, tokens[0], answer(view) or {"type": "roll"})
            assert (r.status_code, r.json()["code"]) == (503, "unavailable") and r.headers["retry-after"], r.text
            r = await client.post("/api/matches", json={"game": "nutty-noodles", "players": 2, "bots": 0,
                                                        "options": {}})
            assert r.status_code == 503, r.text
            health = await client.get("/healthz")
            assert health.status_code == 503 and "restart" in health.json()["reason"], health.text
    with sqlite3.connect(tmp_path / "potluck.db") as conn:  # what was acknowledged reached the database
        assert conn.execute("SELECT count(*) FROM actions WHERE match_id = ?", (match_id,)).fetchone() == (1,)


def test_a_read_only_shm_left_behind_is_named_at_start_with_what_to_do(tmp_path: Path) -> None:
    """Finding 6: after the files were made read-only and writable again, the server could
    not start (``-shm``/``-wal`` left read-only) and its error named no file. As root, an
    immutable file (``chattr +i``) is what a read-only one is to anybody else."""
    if shutil.which("chattr") is None:
        pytest.skip("chattr is not installed")
    database = tmp_path / "potluck.db"
    sqlite3.connect(database).close()
    shm = Path(f"{database}-shm")
    shm.write_bytes(b"")
    if subprocess.run(["chattr", "+i", str(shm)], capture_output=True).returncode != 0:
        pytest.skip("this file system does not take chattr +i")
    try:
        with pytest.raises(RuntimeError) as failed:
            ServerProcess(f"sqlite:///{database}", tmp_path / "work")
    finally:
        subprocess.run(["chattr", "-i", str(shm)], check=True)
    said = str(failed.value)
    assert f"{shm} is not readable and writable" in said and "chmod u+rw" in said, said


def test_the_compose_stack_trusts_x_forwarded_for_only_from_its_proxy(tmp_path: Path) -> None:
    """Finding 9: ``FORWARDED_ALLOW_IPS: "*"`` and nginx appending to the client's own header
    let anyone choose their address (``/metrics`` read from anywhere, the limits per address
    bypassed). The replicas trust only the `front` network, which only the proxy shares, and
    nginx replaces the header with the address it saw."""
    compose = (REPO / "docker-compose.yml").read_text()
    trusted = re.search(r"FORWARDED_ALLOW_IPS: (\S+)", compose)[1]
    subnet = re.search(r"- subnet: (\S+)", compose)[1]
    assert trusted == subnet and "*" not in trusted
    services = compose.split("\nservices:\n", 1)[1].split("\nnetworks:\n", 1)[0]
    blocks = dict(re.findall(r"^  (\w+):\n((?:    .*\n|\s*\n)*)", services + "\n", re.M))
    on_front = {name for name, block in blocks.items() if re.search(r"networks: \[.*front", block)}
    assert set(blocks) == {"proxy", "potluck", "postgres", "redis"} and on_front == {"proxy", "potluck"}
    nginx = (REPO / "docker" / "nginx.conf").read_text()
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in nginx and "$proxy_add_x_forwarded_for" not in nginx

    # a replica so configured, reached from outside `front`: the client's header is ignored
    subnet_default = subnet.split(":-", 1)[-1].rstrip("}")
    server = ServerProcess(f"sqlite:///{tmp_path / 'potluck.db'}", tmp_path / "work",
                           FORWARDED_ALLOW_IPS=subnet_default, POTLUCK_METRICS_ALLOW="10.9.9.9/32")
    try:
        r = httpx.get(f"{server.url}/metrics", headers={"X-Forwarded-For": "10.9.9.9"}, timeout=10)
        assert r.status_code == 403, r.text
    finally:
        server.stop()


async def test_the_kept_replay_timelines_are_bounded_in_bytes(served: Served) -> None:
    """Finding 12: eight timelines were kept however long their logs (7,731 actions: 15 MB
    each). The cache counts what each keeps (``Timeline.weight``) and stays under its bound."""
    store = served.runtime.store
    long = await stored_match(store, "rival-restaurants", bots=3, seed=1)
    short = await stored_match(store, "nutty-noodles", bots=2, seed=2)
    probe = Replays(store)
    heavy = (await probe.timeline(await probe.finished(long))).weight
    light = (await probe.timeline(await probe.finished(short))).weight
    assert heavy > light > 0
    replays = Replays(store, size=8, max_bytes=heavy + light - 1)
    first = await replays.timeline(await replays.finished(long))
    assert await replays.timeline(await replays.finished(long)) is first  # kept…
    await replays.timeline(await replays.finished(short))
    assert replays.kept_bytes() <= heavy + light - 1  # …until both would weigh too much
    assert await replays.timeline(await replays.finished(long)) is not first
    alone = Replays(store, max_bytes=heavy - 1)  # one too heavy to keep is answered, not kept
    assert (await alone.timeline(await alone.finished(long))).steps > 0 and alone.kept_bytes() == 0
