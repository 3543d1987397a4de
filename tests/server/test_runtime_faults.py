"""What the runtime does when a service fails under it: a bot's move the database could not
store is tried again (its seat does not freeze); an action refused over the WebSocket for
it is one line in the log, not a traceback; while Redis is away, sockets on a process that
does not own their match still see the moves (caught up from the log); a bot's move that
came due while the lease had lapsed (the database away past ``lease_s``) is asked again
once the heartbeat arms the match again, even if reading the log fails then."""

from __future__ import annotations

import logging
import time
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from server.runtime import LiveMatch
from server.runtime.bot_driver import Outcome
from server.runtime.clock import Clock

from .clients import Api, WsPlayer
from .conftest import Served
from .test_runtime import StubbornNoodles, _started, _until, runtime, sink


def failing_once(append_action: Any) -> Any:
    """``Store.append_action`` that fails the first time, as a database away for a moment."""
    calls = []

    async def append(*args: Any, **kwargs: Any) -> None:
        calls.append(args)
        if len(calls) == 1:
            raise OperationalError("INSERT INTO actions", {}, Exception("server closed the connection"))
        await append_action(*args, **kwargs)

    return append


async def test_a_bot_move_that_meets_a_database_error_is_tried_again(database_url: str) -> None:
    async with runtime(database_url, Clock()) as rt:
        record = await rt.create("nutty-noodles", 2, {}, 2)
        rt.live.pop(record.id).close()
        game = StubbornNoodles()
        live = LiveMatch(rt.services, record, game)
        rt.live[record.id] = live
        rt.store.append_action = failing_once(rt.store.append_action)  # type: ignore[method-assign]
        live.start(record)
        await _until(lambda: live.seq == 1, timeout=20)
        thrower = live.state.thrower
        assert [(e.seat, e.action) for e in await rt.store.actions(live.id)] == [(thrower, {"type": "roll"})]


async def test_an_action_refused_while_the_database_is_away_is_one_line_in_the_log(
        api: Api, served: Served, caplog: pytest.LogCaptureFixture) -> None:
    match_id, tokens = await api.seated(players=2)
    live = await served.runtime.get(match_id)
    thrower = live.state.thrower
    served.runtime.store.append_action = failing_once(served.runtime.store.append_action)  # type: ignore[method-assign]
    player = await WsPlayer.connect(served.ws_url, match_id, tokens[thrower])
    with caplog.at_level(logging.WARNING, logger="server.api.websocket"):
        reply = await player.act({"type": "roll"})
    assert (reply["type"], reply["code"]) == ("error", "unavailable")
    said = [r for r in caplog.records if r.name == "server.api.websocket"]
    assert len(said) == 1 and said[0].exc_info is None and "database" in said[0].getMessage()
    assert (await player.act({"type": "roll"}))["type"] == "ack"  # back: the same action goes through
    await player.close()


async def test_while_the_fan_out_is_down_a_socket_on_another_process_sees_the_moves(database_url: str) -> None:
    away = {"redis_url": "redis://127.0.0.1:1/0", "lease_s": 3.0}  # nothing listens there; b catches up every 1 s
    async with runtime(database_url, **away) as a, runtime(database_url, **away) as b:
        live_a, thrower = await _started(a)
        live_b = await b.get(live_a.id)
        await _until(lambda: live_a.drives, timeout=30)  # a heartbeat late under load lapses it until the next
        assert not live_b.drives and b.services.fanout.down
        got: list[dict[str, Any]] = []
        live_b.subscribe(sink(thrower, got), [])
        await live_a.act(thrower, {"type": "roll"})
        await _until(lambda: any(m["type"] == "patch" and m["seq"] == 1 for m in got), timeout=30)


async def test_a_lease_heartbeat_the_database_refuses_is_one_line_in_the_log(
        database_url: str, caplog: pytest.LogCaptureFixture) -> None:
    async with runtime(database_url, lease_s=0.6) as rt:  # a beat every 0.2 s
        async def away() -> None:
            raise OperationalError("UPDATE processes", {}, Exception("server closed the connection\nunexpectedly"))

        with caplog.at_level(logging.WARNING, logger="server.runtime.hub"):
            rt.ownership.beat = away  # type: ignore[method-assign]
            await _until(lambda: sum("heartbeat" in r.getMessage() for r in caplog.records) >= 2)
    said = [r for r in caplog.records if "heartbeat" in r.getMessage()]
    assert all(r.exc_info is None and "\n" not in r.getMessage() and "database" in r.getMessage() for r in said)


async def test_a_stand_ins_move_on_its_way_is_not_played_once_its_human_is_here(database_url: str) -> None:
    """The stand-in decided and its move is on its way (past the first check, inside the
    match's lock, the log being read); meanwhile its human's socket opens: the human plays
    now, the stand-in's move is dropped, not logged just after the human arrived."""
    async with runtime(database_url, Clock(10.0), standin_after_s=0.5, pause_after_s=0) as rt:
        record = await rt.create("nutty-noodles", 2, {"roll_timeout_ms": 120_000}, 0)  # no timeout comes first
        for i in range(2):
            _, _, live = await rt.join(record.id, f"P{i}")
        thrower, act, due = live.state.thrower, live.act, live._apply_due_timeouts_locked
        on_its_way, done = [], []

        async def noted_act(seat: int, *args: Any, **kwargs: Any) -> int:
            if seat == thrower and kwargs.get("source") == "bot":
                on_its_way.append(seat)
            try:
                return await act(seat, *args, **kwargs)
            finally:
                done.extend(on_its_way)

        async def human_arrives_meanwhile() -> None:
            await due()
            if on_its_way and not done and thrower in live.players.standins:
                live.subscribe(sink(thrower, []), [])  # the thrower is here

        live.act = noted_act  # type: ignore[method-assign]
        live._apply_due_timeouts_locked = human_arrives_meanwhile  # type: ignore[method-assign]
        await _until(lambda: done, timeout=30)
        assert thrower not in live.players.standins
        assert [a for a in await rt.store.actions(live.id) if a.seat == thrower] == [], "the stand-in played anyway"


async def test_a_stale_bot_move_met_by_a_database_error_is_asked_again_not_lost(database_url: str) -> None:
    """Finding 1's other path: a bot's move found stale (another process moved the match)
    reads the log to count duplicate work; the database away then must not kill the bot's
    task (its seat would stay "on its way" at that seq)."""
    async with runtime(database_url, Clock()) as rt:
        record = await rt.create("nutty-noodles", 2, {}, 2)
        live = rt.live[record.id]
        await _until(lambda: live.seq >= 1, timeout=30)
        seat, stale, actions = next(iter(live.players.bots)), live.seq - 1, rt.store.actions

        async def away_for_the_count(match_id: str, after: int = 0) -> Any:
            if after == stale:  # the count's read (catching up reads after the match's seq)
                raise OperationalError("SELECT actions", {}, Exception("server closed the connection"))
            return await actions(match_id, after=after)

        rt.store.actions = away_for_the_count  # type: ignore[method-assign]
        outcome = await live._bot_move(seat, live.players.bots[seat], {"type": "roll"}, stale)
        assert outcome is Outcome.STALE


async def _a_bot_move_spent_while_the_lease_lapsed(rt: Any) -> LiveMatch:
    """An all-bot match whose thrower's move came due while this process's lease had
    lapsed (no heartbeat for a whole lease), and came to nothing; the heartbeat is the
    test's to beat."""
    assert rt._beat is not None
    rt._beat.cancel()
    record = await rt.create("nutty-noodles", 2, {"roll_timeout_ms": 120_000}, 2)  # no timeout comes first
    live = rt.live[record.id]
    await _until(lambda: live.bots.busy() or live.seq > 0)  # armed (the claim's catching up)
    assert live.drives and live.seq == 0  # the thrower bot thinks, or its move is due
    rt.ownership._valid_until = 0.0  # no heartbeat for a whole lease
    await _until(lambda: not live.bots.busy(), timeout=20)  # its move came, and came to nothing
    assert live.seq == 0 and not live.drives
    return live


async def test_a_bot_move_that_comes_due_while_the_lease_lapsed_is_asked_again_once_it_holds(
        database_url: str) -> None:
    """The database away past ``lease_s``: the owner stops driving, and a bot's move that
    comes due then comes to nothing (the lease may be another's). The next heartbeat says
    the match is still this process's and arms it again: that bot must be asked again —
    what it sees did not change, but the decision it made is gone (the fault suite found
    all-bot matches still for a whole throw timer after PostgreSQL came back)."""
    async with runtime(database_url, Clock(0.25)) as rt:  # the bot throws 0.7 s of game time in: 2.8 s
        live = await _a_bot_move_spent_while_the_lease_lapsed(rt)
        rt.ownership._valid_until = time.monotonic() + 60  # the heartbeat under way began before it ran out…
        await rt._heartbeat()  # …and says the match is still ours: everything is armed again
        await _until(lambda: live.seq == 1, timeout=20)
        assert [(e.seat is None, e.action) for e in await rt.store.actions(live.id)] == [(False, {"type": "roll"})]


async def test_a_match_armed_again_after_a_lapsed_lease_is_armed_though_its_catching_up_fails(
        database_url: str) -> None:
    """The heartbeat that says the lease holds again arms the match after reading its log;
    the database failing that read once (back a moment ago) must not leave it unarmed."""
    async with runtime(database_url, Clock(0.25)) as rt:
        live = await _a_bot_move_spent_while_the_lease_lapsed(rt)
        actions, failed = rt.store.actions, []

        async def away_once(match_id: str, after: int = 0) -> Any:
            if not failed:
                failed.append(after)
                raise OperationalError("SELECT actions", {}, Exception("server closed the connection"))
            return await actions(match_id, after=after)

        rt.store.actions = away_once  # type: ignore[method-assign]
        rt.ownership._valid_until = time.monotonic() + 60
        await rt._heartbeat()
        await _until(lambda: live.seq == 1, timeout=20)
        assert failed == [0]
