"""``State.clone``: an independent deep copy (the rules change the copy freely), made by
pickling, with a frozen options model shared since it cannot change."""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field
from typing import Any

import pytest

from server.engine import Options, Rng, State, registry
from server.engine.playout import play, random_bots


class ToyOptions(Options):
    size: int = 3
    name: str = "toy"


@dataclass
class ToyState(State):
    players: list[str]
    phase: str
    options: ToyOptions
    rng: Rng
    hands: list[list[int]] = field(default_factory=list)
    hand: list[int] = field(default_factory=list)  # the same list as hands[0]
    seen: dict[str, set[int]] = field(default_factory=dict)


def toy() -> ToyState:
    hands = [[1, 2], [3]]
    return ToyState(["A", "B"], "play", ToyOptions(), Rng(7), hands, hands[0], {"A": {1}})


def test_a_clone_is_equal_independent_and_keeps_shared_references_shared() -> None:
    state = toy()
    copy = state.clone()
    assert copy == state and type(copy) is ToyState
    assert copy.options is state.options  # frozen: shared
    assert copy.rng is not state.rng and copy.rng == state.rng
    assert copy.hand is copy.hands[0]  # one list, still one list
    copy.hands[0].append(9)
    copy.seen["A"].add(5)
    copy.rng.next64()
    assert state == toy(), "changing the clone changed the original"


def test_a_state_with_its_own_pickling_is_cloned_by_it() -> None:
    class Custom(ToyState):
        def __reduce__(self) -> Any:
            return (toy, ())

    state = Custom(["A"], "play", ToyOptions(), Rng(1))
    assert type(state.clone()) is ToyState  # its __reduce__ was used


def _mutable_ids(value: Any, out: set[int], seen: set[int]) -> set[int]:
    """The ids of every list, dict, set and object inside ``value`` (frozen options aside)."""
    if id(value) in seen or isinstance(value, (str, int, float, bool, bytes, type(None), Options)):
        return out
    seen.add(id(value))
    if isinstance(value, (list, dict, set)):
        out.add(id(value))
    children = (value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple, set, frozenset))
                else vars(value).values() if hasattr(value, "__dict__") else ())
    if hasattr(value, "__dict__") and not isinstance(value, type):
        out.add(id(value))
    for child in children:
        _mutable_ids(child, out, seen)
    return out


@pytest.mark.parametrize("game_id", sorted(registry.games()))
def test_every_games_states_clone_whole(game_id: str) -> None:
    game = registry.get(game_id)
    states: list[Any] = []
    play(game, game.max_players, None, 11, bots=random_bots, max_steps=200,
         on_step=lambda state, entry, events: states.append(state))
    for state in states[::10]:
        copy = State.clone(state)  # a game's own clone may share what its rules never change
        assert copy == state and state.clone() == state
        assert not _mutable_ids(copy, set(), set()) & _mutable_ids(state, set(), set())


@pytest.mark.parametrize("game_id", sorted(registry.games()))
def test_applying_a_move_never_changes_the_state_it_was_applied_to(game_id: str) -> None:
    """A game's own clone may share what its rules never change in place; this holds it to
    that: every legal move of every seat, applied to states met along a random game, leaves
    the state it started from exactly as it was (a field added to the state but left out of
    a hand-written clone would be changed through the copy)."""
    game = registry.get(game_id)
    states: list[tuple[Any, int]] = []
    play(game, game.max_players, None, 12, bots=random_bots, max_steps=200,
         on_step=lambda state, entry, events: states.append((state, entry.at_ms)))
    tried = 0
    for state, now in states[::7]:
        before = pickle.dumps(state)
        for seat in range(len(state.players)):
            for action in game.legal(state, seat)[:4]:
                game.apply(state, seat, action, now)
                tried += 1
        assert pickle.dumps(state) == before, "a move changed the state it was applied to"
    assert tried > 20
