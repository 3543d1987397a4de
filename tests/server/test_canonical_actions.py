"""The log keeps only what the rules read of an action (its canonical form), within
``max_action_bytes``: a seated player cannot store anything beside a legal action, and a
logged action replays to exactly the state the players saw."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from server.engine import IllegalAction, registry
from server.engine.playout import Entry, replay
from server.games.nutty_noodles.rules import NuttyNoodles
from server.runtime import Invalid
from server.runtime.canonical import apply_canonical

from .clients import Api, WsPlayer
from .test_runtime import runtime

SLOW = {"roll_timeout_ms": 120_000, "round_timeout_ms": 600_000}


async def test_fields_the_rules_do_not_read_are_not_stored(served, api: Api) -> None:
    match_id, tokens = await api.seated(players=2, **SLOW)
    thrower = (await api.view(match_id))["view"]["thrower"]
    junk = {"type": "roll", "note": "x" * 8000, "nested": {"deep": [[[["junk"]]]]}, "n": 1.5}
    r = await api.act(match_id, tokens[thrower], junk)
    assert r.status_code == 200, r.text
    p = await WsPlayer.connect(served.ws_url, match_id, tokens[0])
    await p.wait_seq(1)
    place = dict((await api.view(match_id, tokens[0]))["legal"][0], why="because", table_talk=["hi"] * 100)
    reply = await p.act(place)
    assert reply["type"] == "ack", reply
    stored = [(e.seq, e.action) for e in await served.runtime.store.actions(match_id)]
    assert stored[0] == (1, {"type": "roll"})
    assert stored[1][1] == {k: v for k, v in place.items() if k not in ("why", "table_talk")}
    assert max(len(json.dumps(a)) for _, a in stored) < 100
    await p.close()
    live = served.runtime.live[match_id]  # the stored log replays to what the players see
    record = live.record
    state = replay(live.game, record.seat_names(), record.options, record.seed,
                   [Entry(e.seat, e.action, e.at) for e in await served.runtime.store.actions(match_id)],
                   record.started_at)
    for seat, token in enumerate(tokens):
        assert live.game.view(state, seat) == (await api.view(match_id, token))["view"]


class ChattyNoodles(NuttyNoodles):
    """Nutty Noodles whose throw also reads a ``comment`` (as if it were part of the move)."""

    def apply(self, state: Any, seat: int | None, action: Any, now_ms: int) -> Any:
        action.get("comment")
        return super().apply(state, seat, action, now_ms)


async def test_what_the_rules_read_is_limited_in_size(database_url: str) -> None:
    async with runtime(database_url, max_action_bytes=500) as rt:
        record = await rt.create("nutty-noodles", 2, SLOW, 0)
        live = await rt.get(record.id)
        live.game = ChattyNoodles()
        for name in ("Ann", "Bob"):
            await rt.join(record.id, name)
        thrower = live.state.thrower
        with pytest.raises(Invalid, match="limited to 500 bytes"):
            await live.act(thrower, {"type": "roll", "comment": "c" * 500})
        assert live.seq == 0 and await rt.store.actions(record.id) == []
        await live.act(thrower, {"type": "roll", "comment": "good luck", "unread": "u" * 5000})
        assert [e.action for e in await rt.store.actions(record.id)] == [{"type": "roll", "comment": "good luck"}]


@pytest.mark.parametrize("game_id", sorted(registry.games()))
def test_every_game_reads_every_field_of_its_legal_actions_and_nothing_else(game_id: str) -> None:
    """For each game, a random match where half the actions carry junk: the canonical form
    is the legal action itself (no field a legal action has goes unread), and applying it
    leads to the very state applying the action with its junk does."""
    game = registry.get(game_id)
    rng = random.Random(game_id)
    players = [f"P{i}" for i in range(max(game.min_players, 4 if game_id == "snollygoster" else 0))]
    state, now = game.setup(players, game.options({}), 7, 0), 0
    for _ in range(300):
        if game.result(state):
            break
        now += 1000
        moves = [(seat, a) for seat in range(len(players)) for a in game.legal(state, seat)]
        due = game.deadline(state)
        if not moves:
            state, _ = game.apply(state, None, {"type": "timeout"}, max(now, due or now))
            continue
        seat, action = rng.choice(moves)
        sent = {**action, "junk": {"x": [1, 2]}} if rng.random() < 0.5 else dict(action)
        try:
            expected, _ = game.apply(state, seat, dict(sent), now)
        except IllegalAction:
            continue
        canonical, state, _ = apply_canonical(lambda a: game.apply(state, seat, a, now), sent)
        assert canonical == action
        for viewer in [None, *range(len(players))]:
            assert game.view(state, viewer) == game.view(expected, viewer)
