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
from server.games.sneaky_supper.cards import (
    CRAVING, CRAVINGS, SEARCH_CARDS, UTENSIL_CARDS, card, from_utensil_deck,
)
from server.games.sneaky_supper.state import SneakySupperState

from .helpers import (
    a_type, act, all_cards, draw_until_busted, give, new, quiet_food, retreat_with, stack, types_where,
)

ALL_CARDS = sorted([*SEARCH_CARDS, *UTENSIL_CARDS])
GEM = "gem-biscuits"
LOUD = a_type(kind="accident", noise=3, icon=False)


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
    other = s.clone()  # Ana kept a discarded card instead of one (of another kind) she holds
    hidden = gone[0]
    i = next(i for i, c in enumerate(other.hands[0]) if c != hidden)
    held = other.hands[0][i]
    other.hands[0][i] = hidden
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
    s.segments, s.segments_known = [10, 70], [list(s.deck[:10]), list(s.deck[10:])]
    s.segments_down, s.segments_up = [[], []], [[], []]
    d = GAME.determinize(s, 0, Rng(4))
    assert sorted(d.deck[:10]) == sorted(bottom) and sorted(d.deck[10:]) == sorted(s.deck[10:])
    assert d.deck != s.deck


def _a_copy_turns_up(face_down: str) -> tuple[SneakySupperState, list]:
    """Ana eats a Gem Biscuits face up and discards ``face_down`` face down for the hand
    limit; the discard pile (the eaten Gem and her face-down card) comes back on top of the
    deck, Gem first, and Bo draws it. Returns the state and the draw's events."""
    s = new()
    give(s, 0, GEM, GEM, "milo", "pineapple-tarts")
    s = retreat_with(s, "pineapple-tarts", "chocolate-bar")
    s, _ = act(s, 0, {"type": "consume", "card": next(c for c in s.hands[0] if card(c).id == GEM)})
    s, _ = act(s, 0, {"type": "end_turn"})
    s, _ = act(s, 0, {"type": "discard", "card": next(c for c in s.hands[0] if card(c).id == face_down)})
    assert s.active == 1
    s.deck += sorted(s.discard, key=lambda c: card(c).id == GEM)  # a shuffle that puts a Gem on top
    s.segments.append(len(s.discard))
    s.segments_known.append(s.discard_known)
    s.discard, s.discard_known = [], []
    return act(s, 1, {"type": "draw"})


def test_copies_of_a_card_are_alike_nothing_public_tells_them_apart() -> None:
    """Whether Ana's face-down discard was a Gem (and the Gem Bo draws is that very card) or
    her Milo (and the Gem is the one she ate) cannot be told at the table: every view but
    Ana's and every event anyone else sees is the same."""
    gem_came_back, gem_drawn = _a_copy_turns_up(GEM)
    milo_hidden, other_drawn = _a_copy_turns_up("milo")
    assert card(gem_came_back.turn.path[-1]).id == card(milo_hidden.turn.path[-1]).id == GEM
    for viewer in (None, 1, 2):
        assert GAME.view(gem_came_back, viewer) == GAME.view(milo_hidden, viewer)
        assert ([e.to_json() for e in gem_drawn if e.visible_to(viewer)]
                == [e.to_json() for e in other_drawn if e.visible_to(viewer)])
    assert GAME.view(gem_came_back, 1)["players"][0]["hand_maybe"]  # Ana's hand is not known
    assert GAME.view(gem_came_back, 0) != GAME.view(milo_hidden, 0)


def _bust_in_the_last_turn(craving: str | None = None) -> tuple[SneakySupperState, list]:
    """Cy's final turn: Cy is Busted and Ana, holding a Snack of her Craving and a Drink,
    takes the other Snack. With ``craving`` Ana's Craving is another one instead."""
    s = new()
    wanted = CRAVING[s.cravings[0]]
    give(s, 0, wanted.snacks[0], a_type(kind="food", group="drink"))
    s.tokens = [0, 0, 0]
    s.points[1]["recipes"] = 20
    s.triggered_by, s.final_left, s.active = 1, [], 2
    if craving is not None:
        swap = s.craving_deck.index(craving)
        s.craving_deck[swap], s.cravings[0] = s.cravings[0], craving
    stack(s, wanted.snacks[1], LOUD, LOUD)
    events = []
    for _ in range(7):
        s, ev = act(s, 2, {"type": "bust" if s.phase == "noisy" else "draw"})
        events += ev
        if s.phase != "turn":
            break
    return s, events


def test_last_call_says_nothing_that_depends_on_a_secret_craving() -> None:
    """Whether Ana can complete her Craving after the last bust is hers to know: the last
    call (who is waited for, what is said) is the same whichever Craving she holds."""
    can, can_events = _bust_in_the_last_turn()
    held = set(map(lambda c: card(c).id, can.hands[0]))
    other = next(c.id for c in CRAVINGS if c.id in can.craving_deck and not set(c.snacks) <= held)
    cannot, cannot_events = _bust_in_the_last_turn(other)
    assert [a for a in GAME.legal(can, 0) if a["type"] == "craving"]
    assert not [a for a in GAME.legal(cannot, 0) if a["type"] == "craving"]
    for viewer in (None, 1, 2):
        assert GAME.view(can, viewer) == GAME.view(cannot, viewer)
        assert ([e.to_json() for e in can_events if e.visible_to(viewer)]
                == [e.to_json() for e in cannot_events if e.visible_to(viewer)])
    assert cannot.phase == "last_call" and {"type": "pass"} in GAME.legal(cannot, 0)


def test_determinize_moves_only_face_down_discards_between_hands_and_piles() -> None:
    """The table knows what each pile was given face up — a deck segment nobody discarded
    into holds just the cards dealt to it, less those drawn — so a re-deal trades Ana's kept
    cards only with her face-down discards, never with a card of the deck."""
    s, _, _ = _face_down_discards()
    rng = Rng(5)
    kept = set()
    for _ in range(30):
        d = GAME.determinize(s, 1, rng)
        assert sorted(d.deck) == sorted(s.deck) and d.segments == s.segments
        assert sorted(d.discard + d.hands[0]) == sorted(s.discard + s.hands[0])
        kept.add(tuple(sorted(d.hands[0])))
    assert len(kept) > 1
