"""SPORKS Out's secrets stay on the server: the Snackle Box's face-down card, the Hot Sauce
cards (hidden even from their holder), the bids before the reveal and the Luau's shelf
draws. For each, two states that differ only in the secret must look the same to every
seat and the spectators — views, legal actions, the events of every action and the error
texts — until the rules reveal it; ``determinize`` re-deals it. Then the leak test of
DESIGN.md over random SPORKS Out matches at every table size, and the engine contract's
checks run over the ``sporks-out`` variant (the contract test runs them over the base game).
"""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest

from server.engine import TIMEOUT, IllegalAction, Rng
from server.engine.playout import Entry, play, random_bots, replay
from server.games.rival_restaurants import GAME
from server.games.rival_restaurants.state import RivalState
from server.games.rival_restaurants.sporks_table import table
from server.games.rival_restaurants.sporks import things
from server.games.rival_restaurants.auction import bid_of

from .helpers import act, go
from .test_properties import check_conservation
from .test_sporks import auction_day, bid, next_day, sporks

SPORKS = GAME.variants["sporks-out"]


def outcome(s: RivalState, seat: int, action: dict[str, Any]) -> tuple[str, Any]:
    """What applying an action shows: its error text, or the state and events."""
    try:
        return "ok", GAME.apply(s, seat, action, s.phase_since + 500)
    except IllegalAction as exc:
        return "error", exc.reason


def seen(events: list, viewer: int | None) -> list[dict[str, Any]]:
    return [e.to_json() for e in events if e.visible_to(viewer)]


def probes(s: RivalState, extra: list[tuple[int, dict[str, Any]]]) -> list[tuple[int, dict[str, Any]]]:
    """Every legal action of every seat, and the given ones (naming the secret)."""
    return [(seat, a) for seat in range(len(s.players)) for a in GAME.legal(s, seat)] + extra


def assert_indistinguishable(a: RivalState, b: RivalState, observers: list[int | None],
                             extra: list[tuple[int, dict[str, Any]]] = ()) -> None:
    """``a`` and ``b`` differ only in a secret the observers may not know: every view,
    legal action, event and error text is the same for them — except where an action
    makes the rules reveal it (the phase moves on)."""
    assert a != b
    for viewer in observers:
        assert GAME.view(a, viewer) == GAME.view(b, viewer), f"seat {viewer} sees the secret in the view"
        if viewer is not None:
            assert GAME.legal(a, viewer) == GAME.legal(b, viewer), f"seat {viewer}'s legal actions differ"
    for seat, action in probes(a, list(extra)):
        (kind_a, out_a), (kind_b, out_b) = outcome(a, seat, action), outcome(b, seat, action)
        if seat in observers:
            assert kind_a == kind_b, f"{action} is legal in one state only for seat {seat}"
        if kind_a == kind_b == "error":
            assert out_a == out_b, f"the error text of {action} tells the secret"
        if kind_a == kind_b == "ok" and (out_a[0].phase, out_a[0].day) == (a.phase, a.day):
            for viewer in observers:
                assert seen(out_a[1], viewer) == seen(out_b[1], viewer), f"{action}'s events tell seat {viewer}"


def redealt(s: RivalState, seat: int, pick) -> set[Any]:
    """What ``determinize`` deals the secret (``pick``) over a few seeds; the views stay equal."""
    out = set()
    for k in range(12):
        d = GAME.determinize(s, seat, Rng(k))
        assert GAME.view(d, seat) == GAME.view(s, seat) and GAME.legal(d, seat) == GAME.legal(s, seat)
        out.add(pick(d))
    return out


# ---- each secret ----------------------------------------------------------------------------------

def face_down_box() -> RivalState:
    s = auction_day(3, money=[300, 300, 300])
    s = next_day(bid(bid(bid(s, 0, 0), 1, 0), 2, 0))
    assert table(s).face_down is not None
    return s


def test_secret_the_snackle_box_face_down_card_is_seen_by_nobody() -> None:
    a = face_down_box()
    b = a.clone()
    b.action_deck = list(b.action_deck)  # shared with a's: replaced, never changed in place
    other = next(c for c in reversed(b.action_deck) if c.split("-")[0] != table(a).face_down.split("-")[0])
    b.action_deck[b.action_deck.index(other)], table(b).face_down = table(b).face_down, other
    hidden = table(a).face_down
    assert_indistinguishable(a, b, [0, 1, 2, None], [(0, {"type": "play", "card": hidden}),
                                                     (1, {"type": "box_bid", "amount": 0, "card": hidden})])
    for viewer in (0, 1, 2, None):
        assert hidden not in json.dumps(GAME.view(a, viewer))
    assert len(redealt(a, 0, lambda d: table(d).face_down)) > 3


def test_secret_the_face_down_card_is_drawn_with_an_event_that_does_not_name_it() -> None:
    s = auction_day(2, money=[0, 0])
    s = bid(bid(s, 0, 0), 1, 0)
    s = go(s, "island", "island")
    for seat in (0, 1):
        s = act(s, seat, {"type": "done"})
    texts = []
    for k in range(2):
        t = s.clone()
        t.action_deck = t.action_deck[k:] + t.action_deck[:k]  # another card on top
        for seat in (0, 1):
            t, evs = GAME.apply(t, seat, {"type": "serve"}, 9000)
        texts.append([e.to_json() for e in evs if e.type in ("box_fill", "box_full")])
        assert table(t).face_down is not None
    assert texts[0] == texts[1] and texts[0]


def hot_sauce() -> tuple[RivalState, RivalState]:
    s = sporks(3, ["clam_voyance", "sal_monella", "pork_knuckles"], ["crave_of_wonders", "rising_sun", "curry_favor"])
    s.chefs[0].levels = [3, 7]
    s = go(s, "veg_out", "veg_out", "island")
    held = things(s, 0).hot_sauce[0]
    b = s.clone()
    other = next(c for c in reversed(b.markets["veg_out"].shelf) if c != held)
    shelf = b.markets["veg_out"].shelf = list(b.markets["veg_out"].shelf)  # shared with s's: replaced
    shelf[shelf.index(other)], things(b, 0).hot_sauce[0] = held, other
    return s, b


def test_secret_a_hot_sauce_card_is_seen_by_nobody_not_even_its_holder() -> None:
    a, b = hot_sauce()
    held = things(a, 0).hot_sauce[0]
    extra = [(0, {"type": "offer", "to": 1, "give": {"ingredients": [held]}, "get": {}}),
             (1, {"type": "play", "card": "swipe-1", "target": 0, "ingredient": held}),
             (0, {"type": "offer", "to": 1, "give": {"face_down": {"veg_out": 1}}, "get": {}}),
             (1, {"type": "power", "target": 0, "ingredient": held})]
    assert_indistinguishable(a, b, [0, 1, 2, None], extra)
    assert len(redealt(a, 0, lambda d: things(d, 0).hot_sauce[0])) > 2, "the holder's own card is re-dealt too"
    assert len(redealt(a, 1, lambda d: things(d, 0).hot_sauce[0])) > 2


def test_secret_the_hot_sauce_card_is_revealed_when_traded_and_only_then() -> None:
    a, b = hot_sauce()
    a = act(a, 0, {"type": "offer", "to": 1, "give": {"face_down": {"veg_out": 1}}, "get": {}})
    b = act(b, 0, {"type": "offer", "to": 1, "give": {"face_down": {"veg_out": 1}}, "get": {}})
    assert GAME.view(a, 1) == GAME.view(b, 1)
    (_, (a2, evs)) = outcome(a, 1, {"type": "accept", "offer": a.offers[0].id})
    assert any(e.type == "face_up" and e.to is None for e in evs)
    assert things(a2, 0).hot_sauce == []


def test_secret_an_unrevealed_bid_is_seen_only_by_its_bidder() -> None:
    start = auction_day(3, money=[700, 700, 700])
    (_, (a, evs_a)), (_, (b, evs_b)) = (outcome(start, 0, {"type": "box_bid", "amount": n}) for n in (300, 500))
    for viewer in (1, 2, None):
        assert seen(evs_a, viewer) == seen(evs_b, viewer), "the bid's own events tell its amount"
    assert seen(evs_a, 0) != seen(evs_b, 0) and GAME.view(a, 0) != GAME.view(b, 0)  # the bidder sees their own
    assert_indistinguishable(a, b, [1, 2, None], [(1, {"type": "box_bid", "amount": 1000})])
    assert len(redealt(a, 1, lambda d: bid_of(d, 0))) > 2
    assert {bid_of(GAME.determinize(a, 0, Rng(k)), 0) for k in range(5)} == {300}


def test_secret_bids_are_all_revealed_together_at_the_end() -> None:
    s = auction_day(2, money=[700, 700])
    s = bid(s, 0, 300)
    s, evs = GAME.apply(s, 1, {"type": "box_bid", "amount": 200}, 1000)
    reveal = [e for e in evs if e.type in ("box_won", "box_tie")]
    assert len(reveal) == 1 and reveal[0].to is None and reveal[0].data["bids"] == [300, 200]


def test_secret_the_luau_shelf_draws_are_unknown_until_the_reveal() -> None:
    s = sporks(3, ["wahine", "sal_monella", "clam_voyance"])
    s = act(s, 0, {"type": "power", "market": "veg_out"})
    s = act(s, 1, {"type": "move", "location": "veg_out"})
    a, b = s, s.clone()
    shelf = b.markets["veg_out"].shelf = list(b.markets["veg_out"].shelf)  # shared with a's: replaced
    other = next(i for i in range(len(shelf) - 2, -1, -1) if shelf[i] != shelf[-1])
    shelf[-1], shelf[other] = shelf[other], shelf[-1]
    assert_indistinguishable(a, b, [0, 1, 2, None])
    assert len(redealt(a, 2, lambda d: d.markets["veg_out"].shelf[-1])) > 2


# ---- the leak test, over random SPORKS Out matches -----------------------------------------------

def sample_states(players: int, seed: int, limit: int = 25, every: int = 5) -> list[RivalState]:
    out: list[RivalState] = []

    def keep(state: RivalState, entry: Entry, _events: list) -> None:
        if len(out) < limit and (entry.at_ms // 7 + len(out)) % every == 0:
            out.append(state)

    play(GAME, players, SPORKS, seed, bots=random_bots, on_step=keep)
    return out


def garbage_for(s: RivalState, seat: int, rng: Rng) -> list[dict[str, Any]]:
    junk: list[dict[str, Any]] = [{"type": "box_bid", "amount": 10**9}, {"type": "power", "use": "rob", "target": 0},
                                  {"type": "offer", "to": (seat + 1) % len(s.players),
                                   "give": {"face_down": {"veg_out": 1}}, "get": {}}]
    for action in rng.shuffled(GAME.legal(s, seat))[:4]:
        for key in action:
            if key != "type":
                junk.append({**action, key: rng.choice([None, -1, "x", 10**6])})
    return junk


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_leak_sporks_out_view_legal_events_and_errors_of_a_determinized_state_match(players: int) -> None:
    rng = Rng(100 + players)
    differed = checked = 0
    for s in sample_states(players, seed=players):
        for seat in range(players):
            d = GAME.determinize(s, seat, rng)
            assert GAME.view(d, seat) == GAME.view(s, seat)
            assert GAME.legal(d, seat) == GAME.legal(s, seat)
            differed += d != s
            checked += 1
            for action in rng.shuffled(GAME.legal(s, seat))[:6] + garbage_for(s, seat, rng):
                (ks, os_), (kd, od) = outcome(s, seat, action), outcome(d, seat, action)
                assert ks == kd, f"{action}: legal in one state only"
                if ks == "error":
                    assert os_ == od, f"{action}: the error text tells a secret"
                elif GAME.view(os_[0], seat) == GAME.view(od[0], seat):
                    assert seen(os_[1], seat) == seen(od[1], seat), f"{action}: an event tells a secret"
    assert checked and differed > checked // 2


# ---- the engine contract, over the sporks-out variant -----------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_contract_sporks_out_random_legal_play_ends_conserving_everything(players: int) -> None:
    for seed in (players, 50 + players):
        out = play(GAME, players, SPORKS, seed, bots=random_bots,
                   on_step=lambda state, entry, events: check_conservation(state))
        result = GAME.result(out.state)
        assert result is not None and out.rejected == 0 and len(result.scores) == players
        assert table(out.state).sold, "the Snackle Box was sold at least once"


def test_contract_sporks_out_replay_is_exact() -> None:
    out = play(GAME, 6, SPORKS, 11, bots=random_bots, start_ms=1_000)
    rebuilt = replay(GAME, [f"Player {i + 1}" for i in range(6)], SPORKS, 11, out.log, 1_000)
    assert rebuilt == out.state
    for seat in [None, *range(6)]:
        assert GAME.view(rebuilt, seat) == GAME.view(out.state, seat)


def test_contract_sporks_out_views_are_json_and_events_have_valid_audiences() -> None:
    def check(state: Any, entry: Entry, events: list) -> None:
        for seat in [None, *range(6)]:
            json.dumps(GAME.view(state, seat))
        for event in events:
            assert event.text and event.type and (event.to is None or set(event.to) <= set(range(6)))
            json.dumps(event.to_json())

    play(GAME, 6, SPORKS, 2, bots=random_bots, on_step=check, max_steps=1500)


def test_contract_sporks_out_every_legal_action_applies_and_bad_ones_change_nothing() -> None:
    rng = Rng(7)
    for players in (2, 4, 6):
        for s in sample_states(players, seed=8 + players, limit=12):
            before = pickle.dumps(s)
            for seat in range(players):
                for action in rng.shuffled(GAME.legal(s, seat))[:10]:
                    GAME.apply(s, seat, action, s.phase_since + 500)
                for action in garbage_for(s, seat, rng) + [{}, {"type": "box_bid"}, {"type": "power", "use": 3}]:
                    try:
                        GAME.apply(s, seat, action, s.phase_since + 500)
                    except IllegalAction as exc:
                        assert exc.reason
            with pytest.raises(IllegalAction):
                GAME.apply(s, None, {"type": "box_bid", "amount": 0}, s.phase_since)
            deadline = GAME.deadline(s)
            if deadline is not None and deadline > s.phase_since:
                with pytest.raises(IllegalAction):
                    GAME.apply(s, None, dict(TIMEOUT), s.phase_since)
            assert pickle.dumps(s) == before


def test_contract_sporks_out_a_determinized_state_plays_on() -> None:
    rng = Rng(3)
    for s in sample_states(6, seed=4, limit=10):
        d = GAME.determinize(s, 0, rng)
        for _ in range(20):
            moves = [(seat, a) for seat in range(6) for a in GAME.legal(d, seat)]
            if not moves or GAME.result(d) is not None:
                break
            seat, action = rng.choice(moves)
            d, _ = GAME.apply(d, seat, action, d.phase_since + 500)
            check_conservation(d)
