"""Schemathesis against ``/openapi.json``: requests generated from the API's own
description, valid and invalid, aimed now at random ids, now at a real running or
waiting match with a real seat token; half of them signed in (a session cookie of an
account seated in the running match, from one of the server's own pages), so the
account, passkey and "your tables" operations are explored past their 401. Every answer is below 500, and an answer that
refuses (4xx) leaves the database exactly as it was.

Schemathesis sends JSON its own encoder writes, so a second fuzzer sends raw bodies:
JSON text with what only Python reads (``NaN``, ``Infinity``, ``1e999``, lone
surrogates, deep nesting) and bytes that are not UTF-8, to every operation with a body.

Bounded for CI: ``MAX_EXAMPLES`` requests per operation (about a dozen operations)."""

from __future__ import annotations

import json
import zlib

import httpx
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.app import create_app
from server.config import Settings

from .conftest import Target

MAX_EXAMPLES = 40

# the description the server publishes, built without starting one (no database needed)
schema = schemathesis.openapi.from_dict(create_app(Settings(database_url="sqlite://")).openapi())


def _aim(case: schemathesis.Case, target: Target) -> None:
    """Sign half the cases in; point a third of the cases that name a match at the running
    one (with a seat's token) and a third at the waiting one; which, from the case's own
    content, so a failing example replays the same."""
    crc = zlib.crc32(repr((case.method, case.path, case.path_parameters, case.query, case.body)).encode())
    if crc & 1:
        case.headers = {**(case.headers or {}), "Cookie": f"potluck_session={target.session()}",
                        "Origin": target.url}
    if "match_id" not in (case.path_parameters or {}):
        return
    pick = (crc >> 1) % 3
    if pick == 0:
        case.path_parameters["match_id"] = target.running
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {target.tokens[pick % 2]}"}
    elif pick == 1:
        case.path_parameters["match_id"] = target.open


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_no_server_error_and_no_change_when_refused(case: schemathesis.Case, target: Target) -> None:
    _aim(case, target)
    before = target.fingerprint()
    response = case.call(base_url=target.url, timeout=20)
    assert response.status_code < 500, (case.method, case.formatted_path, case.body, response.text)
    if 400 <= response.status_code < 500:
        assert target.fingerprint() == before, (case.method, case.formatted_path, case.body, response.text)


JSON_ATOMS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False),
                       st.text(max_size=20), st.sampled_from(["roll", "place", "chat", "Ann"]))
HOSTILE_ATOMS = ["NaN", "-Infinity", "Infinity", "1e999", '"\\ud800"', '"x\\udfff"', "9" * 5000,
                 "[" * 40 + "]" * 40]


def _json_text(value: object, hostile: list[str]) -> str:
    """``value`` as JSON text, with ``"@@"`` strings replaced by the hostile atoms in turn."""
    text = json.dumps(value)
    for atom in hostile:
        text = text.replace('"@@"', atom, 1)
    return text


HOLE = st.just("@@")  # where a hostile atom goes
FIELDS = st.sampled_from(["action", "type", "name", "text", "game", "players", "bots", "options", "expect_seq", "x"])
VALUES = st.recursive(st.one_of(HOLE, HOLE, JSON_ATOMS),
                      lambda inner: st.one_of(st.lists(inner, max_size=3),
                                              st.dictionaries(FIELDS, inner, max_size=3),
                                              st.builds(lambda v: {"type": "roll", "x": v}, inner)),
                      max_leaves=8)
BODIES = st.one_of(
    st.builds(_json_text, st.dictionaries(FIELDS, VALUES, min_size=1, max_size=4),
              st.lists(st.sampled_from(HOSTILE_ATOMS), min_size=1, max_size=3)).map(str.encode),
    st.binary(max_size=64).map(lambda b: b'{"name": "' + b + b'", "text": "' + b + b'"}'),
)
POSTS = ["/api/matches", "/api/matches/{open}/join", "/api/matches/{running}/actions",
         "/api/matches/{running}/chat", "/api/matches/{running}/rematch"]


@given(path=st.sampled_from(POSTS), body=BODIES, seat=st.sampled_from([None, 0, 1]))
@settings(max_examples=MAX_EXAMPLES * 3, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_raw_bodies_are_refused_cleanly(target: Target, path: str, body: bytes, seat: int | None) -> None:
    headers = {"Content-Type": "application/json"}
    if seat is not None:
        headers["Authorization"] = f"Bearer {target.tokens[seat]}"
    before = target.fingerprint()
    r = httpx.post(target.url + path.format(open=target.open, running=target.running), content=body,
                   headers=headers, timeout=20)
    assert r.status_code < 500, (path, body, r.text)
    if r.status_code >= 400:
        assert r.json()["code"], r.text
        assert target.fingerprint() == before, (path, body, r.text)
