"""The lobby over REST: the catalogue, creating with bots, joining until the match
starts, the public summary, listing with filters and paging; and operations: health,
metrics, the OpenAPI document, ``potluck migrate`` and ``potluck serve``."""

from __future__ import annotations

import json
import logging
import subprocess
import sys

import httpx
import websockets.sync.client

from server.store.migrate import head_revision

from .clients import Api
from .conftest import Served
from .processes import REPO, ServerProcess


async def test_catalogue_lists_games_with_their_option_schemas(api: Api) -> None:
    games = {g["id"]: g for g in (await api.client.get("/api/games")).json()}
    noodles = games["nutty-noodles"]
    assert (noodles["min_players"], noodles["max_players"]) == (2, 4)
    assert noodles["options"]["properties"]["mode"]["default"] == "basic"


async def test_create_join_start_and_summaries(api: Api, served: Served) -> None:
    r = await api.client.post("/api/matches", json={"game": "nutty-noodles", "players": 3, "bots": 1,
                                                    "options": {"mode": "advanced"}})
    assert r.status_code == 201
    match_id = r.json()["id"]
    summary = r.json()["match"]
    assert (summary["status"], summary["open_seats"], summary["options"]["mode"]) == ("open", 2, "advanced")
    assert [(s["seat"], s["bot"]) for s in summary["seats"]] == [(2, True)]
    view = await api.view(match_id)
    assert (view["status"], view["view"], view["legal"], view["seq"]) == ("open", None, [], 0)

    assert (await api.join(match_id, "Ann"))[0] == 0
    r = await api.client.post(f"/api/matches/{match_id}/join", json={"name": " Bob  Smith "})
    joined = r.json()
    assert joined["seat"] == 1 and joined["match"]["status"] == "running"
    assert joined["match"]["seats"][1]["name"] == "Bob Smith" and "token" not in str(joined["match"])
    view = await api.view(match_id, joined["token"])
    assert view["seat"] == 1 and view["view"]["you"] == 1 and view["seq"] == 0 and view["deadline"]
    summary = (await api.client.get(f"/api/matches/{match_id}")).json()
    assert summary["status"] == "running" and summary["seq"] == 0 and "seed" not in summary

    listed = (await api.client.get("/api/matches", params={"status": "running", "game": "nutty-noodles"})).json()
    assert match_id in [m["id"] for m in listed["items"]]
    assert all(m["status"] == "running" for m in listed["items"])
    assert match_id not in [m["id"] for m in
                            (await api.client.get("/api/matches", params={"status": "open"})).json()["items"]]
    page = (await api.client.get("/api/matches", params={"limit": 1, "offset": 0})).json()
    assert page["limit"] == 1 and len(page["items"]) == 1 and page["total"] >= 1


async def test_health_metrics_and_openapi(api: Api) -> None:
    assert (await api.client.get("/healthz")).json()["status"] == "ok"
    match_id, tokens = await api.seated(players=2)
    thrower = (await api.view(match_id))["view"]["thrower"]
    assert (await api.act(match_id, tokens[thrower], {"type": "roll"})).status_code == 200
    metrics = (await api.client.get("/metrics")).text
    for name in ("potluck_live_matches", "potluck_sockets", "potluck_actions_applied_total",
                 "potluck_action_latency_seconds_bucket", "potluck_seq_conflicts_total"):
        assert name in metrics
    assert 'potluck_actions_applied_total{source="player"} 1.0' in metrics
    schema = (await api.client.get("/openapi.json")).json()
    for path in ("/api/games", "/api/matches", "/api/matches/{match_id}", "/api/matches/{match_id}/join",
                 "/api/matches/{match_id}/view", "/api/matches/{match_id}/actions", "/api/matches/{match_id}/log",
                 "/api/matches/{match_id}/rematch"):
        assert path in schema["paths"], path
    assert "ActionRequest" in schema["components"]["schemas"]
    assert (await api.client.get("/docs")).status_code == 200


def test_potluck_migrate_creates_the_default_sqlite_file_from_any_directory(tmp_path) -> None:
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)}
    out = subprocess.run([sys.executable, "-m", "server.cli", "migrate"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert f"revision {head_revision()}" in out.stdout and (tmp_path / "data" / "potluck.db").is_file()
    bad = subprocess.run([sys.executable, "-m", "server.cli", "migrate"], cwd=tmp_path, timeout=60,
                         env={**env, "DATABASE_URL": "postgresql://nobody@127.0.0.1:1/none"},
                         capture_output=True, text=True)
    assert bad.returncode == 1 and "potluck migrate:" in bad.stderr and "Traceback" not in bad.stderr


def test_potluck_serve_prints_its_url_and_serves(tmp_path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'db.sqlite'}", tmp_path / "run")
    try:
        assert f"Potluck: http://127.0.0.1:{server.port}/" in server.output()
        assert httpx.get(f"{server.url}/api/games").status_code == 200
        match_id = httpx.post(f"{server.url}/api/matches", json={"game": "nutty-noodles", "players": 2}).json()["id"]
        token = httpx.post(f"{server.url}/api/matches/{match_id}/join", json={"name": "Ann"}).json()["token"]
        with websockets.sync.client.connect(f"{server.ws_url}/ws/matches/{match_id}?token={token}") as ws:
            assert json.loads(ws.recv())["type"] == "match"
    finally:
        server.stop()  # SIGTERM: a graceful shutdown (uvicorn then re-raises the signal)
    assert "Application shutdown complete" in server.output()
    assert "token=***" in server.output() and token not in server.output(), "a seat token reached the log"


def test_tokens_are_redacted_from_every_form_of_log_record() -> None:
    from server.app import RedactTokens

    def record(msg: str, args: object) -> logging.LogRecord:
        return logging.LogRecord("uvicorn.error", logging.INFO, "", 0, msg, args, None)

    records = [record('%s "%s"', ("1.2.3.4", "GET /ws?token=s3cret")),  # uvicorn's access log
               record("%(path)s", ({"path": "/ws?token=s3cret"},)),
               record("GET /ws?token=s3cret&x=1", None)]
    for record in records:
        assert RedactTokens().filter(record)
        assert "s3cret" not in record.getMessage() and "token=***" in record.getMessage()
