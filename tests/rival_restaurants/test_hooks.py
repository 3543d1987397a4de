"""Rival Restaurants: the plug-in points an expansion (SPORKS Out) uses — a new phase in the
day, new chefs with new kinds of effect, and plays that Clam-Voyance cannot stop — work as
data and registrations, with no change to the rules."""

from __future__ import annotations

from typing import Any

from server.engine import Event, Rng, public, require
from server.games.rival_restaurants import GAME
from server.games.rival_restaurants.cards import ACTION_CARDS, CHEFS, MONEY_MOVE, ActionCard, Chef, Effect, Play
from server.games.rival_restaurants.moments import EFFECTS, MOMENTS, Hook
from server.games.rival_restaurants.phase import DETERMINIZERS, PHASES, VIEW_PARTS, Phase
from server.games.rival_restaurants.state import RivalState

from .helpers import act, go, hand, new, serve_all, to_cook


class SnackAuction(Phase):
    """A stand-in for SPORKS Out's Action Auction: every chef bids secretly, highest pays."""

    id = "snack_auction"
    name = "Snack Auction"

    def __init__(self) -> None:
        self.handlers = {"snack_bid": self._bid}

    @staticmethod
    def _bid(s: RivalState, seat: int, action: dict[str, Any], now: int) -> list[Event]:
        require("bid" not in s.today[seat].expansion, "You already bid.")
        s.today[seat].expansion["bid"] = action.get("amount", 0)
        return [public("snack_bid", f"{s.players[seat]} bids.")]

    def over(self, s: RivalState) -> bool:
        return s.day == 1 or all("bid" in t.expansion for t in s.today)

    def legal(self, s: RivalState, seat: int) -> list[dict[str, Any]]:
        return [] if "bid" in s.today[seat].expansion else [{"type": "snack_bid", "amount": 0}]


def test_a_new_phase_plugs_into_the_day_before_money_and_move(monkeypatch) -> None:
    monkeypatch.setitem(PHASES, "snack_auction", SnackAuction())
    s = new()
    s.day_plan = ["snack_auction", *s.day_plan]
    s = serve_all(to_cook(go(s, "island", "island")))
    assert s.day == 2 and s.phase == "snack_auction" and GAME.legal(s, 0) == [{"type": "snack_bid", "amount": 0}]
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
    s = new(2, ["papa_test", "sal_monella"])
    assert s.chefs[0].money == 350 and s.chefs[1].money == 300


def test_a_spork_play_cannot_be_stopped_by_clam_voyance(monkeypatch) -> None:
    monkeypatch.setitem(ACTION_CARDS, "spork_test", ActionCard(
        "spork_test", "Spork", "Gain $300; nothing stops it.", (Effect("now", "gain_money", {"amount": 300}),),
        Play(MONEY_MOVE, stoppable=False)))
    s = new(2, ["clam_voyance", "sal_monella"])
    s.chefs[1].actions.append("spork_test-1")
    s = act(s, 0, {"type": "move", "location": "island", "foresee": 1})
    s = act(s, 1, {"type": "play", "card": "spork_test-1"})
    assert s.chefs[1].money == 600 and not s.today[0].foreseen_hit
    card = hand(s, 1, "windfall")
    s.today[1].played = None
    s = act(s, 1, {"type": "play", "card": card})
    assert s.chefs[1].money == 600 and s.today[0].foreseen_hit  # an ordinary card is stopped


def test_an_expansions_hidden_cards_show_through_its_view_part_and_are_re_dealt(monkeypatch) -> None:
    """Like Crave of Wonders' face-down ingredients: each chef may hold hidden cards only
    they see; other seats see how many."""
    def part(s: RivalState, seat: int | None) -> dict[str, Any]:
        hidden = s.expansion.get("face_down", {})
        return {str(i): (cards if i == seat else len(cards)) for i, cards in ((int(k), v) for k, v in hidden.items())}

    def redeal(s: RivalState, seat: int, rng: Rng) -> None:
        hidden = s.expansion.get("face_down", {})
        pool = [c for k, cards in hidden.items() if int(k) != seat for c in cards]
        rng.shuffle(pool)
        for k, cards in hidden.items():
            if int(k) != seat:
                hidden[k] = [pool.pop() for _ in cards]

    monkeypatch.setitem(VIEW_PARTS, "face_down", part)
    DETERMINIZERS.append(redeal)
    try:
        s = new(3)
        s.expansion["face_down"] = {"0": ["beef"], "1": ["wine", "tofu"], "2": ["egg"]}
        assert GAME.view(s, 0)["expansion"]["face_down"] == {"0": ["beef"], "1": 2, "2": 1}
        redealt = {tuple(GAME.determinize(s, 0, Rng(k)).expansion["face_down"]["2"]) for k in range(20)}
        assert len(redealt) > 1
        assert all(GAME.view(GAME.determinize(s, 0, Rng(k)), 0) == GAME.view(s, 0) for k in range(5))
    finally:
        DETERMINIZERS.remove(redeal)
