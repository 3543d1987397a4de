"""Rival Restaurants: invariants over random legal play (2–6 players), replay with the clock
in the log, the leak test aimed at what is hidden, and the bot against random players."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from server.engine import Rng
from server.engine.playout import play, random_bots, replay
from server.games.rival_restaurants import GAME
from server.games.rival_restaurants.auction import in_box
from server.games.rival_restaurants.cards import GARBAGE_TOKENS, KINDS, MARKETS, RECIPES, pool
from server.games.rival_restaurants.state import RivalState

from .helpers import act, new
from server.games.rival_restaurants.sporks_table import table

ALL_INGREDIENTS = Counter({i: n for m in MARKETS.values() for i, n in m.counts.items()})


def ingredients_everywhere(s: RivalState) -> Counter[str]:
    """Every ingredient card: counters, shelves, discard piles and pantries; with SPORKS
    Out also the Hot Sauce cards, Papa Tio's missile and Joe's Dumpster."""
    held: Counter[str] = Counter()
    for m in s.markets.values():
        held.update(c for c in m.counter if c is not None)
        held.update(m.shelf)
        held.update(m.discard)
    for p in s.chefs:
        held.update(p.ingredients)
    if table(s) is not None:
        for mine in table(s).chefs:
            held.update(mine.hot_sauce)
            held.update(mine.missile)
        for cards in table(s).dumpster.values():
            held.update(cards)
    return held


def check_conservation(s: RivalState) -> None:
    """Money, ingredients, recipes and action cards (the Snackle Box's included) are
    neither made nor lost; the recipes are the match's own pool."""
    content = pool(s.options.sporks_out, s.options.sporks_chefs)
    assert sum(p.money for p in s.chefs) + s.bank == 0, "money appeared or vanished"
    assert ingredients_everywhere(s) == ALL_INGREDIENTS, "an ingredient card appeared or vanished"
    recipes = [r for d in s.decks.values() for r in d] + [r for d in s.recipe_discards.values() for r in d]
    recipes += [r for p in s.chefs for r in p.recipes]
    assert sorted(recipes) == sorted(content.recipes), "a recipe card appeared or vanished"
    actions = s.action_deck + s.action_discard + [a for p in s.chefs for a in p.actions] + in_box(s)
    assert sorted(actions) == sorted(content.action_deck), "an action card appeared or vanished"
    ids = [(m.id, i) for m in s.markets.values() for i in m.ids if i is not None]
    assert len(ids) == len(set(ids)), "two counter cards share an identity"
    assert all((c is None) == (i is None) for m in s.markets.values() for c, i in zip(m.counter, m.ids))
    assert sum(p.garbage for p in s.chefs) <= GARBAGE_TOKENS, "more garbage than the box's tokens"
    for seat, p in enumerate(s.chefs):
        kinds = [RECIPES[r].kind for r in p.recipes]
        assert len(kinds) == len(set(kinds)), "a chef holds two recipes of a kind"
        assert p.garbage >= 0 and p.popularity >= 0 and s.available(seat) >= 0 <= p.money


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_conserve_money_and_cards_and_end(players: int) -> None:
    for seed in (players, 40 + players):
        out = play(GAME, players, None, seed, bots=random_bots,
                   on_step=lambda state, entry, events: check_conservation(state))
        result = GAME.result(out.state)
        assert result is not None and out.rejected == 0
        assert out.state.day <= out.state.options.max_days
        best = max((p.popularity, p.gourmet_cooked, p.money) for p in out.state.chefs)
        assert result.winners == [i for i, p in enumerate(out.state.chefs)
                                  if (p.popularity, p.gourmet_cooked, p.money) == best]


@pytest.mark.parametrize("players", [2, 4, 6])
def test_random_games_with_restaurants_chosen_conserve_and_end(players: int) -> None:
    out = play(GAME, players, {"restaurants": "chosen"}, 60 + players, bots=random_bots,
               on_step=lambda state, entry, events: check_conservation(state))
    assert GAME.result(out.state) is not None and out.rejected == 0
    assert len({p.restaurant for p in out.state.chefs}) == players


@pytest.mark.parametrize("players", [2, 3, 5])
def test_bot_games_conserve_everything_and_reach_20(players: int) -> None:
    out = play(GAME, players, None, players, on_step=lambda state, entry, events: check_conservation(state))
    assert max(p.popularity for p in out.state.chefs) >= 20 and out.rejected == 0


def test_replay_is_exact_including_timeouts() -> None:
    options = {"market_ms": 10_000, "claim_ms": 2_000}  # short enough for the clock to matter
    out = play(GAME, 3, options, 77, bots=random_bots, start_ms=5_000)
    timeouts = [e for e in out.log if e.seat is None]
    assert len(timeouts) > 5, "a random game with a short market meets its deadlines"
    rebuilt = replay(GAME, [f"Player {i + 1}" for i in range(3)], options, 77, out.log, 5_000)
    assert rebuilt == out.state
    again = play(GAME, 3, options, 77, bots=random_bots, start_ms=5_000)
    assert again.log == out.log


def test_bot_games_are_deterministic() -> None:
    a, b = play(GAME, 3, None, 12), play(GAME, 3, None, 12)
    assert a.log == b.log and a.state == b.state


# ---- the leak test, aimed --------------------------------------------------------------------

def test_leak_another_chefs_pick_is_never_in_a_view_before_the_reveal() -> None:
    s = act(new(3), 1, {"type": "move", "location": "mystery_mart"})
    s = act(s, 2, {"type": "move", "location": "mystery_mart"})
    for seat in (0, None):
        text = json.dumps(GAME.view(s, seat)["players"]) + json.dumps(GAME.view(s, seat).get("mine"))
        assert "mystery_mart" not in text
    d = GAME.determinize(s, 0, Rng(3))
    assert GAME.view(d, 0) == GAME.view(s, 0)
    picks = {GAME.determinize(s, 0, Rng(k)).today[1].pick for k in range(30)}
    assert len(picks) > 2, "determinize re-deals the picks seat 0 cannot see"


def test_leak_shelves_and_deck_orders_never_reach_a_view() -> None:
    s = new(2)
    view = json.dumps(GAME.view(s, 0))
    d = GAME.determinize(s, 0, Rng(5))
    assert GAME.view(d, 0) == GAME.view(s, 0)
    assert d.markets["chop_shop"].shelf != s.markets["chop_shop"].shelf
    assert d.decks["gourmet"] != s.decks["gourmet"] and d.action_deck != s.action_deck
    assert sorted(d.decks["gourmet"]) == sorted(s.decks["gourmet"])
    for kind in KINDS:
        top = s.decks[kind][-1]
        assert top not in view, "the top recipe of a deck is in a view"


def test_leak_declared_dishes_stay_hidden_and_are_re_dealt() -> None:
    from .test_content import kitchen

    s = kitchen(pantry=("rice", "seaweed"))
    s = act(s, 0, {"type": "cook", "recipe": "onigiri", "extras": []}, 6000)
    for seat in (1, None):
        assert GAME.view(s, seat)["mine"] in (None, {**GAME.view(s, 1)["mine"]})
        assert "onigiri" not in json.dumps({k: v for k, v in GAME.view(s, seat).items()
                                            if k not in ("players", "recipe_discards")})
    dishes = {json.dumps([d.to_json() for d in GAME.determinize(s, 1, Rng(k)).today[0].dishes]) for k in range(20)}
    assert len(dishes) > 1 and GAME.view(GAME.determinize(s, 1, Rng(1)), 1) == GAME.view(s, 1)


# ---- the bot -----------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_bot_beats_random_players_nearly_always(players: int) -> None:
    def bots(game, seat, rng):
        return game.bot(seat, rng) if seat == 0 else game.random_bot(seat, rng)

    wins = 0
    for seed in range(6):
        out = play(GAME, players, None, 1000 + seed, bots=bots)
        wins += GAME.result(out.state).winners == [0]
    assert wins >= 5


# ---- SPORKS Out -------------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 4, 6])
def test_sporks_out_bot_games_conserve_everything_and_reach_20(players: int) -> None:
    out = play(GAME, players, {"sporks_out": True}, 200 + players,
               on_step=lambda state, entry, events: check_conservation(state))
    assert max(p.popularity for p in out.state.chefs) >= 20 and out.rejected == 0
    assert table(out.state).sold, "the bots bought the Snackle Box at least once"


def test_sporks_out_the_bot_beats_random_players_nearly_always() -> None:
    def bots(game, seat, rng):
        return game.bot(seat, rng) if seat == 0 else game.random_bot(seat, rng)

    wins = sum(GAME.result(play(GAME, 4, {"sporks_out": True}, 3000 + seed, bots=bots).state).winners == [0]
               for seed in range(6))
    assert wins >= 5


def test_sporks_out_the_bot_uses_every_spork() -> None:
    """Across bot games every SPORK chef uses each of its powers at least once."""
    used: set[tuple[str, str]] = set()

    def record(state, entry, events) -> None:
        if entry.action.get("type") == "power":
            chef = state.chefs[entry.seat].chef
            used.add((chef, entry.action.get("use") or ""))

    for seed in range(12):
        play(GAME, 6, {"sporks_out": True}, 400 + seed, on_step=record)
    expected = {("pam_knee_you", "knockout"), ("pam_knee_you", "rob"), ("papa_tio", "missile_craft"),
                ("papa_tio", "lunch_button"), ("sloppy_joe", "scraps"), ("sloppy_joe", "dumpster_dive"),
                ("sultan_pepper_shakrh", ""), ("wahine", "")}
    assert expected <= used, expected - used
