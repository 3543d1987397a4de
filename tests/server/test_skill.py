"""The pure rating rules (``server.store.skill``): who is rated, in which places, teams and
ties, and bots as anchors that a match never moves."""

from __future__ import annotations

from server.store import skill
from server.store.skill import Rating, Table, places, rate, table

A, B, C = ("account", 1), ("account", 2), ("account", 3)


def result(winners, scores, teams=None):
    return {"winners": winners, "scores": scores, "teams": teams, "reason": "", "details": {}}


def test_places_are_dense_and_ties_share_one() -> None:
    assert places([3, 5, 3, 1]) == [1, 0, 1, 2]
    assert places([(True, 2.0), (False, 9.0), (False, 2.0)]) == [0, 1, 2]  # a winner outranks any score


def test_winners_first_then_by_score_and_guests_left_out() -> None:
    entrants = {0: A, 2: B, 3: ("bot", "hard")}  # seat 1: a guest, not rated
    played = table(result([2], [5.0, 9.0, 4.0, 5.0]), entrants)
    assert played == Table(((A,), (B,), (("bot", "hard"),)), (1, 0, 1))


def test_a_tie_for_the_win_is_a_shared_first_place() -> None:
    assert table(result([0, 1], [3.0, 3.0, 1.0]), {0: A, 1: B, 2: C}).ranks == (0, 0, 1)


def test_snollygoster_teams_are_rated_side_against_side() -> None:
    teams = {"comrade": [0, 2], "rogue": [1, 3]}
    played = table(result([1, 3], [4.0, 1.0, 9.0, 2.0], teams), {0: A, 1: B, 2: C})
    assert played == Table(((A, C), (B,)), (1, 0))
    after = rate("snollygoster", played, {})
    assert after[2].mu > skill.MU > after[1].mu == after[3].mu  # the winning side rose together


def test_not_rated_without_an_account_or_anybody_to_meet() -> None:
    assert table(result([0], [1.0, 0.0]), {0: ("bot", "easy"), 1: ("bot", "hard")}) is None
    assert table(result([0], [1.0, 0.0]), {0: A}) is None
    assert table(None, {0: A, 1: B}) is None
    teams = {"comrade": [0, 1], "rogue": [2]}
    assert table(result([0, 1], [1.0, 1.0, 0.0], teams), {0: A, 1: B}) is None  # one side only


def test_a_bot_is_an_anchor() -> None:
    played = Table(((A,), (("bot", "hard"),)), (1, 0))
    after = rate("nutty-noodles", played, {1: Rating(30.0, 5.0)})
    assert set(after) == {1}  # nothing to write for the bot
    assert after[1].mu < 30.0 and after[1].sigma < 5.0
    assert skill.bot_rating("no-such-game", "hard") == Rating()


def test_the_published_bot_ratings_rise_with_the_level() -> None:
    for game, levels in skill.bot_ratings().items():
        assert levels["easy"].mu < levels["normal"].mu < levels["hard"].mu, game
        assert levels["normal"].mu == skill.MU, game
