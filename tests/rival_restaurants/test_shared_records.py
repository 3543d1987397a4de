"""A clone shares every list and dict its records hold with its original (a chef's cards
and ingredients, a day's lists, a market's counter, shelf and discard pile, the decks, the
offers: replaced, never changed in place), so ``apply`` must never change a shared one:
the state it was given stays as it was, in whole games of every option set."""

from __future__ import annotations

import pickle

import pytest

from server.engine.playout import play, random_bots
from server.games.rival_restaurants import GAME
from server.games.rival_restaurants.cards import RECIPES

from .helpers import go, hand, new

# (players, options): the base game, SPORKS Out, and Kitchen Squad (two players) with and without it
TABLES = [(6, None), (6, {"sporks_out": True}), (2, {"kitchen_squad": True}),
          (2, {"kitchen_squad": True, "sporks_out": True})]


class Checked(type(GAME)):  # type: ignore[misc]
    """The game, with every ``apply`` checked against its input afterwards."""

    def apply(self, state, seat, action, now_ms):  # type: ignore[no-untyped-def]
        before = pickle.dumps(state)
        out = super().apply(state, seat, action, now_ms)
        assert pickle.dumps(state) == before, f"apply changed the state it was given: {action}"
        self.checked += 1
        return out


def checked() -> Checked:
    game = object.__new__(Checked)
    game.__dict__.update(GAME.__dict__)
    game.checked = 0
    return game


@pytest.mark.parametrize("players,options", TABLES)
def test_apply_never_changes_a_record_a_clone_shares(players: int, options: dict | None) -> None:
    game = checked()
    for seed in (1, 2):
        out = play(game, players, options, seed=seed)
        assert GAME.result(out.state) is not None
    assert game.checked > 200


@pytest.mark.parametrize("players,options", TABLES)
def test_random_play_never_changes_a_record_a_clone_shares(players: int, options: dict | None) -> None:
    """Random legal play reaches what the bots leave alone (every power and card play, the
    auctions, buying from the shelf, timeouts in every phase): a few whole games of it."""
    game = checked()
    for seed in (7, 8, 9):
        out = play(game, players, options, seed=seed, bots=random_bots)
        assert GAME.result(out.state) is not None
    assert game.checked > 500


def test_a_barter_of_cards_never_changes_the_state_it_was_given() -> None:
    """Recipes, action cards and upgrades change hands only by barter (which neither the bots
    nor random play offer): each moves between two chefs' shared lists."""
    game = checked()
    s = go(new(), "island", "chop_shop")
    s.chefs[0].upgrades = ["neon_sign"]
    card = hand(s, 0, "windfall")
    mine, theirs = (next(r for r in s.chefs[seat].recipes if RECIPES[r].kind == "basic") for seat in (0, 1))
    s = game.apply(s, 0, {"type": "offer", "to": 1, "give": {"recipes": [mine], "actions": [card],
                                                            "upgrades": ["neon_sign"]},
                          "get": {"recipes": [theirs]}}, 1000)[0]
    s = game.apply(s, 1, {"type": "accept", "offer": s.offers[0].id}, 1000)[0]
    assert theirs in s.chefs[0].recipes and mine in s.chefs[1].recipes  # the trade went through
    assert card in s.chefs[1].actions and "neon_sign" in s.chefs[1].upgrades
    assert game.checked == 2
