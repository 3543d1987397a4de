"""The engine contract, checked for every registered game at once.

A new game gets these for free: random legal play ends, replay is exact, ``apply`` never
half-applies, bad input is an ``IllegalAction``, views are JSON and leak nothing that
``determinize`` can re-deal (the leak test of DESIGN.md).
"""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest

from server.engine import TIMEOUT, Game, IllegalAction, Rng, registry
from server.engine.playout import Entry, play, random_bots, replay

GAMES = sorted(registry.games())


def _game(game_id: str) -> Game[Any, Any]:
    return registry.get(game_id)


def _player_counts(game: Game[Any, Any]) -> list[int]:
    return list(range(game.min_players, game.max_players + 1))


def _sample_states(game: Game[Any, Any], players: int, seed: int, every: int = 7, limit: int = 40):
    """(state, now_ms) pairs met along a random game."""
    samples: list[tuple[Any, int]] = []

    def keep(state: Any, entry: Entry, _events: list) -> None:
        if len(samples) < limit and (entry.at_ms + len(samples)) % every == 0:
            samples.append((state, entry.at_ms))

    play(game, players, None, seed, bots=random_bots, on_step=keep)
    return samples


def test_registry_lists_games() -> None:
    assert "nutty-noodles" in GAMES
    for game_id in GAMES:
        entry = _game(game_id).catalogue_entry()
        assert entry["id"] == game_id and entry["min_players"] <= entry["max_players"]
        assert entry["options"]["type"] == "object"


def test_unknown_game_is_an_error() -> None:
    with pytest.raises(registry.UnknownGame, match="no-such-game"):
        registry.get("no-such-game")


@pytest.mark.parametrize("game_id", GAMES)
def test_default_options_validate_and_unknown_option_rejected(game_id: str) -> None:
    game = _game(game_id)
    assert game.options({}) == game.options(None)
    with pytest.raises(ValueError, match="definitely_not_an_option"):
        game.options({"definitely_not_an_option": 1})


@pytest.mark.parametrize("game_id", GAMES)
def test_random_legal_play_ends_with_a_result(game_id: str) -> None:
    game = _game(game_id)
    for players in _player_counts(game):
        for seed in range(3):
            out = play(game, players, None, seed, bots=random_bots)
            result = game.result(out.state)
            assert result is not None, f"{players} players, seed {seed}: no result"
            assert len(result.scores) == players
            assert result.winners and set(result.winners) <= set(range(players))
            assert out.rejected == 0, "a random player choosing from legal() was refused"


@pytest.mark.parametrize("game_id", GAMES)
def test_replay_of_seed_and_log_rebuilds_identical_state(game_id: str) -> None:
    game = _game(game_id)
    players = game.max_players
    out = play(game, players, None, seed=11, bots=random_bots, start_ms=1_000)
    rebuilt = replay(game, [f"Player {i + 1}" for i in range(players)], None, 11, out.log, 1_000)
    assert rebuilt == out.state
    for seat in [None, *range(players)]:
        assert game.view(rebuilt, seat) == game.view(out.state, seat)


@pytest.mark.parametrize("game_id", GAMES)
def test_same_seed_same_game_other_seed_other_game(game_id: str) -> None:
    game = _game(game_id)
    a = play(game, game.min_players, None, seed=5, bots=random_bots)
    b = play(game, game.min_players, None, seed=5, bots=random_bots)
    c = play(game, game.min_players, None, seed=6, bots=random_bots)
    assert a.log == b.log and a.state == b.state
    assert a.log != c.log


@pytest.mark.parametrize("game_id", GAMES)
def test_leak_view_of_determinized_state_equals_view(game_id: str) -> None:
    """view(determinize(s, p), p) == view(s, p), and the re-dealt state really differs."""
    game = _game(game_id)
    rng = Rng(99)
    differed = 0
    checked = 0
    for players in _player_counts(game):
        for state, _now in _sample_states(game, players, seed=players):
            for seat in range(players):
                d = game.determinize(state, seat, rng)
                assert game.view(d, seat) == game.view(state, seat), f"seat {seat} sees a difference"
                assert game.legal(d, seat) == game.legal(state, seat)
                differed += d != state
                checked += 1
    assert checked > 0
    assert differed > checked // 4, f"determinize changed only {differed} of {checked} states"


@pytest.mark.parametrize("game_id", GAMES)
def test_determinized_state_plays_on(game_id: str) -> None:
    game = _game(game_id)
    rng = Rng(3)
    for state, now in _sample_states(game, game.max_players, seed=4, limit=10):
        d = game.determinize(state, 0, rng)
        for _ in range(20):
            moves = [(s, a) for s in range(game.max_players) for a in game.legal(d, s)]
            if not moves or game.result(d) is not None:
                break
            seat, action = rng.choice(moves)
            d, _ = game.apply(d, seat, action, now)


@pytest.mark.parametrize("game_id", GAMES)
def test_views_are_json_and_events_have_valid_audiences(game_id: str) -> None:
    game = _game(game_id)
    players = game.max_players

    def check(state: Any, entry: Entry, events: list) -> None:
        for seat in [None, *range(players)]:
            json.dumps(game.view(state, seat))
        for event in events:
            assert event.text and event.type
            assert event.to is None or set(event.to) <= set(range(players))
            json.dumps(event.to_json())

    play(game, players, None, seed=2, bots=random_bots, on_step=check, max_steps=3000)


@pytest.mark.parametrize("game_id", GAMES)
def test_views_at_once_are_each_seats_view(game_id: str) -> None:
    """``views`` (every seat's view built at once, sharing what they have in common) gives
    exactly what ``view`` gives seat by seat."""
    game = _game(game_id)
    for players in (game.min_players, game.max_players):
        seats = [None, *range(players)]
        for state, _ in _sample_states(game, players, seed=5, every=3, limit=25):
            together = game.views(state, seats)
            assert list(together) == seats
            for seat in seats:
                assert json.dumps(together[seat], sort_keys=True) == json.dumps(game.view(state, seat), sort_keys=True)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_legal_action_applies_and_apply_never_mutates(game_id: str) -> None:
    game = _game(game_id)
    rng = Rng(7)
    for state, now in _sample_states(game, game.max_players, seed=8, limit=15):
        before = pickle.dumps(state)
        for seat in range(game.max_players):
            actions = game.legal(state, seat)
            for action in (rng.shuffled(actions)[:12] if actions else []):
                game.apply(state, seat, action, now)
        assert pickle.dumps(state) == before


def _garbage_actions(legal: list[dict], rng: Rng) -> list[Any]:
    junk: list[Any] = [{}, {"type": "no-such-action"}, {"type": None}, {"type": 7}, [], "roll", None, 3]
    weird_values: list[Any] = [None, -1, 10**9, "x", 2.5, True, [], {}, [1, 2], "Player 1"]
    for action in rng.shuffled(legal)[:10]:
        for key in action:
            if key == "type":
                continue
            bad = dict(action)
            bad[key] = rng.choice(weird_values)
            junk.append(bad)
            missing = dict(action)
            del missing[key]
            junk.append(missing)
            junk.extend(_nested_garbage(action, key, rng.choice(weird_values)))
    return junk


def _nested_garbage(action: dict, key: str, weird: Any) -> list[dict]:
    """One level down: a weird value inside a dict (a barter bundle) or list (cards)."""
    value, out = action[key], []
    if isinstance(value, dict):
        for inner in [*value, "no-such-key"]:
            out.append({**action, key: {**value, inner: weird}})
    elif isinstance(value, list) and value:
        out.append({**action, key: [weird, *value[1:]]})
        out.append({**action, key: value * 5})
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_bad_actions_raise_illegal_action_and_change_nothing(game_id: str) -> None:
    game = _game(game_id)
    rng = Rng(13)
    samples = [(players, state, now) for players in _player_counts(game)
               for state, now in _sample_states(game, players, seed=9, limit=15)]
    for players, state, now in samples:
        before = pickle.dumps(state)
        for seat in range(players):
            for action in _garbage_actions(game.legal(state, seat), rng):
                try:
                    game.apply(state, seat, action, now)
                except IllegalAction as exc:
                    assert exc.reason
        with pytest.raises(IllegalAction):
            game.apply(state, None, {"type": "roll"}, now)
        with pytest.raises(IllegalAction):
            game.apply(state, players + 3, {"type": "x"}, now)
        deadline = game.deadline(state)
        if deadline is not None and deadline > now:
            with pytest.raises(IllegalAction):
                game.apply(state, None, dict(TIMEOUT), now)
        assert pickle.dumps(state) == before
