"""The runtime's rules of engagement, with a clock the test moves by hand (timers only fire
when the test says time has passed):

- a due timeout is applied before a player's action;
- a stale ``expect_seq`` is refused;
- two runtimes on one database never fork a match: the loser of a race catches up from
  the log and re-validates;
- a bot whose action became illegal is dropped and asked again, and one decided before
  another process moved the match is not played at all;
- a match is restored from a snapshot plus the tail, or from its seed when a snapshot is
  unusable.
"""

from __future__ import annotations

import asyncio
import json
import time
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

import pytest

from server.config import Settings
from server.engine import BotInput, Decision, IllegalAction, private
from server.games.nutty_noodles.rules import NuttyNoodles
from server.runtime import Illegal, LiveMatch, Runtime, StaleSeq, Subscriber
from server.runtime.clock import Clock
from server.store import Database, Store
from server.store.migrate import upgrade

from .clients import answer

START = 1_700_000_000_000


class HandClock(Clock):
    """Game time moves only when the test says so; a timer set for a moment that has come
    fires at once, one in the future waits until ``advance`` re-arms it (never, here)."""

    def __init__(self) -> None:
        super().__init__()
        self.t = START

    def now_ms(self) -> int:
        return self.t

    def seconds_until(self, at_ms: int) -> float:
        return 0.0 if at_ms <= self.t else 3600.0


@asynccontextmanager
async def runtime(database_url: str, clock: Clock | None = None, **settings: Any) -> AsyncIterator[Runtime]:
    db = Database(database_url)
    await upgrade(db)
    rt = Runtime(Settings(database_url=database_url, **settings), Store(db), clock or HandClock())
    await rt.start()
    try:
        yield rt
    finally:
        await rt.stop()
        await db.close()


async def _started(rt: Runtime, players: int = 2, **options: Any) -> tuple[LiveMatch, int]:
    record = await rt.create("nutty-noodles", players, options, 0)
    for i in range(players):
        _, _, live = await rt.join(record.id, f"P{i}")
    return live, live.state.thrower


async def test_a_due_timeout_is_applied_before_a_players_action(database_url: str) -> None:
    clock = HandClock()
    async with runtime(database_url, clock) as rt:
        live, thrower = await _started(rt, roll_timeout_ms=8000, round_timeout_ms=30_000)
        clock.t += 8000  # the throw timer is due, but no timer has fired
        with pytest.raises(Illegal, match="already on the table"):
            await live.act(thrower, {"type": "roll"})
        log = await rt.store.actions(live.id)
        assert [(e.seq, e.seat, e.action) for e in log] == [(1, None, {"type": "timeout"})]
        assert live.state.phase == "race"

        clock.t += 30_000  # nobody served in time
        with pytest.raises(Illegal, match="Wait for the dice"):
            await live.act(1 - thrower, answer(rt_view(live)))
        assert [e.action for e in await rt.store.actions(live.id)] == [{"type": "timeout"}] * 2
        assert live.state.phase == "roll" and live.seq == 2


def rt_view(live: LiveMatch) -> dict:
    return live.game.view(live.state, None)


async def test_a_stale_expect_seq_is_refused(database_url: str) -> None:
    async with runtime(database_url) as rt:
        live, thrower = await _started(rt)
        with pytest.raises(StaleSeq) as stale:
            await live.act(thrower, {"type": "roll"}, expect_seq=4)
        assert stale.value.seq == 0 and live.seq == 0
        assert await live.act(thrower, {"type": "roll"}, expect_seq=0) == 1


async def test_two_runtimes_on_one_database_never_fork_a_match(database_url: str) -> None:
    async with runtime(database_url) as a, runtime(database_url) as b:
        live_a, thrower = await _started(a, tie_window_ms=0)
        live_b = await b.get(live_a.id)
        assert live_b is not live_a and live_b.state == live_a.state

        assert await live_a.act(thrower, {"type": "roll"}) == 1
        # b has not heard of it: it validates against seq 0, loses the race for seq 1,
        # reads the log, and finds the roll is no longer legal
        with pytest.raises(Illegal, match="already on the table"):
            await live_b.act(thrower, {"type": "roll"})
        assert live_b.seq == 1 and live_b.state == live_a.state

        right = answer(rt_view(live_a))
        assert await live_a.act(0, right) == 2  # tie window 0: the round is over at once
        # b still sees the race: its placement passes b's stale check, loses seq 2 to a,
        # and is re-validated against the state after the log's seq 2
        with pytest.raises(Illegal, match="Wait for the dice"):
            await live_b.act(1, right)
        assert live_b.seq == 2 and live_b.state == live_a.state
        assert await live_b.act(live_b.state.thrower, {"type": "roll"}) == 3
        await live_a.sync()
        assert live_a.seq == 3 and live_a.state == live_b.state
        log = await a.store.actions(live_a.id)
        assert [(e.seq, e.seat) for e in log] == [(1, thrower), (2, 0), (3, live_b.state.thrower)]
        assert b.metrics.conflicts._value.get() == 2


async def test_a_bots_decision_is_played_only_on_the_state_it_was_made_for(database_url: str) -> None:
    """The owner of a match runs its bots. A decision made at one seq and due after a
    player moved the match through another process is stale: it is not played, the bot
    thinks again (else the bot could move twice, or on a state it never saw)."""
    async with runtime(database_url) as a, runtime(database_url) as b:
        record = await a.create("nutty-noodles", 2, {"tie_window_ms": 0}, 1)  # seat 1: a bot
        *_, live_a = await a.join(record.id, "Ann")  # a started it: a owns it
        await live_a.act(live_a.state.thrower, {"type": "roll"})
        live_b = await b.get(record.id)
        assert live_a.drives and not live_b.drives and live_b.seq == 1
        bot = live_a.players.controllers(a.services.clock.now_ms())[1]
        right = answer(rt_view(live_a))
        wrong = next(bowl for bowl in live_b.state.bowls if bowl != right["bowl"])
        assert await live_b.act(0, {"type": "place", "bowl": wrong, "table": right["table"]}) == 2
        await live_a._bot_move(1, bot, right, 1)  # decided at seq 1, due after b's seq 2
        assert [e.seq for e in await a.store.actions(record.id)] == [1, 2]
        assert live_a.seq == 2 and live_a.state == live_b.state


class StubbornBot:
    """First insists on an action the rules refuse, then plays properly."""

    def __init__(self) -> None:
        self.calls = 0

    def decide(self, seen: BotInput) -> Decision | None:
        if {"type": "roll"} not in seen.legal:
            return None
        self.calls += 1
        return Decision({"type": "moonwalk"} if self.calls == 1 else {"type": "roll"}, seen.now_ms)


class StubbornNoodles(NuttyNoodles):
    def __init__(self) -> None:
        self.bots: dict[int, StubbornBot] = {}

    def bot(self, seat: int, rng: Any, **params: Any) -> StubbornBot:  # type: ignore[override]
        return self.bots.setdefault(seat, StubbornBot())


async def test_a_bot_action_that_is_refused_is_dropped_and_the_bot_asked_again(database_url: str) -> None:
    async with runtime(database_url) as rt:
        record = await rt.create("nutty-noodles", 2, {}, 2)
        rt.live.pop(record.id).close()  # replace the registry's game with the stubborn one
        game = StubbornNoodles()
        live = LiveMatch(rt.services, record, game)
        rt.live[record.id] = live
        live.start(record)
        await _until(lambda: live.seq == 1)
        thrower = live.state.thrower
        assert game.bots[thrower].calls == 2
        assert [(e.seat, e.action) for e in await rt.store.actions(live.id)] == [(thrower, {"type": "roll"})]
        assert rt.metrics.rejected.labels("illegal")._value.get() == 1


def sink(seat: int | None, got: list[dict[str, Any]]) -> Subscriber:
    """A socket of ``seat`` that keeps every message it is sent in ``got``."""
    async def send(text: str) -> None:
        got.append(json.loads(text))

    async def close(code: int, reason: str) -> None:
        pass

    return Subscriber(seat, send, close)


async def _until(condition: Any, timeout: float = 10) -> None:
    async def wait() -> None:
        while not condition():
            await asyncio.sleep(0.01)

    await asyncio.wait_for(wait(), timeout)


async def test_restore_from_snapshot_and_tail_or_from_the_seed(database_url: str) -> None:
    clock = HandClock()
    async with runtime(database_url, clock, snapshot_every=4) as rt:
        live, _ = await _started(rt, players=3, tie_window_ms=0)
        while live.seq < 10:
            view = rt_view(live)
            if view["phase"] == "roll":
                await live.act(view["thrower"], {"type": "roll"})
            else:
                await live.act(live.seq % 3, answer(view))
            clock.t += 500
        await _until(lambda: not rt.services.tasks)
        snapshot = await rt.store.latest_snapshot(live.id, _fingerprint(live))
        assert snapshot is not None and snapshot[0] == 8
        state, seq = live.state, live.seq

    async with runtime(database_url, clock) as fresh:
        again = await fresh.get(live.id)
        assert (again.seq, again.state) == (seq, state)

    await Store(db := Database(database_url)).save_snapshot(live.id, 9, _fingerprint(live), b"garbage", START)
    await db.close()
    async with runtime(database_url, clock) as fresh:
        again = await fresh.get(live.id)  # the broken snapshot is ignored: replay from the seed
        assert (again.seq, again.state) == (seq, state)


def _fingerprint(live: LiveMatch) -> str:
    from server.runtime.snapshots import code_fingerprint

    return code_fingerprint(type(live.game))


class NoTimeNoodles(NuttyNoodles):
    """A buggy game: it has deadlines but refuses every timeout."""

    def __init__(self) -> None:
        self.refusals = 0

    def apply(self, state: Any, seat: Any, action: Any, now_ms: int) -> Any:
        if seat is None:
            self.refusals += 1
            raise IllegalAction("no.")
        return super().apply(state, seat, action, now_ms)


async def test_a_game_refusing_its_own_timeout_does_not_make_the_runtime_spin(database_url: str) -> None:
    clock = HandClock()
    async with runtime(database_url, clock) as rt:
        record = await rt.create("nutty-noodles", 2, {}, 2)
        rt.live.pop(record.id).close()
        game = NoTimeNoodles()
        game.bot = lambda seat, rng, **kw: StubbornBot()  # type: ignore[method-assign]
        live = LiveMatch(rt.services, record, game)
        rt.live[record.id] = live
        clock.t += 10**6  # every deadline is long past
        live.start(record)
        # the bot still rolls (the broken timeout does not stall the match)…
        await _until(lambda: live.seq == 1 and game.refusals >= 1)
        await asyncio.sleep(0.1)  # the timers this last change armed have run
        settled = game.refusals
        await asyncio.sleep(0.3)
        # …and once nothing changes, the refused timeout is not tried again and again
        assert game.refusals == settled, f"the runtime spins: {settled} refusals, then {game.refusals}"
        assert settled <= 3, f"the refused timeout was tried {settled} times before the match settled"
        assert live.seq == 1, "a refused timeout moved the match on"


async def test_matches_nobody_watches_leave_memory_and_come_back_by_replay(database_url: str) -> None:
    """Another process's copy of a match leaves memory once nobody watches it; the owner
    keeps its own while a timer is due (else nobody would move it on)."""
    async with runtime(database_url, evict_after_s=300) as owner, runtime(database_url, evict_after_s=300) as rt:
        owned, thrower = await _started(owner)
        live = await rt.get(owned.id)
        await live.act(thrower, {"type": "roll"})
        watched = await rt.get((await _started(owner))[0].id)
        watched.subscribers.add(object())  # type: ignore[arg-type]  # somebody's socket
        now = live.touched  # its last change (nothing moves it here: the hand clock stands still)
        assert rt.sweep(now + 299) == []
        assert rt.sweep(now + 301) == [live.id] and watched.id in rt.live
        assert live.closed and not live.drives
        again = await rt.get(live.id)
        assert again is not live and (again.seq, again.state) == (live.seq, live.state)
        await owned.sync()
        assert owned.drives and owned.timer.armed  # the round's timer
        assert owner.sweep(now + 301) == [], "the owner dropped a match whose timer is due"


class WhisperingNoodles(NuttyNoodles):
    """Tells the thrower a secret with every throw."""

    def apply(self, state: Any, seat: Any, action: Any, now_ms: int) -> Any:
        new_state, events = super().apply(state, seat, action, now_ms)
        if action.get("type") == "roll" and seat is not None:
            events = [*events, private(seat, "secret", "Psst: the dice are loaded.", hint=42)]
        return new_state, events


async def test_each_socket_gets_only_the_events_its_seat_may_see(database_url: str) -> None:
    async with runtime(database_url) as rt:
        record = await rt.create("nutty-noodles", 2, {}, 0)
        for i in range(2):
            await rt.join(record.id, f"P{i}")
        rt.live.pop(record.id).close()
        record = await rt.store.get_match(record.id)
        live = LiveMatch(rt.services, record, WhisperingNoodles())
        rt.live[record.id] = live
        live.start(record)
        got: dict[Any, list[dict]] = {0: [], 1: [], None: []}
        for seat, messages in got.items():
            live.subscribe(sink(seat, messages), [])
        thrower = live.state.thrower
        await live.act(thrower, {"type": "roll"})
        await _until(lambda: all(any(m.get("seq") == 1 for m in msgs) for msgs in got.values()))
        events = {seat: [e["type"] for e in msgs[-1]["events"]] for seat, msgs in got.items()}
        assert events[thrower] == ["roll", "secret"]
        assert events[1 - thrower] == ["roll"] and events[None] == ["roll"]
        secret = got[thrower][-1]["events"][1]
        assert secret["private"] is True and secret["seq"] == 1 and secret["data"] == {"hint": 42}
        assert [e["type"] for e in live.payload(1 - thrower)["events"]] == ["roll"]


async def test_a_chat_line_said_while_a_socket_connects_reaches_it_once(database_url: str) -> None:
    async with runtime(database_url) as rt:
        live, _ = await _started(rt)
        history = rt.store.chat
        said: list[asyncio.Task] = []

        async def slow_history(match_id: str, **kw: Any) -> Any:
            lines = await history(match_id, **kw)
            said.append(asyncio.create_task(live.chat(0, "said while you connect")))
            await asyncio.sleep(0.05)  # the line is said between reading history and subscribing
            return lines

        rt.store.chat = slow_history  # type: ignore[method-assign]
        got: list[dict] = []
        await live.join(sink(1, got))
        await said[0]
        await _until(lambda: any(m["type"] == "chat" for m in got))
        await asyncio.sleep(0.05)
        assert [m["text"] for m in got if m["type"] == "chat"] == ["said while you connect"]
