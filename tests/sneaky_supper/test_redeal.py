"""Issue 27: Sneaky Supper's re-deal (what the bots and the leak test sample) keeps to
everything the table knows — a card taken face up after a face-down discard is still in
that hand; a face-down discard stays in its pile and is one of its discarder's cards — and
every re-deal along random and bot games is checked against the public history (the game
log's events), not only against the views."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from server.engine import Rng
from server.engine.playout import play, random_bots
from server.games.sneaky_supper import GAME
from server.games.sneaky_supper.cards import from_utensil_deck
from server.games.sneaky_supper.knowledge import _piles
from server.games.sneaky_supper.state import discard_face_down, put_discard_under_deck, to_hand

from .helpers import _take, give, new


def test_redeal_keeps_a_card_taken_face_up_after_a_face_down_discard() -> None:
    """Bo discards face down for the hand limit, then takes Prawn Crackers face up from a
    bust: every re-deal leaves them in his hand."""
    s = new(3)
    give(s, 1, "sliced-bread", "eggs", "milo", "ice-cream", "kaya-butter")
    discard_face_down(s, 1, s.hands[1][0])
    to_hand(s, 1, _take(s, "prawn-crackers"))  # a pick from a bust
    rng = Rng(5)
    dropped = sum("prawn-crackers" not in GAME.determinize(s, 0, rng).hands[1] for _ in range(200))
    assert dropped == 0, f"{dropped} of 200 re-deals took Bo's Prawn Crackers away"


def test_redeal_keeps_each_face_down_discard_in_its_pile_and_of_its_discarder() -> None:
    """Bo's face-down discard went under the deck with the discard pile; Cy's later one lies
    in the new discard pile. No re-deal puts a card only Cy could hold under the deck."""
    s = new(3)
    bo = give(s, 1, "sliced-bread", "eggs", "milo", "ice-cream", "kaya-butter")
    cy = give(s, 2, "instant-noodles", "spring-onion", "mushrooms", "bean-sprouts", "fizzy-soda")
    discard_face_down(s, 1, s.hands[1][0])
    put_discard_under_deck(s)  # after a Recipe: Bo's discard is the bottom segment now
    discard_face_down(s, 2, s.hands[2][0])
    rng = Rng(6)
    misplaced = 0
    for _ in range(300):
        d = GAME.determinize(s, 0, rng)
        bottom = d.deck[:d.segments[0]]
        misplaced += (not set(bottom) <= set(bo)) + (not set(d.discard) <= set(cy))
    assert misplaced == 0, f"{misplaced} of 300 re-deals dealt a face-down discard to the wrong pile or hand"


# ---- every re-deal against the public history ------------------------------------------------

class Table:
    """What the table knows of each hand, read from the game log's public events alone:
    the cards seen going in, less those seen leaving face up (``seen``), and those taken
    face up since the hand last discarded face down (``sure``)."""

    def __init__(self, n: int) -> None:
        self.seen = [Counter[str]() for _ in range(n)]
        self.sure = [Counter[str]() for _ in range(n)]
        self.sizes = [0] * n

    def follow(self, events: list[Any]) -> None:
        for e in events:
            if e.to is not None:
                continue
            q, data = e.data.get("seat"), e.data
            taken = [data["card"]] if e.type == "pick" else data.get("kept", []) if e.type in (
                "retreat", "overwhelming") else []
            played = data.get("cards", []) if e.type in ("recipe", "craving") else [data["card"]] if (
                e.type == "consume") else []
            for c in taken:
                self.seen[q][c["id"]] += 1
                self.sure[q][c["id"]] += 1
                self.sizes[q] += 1
            for c in played:
                self.seen[q][c["id"]] -= 1
                self.sure[q][c["id"]] = max(0, self.sure[q][c["id"]] - 1)
                self.sizes[q] -= 1
            if e.type == "discard":
                self.sure[q] = Counter()
                self.sizes[q] -= 1
            if q is not None and self.sizes[q] == 0:
                self.seen[q], self.sure[q] = Counter(), Counter()

    def check(self, true: Any, dealt: Any, seat: int) -> None:
        """``dealt`` (a re-deal for ``seat``) keeps to the history: the same hand sizes (per
        deck), every hand holds its sure cards and only cards seen going in; the seat's own
        hand and every pile's face-up cards stay; no card appears or vanishes."""
        for q in range(true.n):
            hand = Counter(dealt.hands[q])
            for utensil in (False, True):
                assert sum(v for c, v in hand.items() if from_utensil_deck(c) == utensil) == sum(
                    1 for c in true.hands[q] if from_utensil_deck(c) == utensil)
            if q == seat:
                assert hand == Counter(true.hands[q])
                continue
            assert not self.sure[q] - hand, f"seat {q}'s hand lost a card everyone saw it take"
            assert not hand - self.seen[q], f"seat {q}'s hand holds a card nobody saw it take"
        for utensil in (False, True):
            for (cards, known, _, _), (true_cards, _, _, _) in zip(_piles(dealt, utensil), _piles(true, utensil)):
                assert len(cards) == len(true_cards) and not Counter(known) - Counter(cards)
        everything = lambda s: Counter(s.deck + s.udeck + s.discard + s.udiscard + sum(s.hands, []))  # noqa: E731
        assert everything(dealt) == everything(true)


@pytest.mark.parametrize("players,bots", [(3, "random"), (4, "bots"), (5, "random")])
def test_every_redeal_keeps_to_the_public_history(players: int, bots: str) -> None:
    rng = Rng(27)
    checked = 0
    for seed in range(4):
        table = Table(players)

        def check(state: Any, entry: Any, events: list[Any]) -> None:
            nonlocal checked
            table.follow(events)
            assert [len(h) for h in state.hands] == table.sizes
            if (entry.at_ms // 13) % 3:
                return
            for seat in range(players):
                table.check(state, GAME.determinize(state, seat, rng), seat)
                checked += 1

        kwargs = {"bots": random_bots} if bots == "random" else {}
        play(GAME, players, None, seed=100 + seed, on_step=check, **kwargs)
    assert checked > 200
