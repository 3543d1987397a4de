"""One action is one step: the runtime asks the game each question once per action.

A game wrapped in ``Asked`` counts what the runtime asks it (the game's calls into itself
are not counted: they go to the game, not the wrapper). After one action, with a socket at
each human seat, a spectator and a bot seat: the rules applied once, the deadline and the
result asked once, each seat's view and legal actions worked out once (shared by the
sockets and the bot), the canonical action encoded to JSON once (what the log stores is
that text), the bot asked once since what it sees changed (and not again while nothing it
sees changes) — and the deadline timer kept as it was when the deadline did not move,
armed anew when it did.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from typing import Any, Callable

import pytest

from server.engine import BotInput, Decision, registry
from server.runtime import LiveMatch, Runtime, step

from .test_runtime import _until, runtime, sink

QUESTIONS = ("apply", "deadline", "result", "waiting_for")
BY_SEAT = ("legal", "view", "legals", "views")  # (state, seat) or (state, seats)


class Asked:
    """``game``, counting the runtime's questions: ``asked[name]`` for each call, and
    ``seats[name][seat]`` for the seats a view or legal list was worked out for."""

    def __init__(self, game: Any) -> None:
        self._game = game
        self.asked: Counter[str] = Counter()
        self.seats: dict[str, Counter[Any]] = {"legal": Counter(), "view": Counter()}

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._game, name)
        if name not in QUESTIONS and name not in BY_SEAT:
            return found

        def asked(*args: Any, **kwargs: Any) -> Any:
            self.asked[name] += 1
            if name in BY_SEAT:
                self.seats[name.rstrip("s")].update(args[1] if name.endswith("s") else [args[1]])
            return found(*args, **kwargs)

        return asked

    def reset(self) -> None:
        self.asked.clear()
        for seen in self.seats.values():
            seen.clear()


class PatientBot:
    """A bot that waits (decides nothing), counting how often it is asked."""

    def __init__(self) -> None:
        self.asked = 0

    def decide(self, seen: BotInput) -> Decision | None:
        self.asked += 1
        return None


def encodings_of(action: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> Callable[[], int]:
    """How often ``action`` is encoded to JSON from now on (by ``json.dumps`` or the
    runtime's own writer of actions, ``step._plain_json``)."""
    count = 0

    def counting(encode: Callable[..., str]) -> Callable[..., str]:
        def counted(obj: Any, *args: Any, **kwargs: Any) -> str:
            nonlocal count
            count += obj == action
            return encode(obj, *args, **kwargs)

        return counted

    monkeypatch.setattr(json, "dumps", counting(json.dumps))
    monkeypatch.setattr(step, "_plain_json", counting(step._plain_json))
    return lambda: count


async def _asked_match(rt: Runtime, players: int, bots: int) -> tuple[LiveMatch, Asked, list[PatientBot]]:
    """A match of Nutty Noodles with a ready check, every human seat taken, held as a
    ``LiveMatch`` of the wrapped game (its bots patient), with a socket at every human seat
    and a spectator's."""
    record = await rt.create("nutty-noodles", players, {"ready_check": True}, bots)
    for i in range(players - bots):
        _, _, live = await rt.join(record.id, f"P{i}")
    record = live.record
    assert record.status == "running"
    rt.live.pop(record.id).close()
    game, patient = Asked(registry.get("nutty-noodles")), []

    def bot(seat: int, rng: Any, **kwargs: Any) -> PatientBot:
        patient.append(PatientBot())
        return patient[-1]

    game.bot = bot  # type: ignore[attr-defined]
    live = rt.live[record.id] = LiveMatch(rt.services, record, game)  # type: ignore[arg-type]
    live.start(record)
    for seat, reads in zip([*range(players - bots), None], ["whole", "compact", "delta"]):
        sub = sink(seat, [])
        sub.reads = reads
        live.subscribe(sub, [])
    return live, game, patient


def armed(live: LiveMatch) -> asyncio.TimerHandle | None:
    """The deadline timer the match holds now."""
    return live.timer._handle


async def test_one_action_asks_the_game_each_question_once(database_url: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    async with runtime(database_url, lease_s=0, snapshot_every=0) as rt:
        live, game, (bot,) = await _asked_match(rt, 3, 1)
        await _until(lambda: bot.asked == 1 and not live.bots.thinking())
        timer = armed(live)
        assert timer is not None and live.deadline is not None
        game.reset()
        ready = {"type": "ready"}
        encoded = encodings_of(ready, monkeypatch)

        assert await live.act(0, dict(ready)) == 1
        await _until(lambda: bot.asked == 2 and not live.bots.thinking())

        assert game.asked["apply"] == 1, "the rules were applied more than once"
        assert game.asked["deadline"] == 1 and game.asked["result"] == 1, game.asked
        assert game.asked["waiting_for"] == 0, "a live match asked whose move it is"
        assert game.seats["view"] == Counter({0: 1, 1: 1, 2: 1, None: 1}), game.seats["view"]
        assert game.seats["legal"] == Counter({0: 1, 1: 1, 2: 1}), game.seats["legal"]
        assert encoded() == 1, "the action was encoded to JSON more than once"
        assert live.state.phase == "ready"  # the bot is not ready: the deadline did not move
        assert armed(live) is timer, "the deadline timer was armed again for the same deadline"
        assert bot.asked == 2  # once more: what it sees changed (seat 0 is ready)

        live.arm()  # handed what they see again (as after a socket comes or goes): nothing changed
        assert not live.bots.thinking() and bot.asked == 2, "the bot was asked again, though nothing it sees changed"
        assert armed(live) is timer


async def test_the_deadline_timer_is_armed_again_only_when_the_deadline_moves(database_url: str) -> None:
    async with runtime(database_url, lease_s=0, snapshot_every=0) as rt:
        live, game, _ = await _asked_match(rt, 2, 0)
        timer, due = armed(live), live.deadline
        assert timer is not None and due is not None
        await live.act(0, {"type": "ready"})
        assert live.deadline == due and armed(live) is timer, "the timer was armed again, the deadline unmoved"
        await live.act(1, {"type": "ready"})  # everyone is ready: the throw's deadline
        assert live.state.phase == "roll" and live.deadline != due
        assert armed(live) is not timer and armed(live) is not None, "the timer kept the old deadline"
        assert live.timer.due == live.deadline
