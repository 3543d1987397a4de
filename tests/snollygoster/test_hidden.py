"""Snollygoster's secrets: views, events and determinize never give a seat what it may not know."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from server.engine import TIMEOUT, IllegalAction, Rng, for_seat
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


# ---- time's defaults: a choice the absent seat could have made, telling nobody anything ---------------------

def observed(events: list, seat: int, n: int) -> list[tuple[str, str, Any]]:
    """What the other seats (and spectators) are told: type, text and audience; Food
    numbers, which are drawn at random, are blanked."""
    return [(e.type, re.sub(r"#\d+", "#?", e.text), e.to) for p in [None, *range(n)] if p != seat
            for e in for_seat(events, p)]


def test_timed_out_seeding_reads_like_a_choice_and_its_kind_is_random() -> None:
    """The others hear what they would hear of a seed the player chose; only the absent
    seat is told that time chose for it; the Food's kind is a coin, not always safe."""
    kinds = set()
    for seed in range(12):
        s = GAME.setup(["a", "b", "c"], GAME.options({}), seed)
        seat, due = s.seeding[0], GAME.deadline(s)
        timed, events = act(s, None, TIMEOUT, due)
        food = timed.stashes[seat][-1]
        kinds.add(timed.kinds[food])
        _, chosen = act(s, seat, {"type": "seed", "kind": timed.kinds[food], "stash": seat}, due - 1)
        assert observed(events, seat, 3) == observed(chosen, seat, 3)
        assert any("Time's up" in e.text for e in for_seat(events, seat))
    assert kinds == {"safe", "unsafe"}


@pytest.mark.parametrize("pair", [("hungry", "fuel"), ("unsafe", "safe"), ("ransom", "starving")])
def test_timed_out_keep_does_not_depend_on_the_cards_drawn(pair: tuple[str, str]) -> None:
    """Which card time keeps is a coin: the same whichever way round the pair was drawn,
    so the card left under the deck says nothing of the other; the others hear what a
    chosen keep would tell them."""
    s = table(3)
    me = s.turn
    set_fuel(s, (me + 1) % 3, 2)
    s = draw_next(s, *pair)
    swapped = s.clone()
    first, second = s.drawn
    swapped.kinds[first], swapped.kinds[second] = s.kinds[second], s.kinds[first]
    a, events = act(s, None, TIMEOUT, GAME.deadline(s))
    b, _ = act(swapped, None, TIMEOUT, GAME.deadline(s))
    assert a.event_deck[0] == b.event_deck[0]  # the same card (by position) went under
    assert all("Time's up" not in text for _, text, _ in observed(events, me, 3))


def test_timed_out_meal_is_chosen_from_what_everyone_sees() -> None:
    """The eater's own knowledge (a Food it placed) does not steer time's choice: with the
    kinds swapped the same Food is eaten, so the choice tells nothing of the other."""
    s = table(3)
    me, cook = s.turn, (s.turn + 1) % 3
    s.stashes[me] = []
    mine = put_food(s, me, "safe", placer=me)
    theirs = put_food(s, me, "unsafe", placer=cook)
    s = draw_next(s, "hungry", "hungry")
    s, _ = act(s, me, {"type": "keep", "card": 0})
    swapped = s.clone()
    swapped.kinds[mine], swapped.kinds[theirs] = "unsafe", "safe"
    a, events = act(s, None, TIMEOUT, GAME.deadline(s))
    b, _ = act(swapped, None, TIMEOUT, GAME.deadline(s))
    assert a.eating.food == b.eating.food
    assert all("Time's up" not in text for _, text, _ in observed(events, me, 3))


def test_timed_out_meal_follows_the_public_tags() -> None:
    s = table(3)
    me, cook = s.turn, (s.turn + 1) % 3
    s.stashes[me] = []
    foods = [put_food(s, me, "unsafe", placer=cook) for _ in range(3)]
    s.tags[foods[1]] = (cook, "safe")
    s.tags[foods[0]] = (cook, "unsafe")
    s = draw_next(s, "hungry", "hungry")
    s, _ = act(s, me, {"type": "keep", "card": 0})
    s, _ = act(s, None, TIMEOUT, GAME.deadline(s))
    assert s.eating.food == foods[1]


def test_timed_out_tag_does_not_depend_on_the_food() -> None:
    """Time's tag is a coin, not the truth: a timed-out tag lands at the deadline for all
    to see, so an honest default would tell everyone what the Food is."""
    claims: dict[str, set[str]] = {"safe": set(), "unsafe": set()}
    for seed in range(8):
        for kind in claims:
            s = table(2, seed=seed)
            me = s.turn
            food = put_food(s, 1 - me, kind, placer=1 - me)
            set_hand(s, me, ["inspect"])
            s, _ = act(s, me, {"type": "inspect", "food": food})
            s, _ = everyone_passes(s)
            s, events = act(s, None, TIMEOUT, GAME.deadline(s))
            claims[kind].add((seed, s.tags[food][1]))
            assert all("Time's up" not in text for _, text, _ in observed(events, me, 2))
            assert any("Time's up" in e.text for e in for_seat(events, me))
    assert claims["safe"] == {(seed, c) for seed, c in claims["unsafe"]}
    assert {c for _, c in claims["safe"]} == {"safe", "unsafe"}


# ---- the leak test of the contract, with events and errors -----------------------------------------------

def bad_actions(s: Any, seat: int) -> list[dict[str, Any]]:
    """Actions ``seat`` may try that break a rule: others' legal moves, and its own and
    others' with every number pushed off by one or pointed at every Event card."""
    tried: list[dict[str, Any]] = []
    for q in range(s.n):
        for a in GAME.legal(s, q)[:8]:
            tried.append(a)
            for key, value in a.items():
                if isinstance(value, int) and not isinstance(value, bool):
                    tried += [{**a, key: value + 1}, {**a, key: -1}, {**a, key: 999}]
    tried += [{"type": t, "food": f} for t in ("inspect", "antidote", "eat") for f in range(0, len(s.kinds), 7)]
    tried += [{"type": "keep", "card": 0, "stash": 0}, {"type": "keep", "card": 1, "target": 0},
              {"type": "seed", "kind": "unsafe", "stash": 0}, {"type": "guess", "seat": 0, "agenda": "Sleuth"},
              {"type": "steal", "target": 0, "what": "food", "food": 0}, {"type": "nonsense"}]
    return tried


def outcome(s: Any, seat: int | None, action: dict[str, Any], now: int):
    try:
        return GAME.apply(s, seat, action, now)
    except IllegalAction as exc:
        return exc.reason


@pytest.mark.parametrize("players,options", [(2, {}), (4, {"team_game": True}), (5, {"team_game": True}), (6, {})])
def test_leak_events_and_errors_of_determinized_states(players: int, options: dict) -> None:
    """For states met in bot games and a re-deal ``d`` of what seat ``p`` cannot see
    (with the same future randomness, so only the secrets differ): every move any seat
    may make in both, and time's, tells ``p`` the same events (type, text, audience)
    unless it shows ``p`` something new (its view then differs); and every bad move
    ``p`` tries is refused with the same words."""
    rng = Rng(12)
    compared = refused = 0
    for s in sample_states(players, 3, every=3, limit=10, **options):
        if GAME.result(s) is not None:  # a game over takes no move to compare
            continue
        for p in range(players):
            d = GAME.determinize(s, p, rng)
            d.rng = Rng(s.rng.state)
            due = GAME.deadline(s)
            moves = [(None, TIMEOUT, due)] + [(q, a, due - 1) for q in range(players)
                                             for a in GAME.legal(s, q)[:12] if a in GAME.legal(d, q)]
            for q, action, now in moves:
                s2, ev_s = GAME.apply(s, q, action, now)
                d2, ev_d = GAME.apply(d, q, action, now)
                if GAME.view(s2, p) == GAME.view(d2, p):
                    assert [(e.type, e.text, e.to) for e in for_seat(ev_s, p)] == \
                        [(e.type, e.text, e.to) for e in for_seat(ev_d, p)], (q, action)
                    compared += 1
            for action in bad_actions(s, p):
                said_s, said_d = outcome(s, p, action, due - 1), outcome(d, p, action, due - 1)
                if isinstance(said_s, str) or isinstance(said_d, str):
                    assert said_s == said_d, action
                    refused += 1
    assert compared > 100 and refused > 100
