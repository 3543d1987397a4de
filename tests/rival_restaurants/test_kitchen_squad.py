"""Rival Restaurants, Kitchen Squad (the two-player mode): a test per rule — the public
ones (3 chefs each, one a day; a resting chef moved to use a location's powers) and our
designed rulings (docs/rules/rival-restaurants.md, "Kitchen Squad")."""

from __future__ import annotations

import json

import pytest

from server.engine import IllegalAction, InvalidOptions, Rng
from server.engine.playout import play, random_bots
from server.games.rival_restaurants import GAME
from server.games.rival_restaurants.cards import KITCHEN_SQUAD, MARKETS

from .helpers import NAMES, act, claims_done, timeout
from .test_properties import check_conservation
from server.games.rival_restaurants.squad import runner_at, squad_of, squads

SQUADS = [["penny_pincher", "julia_chopper", "sal_monella"], ["clam_voyance", "dr_umami", "gordon_rampage"]]


def squad(**options):
    """Day 1 of a Kitchen Squad match, choosing today's chefs, with known squads."""
    s = GAME.setup(NAMES[:2], GAME.options({"kitchen_squad": True, "random_chefs": False, **options}), 1, 0)
    for seat, (p, chefs) in enumerate(zip(s.chefs, SQUADS)):
        squads(s).chefs[seat], p.chef = list(chefs), chefs[0]
    return s


def today(s, *chefs: str, at: int = 100):
    for seat, chef in enumerate(chefs):
        s = act(s, seat, {"type": "squad_chef", "chef": chef}, at)
    return s


def move(s, seat: int, location: str, runner: str | None = None, at: int = 200):
    action = {"type": "move", "location": location}
    if runner:
        action["runner"] = runner
    return act(s, seat, action, at)


# ---- the option -----------------------------------------------------------------------------

def test_option_kitchen_squad_is_off_by_default() -> None:
    assert GAME.options({}).kitchen_squad is False
    s = GAME.setup(NAMES[:2], GAME.options({}), 1, 0)
    assert KITCHEN_SQUAD not in s.day_plan and squads(s) is None and all(squad_of(s, i) == [] for i in range(2))


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_kitchen_squad_is_refused_at_any_count_but_two_players(players: int) -> None:
    with pytest.raises(InvalidOptions, match="two-player mode"):
        GAME.validate(players, GAME.options({"kitchen_squad": True}))
    GAME.validate(2, GAME.options({"kitchen_squad": True}))


# ---- three chefs, one a day ----------------------------------------------------------------------

def test_each_player_runs_a_squad_of_3_different_chefs() -> None:
    s = GAME.setup(NAMES[:2], GAME.options({"kitchen_squad": True}), 7, 0)
    chefs = [c for i in range(2) for c in squad_of(s, i)]
    assert [len(squad_of(s, i)) for i in range(2)] == [3, 3] and len(set(chefs)) == 6
    assert all(p.chef in squad_of(s, i) for i, p in enumerate(s.chefs))
    assert [len(p["squad"]) for p in GAME.view(s, None)["players"]] == [3, 3]


def test_todays_chef_is_chosen_every_morning_before_money_and_move() -> None:
    s = squad()
    assert s.phase == KITCHEN_SQUAD and s.day_plan.index(KITCHEN_SQUAD) + 1 == s.day_plan.index("money_move")
    assert all(p.money == 0 for p in s.chefs)
    assert {a["chef"] for a in GAME.legal(s, 0)} == set(SQUADS[0])
    with pytest.raises(IllegalAction, match="squad"):
        act(s, 0, {"type": "squad_chef", "chef": "dr_umami"})


def test_todays_chefs_are_secret_until_both_have_chosen_and_may_change() -> None:
    s = act(squad(), 0, {"type": "squad_chef", "chef": "julia_chopper"})
    s, evs = GAME.apply(s, 0, {"type": "squad_chef", "chef": "sal_monella"}, 200)
    assert all(e.to == (0,) for e in evs) and s.chefs[0].chef == "penny_pincher"
    for seat in (1, None):
        view = GAME.view(s, seat)
        assert view["phase_view"]["chosen"] == [True, False]
        assert "sal_monella" not in json.dumps(view["phase_view"])
    s = act(s, 1, {"type": "squad_chef", "chef": "gordon_rampage"}, 300)
    assert [p.chef for p in s.chefs] == ["sal_monella", "gordon_rampage"] and s.phase == "money_move"


def test_only_todays_chefs_power_works() -> None:
    s = today(squad(), "penny_pincher", "clam_voyance")
    assert s.chefs[0].money == 400  # Penny Saved: $100 more income
    s = GAME.apply(s, 0, {"type": "move", "location": "island"}, 200)[0]
    s = move(s, 1, "island")
    for seat in (0, 1):
        s = act(s, seat, {"type": "done"}, 300)
    for seat in (0, 1):
        s = act(s, seat, {"type": "serve"}, 400)
    assert s.day == 2 and s.phase == KITCHEN_SQUAD
    before = s.chefs[0].money
    s = today(s, "julia_chopper", "clam_voyance", at=500)
    assert s.chefs[0].money == before + 300  # Penny rests today


def test_a_player_who_has_not_chosen_by_the_deadline_keeps_yesterdays_chef() -> None:
    s = act(squad(), 1, {"type": "squad_chef", "chef": "dr_umami"})
    s = timeout(s)
    assert [p.chef for p in s.chefs] == ["penny_pincher", "dr_umami"] and s.phase == "money_move"


# ---- the runner ------------------------------------------------------------------------------------

def test_the_runner_is_sent_in_secret_with_the_pick_and_revealed_with_it() -> None:
    s = move(today(squad(), "sal_monella", "clam_voyance"), 0, "island", runner="veg_out")
    for seat in (1, None):
        view = GAME.view(s, seat)
        assert "veg_out" not in json.dumps(view["players"]) + json.dumps(view["mine"])
        assert all(loc["runners"] == [] for loc in view["board"])
    assert GAME.view(s, 0)["mine"]["runner"] == "veg_out"
    s = move(s, 1, "chop_shop")
    assert runner_at(s, 0) == "veg_out" and s.phase == "buy_barter"
    veg = next(loc for loc in GAME.view(s, 1)["board"] if loc["id"] == "veg_out")
    assert veg["runners"] == [0] and veg["chefs"] == [] and GAME.view(s, 1)["players"][0]["runner"] == "veg_out"


def test_the_runner_lets_its_player_buy_at_its_market_once_claims_there_are_settled() -> None:
    s = today(squad(), "sal_monella", "clam_voyance")
    s = move(move(s, 0, "island", runner="veg_out"), 1, "veg_out")
    card = s.markets["veg_out"].counter[2]
    with pytest.raises(IllegalAction, match="not settled"):
        act(s, 0, {"type": "runner_buy", "slot": 2})
    s = act(s, 1, {"type": "no_claim"})
    money, have = s.chefs[0].money, s.chefs[0].ingredients.get(card, 0)
    assert {"type": "runner_buy", "slot": 2} in GAME.legal(s, 0)
    s = act(s, 0, {"type": "runner_buy", "slot": 2})
    assert s.chefs[0].ingredients[card] == have + 1 and s.chefs[0].money == money - MARKETS["veg_out"].price


def test_the_runner_never_claims_and_is_no_chef_at_its_location() -> None:
    s = today(squad(), "sal_monella", "clam_voyance")
    s = move(move(s, 0, "island", runner="veg_out"), 1, "chop_shop")
    assert s.markets["veg_out"].claims_resolved  # nobody there to claim
    with pytest.raises(IllegalAction):
        act(s, 0, {"type": "claim", "slot": 0})
    with pytest.raises(IllegalAction, match="only at a market"):
        act(s, 0, {"type": "buy", "slot": 0})  # a plain buy is where the chef stands


def test_a_runners_purchase_gets_no_location_based_discount() -> None:
    s = today(squad(), "julia_chopper", "clam_voyance")  # Julia: $100 less for meat where she stands
    s = claims_done(move(move(s, 0, "veg_out", runner="chop_shop"), 1, "island"))
    money = s.chefs[0].money
    s = act(s, 0, {"type": "runner_buy", "slot": 0})
    assert s.chefs[0].money == money - 200


def test_the_runner_at_the_island_lets_its_player_dump_garbage_and_buy_upgrades() -> None:
    s = today(squad(), "sal_monella", "clam_voyance")
    s = claims_done(move(move(s, 0, "veg_out", runner="island"), 1, "chop_shop"))
    s.chefs[0].garbage, s.chefs[0].money = 2, 900
    s = act(s, 0, {"type": "dump", "count": 2})
    s = act(s, 0, {"type": "buy_upgrade", "upgrade": "cash_register"})
    assert s.chefs[0].garbage == 0 and s.chefs[0].upgrades == ["cash_register"] and s.chefs[0].money == 300
    with pytest.raises(IllegalAction, match="only at the Island"):
        act(s, 1, {"type": "dump", "count": 1})


def test_only_kitchen_squad_has_runners() -> None:
    s = GAME.setup(NAMES[:2], GAME.options({}), 1, 0)
    with pytest.raises(IllegalAction, match="Only Kitchen Squad"):
        act(s, 0, {"type": "move", "location": "island", "runner": "veg_out"})
    assert all("runner" not in a for a in GAME.legal(s, 0))


# ---- hidden information ------------------------------------------------------------------------

def test_leak_todays_chef_and_the_runner_are_re_dealt_until_the_reveal() -> None:
    s = act(squad(), 1, {"type": "squad_chef", "chef": "gordon_rampage"})
    assert GAME.view(GAME.determinize(s, 0, Rng(1)), 0) == GAME.view(s, 0)
    assert len({squads(GAME.determinize(s, 0, Rng(k))).picks[1] for k in range(30)}) == 3
    s = move(today(act(s, 0, {"type": "squad_chef", "chef": "sal_monella"}, 150)), 1, "island", runner="veg_out")
    assert GAME.view(GAME.determinize(s, 0, Rng(2)), 0) == GAME.view(s, 0)
    assert len({squads(GAME.determinize(s, 0, Rng(k))).runner_picks[1] for k in range(40)}) > 3
    assert squads(GAME.determinize(s, 1, Rng(3))).runner_picks[1] == "veg_out"


# ---- whole games --------------------------------------------------------------------------------

@pytest.mark.parametrize("options", [{}, {"sporks_out": True}, {"restaurants": "chosen"}])
def test_kitchen_squad_random_legal_play_conserves_everything_and_ends(options: dict) -> None:
    for seed in (1, 2, 3):
        out = play(GAME, 2, {"kitchen_squad": True, **options}, seed, bots=random_bots,
                   on_step=lambda state, entry, events: check_conservation(state))
        assert GAME.result(out.state) is not None and out.rejected == 0
        played = {e.action["type"] for e in out.log if e.seat is not None}
        assert {"squad_chef", "move", "runner_buy"} <= played, played


def test_kitchen_squad_bots_choose_chefs_send_runners_and_reach_20() -> None:
    out = play(GAME, 2, {"kitchen_squad": True}, 4, on_step=lambda state, entry, events: check_conservation(state))
    assert max(p.popularity for p in out.state.chefs) >= 20 and out.rejected == 0
    played = [e.action for e in out.log if e.seat is not None]
    assert len({a["chef"] for a in played if a["type"] == "squad_chef"}) >= 3
    assert any(a["type"] == "runner_buy" for a in played)
