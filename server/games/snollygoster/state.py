"""Snollygoster state: plain data, and the small questions the rules ask of it.

Event cards have ids (``0..N-1``); what kind each id is lives in ``kinds`` and is dealt at
random, so an id says nothing about its card. Who knows a card's kind is tracked per
card: ``public_kind`` (everyone, e.g. an eaten Food), ``public_food`` (everyone knows it is
a Food, not whether it is safe) and ``known`` (the seats that placed, inspected or saw it).
``determinize`` re-deals exactly the kinds a seat does not know.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import Field

from server.engine import PacedOptions, Rng, State, shallow

from .cards import AGENDAS, FUEL_CAP, STASH_SIZE, is_food, pod_fuel


class SnollygosterOptions(PacedOptions):
    team_game: bool = Field(
        False, title="Team game (4+ players)",
        description="Comrades against Rogues, as printed on the Hidden Agendas; each team "
                    "adds up its players' points.",
    )
    window_ms: int = Field(
        8_000, ge=1_000, le=60_000, title="Response window (ms)",
        description="How long everyone has to answer a played Launch, Antidote or other "
                    "Action card with Denied, or to acknowledge a Food about to be eaten.",
    )
    turn_ms: int = Field(
        120_000, ge=10_000, le=1_800_000, title="Action stage timer (ms)",
        description="After this long the Action stage ends by itself and the turn moves on.",
    )
    step_ms: int = Field(
        45_000, ge=5_000, le=600_000, title="Choice timer (ms)",
        description="Time for one choice (seeding a Food, keeping an Event card, eating, "
                    "tagging, guessing); then a sensible default choice is made.",
    )
    round_limit: int = Field(
        30, ge=5, le=200, title="Round limit",
        description="If nobody has launched after this many rounds, the food runs out for "
                    "good and everyone still on the planet dies (a designed safety net).",
    )


def paced(options: SnollygosterOptions) -> SnollygosterOptions:
    """Designed, by turns: the Action stage and every choice get the time per move; the
    response window (answering a card with Denied, acknowledging a Food about to be eaten)
    gets a quarter of it (6 h a day) — it closes as soon as everyone has answered."""
    if not options.by_turns:
        return options
    move = options.move_ms
    return options.model_copy(update={"turn_ms": move, "step_ms": move, "window_ms": move // 4})


@dataclass
class Offer:
    """A fuel trade on the table: ``by`` gives ``give_fuel`` (and ``give_food`` from their
    stash) and wants ``want_fuel`` (and ``want_food`` from the other's stash)."""

    by: int
    to: int
    give_fuel: int = 0
    want_fuel: int = 0
    give_food: int | None = None
    want_food: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"by": self.by, "to": self.to, "give_fuel": self.give_fuel,
                "want_fuel": self.want_fuel, "give_food": self.give_food,
                "want_food": self.want_food}


@dataclass
class Play:
    """An Action card being played, waiting in the response window."""

    seat: int
    card: str
    args: dict[str, Any] = field(default_factory=dict)


@dataclass
class Window:
    """The response window of a played Action card: the ``chain`` of Denied played on it
    (seats, in order) and the seats that have not yet passed on the latest card."""

    play: Play
    chain: list[int]
    waiting: list[int]
    deadline: int


@dataclass
class Eating:
    """A Food to be eaten: ``remaining`` foods still owed, the ``food`` chosen (then every
    other player acknowledges it in ``waiting`` before it is revealed)."""

    eater: int
    remaining: int
    source: str  # hungry | starving | fed
    by: int | None = None  # who paid a Fuel to make them eat
    food: int | None = None
    waiting: list[int] = field(default_factory=list)
    deadline: int | None = None


@dataclass
class SnollygosterState(State):
    players: list[str]
    options: SnollygosterOptions
    rng: Rng
    characters: list[str]
    agendas: list[str]
    agenda_deck: list[str]  # undealt agendas
    hands: list[list[str]]
    action_deck: list[str]  # top = end
    action_discard: list[str]
    kinds: list[str]  # event card id -> its kind
    event_deck: list[int]  # top = end, bottom = index 0
    event_discard: list[int]
    public_kind: list[bool]
    public_food: list[bool]
    known: list[dict[int, str]]  # event card id -> {seat: how they know it}
    stashes: list[list[int]]
    fuel: list[list[int]]
    tags_left: list[int]
    dealer: int
    turn: int  # the active seat
    seeding: list[int]  # seats still to seed a Food, in order
    phase: str = "seed"  # seed | play | guess | over
    step: str = "seed"  # seed | action | event | eat | tag | none
    step_since: int = 0
    turn_no: int = 0
    round_no: int = 0
    tags: dict[int, tuple[int, str]] = field(default_factory=dict)  # food -> (tagger, claim)
    placed_by: dict[int, int] = field(default_factory=dict)
    antidote: dict[int, int] = field(default_factory=dict)  # food -> turn_no it protects
    quarantined: list[bool] = field(default_factory=list)
    dead: list[bool] = field(default_factory=list)
    death_order: list[list[int]] = field(default_factory=list)  # groups dying together
    locked: dict[int, int] = field(default_factory=dict)  # locked seat -> who locked it
    drawn: list[int] = field(default_factory=list)
    extra_event: bool = False  # the Event stage is a Butt In's, not the turn's last
    eating: Eating | None = None
    window: Window | None = None
    inspecting: int | None = None  # the food awaiting its tag
    offers: list[Offer] = field(default_factory=list)
    offers_made: list[int] = field(default_factory=list)  # this turn, per seat
    launch: dict[str, Any] | None = None  # {"by", "pod", "fuel"} once it succeeded
    end_reason: str | None = None
    guesses: dict[int, dict[int, str]] = field(default_factory=dict)
    guessing: list[int] = field(default_factory=list)  # Sleuths still guessing
    revealed_agendas: list[int] = field(default_factory=list)  # seats whose agenda is public
    eaten: list[dict[str, Any]] = field(default_factory=list)  # public record of reveals
    tally: dict[str, list[int]] = field(default_factory=dict)  # per-seat counters for scoring

    def clone(self) -> "SnollygosterState":
        """A copy that ``apply`` may change, made field by field (several times faster than
        pickling the state). Shared with the original: the players' names, the options and
        what is replaced, never changed in place (the record of reveals, the launch, each
        card's map of who knows it: see ``learn``)."""
        s = shallow(self)
        s.rng = Rng(self.rng.state)
        s.characters, s.agendas, s.agenda_deck = list(self.characters), list(self.agendas), list(self.agenda_deck)
        s.action_deck, s.action_discard, s.kinds = list(self.action_deck), list(self.action_discard), list(self.kinds)
        s.event_deck, s.event_discard = list(self.event_deck), list(self.event_discard)
        s.public_kind, s.public_food = list(self.public_kind), list(self.public_food)
        s.known = list(self.known)
        s.hands, s.stashes, s.fuel = list(map(list, self.hands)), list(map(list, self.stashes)), \
            list(map(list, self.fuel))
        s.tags_left, s.seeding, s.quarantined, s.dead = list(self.tags_left), list(self.seeding), \
            list(self.quarantined), list(self.dead)
        s.tags, s.placed_by, s.antidote, s.locked = dict(self.tags), dict(self.placed_by), dict(self.antidote), \
            dict(self.locked)
        s.death_order, s.drawn = list(map(list, self.death_order)), list(self.drawn)
        if self.eating is not None:
            s.eating = shallow(self.eating)
            s.eating.waiting = list(self.eating.waiting)
        if self.window is not None:
            w = self.window
            args = {k: list(v) if isinstance(v, list) else v for k, v in w.play.args.items()}
            s.window = Window(Play(w.play.seat, w.play.card, args), list(w.chain), list(w.waiting), w.deadline)
        s.offers, s.offers_made = [shallow(o) for o in self.offers], list(self.offers_made)
        s.guesses = {seat: dict(g) for seat, g in self.guesses.items()}
        s.guessing, s.revealed_agendas = list(self.guessing), list(self.revealed_agendas)
        s.eaten, s.tally = list(self.eaten), {k: list(v) for k, v in self.tally.items()}
        return s

    # ---- questions ----------------------------------------------------------------------
    @property
    def n(self) -> int:
        return len(self.players)

    def alive(self) -> list[int]:
        return [i for i in range(self.n) if not self.dead[i]]

    def others_alive(self, seat: int) -> list[int]:
        return [i for i in self.alive() if i != seat]

    def stash_of(self, food: int) -> int | None:
        """The seat whose stash holds ``food``, if it is on the table."""
        for seat, stash in enumerate(self.stashes):
            if food in stash:
                return seat
        return None

    def all_foods(self) -> list[int]:
        return [f for stash in self.stashes for f in stash]

    def room(self, seat: int) -> int:
        return STASH_SIZE - len(self.stashes[seat])

    def can_receive_food(self, seat: int) -> bool:
        """A stash takes Food while it has room and its owner lives (a quarantined
        player's stash may be fed by others; see ``can_add_food``)."""
        return not self.dead[seat] and self.room(seat) > 0

    def can_add_food(self, seat: int) -> bool:
        """Quarantine and Lockout stop a player adding Food to the table."""
        return not self.quarantined[seat] and seat not in self.locked and not self.dead[seat]

    def fuel_room(self, seat: int) -> int:
        return FUEL_CAP - len(self.fuel[seat])

    def can_fly(self, seat: int) -> bool:
        """Alive and not in Quarantine: may launch or be taken aboard."""
        return not self.dead[seat] and not self.quarantined[seat]

    def pod_ok(self, pod: list[int]) -> bool:
        return all(self.can_fly(p) for p in pod) and \
            sum(len(self.fuel[p]) for p in pod) >= pod_fuel(len(pod))

    def learn(self, card: int, seat: int, how: str) -> None:
        """``seat`` comes to know what ``card`` is (``how``: placed, inspected, seen). The
        card's map is replaced, never changed in place: clones share the maps."""
        self.known[card] = {**self.known[card], seat: how}

    def knows(self, seat: int | None, card: int) -> bool:
        return self.public_kind[card] or (seat is not None and seat in self.known[card])

    def team_of(self, seat: int) -> str:
        return AGENDAS[self.agendas[seat]].team

    def count(self, key: str, seat: int, by: int = 1) -> None:
        self.tally.setdefault(key, [0] * self.n)[seat] += by

    def counted(self, key: str, seat: int) -> int:
        return self.tally.get(key, [0] * self.n)[seat]

    def is_food(self, card: int) -> bool:
        return is_food(self.kinds[card])
