"""Sneaky Supper over random legal play, 2–5 players: cards are conserved, scores are the
sum of their sources, hidden knowledge stays consistent, the game ends; and determinism."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from server.engine.playout import Entry, play, player_names, random_bots, replay
from server.games.sneaky_supper import GAME
from server.games.sneaky_supper.cards import (
    CRAVING, CRAVINGS, MAX_TOKENS, RECIPE, SEARCH_CARDS, UTENSIL_CARDS,
)
from server.games.sneaky_supper.state import SneakySupperState

from .helpers import all_cards

ALL_CARDS = sorted([*SEARCH_CARDS, *UTENSIL_CARDS])


def check_invariants(s: SneakySupperState, consumed: list[int]) -> None:
    assert sorted(all_cards(s)) == ALL_CARDS, "a card was lost or copied"
    assert sum(s.segments) == len(s.deck) and all(n > 0 for n in s.segments)
    assert all(c in UTENSIL_CARDS for c in s.udeck + s.udiscard)
    for seat in range(s.n):
        assert 0 <= s.tokens[seat] <= MAX_TOKENS
        assert not Counter(s.hands[seat]) - Counter(s.seen[seat]), "a card in a hand nobody saw go in"
        assert s.seen[seat] or not s.hands[seat]
        p = s.points[seat]
        assert p["recipes"] == sum(RECIPE[r].points for r in s.completed[seat])
        assert p["cravings"] == sum(CRAVING[c].points for c in s.scored_cravings[seat])
        assert p["consumed"] == consumed[seat]
        assert s.score(seat) == sum(p.values())
        assert p["careful"] == 0 or s.phase == "over"
    for r, left in s.recipes_left.items():
        assert left + sum(done.count(r) for done in s.completed) == RECIPE[r].copies
    cravings = [c for c in s.cravings if c] + s.craving_deck + [c for sc in s.scored_cravings for c in sc]
    assert sorted(cravings) == sorted(c.id for c in CRAVINGS)


def _play_checked(players: int, seed: int, options: dict, bots=random_bots):
    consumed = [0] * players

    def on_step(state, entry: Entry, events) -> None:
        for e in events:
            if e.type == "consume":
                consumed[e.data["seat"]] += e.data["points"]
        check_invariants(state, consumed)

    out = play(GAME, players, options, seed, bots=bots, on_step=on_step)
    return out


@settings(max_examples=25, deadline=None, derandomize=True)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**31), mish_mash=st.booleans())
def test_random_legal_play_conserves_cards_and_scores_and_ends(players: int, seed: int,
                                                               mish_mash: bool) -> None:
    out = _play_checked(players, seed, {"mish_mash": mish_mash})
    result = GAME.result(out.state)
    assert result is not None and out.rejected == 0
    assert result.scores == [float(out.state.score(q)) for q in range(players)]
    best = max(result.scores)
    assert result.winners == [q for q in range(players) if result.scores[q] == best]
    assert out.state.triggered_by is not None or out.state.end_reason == "nothing was left to draw"


def test_bot_games_keep_every_invariant_and_end() -> None:
    for players in (2, 5):
        out = _play_checked(players, seed=players, options={})
        assert GAME.result(out.state) is not None


def test_same_seed_and_actions_give_the_same_game() -> None:
    a = play(GAME, 3, None, seed=21)
    b = play(GAME, 3, None, seed=21)
    assert a.log == b.log and a.state == b.state
    rebuilt = replay(GAME, player_names(3), None, 21, a.log)
    assert rebuilt == a.state
    assert play(GAME, 3, None, seed=22).log != a.log


def test_replaying_a_log_gives_the_same_events() -> None:
    out = play(GAME, 4, None, seed=8, bots=random_bots, max_steps=300)

    def events_of_replay() -> list:
        s = GAME.setup(player_names(4), GAME.options({}), 8)
        seen = []
        for entry in out.log:
            s, events = GAME.apply(s, entry.seat, entry.action, entry.at_ms)
            seen.append([e.to_json() for e in events] + [e.to for e in events])
        return seen

    first = events_of_replay()
    assert first == events_of_replay() and len(first) == len(out.log)
