"""What each seat may know: the leak tests for Sneaky Supper.

Hidden: other players' Cravings, the order of the decks, and — once a player has discarded
face down for the hand limit — which of the cards seen going into that hand are still in it.
Everything else (the Floorplan, picks, tokens, scores, hand sizes) is public.
"""

from __future__ import annotations

import json
from collections import Counter

from server.engine import Rng
from server.engine.playout import play, random_bots
from server.games.sneaky_supper import GAME
from server.games.sneaky_supper.cards import SEARCH_CARDS, UTENSIL_CARDS, from_utensil_deck

from .helpers import act, all_cards, draw_until_busted, give, new, quiet_food, retreat_with, stack, types_where

ALL_CARDS = sorted([*SEARCH_CARDS, *UTENSIL_CARDS])


def test_other_players_cravings_never_reach_a_view_or_an_event() -> None:
    checked = 0

    def check(state, entry, events) -> None:
        nonlocal checked
        for viewer in [None, *range(state.n)]:
            seen_text = json.dumps(GAME.view(state, viewer)) + json.dumps(
                [e.to_json() for e in events if e.visible_to(viewer)])
            for other, craving in enumerate(state.cravings):
                if other != viewer and craving is not None:
                    assert f'"{craving}"' not in seen_text, f"seat {viewer} learns seat {other}'s Craving"
                    checked += 1

    for players in (2, 5):
        play(GAME, players, None, seed=40 + players, bots=random_bots, on_step=check)
    assert checked > 100


def _face_down_discards():
    """Ana held 4 cards, Retreated with 2 more and discarded 2 of the 6 face down."""
    s = new()
    give(s, 0, *quiet_food(4))
    s = retreat_with(s, *types_where(kind="food", noise=1)[:2])
    s, _ = act(s, 0, {"type": "end_turn"})
    kept_out = [s.hands[0][0], s.hands[0][5]]
    events = []
    for c in kept_out:
        s, ev = act(s, 0, {"type": "discard", "card": c})
        events += ev
    return s, kept_out, events


def test_face_down_discards_hide_which_cards_stay_in_the_hand() -> None:
    s, gone, events = _face_down_discards()
    for viewer in (None, 1, 2):
        text = json.dumps([e.to_json() for e in events if e.visible_to(viewer)])
        assert not any(f'"{c}"' in text for c in gone)
    other = s.clone()  # Ana kept a discarded card instead of one she holds
    held, hidden = other.hands[0][0], gone[0]
    other.hands[0][0] = hidden
    other.discard[other.discard.index(hidden)] = held
    for viewer in (None, 1, 2):
        assert GAME.view(other, viewer) == GAME.view(s, viewer)
    assert GAME.view(other, 0) != GAME.view(s, 0)


def test_determinize_redeals_which_seen_cards_another_player_kept() -> None:
    s, _, _ = _face_down_discards()
    rng = Rng(3)
    hands = set()
    for _ in range(30):
        d = GAME.determinize(s, 1, rng)
        assert sorted(all_cards(d)) == ALL_CARDS
        assert len(d.hands[0]) == 4 and set(d.hands[0]) <= set(s.seen[0])
        assert Counter(map(from_utensil_deck, d.hands[0])) == Counter(map(from_utensil_deck, s.hands[0]))
        assert GAME.view(d, 1) == GAME.view(s, 1)
        hands.add(tuple(sorted(d.hands[0])))
    assert len(hands) > 1
    assert GAME.determinize(s, 0, rng).hands[0] == s.hands[0]  # Ana knows her own hand


def test_determinize_keeps_every_card_seen_going_into_a_hand() -> None:
    s = new()
    s.tokens[0] = 0
    taken = stack(s, *quiet_food(3), types_where(kind="accident", noise=3)[0],
                  types_where(kind="accident", noise=3)[0])
    s = draw_until_busted(s)
    s, _ = act(s, 1, {"type": "pick", "card": taken[1]})
    d = GAME.determinize(s, 2, Rng(9))
    assert d.hands[1] == [taken[1]] and d.hands == s.hands
    assert GAME.view(d, 2) == GAME.view(s, 2)


def test_determinize_redeals_other_cravings_and_keeps_your_own() -> None:
    s = new(4)
    rng = Rng(1)
    seen = set()
    for _ in range(20):
        d = GAME.determinize(s, 2, rng)
        assert d.cravings[2] == s.cravings[2]
        assert sorted(d.cravings + d.craving_deck) == sorted(s.cravings + s.craving_deck)
        seen.add(tuple(d.cravings))
    assert len(seen) > 1


def test_determinize_shuffles_each_deck_segment_only_within_itself() -> None:
    s = new()
    bottom = [s.deck.pop() for _ in range(10)]
    s.deck[:0] = bottom
    s.segments = [10, 70]
    d = GAME.determinize(s, 0, Rng(4))
    assert sorted(d.deck[:10]) == sorted(bottom) and sorted(d.deck[10:]) == sorted(s.deck[10:])
    assert d.deck != s.deck
