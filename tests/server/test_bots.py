"""Bot seats play through the same path as humans; absent humans get stand-ins.

The server runs its game clock 40× faster here, so bot reaction times and deadlines pass
in milliseconds while the rules see ordinary figures.
"""

from __future__ import annotations

import random
from pathlib import Path

import httpx

from server.config import Settings, database_url
from server.engine import registry
from server.runtime.seats import SeatPlayers
from server.store import MatchRecord, SeatRecord

from .clients import Api, WsPlayer, check_log_replays, play_over_websocket
from .conftest import serve

FAST = {"clock_speed": 40.0}


async def test_a_match_of_bots_plays_itself_to_the_end(database_url: str) -> None:
    async with serve(database_url, **FAST) as served, httpx.AsyncClient(base_url=served.url) as client:
        api = Api(client)
        r = await client.post("/api/matches", json={"game": "nutty-noodles", "players": 4, "bots": 4})
        assert r.status_code == 201 and r.json()["match"]["status"] == "running"
        match_id = r.json()["id"]
        watcher = await WsPlayer.connect(served.ws_url, match_id)
        final = await watcher.wait(lambda: watcher.states and watcher.state["status"] == "finished"
                                   and watcher.state, timeout=60)
        assert final["result"]["winners"]
        await check_log_replays(api, match_id, final["view"])
        seats = {a["seat"] for a in (await api.log(match_id)).json()["actions"]} - {None}
        # a bot's serve is logged only if it is first (or within the tie window), and only
        # the round's winner throws: a bot slow in every round may never reach the log
        assert len(seats) >= 2, "the bots played (not only the timers)"
        await watcher.close()


async def test_a_human_and_two_bots_finish_a_match(database_url: str) -> None:
    async with serve(database_url, **FAST) as served, httpx.AsyncClient(base_url=served.url) as client:
        api = Api(client)
        match_id = await api.create(players=3, bots=2)
        summary = (await client.get(f"/api/matches/{match_id}")).json()
        assert summary["status"] == "open" and [s["bot"] for s in summary["seats"]] == [True, True]
        seat, token = await api.join(match_id, "Ann")
        assert seat == 0
        me = await WsPlayer.connect(served.ws_url, match_id, token)
        # a reaction of 40 ms is ~1.6 s of game time: as quick as the bots
        state = await play_over_websocket(me, random.Random(2), sharp=0.9, delay=(0.04, 0.04), timeout=30)
        log = await check_log_replays(api, match_id, state["view"], seat=0)
        assert {1, 2} & {a["seat"] for a in log["actions"]}, "the bots played"
        await me.close()


async def test_absent_humans_are_played_by_stand_ins(database_url: str) -> None:
    # (never paused: at 40× a whole game may outlast the 900 game-seconds before a deserted table pauses)
    async with serve(database_url, standin_after_s=2.0, pause_after_s=0, **FAST) as served, \
            httpx.AsyncClient(base_url=served.url) as client:
        api = Api(client)
        match_id, tokens = await api.seated(players=2)  # …and nobody ever connects
        watcher = await WsPlayer.connect(served.ws_url, match_id)
        final = await watcher.wait(lambda: watcher.states and watcher.state["status"] == "finished"
                                   and watcher.state, timeout=60)
        log = await check_log_replays(api, match_id, final["view"])
        assert {0, 1} <= {a["seat"] for a in log["actions"]}
        await watcher.close()


def _players(standin_after_ms: int = 1000) -> SeatPlayers:
    game = registry.get("nutty-noodles")
    seats = (SeatRecord(0, "Ann", False, "h", 0), SeatRecord(1, "Bob", False, "h2", 0), SeatRecord(2, "Bot 1", True, None, 0))
    record = MatchRecord("m", game.id, {}, 3, 1, 7, "running", 0, 0, None, None, seats)
    return SeatPlayers(game, record, now=0, standin_after_ms=standin_after_ms)


def test_stand_ins_come_after_the_grace_period_and_leave_when_the_human_returns() -> None:
    players = _players()
    assert set(players.controllers(999)) == {2}
    assert players.next_absence(999) == 1000
    players.connected(0, 500)
    assert set(players.controllers(1500)) == {1, 2}, "Bob is away; Ann is connected"
    players.disconnected(0, 1600)
    assert players.next_absence(1600) == 2600
    assert set(players.controllers(2600)) == {0, 1, 2}
    assert players.seen(1, 2700) is True, "Bob's request dismisses his stand-in"
    assert set(players.controllers(2700)) == {0, 2}
    assert players.connected(0, 2800) is True and set(players.controllers(2800)) == {2}


def test_no_stand_ins_when_disabled() -> None:
    players = _players(standin_after_ms=0)
    assert set(players.controllers(10**9)) == {2} and players.next_absence(10**9) is None


def test_settings_read_from_the_environment() -> None:
    settings = Settings.from_env({"POTLUCK_STANDIN_AFTER_S": "5", "POTLUCK_RATE_BURST": "3",
                                  "DATABASE_URL": "postgresql://u@h/db", "REDIS_URL": "redis://r"})
    assert settings.standin_after_s == 5.0 and settings.rate_burst == 3
    assert settings.database_url == "postgresql+asyncpg://u@h/db" and settings.redis_url == "redis://r"
    assert database_url("sqlite+aiosqlite:////x/y.db") == "sqlite:////x/y.db"
    assert database_url(None, Path("/srv")) == "sqlite:////srv/data/potluck.db"


async def test_a_stand_ins_moves_are_marked_and_its_seat_is_told_it_was_stood_in_for(database_url: str) -> None:
    """Issue 27, from the runtime: each event of a move a stand-in played carries
    ``"by": seat, "standin": true``, and the seat's state says ``"stood_in": {"since_seq": n}``
    when its human comes back, until they act."""
    # Bob's socket is open before the match starts (he joins first, Ann's join starts it), so
    # his seat is never absent: only Ann's, who never comes, is stood in for. (With the clock
    # 40× fast, 3 s of grace is 75 ms: a socket opened after the start could miss it.)
    async with serve(database_url, standin_after_s=3.0, **FAST) as served, \
            httpx.AsyncClient(base_url=served.url) as client:
        api = Api(client)
        match_id = await api.create(players=2)
        bob_seat, bob_token = await api.join(match_id, "Bob")
        bob = await WsPlayer.connect(served.ws_url, match_id, bob_token)
        await bob.wait(lambda: bob.summary, timeout=10)  # his socket is at the table
        ann_seat, ann_token = await api.join(match_id, "Ann")  # Ann never comes: a stand-in plays her
        tokens = {bob_seat: bob_token, ann_seat: ann_token}
        marked = lambda: [e for s in bob.states for e in s.get("events", []) if e.get("standin")]  # noqa: E731
        await bob.wait(lambda: marked(), timeout=60)
        assert all(e["by"] == ann_seat for e in marked()), f"only Ann's seat is stood in for: {marked()}"
        ann = await WsPlayer.connect(served.ws_url, match_id, tokens[ann_seat])
        await ann.wait(lambda: ann.states, timeout=10)
        since = ann.states[0]["stood_in"]["since_seq"]
        assert 0 <= since < ann.states[0]["seq"]
        watcher = await WsPlayer.connect(served.ws_url, match_id)
        await watcher.wait(lambda: watcher.states, timeout=10)
        assert "stood_in" not in watcher.states[0], "nobody stands in for a spectator"
        for p in (ann, bob, watcher):
            await p.close()


def test_finding_10_a_table_whose_humans_all_left_is_paused_until_one_is_back() -> None:
    """Issue 23, finding 10: stand-ins are for a player who stepped away; when every human
    of the table has been away ``pause_after``, no bot plays it (its timers alone move it)."""
    game = registry.get("nutty-noodles")
    seats = (SeatRecord(0, "Ann", False, "h", 0), SeatRecord(1, "Bot 1", True, None, 0))
    players = SeatPlayers(game, MatchRecord("m", game.id, {}, 2, 1, 7, "running", 0, 0, None, None, seats),
                          now=0, standin_after_ms=1000, pause_after_ms=10_000)
    assert set(players.controllers(1000)) == {0, 1}, "Ann stepped away: a stand-in plays for her"
    assert not players.paused(9_999)
    assert players.controllers(10_000) == {} and players.paused(10_000) and not players.standins
    assert players.next_absence(10_000) is None, "nothing to wake a paused table for"
    players.connected(0, 20_000)
    assert set(players.controllers(20_000)) == {1}, "Ann is back: the table plays on"
