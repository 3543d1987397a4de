"""JSON that Python reads but nobody should send — ``NaN``, ``Infinity``, ``1e999``, lone
surrogates, bodies that are not UTF-8, very deep nesting — and numbers past what the
database holds: a 4xx with ``{"detail", "code"}`` on every endpoint (before the token is
even looked at), an ``error`` on the WebSocket with the socket still open, and the match
untouched. A log poisoned before these checks existed is still published."""

from __future__ import annotations

import json

import httpx
import pytest
from sqlalchemy import update

from server.store.tables import MatchRow

from .clients import Api, WsPlayer

SLOW = {"roll_timeout_ms": 120_000, "round_timeout_ms": 600_000}

HOSTILE_VALUES = [b"NaN", b"Infinity", b"-Infinity", b"1e999", b'"\\ud800"', b'"a\\udfffb"']
NOT_UTF8 = b'{"name": "\xff\xfe"}'


def _problem(r: httpx.Response, *statuses: int) -> dict:
    assert r.status_code in statuses, (r.status_code, r.text)
    body = r.json()
    assert isinstance(body["detail"], str) and body["detail"], body
    assert isinstance(body["code"], str) and body["code"], body
    return body


async def test_unreadable_numbers_and_strings_are_refused_everywhere(api: Api) -> None:
    match_id, tokens = await api.seated(players=2, **SLOW)
    open_id = await api.create(players=2, **SLOW)
    before = await api.view(match_id, tokens[0])
    total = (await api.client.get("/api/matches")).json()["total"]  # the database may be shared
    auth = {"Authorization": f"Bearer {tokens[0]}", "Content-Type": "application/json"}
    anon = {"Content-Type": "application/json"}
    for value in HOSTILE_VALUES:
        bodies = [
            ("/api/matches", b'{"game": "nutty-noodles", "players": 2, "options": {"x": %s}}' % value, anon),
            ("/api/matches", b'{"game": %s, "players": 2}' % value, anon),
            (f"/api/matches/{open_id}/join", b'{"name": %s}' % value, anon),
            (f"/api/matches/{match_id}/actions", b'{"action": {"type": "roll", "x": %s}}' % value, auth),
            (f"/api/matches/{match_id}/actions", b'{"action": {"type": "roll"}, "expect_seq": %s}' % value, auth),
            (f"/api/matches/{match_id}/actions", b'{"action": {"type": "roll"}, "expect_seq": %s}' % value, anon),
            (f"/api/matches/{match_id}/chat", b'{"text": %s}' % value, auth),
        ]
        for path, body, headers in bodies:
            r = await api.client.post(path, content=body, headers=headers)
            _problem(r, 400, 422)
    for path in ("/api/matches", f"/api/matches/{open_id}/join", f"/api/matches/{match_id}/chat"):
        _problem(await api.client.post(path, content=NOT_UTF8, headers=auth), 400, 422)
    after = await api.view(match_id, tokens[0])
    assert (after["seq"], after["view"]) == (before["seq"], before["view"])
    assert (await api.client.get(f"/api/matches/{open_id}")).json()["seats"] == []
    assert (await api.client.get(f"/api/matches/{match_id}/chat")).json() == []
    assert (await api.client.get("/api/matches")).json()["total"] == total


async def test_every_validation_error_has_a_code(api: Api) -> None:
    open_id = await api.create(players=2)
    for method, path, body in [("POST", "/api/matches", {"game": 5}), ("POST", "/api/matches", [1]),
                               ("POST", f"/api/matches/{open_id}/join", {"nom": "Ann"}),
                               ("GET", "/api/matches?limit=0", None), ("GET", "/api/matches?offset=-1", None),
                               ("GET", "/api/matches?offset=x", None)]:
        r = await api.client.request(method, path, json=body)
        assert _problem(r, 422)["code"] == "invalid"


async def test_numbers_past_what_the_database_holds(api: Api) -> None:
    for offset in ("9223372036854775808", "9223372036854775807", str(10**30)):
        r = await api.client.get("/api/matches", params={"offset": offset})
        assert r.status_code in (200, 422), r.text
        if r.status_code == 422:
            _problem(r, 422)
    match_id, tokens = await api.seated(players=2, **SLOW)
    r = await api.act(match_id, tokens[0], {"type": "roll"}, expect_seq=2**70)
    _problem(r, 409, 422)


async def test_websocket_refuses_unreadable_json_and_stays_open(api: Api, served) -> None:
    match_id, tokens = await api.seated(players=2, **SLOW)
    p = await WsPlayer.connect(served.ws_url, match_id, tokens[0])
    await p.wait_seq(0)
    frames = ['{"type": "ping", "id": "\\ud800"}', '{"type": "ping", "id": NaN}',
              '{"type": "ping", "id": 1e999}', '{"type": "chat", "text": "hi \\udc00"}',
              '{"type": "action", "id": "a", "action": {"type": "roll", "x": "\\ud800"}}',
              '{"type": "action", "id": "b", "action": {"type": "roll"}, "expect_seq": Infinity}']
    ids = []
    for i, frame in enumerate(frames):
        await p.send(frame)
        await p.wait(lambda: len(_errors(p)) > i)
        error = next(e for e in _errors(p) if all(e is not seen for seen, _ in ids))
        assert error["code"] == "bad_json", error
        ids.append((error, error["id"]))
    # the id comes back when it is itself readable, so the client knows which action failed
    assert [i for _, i in ids] == [None, None, None, None, "a", "b"]
    await p.send({"type": "ping", "id": "still-here"})
    await p.wait(lambda: any(m.get("id") == "still-here" for m in p.other))
    assert len(p.states) == 1
    assert (await api.client.get(f"/api/matches/{match_id}/chat")).json() == []
    await p.close()


def _errors(p: WsPlayer) -> list[dict]:
    """Every error so far (``WsPlayer`` files those with an id apart)."""
    return [m for m in p.other if m["type"] == "error"] + [m for m in p.replies.values() if m["type"] == "error"]


@pytest.mark.parametrize("poison", [{"type": "roll", "x": "\ud800"},
                                    {"type": "roll", "x": json.loads("[" * 600 + "]" * 600)}])
async def test_a_log_poisoned_before_these_checks_is_still_published(served, api: Api, poison: dict) -> None:
    """Rows an older server wrote (junk kept verbatim) stay readable: ``/log`` answers 200."""
    match_id, tokens = await api.seated(players=2, **SLOW)
    runtime = served.runtime
    live = await runtime.get(match_id)
    await runtime.store.append_action(match_id, 1, live.state.thrower, poison, live.now())
    matches = MatchRow.__table__
    await served.app.state.db.write(lambda conn: conn.execute(
        update(matches).where(matches.c.id == match_id).values(status="finished", finished_at=live.now())))
    runtime.live.pop(match_id).close()  # as after a restart: loaded again from the store
    r = await api.log(match_id)
    assert r.status_code == 200, r.text
    assert [a["seq"] for a in r.json()["actions"]] == [1]
