"""Choosing restaurants (the match option ``restaurants: "chosen"``; by default they are
dealt). The shop text says players choose their restaurant; how is not public, so the
whole phase is *designed*:

On Day 1, before anything else, every chef secretly chooses one restaurant of the match's
pool (a choice may be changed until everyone has chosen). The choices are revealed
together: a restaurant chosen by one chef is theirs; one chosen by several goes to one of
them drawn at random, and the others choose again from the restaurants still free, in a
new round (each round seats at least one chef, so it ends). A chef who has not chosen when
the round's clock (the move deadline) runs out gets a free restaurant at random, as if they
had chosen it. Nobody earns income before their restaurant is settled.

The option owns its state as an expansion does (``expansion``): the secret choices, by
seat, kept in ``RivalState.expansions["choose_restaurant"]``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from server.engine import Action, Event, Rng, public, require

from . import ops
from .cards import CHOOSE_RESTAURANT, RESTAURANTS, pool
from .describe import restaurant_view
from .expansion import Expansion, register_expansion
from .phase import Phase, register
from .state import RivalRestaurantsOptions, RivalState
from .zones import CHOICE

UNCHOSEN = ""  # a pantry's restaurant until it is settled


@dataclass
class Choices:
    """The restaurants chosen in this round, by seat, secret until the reveal."""

    picks: list[str | None]

    def clone(self) -> "Choices":
        return Choices(list(self.picks))


def _picks(s: RivalState) -> list[str | None]:
    record = s.expansions.get(CHOOSE_RESTAURANT)
    assert record is not None
    return record.picks


def choice_of(s: RivalState, seat: int) -> str | None:
    """The restaurant this chef has chosen in this round (secret until the reveal), if any."""
    record = s.expansions.get(CHOOSE_RESTAURANT)
    return record.picks[seat] if record is not None else None


def free(s: RivalState) -> list[str]:
    """The pool's restaurants nobody has yet."""
    taken = {p.restaurant for p in s.chefs}
    return [r for r in pool(s.options.sporks_out, s.options.sporks_chefs).restaurants if r not in taken]


def choosing(s: RivalState) -> list[int]:
    """The chefs still without a restaurant."""
    return [i for i, p in enumerate(s.chefs) if p.restaurant == UNCHOSEN]


def _choose(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
    """Choose a free restaurant in secret (again to change it, until the reveal)."""
    require(seat in choosing(s), "You already have your restaurant.")
    restaurant = action.get("restaurant")
    require(isinstance(restaurant, str) and restaurant in free(s), "Choose one of the free restaurants.")
    picks = _picks(s)
    first = picks[seat] is None
    picks[seat] = restaurant
    events = CHOICE.tell_choice(seat, "choose", (f"You choose {RESTAURANTS[restaurant].name}.",
                                                 {"restaurant": restaurant}),
                                (f"{ops.name(s, seat)} has chosen.", {"seat": seat}), first)
    return events + settle_round(s, now)


def settle_round(s: RivalState, now: int) -> list[Event]:
    """Once every chef still choosing has chosen, reveal; a new round has a new clock."""
    if not choosing(s) or any(choice_of(s, i) is None for i in choosing(s)):
        return []
    events = settle(s)
    if choosing(s):
        s.phase_since = now
        events.append(public("choose_again", "Contested restaurants: the others choose again.", seats=choosing(s)))
    return events


def settle(s: RivalState) -> list[Event]:
    """Reveal the round's choices: a lone choice is granted; a contested restaurant goes to
    one of its choosers at random, the others choose again."""
    by_restaurant: dict[str, list[int]] = {}
    picks = _picks(s)
    for seat in choosing(s):
        choice = picks[seat]
        assert choice is not None
        by_restaurant.setdefault(choice, []).append(seat)
    said = "; ".join(f"{ops.name(s, i)}: {RESTAURANTS[picks[i] or ''].name}" for i in choosing(s))
    events = [public("choices", f"Restaurants revealed — {said}.",
                     choices={i: picks[i] for i in choosing(s)})]
    for restaurant, seats in by_restaurant.items():
        winner = seats[0] if len(seats) == 1 else s.rng.choice(seats)
        s.chefs[winner].restaurant = restaurant
        lost = [ops.name(s, i) for i in seats if i != winner]
        more = f" ({', '.join(lost)} chose it too, and will choose again)" if lost else ""
        events.append(public("restaurant", f"{ops.name(s, winner)} runs {RESTAURANTS[restaurant].name}{more}.",
                             seat=winner, restaurant=restaurant))
    picks[:] = [None] * len(picks)
    return events


def redeal_choices(s: RivalState, seat: int, rng: Rng) -> None:
    """Other chefs' unrevealed choices: any free restaurant (that they chose is public)."""
    options, picks = free(s), _picks(s)
    for other, pick in enumerate(picks):
        if other != seat and pick is not None:
            picks[other] = rng.choice(options)


class ChooseRestaurants(Phase):
    id = CHOOSE_RESTAURANT
    name = "Choose restaurants"
    handlers = {"choose_restaurant": _choose}

    def begin(self, s: RivalState, now: int) -> list[Event]:
        if not choosing(s):
            return []
        return [public("phase", "Choose your restaurant in secret: the choices are revealed together.",
                       phase=self.id)]

    def length(self, s: RivalState) -> int | None:
        return s.options.move_ms if choosing(s) else None

    def timeout(self, s: RivalState, now: int) -> list[Event]:
        events = []
        picks = _picks(s)
        for seat in choosing(s):
            if picks[seat] is None:
                picks[seat] = s.rng.choice(free(s))
                events.append(public("late", f"{ops.name(s, seat)} did not choose in time: a restaurant is "
                                             f"chosen for them at random.", seat=seat))
        return events + settle_round(s, now)

    def over(self, s: RivalState) -> bool:
        return not choosing(s)

    def listed(self, s: RivalState) -> bool:
        return s.day == 1

    def legal(self, s: RivalState, seat: int) -> list[Action]:
        if seat not in choosing(s):
            return []
        return [{"type": "choose_restaurant", "restaurant": r} for r in free(s)]

    def prompt(self, s: RivalState, seat: int | None) -> str:
        if seat is None or seat not in choosing(s):
            return "The chefs are choosing their restaurants in secret."
        choice = choice_of(s, seat)
        if choice is None:
            return "Choose your restaurant in secret."
        return f"You chose {RESTAURANTS[choice].name} — waiting for the reveal (you may still change it)."

    def view(self, s: RivalState, seat: int | None) -> dict[str, Any]:
        return {"ends": self.deadline(s), "free": [restaurant_view(r) for r in free(s)],
                "choosing": choosing(s), "chosen": [pick is not None for pick in _picks(s)],
                "your_choice": choice_of(s, seat) if seat is not None else None}


class ChosenRestaurants(Expansion):
    """The option at the base game's seams: its record, and its secrets re-dealt."""

    id = CHOOSE_RESTAURANT

    def on(self, options: RivalRestaurantsOptions) -> bool:
        return options.restaurants == "chosen"

    def new(self, s: RivalState, chefs: list[list[str]]) -> Choices:
        return Choices([None] * len(s.players))

    def redeal(self, s: RivalState, seat: int, rng: Rng) -> None:
        if s.expansions.get(CHOOSE_RESTAURANT) is not None:
            redeal_choices(s, seat, rng)


PHASE = register(ChooseRestaurants())
EXPANSION = register_expansion(ChosenRestaurants())

__all__ = ["EXPANSION", "PHASE", "UNCHOSEN", "Choices", "choice_of", "choosing", "free", "settle"]
