"""Re-dealing what a seat cannot know (``determinize``), consistently with what it saw.

A seat knows every card's place except:
- the order inside each segment of the Search deck, of the Utensil deck and of the
  discard piles;
- which cards another hand holds, once that player has discarded face down for the hand
  limit. The table still knows a lot (``state``'s docstring): the cards taken face up
  since the last face-down discard are still there (``sure``); the hand is drawn from the
  cards seen going in and not seen leaving (``seen``); and the hand together with that
  player's face-down discards still hidden in the piles is exactly ``ledger``, as many from
  each deck as the hand holds (the piles a face-down card goes to are visible);
- which cards the face-down discards are: each pile holds the cards that went into it face
  up (``segments_known`` and the like) and one card of its discarder's ledger for each seat
  in its ``*_down``, less those that turned up without the table knowing whose (``*_up``).
  Copies are alike, so a card of a kind seen later may be any copy;
- the other players' Cravings and the Craving deck.

So each other hand is its sure cards and a random choice of the rest from its seen cards
(within its ledger); what is left of that player's ledger are its face-down discards, dealt
at random among the piles that hold them (again, when the discards dealt to a pile do not
include the cards that turned up from it). The seat's own hand stays; its own face-down
discards are dealt among its piles. Every deal keeps to the public history, and is built from
what the seat knows alone — each choice made from a sorted list — so it never depends on the
true hidden places (bots get samples: the same view, the same samples).
"""

from __future__ import annotations

from collections import Counter

from server.engine import Rng

from .cards import from_utensil_deck
from .state import SneakySupperState

TRIES = 50  # deals of a deck whose turned-up cards do not fit, before its cards are kept as they are


def redeal(state: SneakySupperState, seat: int, rng: Rng) -> SneakySupperState:
    """A copy of ``state`` with all that ``seat`` cannot know re-dealt at random."""
    s = state.clone()
    for utensil in (False, True):
        _redeal_deck(s, seat, utensil, rng)
    _redeal_cravings(s, seat, rng)
    s.rng = rng.fork()  # the future shuffles are unknown too
    return s


Pile = tuple[list[str], list[str], list[int], list[str]]  # cards, known, whose face down, turned up


def _piles(s: SneakySupperState, utensil: bool) -> list[Pile]:
    """Each pile of one deck, with what the table knows of it."""
    if utensil:
        return [(s.udeck, s.udeck_known, s.udeck_down, s.udeck_up),
                (s.udiscard, s.udiscard_known, s.udiscard_down, s.udiscard_up)]
    segments, start = [], 0
    for size, known, down, up in zip(s.segments, s.segments_known, s.segments_down, s.segments_up):
        segments.append((s.deck[start:start + size], known, down, up))
        start += size
    return [*segments, (s.discard, s.discard_known, s.discard_down, s.discard_up)]


def _of_deck(cards: list[str], utensil: bool) -> Counter[str]:
    return Counter(c for c in cards if from_utensil_deck(c) == utensil)


def _redeal_deck(s: SneakySupperState, seat: int, utensil: bool, rng: Rng) -> None:
    """Re-deal one deck's hidden cards: the other hands' cards of that deck and every
    face-down discard in its piles (as they are, in the rare deal that never fits)."""
    for _ in range(TRIES):
        deal = _deal_deck(s, seat, utensil, rng)
        if deal is not None:
            break
    else:
        return
    hands, dealt = deal
    for q, hand in hands.items():
        s.hands[q] = [c for c in s.hands[q] if from_utensil_deck(c) != utensil] + hand
    if utensil:
        s.udeck, s.udiscard = dealt
    else:
        s.deck = [c for segment in dealt[:-1] for c in segment]
        s.discard = dealt[-1]


def _deal_deck(s: SneakySupperState, seat: int, utensil: bool,
               rng: Rng) -> tuple[dict[int, list[str]], list[list[str]]] | None:
    """One random deal of a deck: the other hands' cards of it and each pile's cards, or
    ``None`` when it does not fit (no seat of a pile could have discarded a card that turned
    up from it, once the others are placed)."""
    piles = _piles(s, utensil)
    ledgers = {q: _of_deck(s.ledger[q], utensil) for q in range(s.n)}
    # First, whose discard each card that turned up without the table knowing whose was
    turned: Counter[int] = Counter()  # per seat, its cards that turned up (they are out of its ledger)
    slots: list[list[int]] = []  # per pile, the discarders of the cards still in it
    for _cards, _known, down, up in piles:
        left = list(down)
        for c in sorted(up):
            could = sorted(q for q in dict.fromkeys(left) if (ledgers[q] - _of_deck(s.sure[q], utensil))[c] > 0)
            if not could:
                return None
            q = could[rng.below(len(could))]
            left.remove(q)
            ledgers[q][c] -= 1
        slots.append(left)
    hands: dict[int, list[str]] = {}
    hidden: dict[int, list[str]] = {}  # each seat's face-down discards still in a pile
    for q in range(s.n):
        held, ledger = _of_deck(s.hands[q], utensil), +ledgers[q]
        if q == seat:
            hand = held
        else:
            sure = _of_deck(s.sure[q], utensil)
            maybe = rng.shuffled(sorted(((_of_deck(s.seen[q], utensil) & ledger) - sure).elements()))
            hand = sure + Counter(maybe[:sum(held.values()) - sum(sure.values())])
            if sum(hand.values()) != sum(held.values()) or hand - ledger:
                return None
            hands[q] = sorted(hand.elements())
        hidden[q] = rng.shuffled(sorted((ledger - hand).elements()))
        if len(hidden[q]) != sum(pile.count(q) for pile in slots):
            return None
    dealt = [rng.shuffled(sorted(known + [hidden[q].pop() for q in left]))
             for (_cards, known, _down, _up), left in zip(piles, slots)]
    return hands, dealt


def _redeal_cravings(s: SneakySupperState, seat: int, rng: Rng) -> None:
    others = [q for q in range(s.n) if q != seat and s.cravings[q] is not None]
    pool = rng.shuffled(sorted([s.cravings[q] for q in others] + s.craving_deck))
    for q in others:
        s.cravings[q] = pool.pop()
    s.craving_deck = pool
