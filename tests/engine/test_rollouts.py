"""The hard bots' search, on a game small enough to know the right move, and on the real
games: it plays legal moves, the same ones for the same seed, and its budget is a count
per table size."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import pytest

from server.engine import BotInput, Decision, Game, Options, Result, Rng, State, registry
from server.engine.bots import ask
from server.engine.rollouts import Rollouts, SearchBot, budget, clearly_better, key, squash, win_share
from server.engine.playout import Entry, play, random_bots


@dataclass
class Count(State):
    """Players take turns adding 1 or 2 to a total; whoever makes it 10 wins."""

    players: list[str]
    total: int = 0
    turn: int = 0
    phase: str = "play"


class CountToTen(Game[Count, Options]):
    id, name, pitch, min_players, max_players, options_model = "count", "Count", "", 2, 2, Options

    def setup(self, players: Sequence[str], options: Options, seed: int, now_ms: int = 0) -> Count:
        return Count(list(players))

    def legal(self, state: Count, seat: int) -> list[dict[str, Any]]:
        if state.phase != "play" or seat != state.turn:
            return []
        return [{"type": "add", "n": n} for n in (1, 2) if state.total + n <= 10]

    def apply(self, state: Count, seat: int | None, action: dict[str, Any], now_ms: int):
        s = state.clone()
        s.total += action["n"]
        s.phase = "over" if s.total == 10 else "play"
        s.turn = s.turn if s.phase == "over" else 1 - s.turn
        return s, []

    def view(self, state: Count, seat: int | None) -> dict[str, Any]:
        return {"total": state.total, "turn": state.turn}

    def deadline(self, state: Count) -> int | None:
        return None

    def determinize(self, state: Count, seat: int, rng: Rng) -> Count:
        return state.clone()

    def result(self, state: Count) -> Result | None:
        return Result([state.turn], [1.0 * (p == state.turn) for p in (0, 1)], "ten") if state.phase == "over" else None


class Anything:
    """A model of play that picks any legal move."""

    def __init__(self, game: Game[Any, Any], rng: Rng) -> None:
        self.game, self.rng = game, rng

    def play(self, state: Any, seat: int, now_ms: int) -> Decision | None:
        legal = self.game.legal(state, seat)
        return Decision(self.rng.choice(legal), now_ms + 1) if legal else None


GAME = CountToTen()


def rollouts(iterations: int = 200, evaluate: Any = None) -> Rollouts:
    return Rollouts(GAME, policy=lambda seat, rng: Anything(GAME, rng), iterations=iterations,
                    evaluate=evaluate or (lambda s, seat: win_share(GAME, s, seat) or 0.0))


def test_the_same_seed_gives_the_same_search_and_the_budget_follows_the_table() -> None:
    state = Count(["A", "B"], total=4)
    a = rollouts(40).choose(BotInput.of(GAME, state, 0, 0), Rng(7), prefer={"type": "add", "n": 1})
    b = rollouts(40).choose(BotInput.of(GAME, state, 0, 0), Rng(7), prefer={"type": "add", "n": 1})
    assert a == b
    assert budget({2: 30, 4: 10}, 2) == 30 and budget({2: 30, 4: 10}, 3) == 30
    assert budget({2: 30, 4: 10}, 6) == 10 and budget(12, 6) == 12


def test_a_budget_too_small_for_two_rounds_a_move_keeps_the_models_move() -> None:
    state = Count(["A", "B"], total=5)
    worse = {"type": "add", "n": 1}
    assert rollouts(3).choose(BotInput.of(GAME, state, 0, 0), Rng(1), prefer=worse) == (worse, {})


def test_a_search_bot_keeps_the_pace_of_its_base_and_its_answer_for_a_situation() -> None:
    class Slow(Anything):
        def decide(self, seen: BotInput) -> Decision | None:
            return Decision(seen.legal[0], seen.now_ms + 5000) if seen.legal else None

    bot = SearchBot(rollouts(200), Slow(GAME, Rng(0)), Rng(3))
    state = Count(["A", "B"], total=5)
    first = ask(GAME, bot, state, 0, 100)
    assert first == Decision({"type": "add", "n": 2}, 5100)
    assert ask(GAME, bot, state, 0, 200).action == first.action


@pytest.mark.parametrize("total, best", [(5, 2), (6, 1), (8, 2)])
def test_rollouts_find_the_winning_move(total: int, best: int) -> None:
    """Each move played out in the same worlds: the one leaving a multiple of three wins
    more of them, even against the model's own (worse) move."""
    state = Count(["A", "B"], total=total)
    worse = {"type": "add", "n": 3 - best}
    action, means = rollouts().choose(BotInput.of(GAME, state, 0, 0), Rng(1), prefer=worse)
    assert action == {"type": "add", "n": best}
    assert means[key(action)] > means[key(worse)]


def test_rollouts_keep_the_models_move_unless_another_is_clearly_better() -> None:
    """With every playout judged alike, nothing beats the model's move: it stays."""
    state = Count(["A", "B"], total=0)
    mine = {"type": "add", "n": 2}
    action, means = rollouts(40, lambda s, seat: 0.5).choose(BotInput.of(GAME, state, 0, 0), Rng(1), prefer=mine)
    assert action == mine and set(means.values()) == {0.5}


def test_clearly_better_asks_for_a_margin_beyond_the_noise() -> None:
    assert clearly_better([1, 1, 1, 1], [0, 0, 0, 0], 1.0)
    assert not clearly_better([1, 0, 1, 0], [0, 1, 0, 1], 1.0)
    assert not clearly_better([1, 0, 0, 0], [0, 0, 0, 0], 2.0)
    assert clearly_better([1, 0, 1, 1], [0, 0, 0, 1], 1.0)


def test_squash_is_a_win_chance() -> None:
    assert squash(0, 3) == 0.5 and squash(6, 3) > 0.8 and squash(-6, 3) < 0.2


@pytest.mark.parametrize("game_id, params", [("sneaky-supper", {"iterations": 6}), ("snollygoster", {}),
                                             ("rival-restaurants", {})])
def test_hard_bots_choose_legal_moves_in_real_games(game_id: str, params: dict[str, Any]) -> None:
    game = registry.get(game_id)
    found: list[tuple[Any, int]] = []

    def keep(state: Any, entry: Entry, _events: list) -> None:
        if len(found) < 40 and game.result(state) is None:
            found.append((state, entry.at_ms))

    play(game, 2, None, 3, bots=random_bots, on_step=keep)
    searched = 0
    for n, (state, now) in enumerate(found[::3]):
        for seat in range(2):
            seen = BotInput.of(game, state, seat, now)
            decision = game.bot(seat, Rng(n), level="hard", **params).decide(seen)
            if decision is not None:  # the game takes it (an offer need not be one of legal's examples)
                game.apply(state, seat, decision.action, now)
                searched += len(seen.legal) > 1
    assert searched >= 1
