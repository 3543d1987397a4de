"""What the runtime does when the database fails under it: a bot's move that could not be
stored is tried again (its seat does not freeze), and an action refused over the WebSocket
for it is one line in the log, not a traceback."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from server.runtime import LiveMatch
from server.runtime.clock import Clock

from .clients import Api, WsPlayer
from .conftest import Served
from .test_runtime import StubbornNoodles, _until, runtime


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
