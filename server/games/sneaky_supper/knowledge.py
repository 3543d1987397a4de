"""Re-dealing what a seat cannot know (``determinize``), consistently with what it saw.

A seat knows every card's place except:
- the order inside each segment of the Search deck, of the Utensil deck and of the
  discard piles;
- which of the cards another player was seen taking are still in that hand, when that
  player has discarded face down for the hand limit: the hand is ``len(hand)`` of
  ``seen[player]`` (as many from each deck as it holds, since the piles a face-down card
  goes to are visible);
- which cards the face-down discards are: each pile is known to hold the cards that went
  into it face up (``segments_known`` and the like) and, besides them, as many unknown
  cards as it holds more. Copies are alike, so a card of a kind seen later may be any copy;
- the other players' Cravings and the Craving deck.

The sample is built from what the seat knows alone — the cards nobody has placed (the
unknown hands and the face-down discards, one pool a deck), each pool sorted before it is
shuffled — so it never depends on the true hidden places (bots get samples: the same
view, the same samples).
"""

from __future__ import annotations

from collections import Counter

from server.engine import Rng

from .cards import from_utensil_deck
from .state import SneakySupperState

TRIES = 50  # re-draws of the unknown hands before the truth's own hands are kept


def redeal(state: SneakySupperState, seat: int, rng: Rng) -> SneakySupperState:
    """A copy of ``state`` with all that ``seat`` cannot know re-dealt at random."""
    s = state.clone()
    unknown = [q for q in range(s.n) if q != seat and len(s.seen[q]) != len(s.hands[q])]
    for utensil in (False, True):
        _redeal_deck(s, unknown, utensil, rng)
    _redeal_cravings(s, seat, rng)
    s.rng = rng.fork()  # the future shuffles are unknown too
    return s


def _piles(s: SneakySupperState, utensil: bool) -> list[tuple[list[str], list[str]]]:
    """(cards, known cards) of each face-down pile of one deck."""
    if utensil:
        return [(s.udeck, s.udeck_known), (s.udiscard, s.udiscard_known)]
    segments, start = [], 0
    for size, known in zip(s.segments, s.segments_known):
        segments.append((s.deck[start:start + size], known))
        start += size
    return [*segments, (s.discard, s.discard_known)]


def _redeal_deck(s: SneakySupperState, unknown: list[int], utensil: bool, rng: Rng) -> None:
    """Re-deal one deck's unplaced cards: the unknown hands' cards of that deck and the
    face-down discards in its piles."""
    piles = _piles(s, utensil)
    held = {q: [c for c in s.hands[q] if from_utensil_deck(c) == utensil] for q in unknown}
    pool = Counter(c for q in unknown for c in held[q])
    for cards, known in piles:
        pool += Counter(cards) - Counter(known)
    hands = _deal_hands(s, held, pool, utensil, rng)
    rest = rng.shuffled(sorted((pool - sum(hands.values(), Counter())).elements()))
    for q, hand in hands.items():
        others = [c for c in s.hands[q] if from_utensil_deck(c) != utensil]
        s.hands[q] = others + sorted(hand.elements())
    dealt = []
    for cards, known in piles:
        face_down = [rest.pop() for _ in range(len(cards) - len(known))]
        dealt.append(rng.shuffled(sorted(known + face_down)))
    if utensil:
        s.udeck, s.udiscard = dealt
    else:
        s.deck = [c for segment in dealt[:-1] for c in segment]
        s.discard = dealt[-1]


def _deal_hands(s: SneakySupperState, held: dict[int, list[str]], pool: Counter[str], utensil: bool,
                rng: Rng) -> dict[int, Counter[str]]:
    """Each unknown hand: as many of its seen cards of this deck as it holds, no more copies
    of a kind than the pool has. Drawn at random, again if a draw leaves a later hand short;
    after ``TRIES`` the hands as they are (always a possible deal)."""
    for _ in range(TRIES):
        left, hands = Counter(pool), {}
        for q, cards in held.items():
            maybe = rng.shuffled(sorted(c for c in s.seen[q] if from_utensil_deck(c) == utensil))
            hands[q] = _choose(maybe, len(cards), left)
            left -= hands[q]
        if all(sum(hands[q].values()) == len(cards) for q, cards in held.items()):
            return hands
    return {q: Counter(cards) for q, cards in held.items()}


def _choose(candidates: list[str], size: int, cap: Counter[str]) -> Counter[str]:
    """The first ``size`` candidates, skipping a kind once ``cap`` has no more copies of it."""
    chosen: Counter[str] = Counter()
    for c in candidates:
        if sum(chosen.values()) == size:
            break
        if chosen[c] < cap[c]:
            chosen[c] += 1
    return chosen


def _redeal_cravings(s: SneakySupperState, seat: int, rng: Rng) -> None:
    others = [q for q in range(s.n) if q != seat and s.cravings[q] is not None]
    pool = rng.shuffled(sorted([s.cravings[q] for q in others] + s.craving_deck))
    for q in others:
        s.cravings[q] = pool.pop()
    s.craving_deck = pool
