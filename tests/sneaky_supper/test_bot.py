"""The Sneaky Supper bot: push your luck by the odds, use tokens and the stash, grab Cravings."""

from __future__ import annotations

from server.engine import Rng
from server.engine.bots import ask
from server.engine.playout import play, random_bots
from server.games.sneaky_supper import GAME
from server.games.sneaky_supper.cards import CRAVING, RECIPE, TYPE, card

from .helpers import a_type, act, as_dealt, draws, give, ingredients, new, quiet_food, retreat_with, stack, types_where

LOUD_ACCIDENT = a_type(kind="accident", noise=3, icon=False)


def bot(seat: int = 0, seed: int = 1, **params):
    return GAME.bot(seat, Rng(seed), **params)


def only_deck(s, keep) -> None:
    """Leave only the cards ``keep(card)`` approves in the Search deck (the rest discarded)."""
    s.discard += [c for c in s.deck if not keep(card(c))]
    s.deck = [c for c in s.deck if keep(card(c))]
    as_dealt(s)


def test_bot_retreats_when_any_next_card_would_bust_it() -> None:
    s = new()
    s.tokens[0] = 0
    haul = ["gem-biscuits", "seasoned-seaweed", "prawn-crackers", "chocolate-bar"]
    stack(s, *haul)
    s = draws(s, len(haul))
    assert s.turn.noise() == 3
    only_deck(s, lambda t: t.noise > 0)
    s.udeck = [c for c in s.udeck if card(c).noise > 0]
    as_dealt(s)
    assert ask(GAME, bot(), s, 0, 0).action == {"type": "retreat"}


def test_bot_draws_on_while_the_deck_is_quiet() -> None:
    s = new()
    stack(s, quiet_food(1)[0])
    s = draws(s, 1)
    only_deck(s, lambda t: t.noise == 0)
    assert ask(GAME, bot(), s, 0, 0).action["type"] in ("draw", "draw_utensil")


def test_bot_uses_a_careful_token_to_save_a_rich_haul() -> None:
    s = new()
    rich = sorted(types_where(kind="food", noise=0), key=lambda t: -TYPE[t].points)[:3]
    stack(s, *rich, "seasoned-seaweed", a_type(kind="food", noise=3, icon=False))
    s = draws(s, 5)
    assert s.phase == "noisy"
    action = ask(GAME, bot(), s, 0, 0).action
    assert action["type"] == "careful" and card(action["card"]).noise == 3


def test_bot_accepts_a_bust_when_there_is_nothing_to_save() -> None:
    s = new()
    stack(s, a_type(kind="accident", noise=1), LOUD_ACCIDENT)
    s = draws(s, 2)
    assert s.phase == "noisy"
    assert ask(GAME, bot(), s, 0, 0).action == {"type": "bust"}


def test_bot_grabs_its_craving_even_on_another_players_turn() -> None:
    s = new()
    craving = CRAVING[s.cravings[1]]
    give(s, 1, *craving.snacks, a_type(kind="food", group="drink"))
    decision = ask(GAME, bot(seat=1), s, 1, 0)
    assert decision.action["type"] == "craving"
    s, _ = act(s, 1, decision.action)
    assert s.scored_cravings[1] == [craving.id]


def test_bot_completes_a_recipe_then_eats_then_ends_its_turn() -> None:
    r = RECIPE["simple-sandwich"]
    s = new()
    give(s, 0, *ingredients(r.needs))
    s = retreat_with(s, "gem-biscuits")
    b = bot()
    action = ask(GAME, b, s, 0, 0).action
    assert action["type"] == "recipe" and action["recipe"] == r.id
    s, _ = act(s, 0, action)
    action = ask(GAME, b, s, 0, 0).action
    assert action["type"] == "consume" and card(action["card"]).id == "gem-biscuits"
    s, _ = act(s, 0, action)
    assert ask(GAME, b, s, 0, 0).action == {"type": "end_turn"}


def test_bot_takes_its_time_like_a_person() -> None:
    s = new()
    d = ask(GAME, bot(delay_ms=2000, jitter_ms=0), s, 0, 500)
    assert d.action == {"type": "draw"} and d.at_ms == 2000
    assert ask(GAME, bot(delay_ms=2000, jitter_ms=0), s, 0, 5000).at_ms == 5000


def test_bot_decides_only_on_what_its_seat_knows() -> None:
    """The same decision on the real state and on one with the unknowns re-dealt."""
    samples = []
    play(GAME, 3, None, seed=6, bots=random_bots,
         on_step=lambda st, e, ev: samples.append(st) if len(samples) < 60 else None)
    compared = 0
    for s in samples:
        for seat in range(s.n):
            other = GAME.determinize(s, seat, Rng(len(samples) + seat))
            a, b = ask(GAME, bot(seat, seed=5), s, seat, 0), ask(GAME, bot(seat, seed=5), other, seat, 0)
            assert a == b
            compared += a is not None
    assert compared > 20


def test_bot_games_finish_at_every_table_size_without_waiting_for_a_timer() -> None:
    for players in range(2, 6):
        out = play(GAME, players, {"mish_mash": players % 2 == 0}, seed=100 + players)
        assert GAME.result(out.state) is not None and out.rejected == 0
        assert all(entry.seat is not None for entry in out.log), "a bot left its seat waiting"
