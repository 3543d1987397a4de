"""Snollygoster: re-dealing what one seat cannot know (``determinize``).

Hidden from a seat: the other players' hands and the Action deck's order; every Event
card whose kind it has not seen (the Event deck's order, others' drawn cards, and the
safety of each Food it neither placed nor inspected nor saw); the other players' Hidden
Agendas (until revealed) and the undealt ones. Everything is re-dealt from the pool of
what is unseen, keeping what is public: a face-down Food stays a Food, the number of
Rogues in the team game stays, and a drawn pair never breaks a special case.

Each pool is sorted before it is shuffled, so the sample depends only on what the seat
knows: ``determinize(s, p, rng)`` and ``determinize(determinize(s, p, r), p, rng)`` deal
the same cards. That lets tests prove a bot's choice uses nothing it may not see.
"""

from __future__ import annotations

from math import comb

from server.engine import Rng

from .cards import AGENDAS, ROGUE, is_food, rogue_counts
from .flow import pair_is_void
from .state import SnollygosterState

S = SnollygosterState
ATTEMPTS = 30


def determinize(s: S, seat: int, rng: Rng) -> S:
    d = s.clone()
    d.rng = rng.fork()  # the future shuffles are unknown too
    redeal_events(d, seat, rng)
    redeal_actions(d, seat, rng)
    redeal_agendas(d, seat, rng)
    return d


def redeal_events(d: S, seat: int, rng: Rng) -> None:
    """Give the Event cards ``seat`` has not seen new kinds from the same pool: Food
    places get Food."""
    unknown = [c for c in range(len(d.kinds)) if not d.knows(seat, c)]
    food_slots = [c for c in unknown if d.public_food[c]]
    free = [c for c in unknown if not d.public_food[c]]
    kinds = [d.kinds[c] for c in unknown]
    foods = sorted(k for k in kinds if is_food(k))  # sorted: the sample depends on the
    others = sorted(k for k in kinds if not is_food(k))  # pool, never on the truth's order
    for _ in range(ATTEMPTS):
        rng.shuffle(foods)
        rest = foods[len(food_slots):] + others
        rng.shuffle(rest)
        for c, k in zip(food_slots + free, foods[:len(food_slots)] + rest):
            d.kinds[c] = k
        if d.phase != "play" or d.step != "event" or pair_is_void(d, d.turn, [d.kinds[c] for c in d.drawn]) is None:
            return  # (after ATTEMPTS unlucky samples the last one stands)


def redeal_actions(d: S, seat: int, rng: Rng) -> None:
    """The other players' hands and the Action deck, shuffled together and dealt again."""
    others = [p for p in range(d.n) if p != seat]
    pool = sorted(d.action_deck + [c for p in others for c in d.hands[p]])
    rng.shuffle(pool)
    for p in others:
        size = len(d.hands[p])
        d.hands[p], pool = pool[:size], pool[size:]
    d.action_deck = pool


def redeal_agendas(d: S, seat: int, rng: Rng) -> None:
    """Unrevealed agendas of the others, from those ``seat`` has not seen. In the team
    game the number of Rogues is drawn first, as likely as the deal and the teams the
    seat knows (its own, a revealed Sleuth's) make it."""
    hidden = [p for p in range(d.n) if p != seat and p not in d.revealed_agendas]
    pool = sorted([d.agendas[p] for p in hidden] + d.agenda_deck)
    rng.shuffle(pool)
    if d.options.team_game and hidden:
        rogues = hidden_rogues(d, hidden, rng)
        bad = [a for a in pool if AGENDAS[a].team == ROGUE]
        good = [a for a in pool if AGENDAS[a].team != ROGUE]
        dealt = bad[:rogues] + good[:len(hidden) - rogues]
        rest = bad[rogues:] + good[len(hidden) - rogues:]
        rng.shuffle(dealt)
        pool = dealt + rest
    for p, agenda in zip(hidden, pool):
        d.agendas[p] = agenda
    d.agenda_deck = pool[len(hidden):]


def hidden_rogues(d: S, hidden: list[int], rng: Rng) -> int:
    """How many of the ``hidden`` seats are Rogues, sampled given the known seats' teams."""
    known = [p for p in range(d.n) if p not in hidden]
    r_known = sum(d.team_of(p) == ROGUE for p in known)
    options = [k for k in rogue_counts(d.n) if 0 <= k - r_known <= len(hidden)]
    weights = [comb(k, r_known) * comb(d.n - k, len(known) - r_known) for k in options]
    x = rng.below(sum(weights))
    for k, w in zip(options, weights):
        if x < w:
            return k - r_known
        x -= w
    raise AssertionError("unreachable")  # pragma: no cover
