"""The hard Rival Restaurants bot: the normal bot, spending the money the normal bot keeps.
(How much stronger it plays is measured, not asserted: ``bench.levels``, on the rules page.)"""

from __future__ import annotations

from server.engine import Rng
from server.engine.bots import ask
from server.games.rival_restaurants import GAME
from server.games.rival_restaurants.bot import HardRivalBot, RivalBot

from .helpers import claims_done, give, go, hold, new

LATE = 60_000  # past the normal bot's patience: it would say done


def at_market(where: str, counter: list[str], money: int = 600):
    """Ana (seat 0), holding only rice and no action card, wants onigiri (rice, seaweed) and
    tonkotsu ramen (pork, noodles, egg, mushroom, onion); she stands at ``where`` with
    ``counter`` on it and claims settled. Bo, at the Island, holds nothing."""
    s = new(2)
    hold(s, 0, "onigiri", "tonkotsu_ramen")
    s = go(s, where, "island")
    s.markets[where].counter = list(counter) + [None] * (len(s.markets[where].counter) - len(counter))
    s = claims_done(s)
    s.chefs[0].money, s.chefs[0].actions = money, []
    s.chefs[0].ingredients, s.chefs[1].ingredients = {"rice": 1}, {}  # nothing to barter
    return s


def decisions(s, at: int = LATE) -> tuple[dict, dict]:
    return (ask(GAME, RivalBot(GAME, Rng(1)), s, 0, at).action,
            ask(GAME, HardRivalBot(GAME, Rng(1)), s, 0, at).action)


def test_hard_bot_buys_a_face_down_card_where_the_market_sells_what_it_misses() -> None:
    s = at_market("veg_out", ["lettuce", "chili"])  # seaweed, mushroom and onion are sold here
    normal, hard = decisions(s)
    assert normal == {"type": "done"}
    assert hard == {"type": "buy_shelf"}
    s.chefs[0].money = 50  # less than the shelf's price
    assert decisions(s)[1] == {"type": "done"}


def test_hard_bot_buys_no_face_down_card_where_nothing_it_misses_is_sold() -> None:
    s = at_market("fruit_punch", ["lemon"])  # no fruit in its recipes
    assert decisions(s) == ({"type": "done"}, {"type": "done"})


def test_hard_bot_stocks_chocolate_for_its_next_dishes() -> None:
    s = at_market("mystery_mart", ["chocolate"])
    give(s, 0, "chocolate")  # the normal bot buys one only when it has none
    normal, hard = decisions(s)
    assert normal == {"type": "done"}
    assert hard == {"type": "buy", "slot": 0}
    give(s, 0, "chocolate")
    assert decisions(s)[1] == {"type": "done"}


def test_hard_bot_bids_a_step_more_for_the_snackle_box_and_past_half_its_money() -> None:
    from .test_sporks import auction_day

    for money in (2000, 300):
        s = auction_day(2, money=[money, money])
        normal, hard = decisions(s, s.phase_since + 1000)
        assert normal["type"] == hard["type"] == "box_bid"
        assert hard["amount"] == min(normal["amount"] + 100, money)
    assert normal["amount"] <= 150 < hard["amount"]  # the normal bot stops at half its money
