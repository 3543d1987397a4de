"""Bad input over REST: each gets its documented 4xx with ``{"detail": …}`` and leaves
the match untouched (same ``seq``, same view)."""

from __future__ import annotations

import httpx

from .clients import Api, play_to_the_end

SLOW = {"roll_timeout_ms": 120_000, "round_timeout_ms": 600_000}


def _refused(r: httpx.Response, status: int, *words: str) -> dict:
    assert r.status_code == status, (r.status_code, r.text)
    body = r.json()
    assert isinstance(body["detail"], (str, list)) and body["detail"]
    for word in words:
        assert word.lower() in str(body["detail"]).lower(), body
    return body


async def test_bad_actions_are_refused_and_change_nothing(api: Api) -> None:
    match_id, tokens = await api.seated(players=2, **SLOW)
    other_id, other_tokens = await api.seated(players=2, **SLOW)
    before = await api.view(match_id, tokens[0])
    thrower = before["view"]["thrower"]
    waiter = tokens[1 - thrower]
    url = f"/api/matches/{match_id}/actions"
    auth = {"Authorization": f"Bearer {tokens[thrower]}"}

    _refused(await api.client.post(url, content=b'{"action": {"type": "roll"', headers=auth), 422)
    _refused(await api.client.post(url, content=b"[1, 2]", headers=auth), 422)
    _refused(await api.act(match_id, tokens[thrower], "roll"), 422)
    _refused(await api.act(match_id, tokens[thrower], {"type": "roll"}, surprise=1), 422)
    _refused(await api.act(match_id, tokens[thrower], {"type": "moonwalk"}), 422, "unknown action")
    _refused(await api.act(match_id, tokens[thrower], {}), 422)
    _refused(await api.act(match_id, waiter, {"type": "roll"}), 422, "turn to throw")
    _refused(await api.act(match_id, tokens[thrower], {"type": "place", "table": 0, "bowl": "miso"}), 422,
             "wait for the dice")
    assert (await api.act(match_id, None, {"type": "roll"})).headers["www-authenticate"] == "Bearer"
    _refused(await api.act(match_id, None, {"type": "roll"}), 401)
    _refused(await api.act(match_id, other_tokens[0], {"type": "roll"}), 403, "not for a seat")
    _refused(await api.act(match_id, "forged-token", {"type": "roll"}), 403)
    _refused(await api.client.post(url, json={"action": {"type": "roll"}},
                                   headers={"Authorization": "Basic abc"}), 401)
    _refused(await api.client.get(f"/api/matches/{match_id}/view", headers={"Authorization": "Bearer x"}), 403)
    body = _refused(await api.act(match_id, tokens[thrower], {"type": "roll"}, expect_seq=7), 409, "seq")
    assert body["code"] == "stale" and body["seq"] == before["seq"]
    _refused(await api.client.post(url, content=b"x" * 100_000, headers=auth), 413, "larger")
    json_auth = {**auth, "Content-Type": "application/json"}
    _refused(await api.client.post(url, content=b'{"action": {"type": "roll", "x": NaN}}', headers=json_auth),
             422, "finite")
    _refused(await api.act(match_id, tokens[thrower], {"type": "roll", "junk": "x" * 20_000}), 422, "limited")
    deep = b'{"action": {"type": "roll", "x": ' + b"[" * 5000 + b"]" * 5000 + b"}}"
    assert (await api.client.post(url, content=deep, headers=json_auth)).status_code in (400, 422)

    after = await api.view(match_id, tokens[0])
    assert (after["seq"], after["view"]) == (before["seq"], before["view"])
    assert (await api.act(match_id, tokens[thrower], {"type": "roll"}, expect_seq=before["seq"])).status_code == 200


async def test_oversized_streamed_body_is_refused(api: Api) -> None:
    match_id, tokens = await api.seated(players=2, **SLOW)

    async def chunks():
        for _ in range(100):
            yield b" " * 1024

    r = await api.client.post(f"/api/matches/{match_id}/actions", content=chunks(),
                              headers={"Authorization": f"Bearer {tokens[0]}", "Content-Type": "application/json"})
    _refused(r, 413)


async def test_unknown_matches_games_and_options(api: Api) -> None:
    for path in ("/api/matches/nope", "/api/matches/nope/view", "/api/matches/nope/log", "/api/matches/" + "x" * 500):
        _refused(await api.client.get(path), 404)
    _refused(await api.client.post("/api/matches/nope/join", json={"name": "Ann"}), 404)
    _refused(await api.act("nope", "token", {"type": "roll"}), 404)

    def create(**body):
        return api.client.post("/api/matches", json={"game": "nutty-noodles", "players": 2, **body})

    _refused(await create(game="chess"), 422, "unknown game", "nutty-noodles")
    _refused(await create(options={"mode": "impossible"}), 422, "mode")
    _refused(await create(options={"no_such_option": True}), 422, "no_such_option")
    _refused(await create(players=9), 422, "players")
    _refused(await create(bots=3), 422, "bots")
    _refused(await create(bots=-1), 422)
    _refused(await api.client.post("/api/matches", content=b"{not json", headers={"Content-Type": "application/json"}), 422)
    _refused(await api.client.get("/api/matches", params={"status": "sleeping"}), 422)
    _refused(await api.client.get("/api/matches", params={"limit": 1000}), 422)


async def test_joining_badly(api: Api) -> None:
    match_id = await api.create(players=2, **SLOW)
    join = f"/api/matches/{match_id}/join"
    _refused(await api.client.post(join, json={"name": ""}), 422)
    _refused(await api.client.post(join, json={"name": "   "}), 422, "name")
    _refused(await api.client.post(join, json={"name": "x" * 40}), 422, "name")
    _refused(await api.client.post(join, json={"name": "bell\u0007"}), 422, "printable")
    _refused(await api.client.post(join, json={}), 422)
    await api.join(match_id, "Ann")
    _refused(await api.client.post(join, json={"name": "Ann"}), 409, "already")
    await api.join(match_id, "Bob")
    body = _refused(await api.client.post(join, json={"name": "Cy"}), 409, "taken")
    assert body["code"] == "full"


async def test_a_finished_match_refuses_actions_and_joins_and_publishes_its_log(api: Api) -> None:
    match_id, tokens = await api.seated(players=2, tie_window_ms=0, **SLOW)
    _refused(await api.log(match_id), 409, "over")
    await play_to_the_end(api, match_id, tokens)
    body = _refused(await api.act(match_id, tokens[0], {"type": "roll"}), 409, "over")
    assert body["code"] == "finished"
    other = await api.create(players=2)
    await api.join(other, "Ann")
    assert (await api.log(match_id)).status_code == 200
    _refused(await api.client.post(f"/api/matches/{match_id}/join", json={"name": "Late"}), 409, "over")
