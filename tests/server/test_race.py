"""Race: every player sends the correct placement at the same instant.

Exactly the rule's winners win (correct placements within ``tie_window_ms`` of the first
one, by the times written in the log), the log has no gap or duplicate ``seq``, and every
client ends on the same view.
"""

from __future__ import annotations

import asyncio

import pytest

from .clients import Api, WsPlayer, answer, public_part
from .conftest import Served

SLOW_TIMERS = {"roll_timeout_ms": 120_000, "round_timeout_ms": 600_000}


async def _roll(players: list[WsPlayer]) -> dict:
    thrower = players[0].state["view"]["thrower"]
    ack = await players[thrower].act({"type": "roll"})
    assert ack["type"] == "ack", ack
    for p in players:
        await p.wait_seq(ack["seq"])
    return players[0].state["view"]


async def _logged(served: Served, match_id: str) -> list:
    entries = await served.runtime.store.actions(match_id)
    assert [e.seq for e in entries] == list(range(1, len(entries) + 1)), "gap or duplicate seq"
    return entries


def _rule_winners(entries: list, window: int, right: dict) -> list[int]:
    """The seats the rule makes winners: correct placements no later than the first + window."""
    placed = [e for e in entries if e.action == right and e.seat is not None]
    first = placed[0].at
    return [e.seat for e in placed if e.at <= first + window]


@pytest.mark.parametrize("window", [0, 2000])
async def test_simultaneous_correct_placements_over_websockets(api: Api, served: Served, window: int) -> None:
    match_id, tokens = await api.seated(players=4, tie_window_ms=window, **SLOW_TIMERS)
    players = [await WsPlayer.connect(served.ws_url, match_id, t) for t in tokens]
    for p in players:
        await p.wait_seq(0)
    right = answer(await _roll(players))
    replies = await asyncio.gather(*(p.act(right) for p in players))

    acked = [r for r in replies if r["type"] == "ack"]
    if window == 0:
        assert len(acked) == 1, replies  # the first correct placement ends the round at once
        assert all(r["code"] == "illegal" for r in replies if r["type"] == "error")
    entries = await _logged(served, match_id)
    expected = _rule_winners(entries, window, right)
    final_seq = entries[-1].seq
    for p in players:
        await p.wait_seq(final_seq)
    views = [p.state["view"] for p in players]
    won = [w["seat"] for w in views[0]["last_round"]["winners"]]
    assert won == expected
    if window == 2000:
        assert sorted(won) == [0, 1, 2, 3]
    assert [sum(len(pl["monsters"]) for pl in v["players"]) for v in views] == [len(expected)] * 4
    assert all(p.state["seq"] == final_seq for p in players)
    assert all(public_part(v) == public_part(views[0]) for v in views), "clients did not converge"
    for p in players:
        await p.close()


async def test_simultaneous_correct_placements_over_rest(api: Api, served: Served) -> None:
    match_id, tokens = await api.seated(players=4, tie_window_ms=0, **SLOW_TIMERS)
    view = await api.view(match_id, tokens[0])
    thrower = view["view"]["thrower"]
    assert (await api.act(match_id, tokens[thrower], {"type": "roll"})).status_code == 200
    right = answer((await api.view(match_id))["view"])
    answers = await asyncio.gather(*(api.act(match_id, t, right) for t in tokens))
    codes = sorted(r.status_code for r in answers)
    assert codes == [200, 422, 422, 422], [r.text for r in answers]
    entries = await _logged(served, match_id)
    winner = next(e.seat for e in entries if e.action == right)
    views = [await api.view(match_id, t) for t in tokens]
    assert [w["seat"] for w in views[0]["view"]["last_round"]["winners"]] == [winner]
    assert len({v["seq"] for v in views}) == 1
    assert all(public_part(v["view"]) == public_part(views[0]["view"]) for v in views)
