"""REST: the replay of a finished match, step by step, from any seat or the spectators'.

Once a match is over nothing about it is secret any more, so a replay shows every seat's
view at every step (and the events that seat saw); while it runs, a replay is refused
(409 ``not_finished``): a live match shows nobody more than a spectator sees.

``GET /api/matches/{id}/replay?seat=S`` is the outline the page loads once (players,
number of steps, each step's time, every event ``S`` saw, the table talk);
``GET /api/matches/{id}/replay/{step}?seat=S`` is the table at one step. The replayed
states of a few recently asked matches stay in memory (``Replays``), checkpointed so any
step costs a handful of ``apply`` calls, however long the match.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

from fastapi import APIRouter, Depends, Path, Query, Request
from pydantic import BaseModel, Field

from server.engine import IllegalAction, UnknownGame, registry
from server.engine.playout import Entry
from server.engine.timeline import Timeline
from server.runtime import Runtime
from server.problems import Invalid, NotFinished, Unavailable, UnknownMatch
from server.runtime.messages import event_json
from server.store import MatchRecord, Store

from .auth import MATCH_ID_MAX, runtime_of
from .schemas import ChatLine, EventOut, Problem

router = APIRouter(prefix="/api/matches/{match_id}/replay", tags=["replays"])

KEPT_REPLAYS = 8  # matches whose replayed states stay in memory…
KEPT_REPLAY_BYTES = 32 << 20  # …and their weight in all (``Timeline.weight``)
REPLAY_CHAT_LINES = 2000
NOT_OVER = "The replay opens once the match is over: until then, watch it live as a spectator."

REFUSALS = {
    404: {"model": Problem, "description": "No such match."},
    409: {"model": Problem, "description": "The match is not over (`not_finished`)."},
    422: {"model": Problem, "description": "No such seat or step."},
}


class NamedSeat(BaseModel):
    seat: int
    name: str
    bot: bool


class ReplayOutline(BaseModel):
    id: str
    game: str
    options: dict[str, Any]
    seats: list[NamedSeat]
    seat: int | None = Field(description="Whose events these are (null: the spectators').")
    steps: int = Field(description="Actions in the log; step 0 is the start, the last step the end.")
    times: list[int] = Field(description="Game-clock ms of each step, 0 to `steps`.")
    started_at: int
    finished_at: int | None
    result: dict[str, Any] | None
    events: list[EventOut] = Field(description="Every event this seat saw; `seq` is the step that caused it.")
    chat: list[ChatLine]


class ReplayStep(BaseModel):
    step: int
    steps: int
    seat: int | None
    at: int = Field(description="Game-clock ms of this step.")
    view: dict[str, Any] = Field(description="The game's view for this seat after `step` actions.")
    events: list[EventOut] = Field(description="The events of this step this seat saw.")
    deadline: int | None = Field(description="When time would have moved the game on, at this step.")
    result: dict[str, Any] | None = Field(description="At the last step: the result.")


class Replays:
    """The timelines of the last ``size`` matches asked for, at most ``max_bytes`` of them
    in all (built once each, off the event loop; two requests for the same match share one
    build). A timeline heavier than ``max_bytes`` alone is answered from and not kept."""

    def __init__(self, store: Store, size: int = KEPT_REPLAYS, max_bytes: int = KEPT_REPLAY_BYTES) -> None:
        self.store, self.size, self.max_bytes = store, size, max_bytes
        self._kept: OrderedDict[str, Timeline] = OrderedDict()
        self._building: dict[str, asyncio.Task[Timeline]] = {}

    async def finished(self, match_id: str) -> MatchRecord:
        """The match's record; 404 if there is none, 409 while it is not over."""
        record = await self.store.get_match(match_id)
        if record.status != "finished" or record.started_at is None:
            raise NotFinished(NOT_OVER)
        return record

    async def timeline(self, record: MatchRecord) -> Timeline:
        kept = self._kept.get(record.id)
        if kept is not None:
            self._kept.move_to_end(record.id)
            return kept
        task = self._building.get(record.id)
        if task is None:
            task = asyncio.create_task(self._build(record))
            self._building[record.id] = task
            task.add_done_callback(lambda _: self._building.pop(record.id, None))
        timeline = await asyncio.shield(task)
        self._kept[record.id] = timeline
        while len(self._kept) > self.size or self.kept_bytes() > self.max_bytes:
            self._kept.popitem(last=False)
        return timeline

    def kept_bytes(self) -> int:
        return sum(t.weight for t in self._kept.values())

    async def _build(self, record: MatchRecord) -> Timeline:
        try:
            game = registry.get(record.game)
        except UnknownGame:
            raise UnknownMatch(f"Match {record.id!r} is a game of {record.game!r}, which this server "
                               "does not have.") from None
        log = [Entry(a.seat, a.action, a.at) for a in await self.store.actions(record.id)]
        assert record.started_at is not None
        try:
            return await asyncio.to_thread(Timeline, game, record.seat_names(), record.options, record.seed,
                                           record.started_at, log)
        except IllegalAction:
            raise Unavailable(f"Match {record.id!r} cannot be replayed by this version of {game.name}.") from None


def replays_of(request: Request, runtime: Runtime = Depends(runtime_of)) -> Replays:
    """The app's replay cache (made on first use, on the runtime's store)."""
    replays = getattr(request.app.state, "replays", None)
    if replays is None or replays.store is not runtime.store:
        replays = request.app.state.replays = Replays(runtime.store)
    return replays


def _seat(record: MatchRecord, seat: int | None) -> int | None:
    if seat is not None and not 0 <= seat < record.players:
        raise Invalid(f"This match has seats 0 to {record.players - 1}; there is no seat {seat}.")
    return seat


MatchId = Path(max_length=MATCH_ID_MAX)
SeatQuery = Query(None, ge=0, le=64, description="Whose view: a seat number; none: the spectators'.")


@router.get("", response_model=ReplayOutline, responses=REFUSALS, summary="A finished match's replay: the outline")
async def outline(match_id: str = MatchId, seat: int | None = SeatQuery,
                  replays: Replays = Depends(replays_of)) -> dict[str, Any]:
    """Players, steps and their times, every event ``seat`` saw and the table talk: what a
    replay page loads once. Refused (409) while the match runs."""
    record = await replays.finished(match_id)
    seat = _seat(record, seat)
    timeline = await replays.timeline(record)
    steps = range(timeline.steps + 1)
    return {
        "id": record.id, "game": record.game, "options": record.options,
        "seats": [{"seat": s.seat, "name": s.name, "bot": s.bot} for s in record.seats],
        "seat": seat, "steps": timeline.steps, "times": [timeline.at(n) for n in steps],
        "started_at": record.started_at, "finished_at": record.finished_at, "result": record.result,
        "events": [event_json(n, e) for n in steps for e in timeline.events(n) if e.visible_to(seat)],
        "chat": [line.to_json() for line in await replays.store.chat(record.id, limit=REPLAY_CHAT_LINES)],
    }


@router.get("/{step}", response_model=ReplayStep, responses=REFUSALS, summary="A finished match's table at one step")
async def at_step(match_id: str = MatchId, step: int = Path(ge=0, le=10_000_000), seat: int | None = SeatQuery,
                  replays: Replays = Depends(replays_of)) -> dict[str, Any]:
    """``seat``'s view after ``step`` actions (0: the start), with that step's events."""
    record = await replays.finished(match_id)
    seat = _seat(record, seat)
    timeline = await replays.timeline(record)
    if step > timeline.steps:
        raise Invalid(f"This match has steps 0 to {timeline.steps}; there is no step {step}.")
    game, state = timeline.game, timeline.state(step)
    return {
        "step": step, "steps": timeline.steps, "seat": seat, "at": timeline.at(step),
        "view": game.view(state, seat),
        "events": [event_json(step, e) for e in timeline.events(step) if e.visible_to(seat)],
        "deadline": game.deadline(state),
        "result": record.result if step == timeline.steps else None,
    }
