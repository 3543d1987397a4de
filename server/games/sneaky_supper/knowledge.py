"""Re-dealing what a seat cannot know (``determinize``), consistently with what it saw.

A seat knows every card's place except:
- the order inside each segment of the Search deck and of the Utensil deck;
- which of the cards another player was seen taking are still in that hand, when that
  player has discarded face down for the hand limit: the hand is ``len(hand)`` of
  ``seen[player]`` (as many from each deck as it holds, since the piles a face-down card
  goes to are visible); the others lie face down in the discard piles or the decks —
  and since copies are alike, a card of that kind seen later may be any copy;
- the other players' Cravings and the Craving deck.

Each pool is sorted before it is shuffled, so the sample depends only on what the seat
knows, never on the true order (bots get samples: the same view, the same samples).
"""

from __future__ import annotations

from collections import Counter

from server.engine import Rng

from .cards import from_utensil_deck
from .state import SneakySupperState


def redeal(state: SneakySupperState, seat: int, rng: Rng) -> SneakySupperState:
    """A copy of ``state`` with all that ``seat`` cannot know re-dealt at random."""
    s = state.clone()
    for other in range(s.n):
        if other != seat:
            _redeal_hand(s, other, rng)
    _shuffle_segments(s, rng)
    s.udeck = rng.shuffled(sorted(s.udeck))
    _redeal_cravings(s, seat, rng)
    s.rng = rng.fork()  # the future shuffles are unknown too
    return s


def _redeal_hand(s: SneakySupperState, seat: int, rng: Rng) -> None:
    """Choose which of the seen cards ``seat`` holds; swap the rest with the face-down
    places (the same deck's cards only) where the chosen ones could be lying."""
    hand = s.hands[seat]
    if len(s.seen[seat]) == len(hand):
        return
    hidden = Counter(c for zone in (s.deck, s.discard, s.udeck, s.udiscard) for c in zone)
    for utensil in (False, True):
        held = [c for c in hand if from_utensil_deck(c) == utensil]
        maybe = sorted(c for c in s.seen[seat] if from_utensil_deck(c) == utensil)
        chosen = _choose(rng.shuffled(maybe), len(held), Counter(held) + hidden)
        leaving = list((Counter(held) - chosen).elements())
        coming = list((chosen - Counter(held)).elements())
        for out, into in zip(leaving, coming):
            _swap_hidden(s, into, out)
            hand[hand.index(out)] = into


def _choose(candidates: list[str], size: int, cap: Counter[str]) -> Counter[str]:
    """The first ``size`` candidates, skipping a kind once no more copies of it could be
    in the hand (those in it plus those face down). The hand itself is one such choice,
    so there are always enough."""
    chosen: Counter[str] = Counter()
    for c in candidates:
        if sum(chosen.values()) == size:
            break
        if chosen[c] < cap[c]:
            chosen[c] += 1
    return chosen


def _swap_hidden(s: SneakySupperState, hidden: str, replacement: str) -> None:
    """Put ``replacement`` where a face-down ``hidden`` card lies."""
    for zone in (s.deck, s.discard, s.udeck, s.udiscard):
        if hidden in zone:
            zone[zone.index(hidden)] = replacement
            return
    raise AssertionError(f"no {hidden} lies face down anywhere")


def _shuffle_segments(s: SneakySupperState, rng: Rng) -> None:
    """Each segment of the Search deck was shuffled on its own: re-order inside it."""
    start = 0
    for size in s.segments:
        s.deck[start:start + size] = rng.shuffled(sorted(s.deck[start:start + size]))
        start += size


def _redeal_cravings(s: SneakySupperState, seat: int, rng: Rng) -> None:
    others = [q for q in range(s.n) if q != seat and s.cravings[q] is not None]
    pool = rng.shuffled(sorted([s.cravings[q] for q in others] + s.craving_deck))
    for q in others:
        s.cravings[q] = pool.pop()
    s.craving_deck = pool
