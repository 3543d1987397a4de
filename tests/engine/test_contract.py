"""The engine contract, checked for every registered game at once.

A new game gets these for free: random legal play ends, replay is exact, ``apply`` never
half-applies, bad input is an ``IllegalAction``, views are JSON and leak nothing that
``determinize`` can re-deal — nor do events or error texts (the leak test of DESIGN.md),
in every variant of ``Game.variants``.
"""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest

from server.engine import TIMEOUT, Game, IllegalAction, InvalidOptions, Rng, registry
from server.engine.playout import Entry, play, random_bots, replay

GAMES = sorted(registry.games())
GAME_VARIANTS = [(g, v) for g in GAMES for v in sorted(registry.get(g).variants)]


def _game(game_id: str) -> Game[Any, Any]:
    return registry.get(game_id)


def _player_counts(game: Game[Any, Any]) -> list[int]:
    return list(range(game.min_players, game.max_players + 1))


def _table_sizes(game: Game[Any, Any], options: dict[str, Any]) -> list[int]:
    """Every table size the variant can be set up for."""
    sizes = []
    for players in _player_counts(game):
        try:
            game.validate(players, game.options(options))
        except InvalidOptions:
            continue
        sizes.append(players)
    return sizes


def _sample_states(game: Game[Any, Any], players: int, seed: int, every: int = 7, limit: int = 40,
                   options: Any = None):
    """(state, now_ms) pairs met along a random game."""
    samples: list[tuple[Any, int]] = []

    def keep(state: Any, entry: Entry, _events: list) -> None:
        if len(samples) < limit and (entry.at_ms + len(samples)) % every == 0:
            samples.append((state, entry.at_ms))

    play(game, players, options, seed, bots=random_bots, on_step=keep)
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


@pytest.mark.parametrize(("game_id", "variant"), GAME_VARIANTS)
def test_leak_view_of_determinized_state_equals_view(game_id: str, variant: str) -> None:
    """view(determinize(s, p), p) == view(s, p), and the re-dealt state really differs;
    so are the seat's teach-mode hints (the games are played with ``teach: true``)."""
    game = _game(game_id)
    rng = Rng(99)
    differed = 0
    checked = 0
    for players in _table_sizes(game, game.variants[variant]):
        taught = {**game.variants[variant], "teach": True}
        for state, _now in _sample_states(game, players, seed=players, options=taught):
            for seat in range(players):
                d = game.determinize(state, seat, rng)
                assert game.view(d, seat) == game.view(state, seat), f"seat {seat} sees a difference"
                assert game.legal(d, seat) == game.legal(state, seat)
                assert game.hints(d, seat) == game.hints(state, seat), f"seat {seat}'s hints differ"
                assert game.teacher is None or game.result(state) is not None or game.hints(state, seat) is not None
                differed += d != state
                checked += 1
    assert checked > 0
    assert differed > checked // 4, f"determinize changed only {differed} of {checked} states"


def _outcome(game: Game[Any, Any], state: Any, seat: int | None, action: Any, now: int) -> Any:
    """What a seat learns by playing ``action``: the error's text, or the new state and the
    events."""
    try:
        return game.apply(state, seat, action, now)
    except IllegalAction as exc:
        return exc.reason


def _told(events: list, seat: int | None) -> list[tuple[Any, ...]]:
    """The events ``seat`` receives (None: everyone), as received (audience, type, text, data)."""
    return [(e.to, e.type, e.text, json.dumps(e.data, sort_keys=True)) for e in events if e.visible_to(seat)]


def _moves(game: Game[Any, Any], states: list[Any], players: int, now: int, rng: Rng,
           per_seat: int = 6) -> list[tuple[int | None, Any]]:
    """Actions to try in every one of ``states``: some each seat may play in all of them,
    and time's ``timeout`` when it is due."""
    moves: list[tuple[int | None, Any]] = []
    for seat in range(players):
        common = [a for a in game.legal(states[0], seat) if all(a in game.legal(x, seat) for x in states[1:])]
        moves += [(seat, a) for a in rng.shuffled(common)[:per_seat]]
    deadline = game.deadline(states[0])
    if deadline is not None and deadline <= now:
        moves.append((None, dict(TIMEOUT)))
    return moves


def _check_errors_alike(game: Game[Any, Any], state: Any, d: Any, seat: int, players: int, now: int,
                        rng: Rng) -> None:
    """Anything ``seat`` submits — its own moves, another seat's, garbage — is refused with
    the same words (or accepted) in the state and in its re-deal: an error never names what
    the seat cannot know."""
    tries = [a for q in range(players) for a in rng.shuffled(game.legal(state, q))[:5]]
    tries += rng.shuffled(_garbage_actions(game.legal(state, seat), rng))[:8]
    for action in tries:
        a, b = _outcome(game, state, seat, action, now), _outcome(game, d, seat, action, now)
        assert isinstance(a, str) == isinstance(b, str), f"{action} is refused in only one of the two"
        if isinstance(a, str):
            assert a == b, f"seat {seat} submitting {action} learns something it cannot see: {a!r} / {b!r}"


def _check_events_alike(game: Game[Any, Any], state: Any, d: Any, seat: int, players: int, now: int,
                        rng: Rng) -> None:
    """The same move in the state and in its re-deal, leaving ``seat`` the same view,
    tells ``seat`` the same events (audience, text and data)."""
    for mover, action in _moves(game, [state, d], players, now, rng):
        after, after_d = _outcome(game, state, mover, action, now), _outcome(game, d, mover, action, now)
        if isinstance(after, str) or isinstance(after_d, str):
            assert after == after_d, f"{mover} playing {action}: refused differently"
            continue
        if game.view(after[0], seat) == game.view(after_d[0], seat):
            assert _told(after[1], seat) == _told(after_d[1], seat), (
                f"seat {mover} playing {action}: seat {seat} is told something its view does not show")


def _check_moves_alike(game: Game[Any, Any], state: Any, seat: int, players: int, now: int, rng: Rng) -> None:
    """Two moves of another seat that leave ``seat`` the same view (a secret choice) tell
    everyone the same: what a seat chose in secret is never said in public. (What the
    mover tells one seat in private, say an answer to its offer, may differ.)"""
    for mover in range(players):
        if mover == seat:
            continue
        seen: dict[str, tuple[Any, list]] = {}
        for action in rng.shuffled(game.legal(state, mover))[:8]:
            after, events = game.apply(state, mover, action, now)
            key = json.dumps(game.view(after, seat), sort_keys=True)
            if key in seen:
                first, told = seen[key]
                assert told == _told(events, None), (
                    f"everyone is told what seat {mover} chose in secret from seat {seat}: {first} / {action}")
            else:
                seen[key] = (action, _told(events, None))


@pytest.mark.parametrize(("game_id", "variant"), GAME_VARIANTS)
def test_leak_events_and_errors_of_determinized_state_equal(game_id: str, variant: str) -> None:
    """The leak test beyond views: a state and its re-deal for a seat give that seat the
    same error texts for anything it submits and the same events for the same move (when
    its view after is the same); and another seat's secret choices are never told."""
    game = _game(game_id)
    options = game.variants[variant]
    rng = Rng(17)
    checked = 0
    sizes = _table_sizes(game, options)
    for players in sorted({sizes[0], sizes[-1]}):
        for state, now in _sample_states(game, players, seed=players + 1, every=5, limit=8, options=options):
            for seat in range(players):
                d = game.determinize(state, seat, rng)
                _check_errors_alike(game, state, d, seat, players, now, rng)
                _check_events_alike(game, state, d, seat, players, now, rng)
                _check_moves_alike(game, state, seat, players, now, rng)
                checked += 1
    assert checked > 0


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
