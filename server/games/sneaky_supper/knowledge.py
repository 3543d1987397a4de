"""Re-dealing what a seat cannot know (``determinize``), consistently with what it saw.

A seat knows every card's place except:
- the order inside each segment of the Search deck and of the Utensil deck;
- which of the cards another player was seen taking are still in that hand, when that
  player has discarded face down for the hand limit: the hand is ``len(hand)`` of
  ``seen[player]`` (as many from each deck as it holds, since the piles a face-down card
  goes to are visible); the others lie face down in the discard piles or the decks;
- the other players' Cravings and the Craving deck.

Each pool is sorted before it is shuffled, so the sample depends only on what the seat
knows, never on the true order (bots get samples: the same view, the same samples).
"""

from __future__ import annotations

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
    """Choose which of the seen cards ``seat`` holds; swap the rest with the hidden places
    (the same deck's cards only) where the chosen ones were lying."""
    hand = s.hands[seat]
    if len(s.seen[seat]) == len(hand):
        return
    for utensil in (False, True):
        held = [c for c in hand if from_utensil_deck(c) == utensil]
        maybe = [c for c in s.seen[seat] if from_utensil_deck(c) == utensil]
        chosen = rng.shuffled(maybe)[: len(held)]
        leaving = [c for c in held if c not in chosen]
        coming = [c for c in chosen if c not in held]
        for out, into in zip(leaving, coming):
            _swap_hidden(s, into, out)
            hand[hand.index(out)] = into


def _swap_hidden(s: SneakySupperState, hidden: str, replacement: str) -> None:
    """Put ``replacement`` where the face-down card ``hidden`` lies."""
    for zone in (s.deck, s.discard, s.udeck, s.udiscard):
        if hidden in zone:
            zone[zone.index(hidden)] = replacement
            return
    raise AssertionError(f"{hidden} is neither in a hand nor face down anywhere")


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
