"""Rival Restaurants: the plug-in points an expansion (SPORKS Out) uses — a new phase in the
day, new chefs with new kinds of effect, plays that Clam-Voyance cannot stop, and an
expansion's own record hooked into the base game's seams (``expansion``) — work as data
and registrations, with no change to the rules."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from server.engine import Event, Rng, public, require
from server.games.rival_restaurants import GAME
from server.games.rival_restaurants.cards import ACTION_CARDS, CHEFS, MONEY_MOVE, ActionCard, Chef, Effect, Play, pool
from server.games.rival_restaurants.expansion import EXPANSIONS, Expansion
from server.games.rival_restaurants.moments import EFFECTS, MOMENTS, Hook
from server.games.rival_restaurants.phase import PHASES, Phase
from server.games.rival_restaurants.state import RivalState

from .helpers import act, go, hand, new, serve_all, to_cook


@dataclass
class Snacks:
    """A third expansion's own record: bids by seat, and each chef's hidden snacks."""

    bids: dict[int, int] = field(default_factory=dict)
    hidden: dict[int, list[str]] = field(default_factory=dict)

    def clone(self) -> "Snacks":
        return Snacks(dict(self.bids), {k: list(v) for k, v in self.hidden.items()})


def snacks(s: RivalState) -> Snacks:
    return s.expansions["snacks"]


class SnackAuction(Phase):
    """A stand-in for SPORKS Out's Action Auction: every chef bids secretly, highest pays."""

    id = "snack_auction"
    name = "Snack Auction"

    def __init__(self) -> None:
        self.handlers = {"snack_bid": self._bid}

    @staticmethod
    def _bid(s: RivalState, seat: int, action: dict[str, Any], now: int) -> list[Event]:
        require(seat not in snacks(s).bids, "You already bid.")
        snacks(s).bids[seat] = action.get("amount", 0)
        return [public("snack_bid", f"{s.players[seat]} bids.")]

    def over(self, s: RivalState) -> bool:
        return s.day == 1 or len(snacks(s).bids) == len(s.players)

    def legal(self, s: RivalState, seat: int) -> list[dict[str, Any]]:
        return [] if seat in snacks(s).bids else [{"type": "snack_bid", "amount": 0}]


class SnackTable(Expansion):
    """A third expansion at the base game's seams: hidden snacks each chef alone sees (a
    view field), re-dealt for the others; a snack stand a move may send someone to; a
    'tip' the market offers."""

    id = "snacks"

    def redeal(self, s: RivalState, seat: int, rng: Rng) -> None:
        hidden = snacks(s).hidden
        pool = [c for k, cards in hidden.items() if k != seat for c in cards]
        rng.shuffle(pool)
        for k, cards in hidden.items():
            if k != seat:
                hidden[k] = [pool.pop() for _ in cards]

    def view_fields(self, s: RivalState, seat: int | None) -> dict[str, Any]:
        if "snacks" not in s.expansions:
            return {"snacks": None}
        return {"snacks": {i: (cards if i == seat else len(cards)) for i, cards in snacks(s).hidden.items()}}

    def pick_variants(self, s: RivalState, seat: int) -> list[dict[str, Any]]:
        return [{}, {"stand": True}] if "snacks" in s.expansions else [{}]

    def pick(self, s: RivalState, seat: int, action: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        if action.get("stand"):
            require("snacks" in s.expansions, "No snack stand in this match.")
            snacks(s).bids[seat] = -1
            return ", and to the snack stand", {"stand": True}
        return "", {}


def test_a_new_phase_plugs_into_the_day_before_money_and_move(monkeypatch) -> None:
    monkeypatch.setitem(PHASES, "snack_auction", SnackAuction())
    s = new()
    s.expansions["snacks"] = Snacks()
    s.day_plan = ["snack_auction", *s.day_plan]
    s = serve_all(to_cook(go(s, "island", "island")))
    assert s.day == 2 and s.phase == "snack_auction" and GAME.legal(s, 0) == [{"type": "snack_bid", "amount": 0}]
    s.expansions["snacks"] = Snacks()  # a new day: the phase's own daily data (a ``day_start`` rule would reset it)
    money = s.chefs[0].money
    s = act(s, 0, {"type": "snack_bid", "amount": 0})
    s = act(s, 1, {"type": "snack_bid", "amount": 0})
    assert s.phase == MONEY_MOVE and s.chefs[0].money == money + 300  # income after the new phase
    for seat in (0, 1, None):
        assert GAME.view(s, seat)["day_plan"] == ["snack_auction", "money_move", "buy_barter", "cook_counter"]


def test_a_new_chef_plugs_in_as_data_with_a_new_kind_of_effect(monkeypatch) -> None:
    def breakfast(hook: Hook, params: dict[str, Any]) -> None:
        hook.state.chefs[hook.seat].money += params["amount"]
        hook.state.bank -= params["amount"]

    monkeypatch.setitem(EFFECTS, "breakfast_money", breakfast)
    monkeypatch.setitem(CHEFS, "papa_test", Chef("papa_test", "Papa Test", "The Tester", MONEY_MOVE, "Brunch",
                                                 "Earns $50 at the start of every day.",
                                                 (Effect("day_start", "breakfast_money", {"amount": 50}),)))
    assert "day_start" in MOMENTS
    try:
        s = new(2, ["papa_test", "sal_monella"])
        assert s.chefs[0].money == 350 and s.chefs[1].money == 300
    finally:
        pool.cache_clear()  # the content pool is kept: one made with the test's chef must not outlive it


def test_a_spork_play_cannot_be_stopped_by_clam_voyance(monkeypatch) -> None:
    monkeypatch.setitem(ACTION_CARDS, "spork_test", ActionCard(
        "spork_test", "Spork", "Gain $300; nothing stops it.", (Effect("now", "gain_money", {"amount": 300}),),
        Play(MONEY_MOVE, stoppable=False)))
    s = new(2, ["clam_voyance", "sal_monella"])
    s.chefs[1].actions = [*s.chefs[1].actions, "spork_test-1"]
    s = act(s, 0, {"type": "move", "location": "island", "foresee": 1})
    s = act(s, 1, {"type": "play", "card": "spork_test-1"})
    assert s.chefs[1].money == 600 and not s.today[0].foreseen_hit
    card = hand(s, 1, "windfall")
    s.today[1].played = None
    s = act(s, 1, {"type": "play", "card": card})
    assert s.chefs[1].money == 600 and s.today[0].foreseen_hit  # an ordinary card is stopped


def test_a_third_expansion_hooks_the_views_the_move_and_determinize_with_its_own_record(monkeypatch) -> None:
    """Like Crave of Wonders' face-down ingredients: each chef may hold hidden cards only
    they see; other seats see how many. The record is cloned with the state, re-dealt by
    ``determinize``, shown through a view seam; a move may carry the expansion's field."""
    monkeypatch.setitem(EXPANSIONS, "snacks", SnackTable())
    s = new(3)
    assert GAME.view(s, 0)["snacks"] is None  # not played: the field is there, empty
    s.expansions["snacks"] = Snacks(hidden={0: ["beef"], 1: ["wine", "tofu"], 2: ["egg"]})
    assert GAME.view(s, 0)["snacks"] == {0: ["beef"], 1: 2, 2: 1}
    redealt = {tuple(GAME.determinize(s, 0, Rng(k)).expansions["snacks"].hidden[2]) for k in range(20)}
    assert len(redealt) > 1 and s.expansions["snacks"].hidden[2] == ["egg"]
    assert all(GAME.view(GAME.determinize(s, 0, Rng(k)), 0) == GAME.view(s, 0) for k in range(5))
    assert {"type": "move", "location": "island", "stand": True} in GAME.legal(s, 0)
    after, events = GAME.apply(s, 0, {"type": "move", "location": "island", "stand": True}, 0)
    assert after.expansions["snacks"].bids == {0: -1} and s.expansions["snacks"].bids == {}
    assert any(e.to == (0,) and "snack stand" in e.text and e.data.get("stand") for e in events)
