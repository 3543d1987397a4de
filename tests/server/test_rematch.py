"""Play again: ``POST /api/matches/{id}/rematch``. Only a seat of the match may ask, only
once it is over; the first request creates the rematch (same game, options, players, bots
in the same seats) and every later one, however concurrent, gets the same match; the old
match's summary names it and every socket of the old match is told; the players who join
it with their old tokens get their old seats back, and nobody else can take those for a
while (``rematch_hold_s``). Other servers of the same database learn of it from the store."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from server.engine import Result
from server.games.nutty_noodles.rules import NuttyNoodles
from server.runtime import LiveMatch, NotFinished, SeatsHeld

from .clients import Api, WsPlayer
from .conftest import serve
from .test_runtime import HandClock, runtime

FAST = {"clock_speed": 40.0}


class OneThrowNoodles(NuttyNoodles):
    """Nutty Noodles that is over once the dice are thrown (by anyone, or by the timer)."""

    def result(self, state: Any) -> Result | None:
        if not state.throws:
            return None
        return Result(winners=[0], scores=[1.0] + [0.0] * (len(state.players) - 1), reason="One throw.")


def _auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


async def test_a_rematch_needs_a_seat_of_the_match_and_its_end(api: Api) -> None:
    match_id, tokens = await api.seated(players=2)
    _, strangers = await api.seated(players=2)
    url = f"/api/matches/{match_id}/rematch"
    r = await api.client.post(url)
    assert (r.status_code, r.json()["code"]) == (401, "unauthorized")
    r = await api.client.post(url, headers=_auth(strangers[0]))
    assert (r.status_code, r.json()["code"]) == (403, "forbidden")
    r = await api.client.post(url, headers=_auth(tokens[0]))
    assert (r.status_code, r.json()["code"]) == (409, "not_finished"), r.text
    r = await api.client.post("/api/matches/nosuchmatch/rematch", headers=_auth(tokens[0]))
    assert r.status_code == 404
    assert (await api.client.get(f"/api/matches/{match_id}")).json()["rematch"] is None


async def test_play_again_once_for_everyone_with_the_same_seats_and_bots(database_url: str) -> None:
    async with serve(database_url, **FAST) as served, \
            httpx.AsyncClient(base_url=served.url, timeout=30) as client:
        api = Api(client)
        match_id = await api.create(players=3, bots=1, mode="advanced")
        live = await served.runtime.get(match_id)
        live.game = OneThrowNoodles()  # before the start: the match ends at its first throw
        (ann_seat, ann), (bob_seat, bob) = [await api.join(match_id, name) for name in ("Ann", "Bob")]
        sockets = [await WsPlayer.connect(served.ws_url, match_id, token) for token in (ann, bob, None)]
        for p in sockets:  # the thrower's timer throws for them: 8 game seconds, 0.2 s here
            await p.wait(lambda: p.states and p.state["status"] == "finished", timeout=30)

        url = f"/api/matches/{match_id}/rematch"
        answers = await asyncio.gather(*(client.post(url, headers=_auth(t)) for t in (bob, ann, bob, ann)))
        assert sorted(r.status_code for r in answers) == [200, 200, 200, 201], [r.text for r in answers]
        new_id = answers[0].json()["id"]
        assert {r.json()["id"] for r in answers} == {new_id} and new_id != match_id
        new = next(r.json()["match"] for r in answers if r.status_code == 201)
        assert (new["id"], new["game"], new["status"], new["players"], new["bots"], new["rematch"]) == \
            (new_id, "nutty-noodles", "open", 3, 1, None)
        assert new["options"]["mode"] == "advanced"
        assert [(s["seat"], s["name"], s["bot"]) for s in new["seats"]] == [(2, "Bot 1", True)]

        # the old match names it, and every socket there (players and spectator) is told
        assert (await client.get(f"/api/matches/{match_id}")).json()["rematch"] == new_id
        for p in sockets:
            await p.wait(lambda: p.summary.get("rematch") == new_id)

        # a stranger calling himself Bob cannot take a seat: they are kept for Ann and Bob,
        # who prove who they are with their tokens of the old match (names are not identity)
        join = f"/api/matches/{new_id}/join"
        r = await client.post(join, json={"name": "Bob"})
        assert (r.status_code, r.json()["code"]) == (409, "held"), r.text
        r = await client.post(join, json={"name": "Bob"}, headers=_auth("forged"))
        assert (r.status_code, r.json()["code"]) == (403, "forbidden"), r.text
        r = await client.post(join, json={"name": "Bob"}, headers=_auth(bob))
        assert (r.status_code, r.json()["seat"]) == (200, bob_seat), r.text
        r = await client.post(join, json={"name": "Annie"}, headers=_auth(ann))
        assert (r.status_code, r.json()["seat"]) == (200, ann_seat), r.text
        started = (await client.get(f"/api/matches/{new_id}")).json()
        assert started["status"] == "running"
        assert {s["seat"]: (s["name"], s["bot"]) for s in started["seats"]} == \
            {ann_seat: ("Annie", False), bob_seat: ("Bob", False), 2: ("Bot 1", True)}

        r = await client.post(url, headers=_auth(ann))  # later still: the same match
        assert (r.status_code, r.json()["id"], r.json()["match"]["status"]) == (200, new_id, "running")
        for p in sockets:
            await p.close()


async def _finished_quickly(rt: Any) -> LiveMatch:
    record = await rt.create("nutty-noodles", 2, {}, 0)
    live = await rt.get(record.id)
    live.game = OneThrowNoodles()
    for name in ("Ann", "Bob"):
        await rt.join(record.id, name)
    await live.act(live.state.thrower, {"type": "roll"})
    assert live.status == "finished"
    return live


async def test_other_servers_learn_of_the_rematch_from_the_store_or_the_fan_out(database_url: str) -> None:
    async with runtime(database_url) as a, runtime(database_url) as b, runtime(database_url) as c:
        live_a = await _finished_quickly(a)
        live_b, live_c = await b.get(live_a.id), await c.get(live_a.id)  # loaded after the end
        assert live_b.status == live_c.status == "finished"
        new, created = await a.rematch(live_a)
        assert created and live_a.record.rematch_id == new.id
        await live_b.sync()  # what GET /api/matches/{id} does: without Redis, the store tells
        assert live_b.summary()["rematch"] == new.id
        again, created = await b.rematch(live_b)
        assert (again.id, created) == (new.id, False)
        await c._on_fanout({"match": live_a.id, "kind": "rematch", "rematch": new.id})  # what Redis brings
        assert live_c.summary()["rematch"] == new.id


async def test_no_rematch_before_the_end_at_the_runtime_either(database_url: str) -> None:
    async with runtime(database_url) as rt:
        record = await rt.create("nutty-noodles", 2, {}, 0)
        with pytest.raises(NotFinished):
            await rt.rematch(await rt.get(record.id))


async def test_after_the_hold_anyone_may_take_a_free_seat_of_a_rematch(database_url: str) -> None:
    clock = HandClock()
    async with runtime(database_url, clock, rematch_hold_s=60) as rt:
        live = await _finished_quickly(rt)
        new, _ = await rt.rematch(live)
        with pytest.raises(SeatsHeld, match="another 1 minute"):
            await rt.join(new.id, "Dee")
        clock.t += 60_000
        seat, _, _ = await rt.join(new.id, "Dee")
        assert seat in (0, 1)
