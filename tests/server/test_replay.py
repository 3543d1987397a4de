"""Replays of finished matches: ``GET /api/matches/{id}/replay`` (the outline) and
``/replay/{step}`` (the table at one step). Every step, from every seat and the
spectators', is what replaying the log by hand gives; a running match's replay is refused;
bad seats and steps are a 422 that changes nothing; the server keeps a bounded number of
replayed matches in memory."""

from __future__ import annotations

import itertools
from typing import Any, Iterator

import pytest

from server.api.replays import Replays
from server.engine import registry
from server.store import ActionRecord

from .clients import Api, play_to_the_end
from .conftest import Served
from .stored import stored_match


async def finished_match(api: Api, chat: str | None = None) -> tuple[str, list[str]]:
    """A two-seat Nutty Noodles match played to its end over REST (seat 0 always right);
    with ``chat``, seat 1 says it on the way."""
    match_id, tokens = await api.seated(players=2, tie_window_ms=0)
    if chat:
        r = await api.client.post(f"/api/matches/{match_id}/chat", json={"text": chat},
                                  headers={"Authorization": f"Bearer {tokens[1]}"})
        assert r.status_code == 200, r.text
    await play_to_the_end(api, match_id, tokens)
    return match_id, tokens


def replayed(log: dict[str, Any]) -> Iterator[tuple[Any, list[Any]]]:
    """Every state of a published log with the events of the step that made it (step 0:
    the start, no events), replayed here by hand."""
    game = registry.get(log["game"])
    state = game.setup(log["players"], game.options(log["options"]), log["seed"], log["started_at"])
    yield state, []
    for a in log["actions"]:
        state, events = game.apply(state, a["seat"], a["action"], a["at"])
        yield state, events


def seen(events: list[Any], step: int, seat: int | None) -> list[dict[str, Any]]:
    return [{**e.to_json(), "seq": step, "private": e.to is not None} for e in events if e.visible_to(seat)]


def by_hand(log: dict[str, Any], step: int, seat: int | None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Seat's view after ``step`` actions and the events of that step it saw."""
    state, events = next(itertools.islice(replayed(log), step, None))
    return registry.get(log["game"]).view(state, seat), seen(events, step, seat)


def every_event_by_hand(log: dict[str, Any], seat: int | None) -> list[dict[str, Any]]:
    return [e for step, (_, events) in enumerate(replayed(log)) for e in seen(events, step, seat)]


async def test_a_running_match_has_no_replay(api: Api) -> None:
    match_id, tokens = await api.seated(players=2)
    thrower = (await api.view(match_id))["view"]["thrower"]
    assert (await api.act(match_id, tokens[thrower], {"type": "roll"})).status_code == 200
    for path in ("replay", "replay/0", "replay/1?seat=0"):
        r = await api.client.get(f"/api/matches/{match_id}/{path}")
        assert (r.status_code, r.json()["code"]) == (409, "not_finished"), r.text
        assert "over" in r.json()["detail"]
    waiting = await api.create(players=2)
    r = await api.client.get(f"/api/matches/{waiting}/replay")
    assert (r.status_code, r.json()["code"]) == (409, "not_finished")
    r = await api.client.get("/api/matches/nosuchmatch/replay/0")
    assert (r.status_code, r.json()["code"]) == (404, "not_found")


async def test_every_step_from_every_seat_is_the_log_replayed(api: Api) -> None:
    match_id, _ = await finished_match(api, chat="good game")
    log = (await api.log(match_id)).json()
    steps = len(log["actions"])
    outlines = {}
    for seat in (None, 0, 1):
        r = await api.client.get(f"/api/matches/{match_id}/replay", params={} if seat is None else {"seat": seat})
        assert r.status_code == 200, r.text
        outlines[seat] = out = r.json()
        assert (out["steps"], out["seat"], out["game"]) == (steps, seat, "nutty-noodles")
        assert out["times"] == [log["started_at"]] + [a["at"] for a in log["actions"]]
        assert [s["name"] for s in out["seats"]] == log["players"]
        assert out["result"] == log["result"]
        assert [(c["name"], c["text"]) for c in out["chat"]] == [("P1", "good game")]
        # every event this seat saw, step by step, and none it did not
        assert out["events"] == every_event_by_hand(log, seat)
    assert len(outlines[0]["events"]) > 0

    for step in sorted({0, 1, 2, steps // 2, steps - 1, steps}):
        for seat in (None, 0, 1):
            query = {} if seat is None else {"seat": seat}
            r = await api.client.get(f"/api/matches/{match_id}/replay/{step}", params=query)
            assert r.status_code == 200, r.text
            got = r.json()
            view, events = by_hand(log, step, seat)
            assert (got["step"], got["steps"], got["seat"]) == (step, steps, seat)
            assert got["view"] == view and got["events"] == events
            assert got["at"] == outlines[seat]["times"][step]
            assert got["result"] == (log["result"] if step == steps else None)
    # the last step is the finished table, as the match's own spectators see it
    last = (await api.client.get(f"/api/matches/{match_id}/replay/{steps}")).json()
    assert last["view"] == (await api.view(match_id))["view"]
    assert last["deadline"] is None


async def test_each_seat_sees_its_own_secrets_in_a_replay_and_spectators_none(api: Api, served: Served) -> None:
    # seed 2: every seat gets a secret of its own (a face-down discard or a new Craving)
    match_id = await stored_match(served.runtime.store, "sneaky-supper", bots=3, seed=2)
    log = (await api.log(match_id)).json()
    private: dict[int | None, list[str]] = {}
    for seat in (None, 0, 1, 2):
        out = (await api.client.get(f"/api/matches/{match_id}/replay",
                                    params={} if seat is None else {"seat": seat})).json()
        assert out["events"] == every_event_by_hand(log, seat)
        private[seat] = [e["text"] for e in out["events"] if e["private"]]
    assert private[None] == []
    assert all(private[seat] for seat in (0, 1, 2)), "each seat had secrets of its own"
    step = len(log["actions"]) // 2
    for seat in (None, 0, 2):
        got = (await api.client.get(f"/api/matches/{match_id}/replay/{step}",
                                    params={} if seat is None else {"seat": seat})).json()
        assert got["view"] == by_hand(log, step, seat)[0]


async def test_going_back_and_forth_gives_the_same_tables(api: Api) -> None:
    match_id, _ = await finished_match(api)
    steps = (await api.client.get(f"/api/matches/{match_id}/replay")).json()["steps"]
    order = [steps, 0, steps // 2, steps // 2 + 1, 1, steps - 1, steps // 2]
    seen: dict[int, dict[str, Any]] = {}
    for step in order:
        view = (await api.client.get(f"/api/matches/{match_id}/replay/{step}", params={"seat": 1})).json()["view"]
        assert seen.setdefault(step, view) == view


async def test_no_such_seat_or_step_is_a_clear_422(api: Api) -> None:
    match_id, _ = await finished_match(api)
    for path, message in [("replay?seat=2", "no seat 2"), ("replay/0?seat=7", "no seat 7"),
                          ("replay/100000", "no step 100000")]:
        r = await api.client.get(f"/api/matches/{match_id}/{path}")
        assert (r.status_code, r.json()["code"]) == (422, "invalid"), r.text
        assert message in r.json()["detail"]
    for bad in ("replay/-1", "replay/x", "replay?seat=-1", "replay?seat=x"):
        r = await api.client.get(f"/api/matches/{match_id}/{bad}")
        assert r.status_code == 422, (bad, r.text)
    assert (await api.client.get(f"/api/matches/{match_id}/replay/0")).status_code == 200


async def test_the_server_keeps_a_bounded_number_of_replays(api: Api, served: Served) -> None:
    first, _ = await finished_match(api)
    second, _ = await finished_match(api)
    replays = Replays(served.runtime.store, size=1)
    one = await replays.timeline(await replays.finished(first))
    assert await replays.timeline(await replays.finished(first)) is one  # kept…
    await replays.timeline(await replays.finished(second))
    assert await replays.timeline(await replays.finished(first)) is not one  # …until another came


async def test_a_log_this_code_cannot_replay_is_unavailable(api: Api, served: Served,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    match_id, _ = await finished_match(api)
    store = served.runtime.store
    actions = await store.actions(match_id)
    tampered = [ActionRecord(a.seq, a.seat, {"type": "no-such-move"} if a.seq == 1 else a.action, a.at)
                for a in actions]

    async def changed_code(_match_id: str, after: int = 0) -> list[ActionRecord]:
        return tampered

    monkeypatch.setattr(store, "actions", changed_code)  # as if the game's code had changed
    r = await api.client.get(f"/api/matches/{match_id}/replay")
    assert (r.status_code, r.json()["code"]) == (503, "unavailable"), r.text
    assert "cannot be replayed" in r.json()["detail"]


async def test_the_replay_and_player_pages_are_served(api: Api) -> None:
    r = await api.client.get("/matches/abc123/replay")
    assert r.status_code == 200 and 'data-match="abc123"' in r.text and "/static/js/replay.js" in r.text
    assert "<script>" not in r.text  # no inline script: only the module and a JSON data block
    assert (await api.client.get("/matches/bad%20id!/replay")).status_code == 404
    r = await api.client.get("/players/Ann%20%3Cb%3E")
    assert r.status_code == 200 and "Names are not identity" in r.text
    assert "Ann &lt;b&gt;" in r.text and "<b>" not in r.text  # the name is text, never markup
