"""Snollygoster's secrets: views, events and determinize never give a seat what it may not know."""

from __future__ import annotations

import json
from typing import Any

import pytest

from server.engine import Rng, for_seat
from server.engine.playout import Entry, play, random_bots
from server.games.snollygoster import GAME
from server.games.snollygoster.cards import AGENDAS, ROGUE

from .helpers import act, draw_next, everyone_passes, put_food, set_fuel, set_hand, table


def sample_states(players: int, seed: int, bots=None, every: int = 5, limit: int = 25, **options: Any):
    """States met along a game (bots by default: they reach windows, meals and the end)."""
    found: list[Any] = []

    def keep(state: Any, entry: Entry, _events: list) -> None:
        if len(found) < limit and (entry.at_ms // 7 + len(found)) % every == 0:
            found.append(state)

    kwargs = {"bots": bots} if bots else {}
    play(GAME, players, options or None, seed, on_step=keep, **kwargs)
    return found


def unknown_food(s, seat):
    return next((f for f in s.all_foods() if not s.knows(seat, f)), None)


def flip(kind: str) -> str:
    return "safe" if kind == "unsafe" else "unsafe"


# ---- targeted leak tests: each would fail if the secret reached the view ---------------------------------

def test_view_never_shows_another_players_agenda() -> None:
    s = table(4)
    for seat in range(4):
        before = GAME.view(s, seat)
        for other in range(4):
            if other == seat:
                continue
            for agenda in AGENDAS:
                changed = s.clone()
                changed.agendas[other] = agenda
                assert GAME.view(changed, seat) == before, f"seat {seat} sees seat {other}'s agenda"
        mine = s.clone()
        mine.agendas[seat] = next(a for a in AGENDAS if a != s.agendas[seat])
        assert GAME.view(mine, seat) != before  # the test can fail: one's own agenda shows


def test_view_never_shows_the_safety_of_food_the_seat_has_not_seen() -> None:
    s = table(3)
    placer, owner, third = s.turn, (s.turn + 1) % 3, (s.turn + 2) % 3
    food = put_food(s, owner, "unsafe", placer=placer)
    changed = s.clone()
    changed.kinds[food] = "safe"
    for seat in (owner, third):
        assert GAME.view(changed, seat) == GAME.view(s, seat)
        assert GAME.view(s, seat)["players"][owner]["stash"][-1]["you_know"] is None
    assert GAME.view(changed, placer) != GAME.view(s, placer)  # the placer does know
    assert GAME.view(s, None)["players"][owner]["stash"][-1]["you_know"] is None


def test_view_never_shows_other_hands_or_drawn_event_cards() -> None:
    s = table(3)
    me, other = s.turn, (s.turn + 1) % 3
    set_hand(s, other, ["denied", "launch"])
    s = draw_next(s, "unsafe", "fuel")
    changed = s.clone()
    changed.hands[other] = ["inspect", "steal"]
    changed.kinds[s.drawn[0]], changed.kinds[s.drawn[1]] = "safe", "hungry"
    assert GAME.view(changed, (me + 2) % 3) == GAME.view(s, (me + 2) % 3)
    assert GAME.view(s, me)["drawn"]["cards"][0]["card"] == "unsafe"
    assert GAME.view(s, other)["drawn"] == {"count": 2, "cards": None}


def test_events_to_other_seats_never_carry_a_placed_foods_safety() -> None:
    s = table(3)
    me = s.turn
    s = draw_next(s, "unsafe", "hungry")
    s, events = act(s, me, {"type": "keep", "card": 0, "stash": (me + 1) % 3})
    for seat in [None, (me + 1) % 3, (me + 2) % 3]:
        for e in for_seat(events, seat):
            blob = json.dumps(e.to_json()).lower()
            assert "unsafe" not in blob, (seat, e)
    assert any("unsafe" in e.text for e in for_seat(events, me))  # the placer is told


def test_inspect_result_is_told_only_to_the_inspector() -> None:
    s = table(3)
    me = s.turn
    food = put_food(s, (me + 1) % 3, "unsafe", placer=(me + 1) % 3)
    set_hand(s, me, ["inspect"])
    s, _ = act(s, me, {"type": "inspect", "food": food})
    s, events = everyone_passes(s)
    for seat in [None, (me + 1) % 3, (me + 2) % 3]:
        assert all(e.data.get("kind") is None for e in for_seat(events, seat))
    assert any(e.data.get("kind") == "unsafe" for e in for_seat(events, me))


@pytest.mark.parametrize("players", [2, 4, 6])
def test_events_only_tell_a_seat_the_kinds_it_knows_and_never_an_agenda(players: int) -> None:
    """Along whole games: a Food's kind reaches a seat only once it knows it; no event in
    play names an agenda."""
    names = {a.name.lower() for a in AGENDAS.values()} | set(AGENDAS)
    checked = 0

    def check(state: Any, entry: Entry, events: list) -> None:
        nonlocal checked
        for e in events:
            seats = range(players) if e.to is None else e.to
            food, kind = e.data.get("food"), e.data.get("kind")
            if food is not None and kind is not None and food not in state.event_deck:  # (reshuffled since)
                assert all(state.knows(p, food) or state.public_kind[food] for p in seats), e
                checked += 1
            if e.type in ("drew_events", "drew", "inspect_result", "food_known"):
                assert e.to is not None and len(e.to) == 1, e
            if state.phase == "play":
                text = e.text.lower()
                assert not any(n in text.split() or (" " in n and n in text) for n in names), e

    for seed in range(2):
        play(GAME, players, None, seed, on_step=check)
    assert checked > 0


# ---- the leak test of the contract, on richer states ------------------------------------------------------

@pytest.mark.parametrize("players,options", [(3, {}), (4, {"team_game": True}), (6, {"team_game": True}), (5, {})])
def test_leak_view_and_legal_of_determinized_bot_states(players: int, options: dict) -> None:
    rng = Rng(5)
    differed = checked = 0
    for seed in range(2):
        for s in sample_states(players, seed, **options):
            for seat in range(players):
                d = GAME.determinize(s, seat, rng)
                assert GAME.view(d, seat) == GAME.view(s, seat)
                assert GAME.legal(d, seat) == GAME.legal(s, seat)
                differed += d.kinds != s.kinds or d.hands != s.hands or d.agendas != s.agendas
                checked += 1
    assert checked and differed > checked // 2


def test_determinize_keeps_what_the_seat_knows() -> None:
    rng = Rng(1)
    for s in sample_states(4, 3, bots=random_bots):
        for seat in range(4):
            d = GAME.determinize(s, seat, rng)
            assert d.hands[seat] == s.hands[seat] and d.agendas[seat] == s.agendas[seat]
            for card in range(len(s.kinds)):
                if s.knows(seat, card):
                    assert d.kinds[card] == s.kinds[card]
                if s.public_food[card]:
                    assert d.kinds[card] in ("safe", "unsafe")
            for p in s.revealed_agendas:
                assert d.agendas[p] == s.agendas[p]
            assert sorted(d.kinds) == sorted(s.kinds)
            assert sorted(d.action_deck + sum(d.hands, [])) == sorted(s.action_deck + sum(s.hands, []))


def test_determinize_redeals_unknown_food_other_hands_and_agendas() -> None:
    s = table(4)
    me = s.turn
    food = put_food(s, (me + 1) % 4, "unsafe", placer=(me + 1) % 4)
    set_hand(s, (me + 2) % 4, ["launch", "launch", "denied", "denied"])
    rng = Rng(2)
    kinds, hands, agendas = set(), set(), set()
    for _ in range(40):
        d = GAME.determinize(s, me, rng)
        kinds.add(d.kinds[food])
        hands.add(tuple(d.hands[(me + 2) % 4]))
        agendas.add(d.agendas[(me + 3) % 4])
    assert kinds == {"safe", "unsafe"} and len(hands) > 5 and len(agendas) > 3


def test_determinize_keeps_the_number_of_rogues_in_the_team_game() -> None:
    s = table(6, team_game=True)
    rng = Rng(3)
    for seat in range(6):
        for _ in range(10):
            d = GAME.determinize(s, seat, rng)
            assert sum(d.team_of(p) == ROGUE for p in range(6)) == 3
            assert d.team_of(seat) == s.team_of(seat)


def test_determinize_may_change_the_hidden_team_sizes_of_an_odd_team_game() -> None:
    """With 5 players nobody knows whether 2 or 3 are Rogues: a re-deal samples both,
    always keeping the seat's own team."""
    s = table(5, team_game=True)
    rng = Rng(6)
    for seat in range(5):
        counts = set()
        for _ in range(30):
            d = GAME.determinize(s, seat, rng)
            assert d.team_of(seat) == s.team_of(seat)
            counts.add(sum(d.team_of(p) == ROGUE for p in range(5)))
        assert counts == {2, 3}


def test_determinize_depends_only_on_what_the_seat_knows() -> None:
    """Re-dealing an already re-dealt state gives the same deal: nothing of the truth
    that the seat cannot see survives into the sample."""
    for s in sample_states(5, 1)[:10]:
        for seat in range(5):
            other = GAME.determinize(s, seat, Rng(77))
            assert GAME.determinize(other, seat, Rng(1)) == GAME.determinize(s, seat, Rng(1))


def test_determinized_drawn_pair_keeps_the_special_cases() -> None:
    s = table(3)
    me = s.turn
    set_fuel(s, me, 5)
    s = draw_next(s, "fuel", "hungry")
    rng = Rng(4)
    for _ in range(60):
        d = GAME.determinize(s, (me + 1) % 3, rng)
        assert [d.kinds[c] for c in d.drawn] != ["fuel", "fuel"]
