"""Filling a Recipe's or a Craving's requirements from a hand (pure functions).

Each requirement slot is filled by one of:
- a real card that matches it (a ``different`` need takes real cards of different types);
- a Careful token — the Secret Stash: a token is any ingredient, Utensils included;
- with Mish-Mash, any 2 non-Utensil cards standing for one non-Utensil ingredient.
At least one real card must be used. ``fits`` checks a player's exact choice; ``ways``
lists a bounded, representative set of choices for ``legal`` and for bots.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import Any, Iterator, Sequence

from server.engine.kept import interned, kept

from .cards import TYPE, UTENSIL, Need, card


@dataclass(frozen=True)
class Slot:
    """One ingredient place: ``what`` it takes; ``group`` ties the slots of a
    ``different`` need together (``-1``: no such constraint)."""

    what: str
    group: int

    @property
    def utensil(self) -> bool:
        return self.what == UTENSIL or (self.what in TYPE and TYPE[self.what].group == UTENSIL)


@lru_cache(maxsize=256)
def slots_of(needs: tuple[Need, ...]) -> tuple[Slot, ...]:
    """One slot per ingredient place of the needs."""
    return tuple(
        Slot(n.what, i if n.different else -1) for i, n in enumerate(needs) for _ in range(n.count)
    )


def type_matches(type_id: str, what: str) -> bool:
    """A card type fills a slot asking for its own id or its group."""
    t = TYPE[type_id]
    return t.id == what or t.group == what


FILLERS: dict[str, frozenset[str]] = {
    what: frozenset(t for t in TYPE if type_matches(t, what)) for what in {*TYPE, *(t.group for t in TYPE.values())}
}
"""For each thing a slot may ask for (a type id or a group), the card types that fill it."""


def is_utensil_type(type_id: str) -> bool:
    return TYPE[type_id].group == UTENSIL


# ---- checking an exact choice ----------------------------------------------------------

def fits(needs: Sequence[Need], cards: Sequence[str], tokens: int, mish_mash: bool) -> bool:
    """Do exactly these cards and exactly ``tokens`` Careful tokens fill every slot, using
    every card, with at least one real card?"""
    if not cards or tokens < 0:
        return False
    types = tuple(sorted(card(c).id for c in cards))
    return _fits(slots_of(tuple(needs)), types, tokens, mish_mash)


@lru_cache(maxsize=4096)
def _fits(slots: tuple[Slot, ...], types: tuple[str, ...], tokens: int, mish_mash: bool) -> bool:
    return _fill(slots, 0, types, tokens, mish_mash, frozenset())


def _fill(slots: tuple[Slot, ...], i: int, rest: tuple[str, ...], tokens: int, mish_mash: bool,
          used: frozenset[tuple[int, str]]) -> bool:
    """Depth-first: fill slot ``i`` onwards with the cards ``rest`` and ``tokens``."""
    left = len(slots) - i
    if left == 0:
        return not rest and tokens == 0
    if tokens > left or len(rest) > left * (2 if mish_mash else 1) or len(rest) + tokens < left:
        return False
    slot = slots[i]
    for t in sorted(set(rest)):
        if type_matches(t, slot.what) and (slot.group < 0 or (slot.group, t) not in used):
            mark = used | {(slot.group, t)} if slot.group >= 0 else used
            if _fill(slots, i + 1, _without(rest, t), tokens, mish_mash, mark):
                return True
    if tokens and _fill(slots, i + 1, rest, tokens - 1, mish_mash, used):
        return True
    if mish_mash and not slot.utensil:
        for a, b in _pairs(rest):
            if _fill(slots, i + 1, _without(_without(rest, a), b), tokens, mish_mash, used):
                return True
    return False


def _without(types: tuple[str, ...], t: str) -> tuple[str, ...]:
    i = types.index(t)
    return types[:i] + types[i + 1:]


def _pairs(types: tuple[str, ...]) -> list[tuple[str, str]]:
    """Distinct pairs of non-Utensil types that two of these cards can form."""
    food = Counter(t for t in types if not is_utensil_type(t))
    keys = sorted(food)
    return [(a, b) for i, a in enumerate(keys) for b in keys[i:] if a != b or food[a] >= 2]


# ---- listing choices -------------------------------------------------------------------

@dataclass(frozen=True)
class Way:
    """A concrete choice: these card ids and this many tokens."""

    cards: tuple[str, ...]
    tokens: int


def _question(needs: Sequence[Need], hand: Sequence[str], tokens: int, mish_mash: bool,
              limit: int = 3) -> tuple[Any, ...]:
    return tuple(needs), tuple(hand), tokens, mish_mash, limit


@kept(_question, list)
def ways(needs: Sequence[Need], hand: Sequence[str], tokens: int, mish_mash: bool,
         limit: int = 3) -> list[Way]:
    """Up to ``limit`` ways to fill ``needs`` from ``hand`` (card ids) and ``tokens``,
    fewest tokens first, then fewest cards. Empty when it cannot be done. Cards of the same
    type are interchangeable, so each way takes the lowest ids of a type."""
    slots = slots_of(tuple(needs))
    found: dict[Way, tuple[int, int]] = {}
    for direct in _direct_choices(slots, hand, tokens, mish_mash):
        for way in _complete(slots, direct, hand, tokens, mish_mash):
            found[way] = (way.tokens, len(way.cards))
    ordered = sorted(found, key=lambda w: (found[w], w.cards))
    return ordered[:limit]


def can_fill(needs: Sequence[Need], hand: Sequence[str], tokens: int, mish_mash: bool) -> bool:
    """Whether there is a way at all (``ways`` would list one). Only the types of the cards
    matter (copies and the Utensil deck's back are alike), so the search is asked by the
    hand's types and its answer kept; a hand that ``may_fill`` rules out is not searched."""
    slots = slots_of(tuple(needs))
    types = hand_types(tuple(hand))
    return may_fill(slots, types, tokens, mish_mash) and _can_fill(slots, types, tokens, mish_mash)


@interned(size=1024)
def hand_types(hand: tuple[str, ...]) -> tuple[str, ...]:
    """The card types of a hand, sorted (a type id is also a card of that type)."""
    return tuple(sorted(card(c).id for c in hand))


def may_fill(slots: tuple[Slot, ...], types: tuple[str, ...], tokens: int, mish_mash: bool) -> bool:
    """What every way needs (so ``False``: there is none): a card or a token for each slot
    (a Mish-Mash pair is two cards for one), and no more slots that no card fits than the
    tokens and the pairs could fill — the search's own bound on the empty slots."""
    if len(types) + tokens < len(slots):
        return False
    have = frozenset(types)
    unfit = sum([have.isdisjoint(FILLERS[s.what]) for s in slots])
    return unfit <= tokens + (len(types) // 2 if mish_mash else 0)


@interned(size=8192)
def _can_fill(slots: tuple[Slot, ...], types: tuple[str, ...], tokens: int, mish_mash: bool) -> bool:
    return search_can_fill(slots, types, tokens, mish_mash)


def search_can_fill(slots: tuple[Slot, ...], hand: Sequence[str], tokens: int, mish_mash: bool) -> bool:
    """The search itself, stopped at the first way found (``can_fill`` keeps its answers)."""
    return any(_complete(slots, direct, hand, tokens, mish_mash)
               for direct in _direct_choices(slots, hand, tokens, mish_mash))


def _direct_choices(slots: tuple[Slot, ...], hand: Sequence[str], tokens: int,
                    mish_mash: bool) -> Iterator[tuple[str | None, ...]]:
    """For each slot, a card type from the hand that fills it, or ``None`` (a token or a
    Mish-Mash pair will). Pruned: more empty slots than tokens and pairs could fill."""
    counts = Counter(card(c).id for c in hand)
    spare = tokens + (len(hand) // 2 if mish_mash else 0)
    types = sorted(counts)
    options = [[t for t in types if t in FILLERS[s.what]] + [None] for s in slots]
    if sum(len(o) == 1 for o in options) > spare:  # the slots no card of the hand fits
        return
    for choice in product(*options):
        if choice.count(None) > spare:
            continue
        if any(choice.count(t) > counts[t] for t in choice if t is not None):
            continue
        if _different_ok(slots, choice):
            yield choice


def _different_ok(slots: tuple[Slot, ...], choice: tuple[str | None, ...]) -> bool:
    seen: set[tuple[int, str]] = set()
    for slot, t in zip(slots, choice):
        if t is None or slot.group < 0:
            continue
        if (slot.group, t) in seen:
            return False
        seen.add((slot.group, t))
    return True


def _complete(slots: tuple[Slot, ...], choice: tuple[str | None, ...], hand: Sequence[str],
              tokens: int, mish_mash: bool) -> list[Way]:
    """Fill the empty slots of a direct choice: with tokens only, and (Mish-Mash) with as
    many pairs of the least valuable leftover food cards as help."""
    by_type: dict[str, list[str]] = {}
    for c in sorted(hand):
        by_type.setdefault(card(c).id, []).append(c)
    used: list[str] = [by_type[t].pop(0) for t in choice if t is not None]
    empty = [s for s, t in zip(slots, choice) if t is None]
    food_slots = sum(not s.utensil for s in empty)
    leftovers = sorted((c for cs in by_type.values() for c in cs if not is_utensil_type(card(c).id)),
                       key=lambda c: (card(c).points, c))
    pair_counts = {0}
    if mish_mash:
        pair_counts.add(min(food_slots, len(leftovers) // 2))
    out = []
    for pairs in sorted(pair_counts):
        need_tokens = len(empty) - pairs
        cards = tuple(sorted(used + leftovers[: 2 * pairs]))
        if need_tokens <= tokens and cards:
            out.append(Way(cards, need_tokens))
    return out
