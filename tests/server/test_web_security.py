"""What a browser is told to protect players with, and who may watch the server:
security headers on every answer (no inline script may run; no framing by other sites),
no inline script in any page, WebSockets only from the server's own pages or the allowed
origins, seat tokens redacted from logs however the query spells ``token``, and
``/metrics`` kept to this machine (or a token)."""

from __future__ import annotations

import json
import logging
import re

import httpx
import pytest
import websockets
from websockets.exceptions import InvalidStatus

from server.api.origins import allowed_list, origin_allowed
from server.app import RedactTokens
from server.folders import shipped

from .clients import Api
from .conftest import serve

SLOW = {"roll_timeout_ms": 120_000, "round_timeout_ms": 600_000}


async def test_every_answer_carries_the_security_headers(api: Api, served) -> None:
    match_id = await api.create(players=2)
    for path in ("/", f"/matches/{match_id}", "/games/nutty-noodles/rules", "/api/games", "/api/matches/nope",
                 "/static/js/client.js", "/healthz"):
        r = await api.client.get(path)
        assert r.headers["x-content-type-options"] == "nosniff", path
        assert r.headers["referrer-policy"] == "same-origin", path
        csp = dict(part.strip().split(" ", 1) for part in r.headers["content-security-policy"].split(";"))
        assert csp["script-src"] == "'self'", path  # no 'unsafe-inline', no 'unsafe-eval'
        assert csp["frame-ancestors"] == "'self'" and csp["object-src"] == "'none'", path
        host = served.url.split("//")[1]
        assert f"ws://{host}" in csp["connect-src"], path
    docs = await api.client.get("/docs")  # FastAPI's reference page: its CDN script must still load
    assert docs.headers["content-security-policy"] == "frame-ancestors 'self'"


def test_no_page_has_an_inline_script() -> None:
    """A CSP without 'unsafe-inline' would block it: every script is a file under /static
    (JSON data blocks are not run), and no element has an on…= handler."""
    for template in (shipped("web") / "templates").glob("*.html"):
        html = template.read_text()
        for attributes, body in re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S):
            assert "src=" in attributes or 'type="application/json"' in attributes, (template.name, attributes)
            assert "src=" not in attributes or not body.strip(), template.name
        assert not re.search(r"\son[a-z]+\s*=", html), template.name


def test_origins() -> None:
    allowed = allowed_list(" https://play.example.com/ ,http://localhost:3000")
    assert origin_allowed(None, "potluck.lan:8000", frozenset())  # not a browser
    assert origin_allowed("http://potluck.lan:8000", "potluck.lan:8000", frozenset())
    assert origin_allowed("https://Potluck.lan", "potluck.lan", frozenset())
    assert origin_allowed("http://potluck.lan", "potluck.lan:80", frozenset())
    assert not origin_allowed("http://potluck.lan:8001", "potluck.lan:8000", frozenset())
    assert not origin_allowed("https://evil.example", "potluck.lan", frozenset())
    assert not origin_allowed("null", "potluck.lan", frozenset())
    assert not origin_allowed("http://potluck.lan:x", "potluck.lan", frozenset())
    assert origin_allowed("https://play.example.com", "potluck.lan", allowed)
    assert not origin_allowed("https://play.example.com.evil", "potluck.lan", allowed)


async def test_websockets_from_other_sites_are_refused_before_accepting(tmp_path) -> None:
    async with serve(f"sqlite:///{tmp_path / 'db.sqlite'}", allowed_origins="https://friends.example") as served, \
            httpx.AsyncClient(base_url=served.url) as client:
        match_id = await Api(client).create(players=2)
        url = f"{served.ws_url}/ws/matches/{match_id}"
        with pytest.raises(InvalidStatus) as refused:
            await websockets.connect(url, origin="https://evil.example")
        assert refused.value.response.status_code == 403
        assert json.loads(refused.value.response.body)["code"] == "forbidden"
        assert served.runtime.limits.sockets.count == 0
        for origin in (served.url, "https://friends.example", None):  # its own pages, the allowed, not a browser
            ws = await websockets.connect(url, origin=origin)
            assert json.loads(await ws.recv())["type"] == "match"
            await ws.close()


async def test_an_encoded_token_parameter_authenticates_and_is_redacted(api: Api, served) -> None:
    match_id, tokens = await api.seated(players=2, **SLOW)
    async with websockets.connect(f"{served.ws_url}/ws/matches/{match_id}?tok%65n={tokens[0]}") as ws:
        state = json.loads(await ws.recv())
        assert state["type"] == "state" and state["view"]["you"] is not None  # a seat, not a spectator
    record = logging.LogRecord("uvicorn.error", logging.INFO, __file__, 1, '%s - "WebSocket %s" [accepted]',
                               ("127.0.0.1:5", f"/ws/matches/{match_id}?tok%65n={tokens[0]}"), None)
    RedactTokens().filter(record)
    assert tokens[0] not in record.getMessage() and "tok%65n=***" in record.getMessage()
    for query in (f"token={tokens[0]}", f"a=1&%74oken={tokens[0]}&b=2", f"TOKEN={tokens[0]}",
                  f"tok%2565n={tokens[0]}"):
        record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, "%s", (f"/ws?{query}",), None)
        RedactTokens().filter(record)
        assert tokens[0] not in record.getMessage(), query
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "%s", ("/api/matches?game=snollygoster",), None)
    RedactTokens().filter(record)
    assert record.getMessage() == "/api/matches?game=snollygoster"


async def test_metrics_are_for_this_machine_or_a_token(tmp_path) -> None:
    async with serve(f"sqlite:///{tmp_path / 'db.sqlite'}") as served:
        async with httpx.AsyncClient(base_url=served.url) as local:
            assert (await local.get("/metrics")).status_code == 200  # loopback: open by default
    async with serve(f"sqlite:///{tmp_path / 'db.sqlite'}", metrics_allow="127.0.0.1/32",
                     metrics_token="s3cret") as served:
        other = httpx.AsyncHTTPTransport(local_address="127.0.0.2")  # another machine, as far as it knows
        async with httpx.AsyncClient(base_url=served.url, transport=other) as remote:
            r = await remote.get("/metrics")
            assert (r.status_code, r.json()["code"]) == (403, "forbidden")
            assert (await remote.get("/metrics", headers={"Authorization": "Bearer nope"})).status_code == 403
            r = await remote.get("/metrics", headers={"Authorization": "Bearer s3cret"})
            assert r.status_code == 200 and "potluck_live_matches" in r.text
        async with httpx.AsyncClient(base_url=served.url) as local:
            assert (await local.get("/metrics")).status_code == 200
