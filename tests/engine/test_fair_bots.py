"""Bots are fair by construction, checked for every game and every level.

A bot gets a ``BotInput`` — its seat's view, legal actions, the clock and a sampler of
determinized states — and never the true state. So two true states that look the same
from a seat (one of them a re-deal of the other) give that seat's bot identical inputs,
and identical decisions with the same Rng; and nothing a bot is handed or keeps leads
back to the true state.
"""

from __future__ import annotations

import re
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any, Iterator

import pytest

from server.engine import LEVELS, BotInput, Game, Rng, State, registry
from server.engine.bots import ask
from server.engine.playout import Entry, play, random_bots

GAMES = sorted(registry.games())
ROOT = Path(__file__).resolve().parents[2]


def states(game: Game[Any, Any], players: int, seed: int, every: int = 5, limit: int = 12):
    """(state, now_ms) pairs met along a random game."""
    found: list[tuple[Any, int]] = []

    def keep(state: Any, entry: Entry, _events: list) -> None:
        if len(found) < limit and (len(found) + entry.at_ms) % every == 0 and game.result(state) is None:
            found.append((state, entry.at_ms))

    play(game, players, None, seed, bots=random_bots, on_step=keep)
    return found


def twins(game: Game[Any, Any]) -> Iterator[tuple[Any, Any, int, int]]:
    """(truth, other, seat, now): ``other`` re-deals all ``seat`` cannot see of ``truth``
    and has another future of the RNG (the same view, a different state), at the smallest
    and the largest table."""
    rng = Rng(2024)
    for players in sorted({game.min_players, game.max_players}):
        for truth, now in states(game, players, seed=players):
            for seat in range(players):
                other = game.determinize(truth, seat, rng)
                other.rng = rng.fork()  # nobody sees the dice or shuffles to come
                yield truth, other, seat, now


@pytest.mark.parametrize("game_id", GAMES)
def test_same_view_same_bot_input(game_id: str) -> None:
    """Every part of the input — view, legal actions, clock and each sample — is the
    same for two states the seat cannot tell apart."""
    game = registry.get(game_id)
    redealt = 0
    for truth, other, seat, now in twins(game):
        a, b = BotInput.of(game, truth, seat, now), BotInput.of(game, other, seat, now)
        assert (a.seat, a.now_ms, a.deadline) == (b.seat, b.now_ms, b.deadline)
        assert a.view == b.view and a.legal == b.legal
        for k in range(2):
            assert a.sample(Rng(k)) == b.sample(Rng(k)), f"seat {seat}: the sample depends on the truth"
        redealt += truth != other
    assert redealt, "determinize never changed a state: this test would prove nothing"


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("game_id", GAMES)
def test_same_view_same_decision(game_id: str, level: str) -> None:
    """A fresh bot with the same Rng decides the same on the truth and on its re-deal."""
    game = registry.get(game_id)
    decided = 0
    for n, (truth, other, seat, now) in enumerate(twins(game)):
        if level == "hard" and n % 4:
            continue  # a hard bot thinks for a while: every fourth pair is plenty
        mine = ask(game, game.bot(seat, Rng(n), level=level), truth, seat, now)
        theirs = ask(game, game.bot(seat, Rng(n), level=level), other, seat, now)
        assert mine == theirs, f"seat {seat} at level {level} decided on what it cannot see"
        decided += mine is not None
    assert decided > 3


def reachable(root: Any) -> Iterator[Any]:
    """Every object reachable from ``root`` through attributes (instance dicts, slots,
    dataclass fields) and containers — all a bot can get at without introspection."""
    seen: set[int] = set()
    todo = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, (str, bytes, int, float, bool, type(None), type)):
            continue
        seen.add(id(obj))
        yield obj
        if isinstance(obj, dict):
            todo.extend(obj.keys())
            todo.extend(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset)):
            todo.extend(obj)
        if callable(obj) and not is_dataclass(obj):
            continue  # a function's code and closure are not attributes of the bot's world
        todo.extend(vars(obj).values() if hasattr(obj, "__dict__") else [])
        for cls in type(obj).__mro__:
            for slot in getattr(cls, "__slots__", ()):
                if hasattr(obj, slot):
                    todo.append(getattr(obj, slot))
        if is_dataclass(obj):
            todo.extend(getattr(obj, f.name) for f in fields(obj))


def mutable_parts(state: Any) -> set[int]:
    return {id(o) for o in reachable(state) if not isinstance(o, (tuple, frozenset))}


@pytest.mark.parametrize("game_id", GAMES)
def test_no_attribute_of_the_input_or_the_bot_leads_to_the_true_state(game_id: str) -> None:
    """Walk everything reachable from the input (before and after the bot used it) and
    from the bot itself: never the true state, nor any object inside it."""
    game = registry.get(game_id)
    for level in LEVELS:
        for n, (truth, _other, seat, now) in enumerate(twins(game)):
            if n % 6:
                continue
            inside = mutable_parts(truth)
            seen = BotInput.of(game, truth, seat, now)
            bot = game.bot(seat, Rng(n), level=level)
            bot.decide(seen)
            for obj in [*reachable(seen), *reachable(bot)]:
                assert obj is not truth and id(obj) not in inside, f"{level} bot reaches {type(obj)}"
                assert not isinstance(obj, State) or obj is not truth


def test_the_walk_would_find_a_state_held_in_an_attribute() -> None:
    """The check above can fail: an input that kept the state would be caught."""
    game = registry.get(GAMES[0])
    truth, now = states(game, game.min_players, seed=1)[0]
    seen = BotInput.of(game, truth, 0, now)

    class Leaky:
        def __init__(self) -> None:
            self.peek = {"state": [truth]}

    assert any(obj is truth for obj in reachable(Leaky()))
    assert not any(obj is truth for obj in reachable(seen))


CHEATS = re.compile(r"__closure__|cell_contents|__self__|_getframe|f_locals|f_back|\bgc\.|\binspect\.|"
                    r"\bimport (?:gc|inspect)\b|\bfrom (?:gc|inspect) import")


def test_bot_code_does_not_introspect_its_way_to_the_truth() -> None:
    """The true state sits only in the input's closures; no bot module reads closures,
    frames or the garbage collector."""
    sources = [*sorted((ROOT / "server" / "games").glob("*/bot*.py")), ROOT / "server" / "engine" / "ismcts.py"]
    checked = 0
    for path in sources:
        if path.exists():
            found = CHEATS.findall(path.read_text())
            assert not found, f"{path.relative_to(ROOT)} uses {found}"
            checked += 1
    assert checked >= len(GAMES)
