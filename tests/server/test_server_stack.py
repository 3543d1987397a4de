"""The libraries chosen for speed are the ones really used: uvicorn's standard extras
(uvloop for the event loop, httptools for HTTP, the websockets library for WebSockets) and
orjson for the messages sockets receive."""

from __future__ import annotations

import json

from server.app import create_app, server_config
from server.config import Settings
from server.runtime import messages


def test_potluck_serve_runs_on_uvloop_and_httptools(tmp_path) -> None:
    config = server_config(create_app(Settings(database_url=f"sqlite:///{tmp_path / 'db.sqlite'}")), "127.0.0.1", 0)
    config.load()
    assert config.http_protocol_class.__name__ == "HttpToolsProtocol"
    assert config.ws_protocol_class.__module__.startswith("uvicorn.protocols.websockets.websockets")
    loop = config.get_loop_factory()()
    try:
        assert type(loop).__module__.startswith("uvloop")
    finally:
        loop.close()


def test_messages_are_compact_json_even_beyond_what_orjson_writes() -> None:
    patch = messages.patch_message(seq=2, prev_seq=1, ops=[{"op": "replace", "path": "/n", "value": 1}],
                                   legal=[], events=[], deadline=None, now=5, status="running", result=None)
    assert patch.startswith('{"type":"patch","seq":2,"prev_seq":1,') and json.loads(patch)["ops"][0]["value"] == 1
    huge = messages.state_message({"seq": 1, "view": {"n": 2**70, 3: "int key"}})  # orjson refuses 2**70
    assert json.loads(huge)["view"] == {"n": 2**70, "3": "int key"}


def test_potluck_serve_spaces_out_the_garbage_collector(tmp_path, monkeypatch) -> None:
    """``serve`` freezes what it built at start and raises the collector's thresholds
    (``server.runtime.collector``) before the server runs; the tests' own processes keep
    Python's defaults."""
    import gc

    import uvicorn

    from server import cli
    from server.runtime import collector, limits

    seen = {}

    def run(self: uvicorn.Server) -> None:
        seen["threshold"], seen["frozen"] = gc.get_threshold(), gc.get_freeze_count()

    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'db.sqlite'}")
    monkeypatch.setattr(uvicorn.Server, "run", run)
    monkeypatch.setattr(limits, "raise_open_file_limit", lambda: None)
    before = gc.get_threshold()
    try:
        cli.main(["serve", "--port", "0", "--no-access-log"])
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
    assert seen["threshold"] == (collector.YOUNG, collector.MIDDLE_AFTER, collector.FULL_AFTER) != before
    assert seen["frozen"] > 0
