"""Sneaky Supper: options, state, and the small helpers that move cards between places.

A card is written as its type (``u:`` in front for the Utensil deck's own back): copies
are alike, so nothing — state, view, event or error — can tell which copy went where.

Where the cards are:
- ``deck`` (the Search deck, top = end of the list), cut into ``segments`` (sizes, bottom
  first): each segment was shuffled on its own — the original deck, then each discard
  pile put underneath — so a seat knows which cards a segment holds, not their order;
- ``udeck`` (the Utensil deck) and ``udiscard`` (Utensil-deck cards waiting to be shuffled
  back at the end of the turn); ``discard`` (the Search discard pile);
- ``turn.mat`` (face up on the Floorplan) and ``turn.pool`` (a bust being picked);
- ``hands``.

What the table knows about hands: every card enters a hand face up (from the Floorplan)
and leaves it face up (a Recipe, a consumed card, a Craving) — except hand-limit discards,
which are put face down (designed). ``seen[seat]`` lists the cards that may still be in a
hand: those seen going in and not seen leaving (a card of the same kind turning up later
elsewhere says nothing: it may be another copy). When ``len(seen) == len(hand)`` the hand
is known to everyone; an empty hand is known too. The table knows more, and the re-deal
(``knowledge``) keeps to all of it: ``sure[seat]`` are the cards taken face up since that hand
last discarded face down (they are certainly still there); ``ledger[seat]`` is every card of
that hand *and* of its face-down discards still hidden in a pile (cards seen going in, less
those seen leaving face up or turning up out of a pile); and beside each pile's known cards,
``*_down`` says whose face-down discard each of its other cards is. A face-down discard that
turns up when the pile holds several players' and more than one of them could have discarded
it stays in ``*_down`` (whose it was is not known), its card in ``*_up``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Sequence

from pydantic import Field

from server.engine import PacedOptions, Rng, State, shallow
from server.engine.kept import interned

from .cards import (
    ACCIDENT, BUST_NOISE, CRAVING, MAX_DRAWN, RECIPES, card, from_utensil_deck,
)
from .matching import can_fill

POINT_SOURCES = ("recipes", "cravings", "consumed", "careful")


class SneakySupperOptions(PacedOptions):
    mish_mash: bool = Field(
        False, title="Mish-Mash rule",
        description="Optional rule: when making a Recipe or completing a Craving, any 2 "
                    "ingredients (not Utensils) may stand for 1 ingredient (not a Utensil).",
    )
    turn_timer_ms: int = Field(
        120_000, ge=5_000, le=3_600_000, title="Turn timer (ms)",
        description="If the player whose turn it is does nothing for this long, a default "
                    "move is made: draw (the compulsory first card) and Retreat, accept a "
                    "bust, end a Retreat, or discard the least valuable cards.",
    )
    pick_timer_ms: int = Field(
        60_000, ge=2_000, le=3_600_000, title="Bust-pick timer (ms)",
        description="A player choosing a card from a bust (or deciding on a Craving after "
                    "their own bust, or at the last call) for this long gets the card worth the "
                    "most points (or passes).",
    )


def paced(options: SneakySupperOptions) -> SneakySupperOptions:
    """Designed, by turns: the turn timer is the time per move; picking from a bust, the
    choice after one's own bust and the last call get a quarter of it (6 h a day) — quick
    choices that hold the whole table up."""
    if not options.by_turns:
        return options
    return options.model_copy(update={"turn_timer_ms": options.move_ms, "pick_timer_ms": options.move_ms // 4})


@dataclass
class Turn:
    """What happens during one turn, all of it public."""

    path: list[str] = field(default_factory=list)  # every card drawn this turn, in order
    mat: list[str] = field(default_factory=list)  # the cards still on the Floorplan
    cancelled: list[int] = field(default_factory=list)  # steps (0-based) hushed by Careful tokens
    utensil_drawn: bool = False
    outcome: str | None = None  # busted | retreated | overwhelming | skipped
    pool: list[str] = field(default_factory=list)  # bust: cards still to be picked
    order: list[int] = field(default_factory=list)  # bust: seats that pick, in turn order
    picks: list[tuple[int, str]] = field(default_factory=list)  # bust: (seat, card)
    icon: bool = False  # bust: a drawn card had the extra-Careful icon
    recipes: list[str] = field(default_factory=list)
    consumed: str | None = None

    def noise(self) -> int:
        """The total Noise of the cards drawn, cancelled ones counting 0."""
        return sum(self.noises())

    def noises(self) -> list[int]:
        """The Noise of each card drawn, in order (0 where a Careful token hushed it)."""
        return [0 if i in self.cancelled else card(c).noise for i, c in enumerate(self.path)]

    def hushable(self, c: str) -> int | None:
        """The first step whose card is ``c`` and still makes Noise (copies are alike, so
        hushing one or the other is the same), or ``None``."""
        return next((i for i, (d, noise) in enumerate(zip(self.path, self.noises())) if d == c and noise), None)

    def picker(self) -> int | None:
        """The seat whose pick it is in a bust, if any."""
        return self.order[len(self.picks)] if len(self.picks) < len(self.order) and self.pool else None

    def clone(self) -> "Turn":
        t = shallow(self)
        t.path, t.mat, t.cancelled, t.pool = list(self.path), list(self.mat), list(self.cancelled), list(self.pool)
        t.order, t.picks, t.recipes = list(self.order), list(self.picks), list(self.recipes)
        return t


@dataclass
class SneakySupperState(State):
    players: list[str]
    options: SneakySupperOptions
    rng: Rng
    deck: list[str]
    segments: list[int]
    udeck: list[str]
    craving_deck: list[str]
    cravings: list[str | None]
    tokens: list[int]
    discard: list[str] = field(default_factory=list)
    udiscard: list[str] = field(default_factory=list)
    # What the table knows each face-down pile holds: the cards put there face up (a pile's
    # other cards are hand-limit discards, each one of the cards seen in that hand).
    segments_known: list[list[str]] = field(default_factory=list)  # one a segment of ``deck``
    discard_known: list[str] = field(default_factory=list)
    udeck_known: list[str] = field(default_factory=list)
    udiscard_known: list[str] = field(default_factory=list)
    hands: list[list[str]] = field(default_factory=list)
    seen: list[list[str]] = field(default_factory=list)
    sure: list[list[str]] = field(default_factory=list)  # certainly in the hand (see the module's docstring)
    ledger: list[list[str]] = field(default_factory=list)  # the hand and its face-down discards still hidden
    segments_down: list[list[int]] = field(default_factory=list)  # whose face-down discards, a segment of ``deck``
    discard_down: list[int] = field(default_factory=list)
    udeck_down: list[int] = field(default_factory=list)
    udiscard_down: list[int] = field(default_factory=list)
    segments_up: list[list[str]] = field(default_factory=list)  # face-down discards turned up, whose unknown
    discard_up: list[str] = field(default_factory=list)
    udeck_up: list[str] = field(default_factory=list)
    udiscard_up: list[str] = field(default_factory=list)
    recipes_left: dict[str, int] = field(default_factory=lambda: {r.id: r.copies for r in RECIPES})
    completed: list[list[str]] = field(default_factory=list)
    scored_cravings: list[list[str]] = field(default_factory=list)
    points: list[dict[str, int]] = field(default_factory=list)
    active: int = 0
    phase: str = "turn"  # turn | noisy | pick | after_bust | retreat | discard | last_call | over
    since: int = 0  # when the waiting began (ms), for the timers
    turn: Turn = field(default_factory=Turn)
    turn_number: int = 1
    turns: list[int] = field(default_factory=list)  # turns begun, per seat
    busts: int = 0
    successes: int = 0  # Overwhelming Successes
    triggered_by: int | None = None
    final_left: list[int] | None = None  # seats still owed a final turn
    last_call: list[int] = field(default_factory=list)
    idle_turns: int = 0  # turns in a row with nothing left to draw
    last_turn: dict[str, Any] | None = None
    end_reason: str | None = None

    def clone(self) -> "SneakySupperState":
        """A copy that ``apply`` may change, made field by field (several times faster than
        pickling the state). Shared with the original: the players' names, the options and
        the last turn's summary, which is replaced, never changed in place."""
        s = shallow(self)
        s.rng = Rng(self.rng.state)
        s.deck, s.segments, s.udeck, s.craving_deck = list(self.deck), list(self.segments), list(self.udeck), \
            list(self.craving_deck)
        s.cravings, s.tokens, s.discard, s.udiscard = list(self.cravings), list(self.tokens), list(self.discard), \
            list(self.udiscard)
        s.segments_known = list(map(list, self.segments_known))
        s.discard_known, s.udeck_known, s.udiscard_known = list(self.discard_known), list(self.udeck_known), \
            list(self.udiscard_known)
        s.hands, s.seen = list(map(list, self.hands)), list(map(list, self.seen))
        s.sure, s.ledger = list(map(list, self.sure)), list(map(list, self.ledger))
        s.segments_down = list(map(list, self.segments_down))
        s.discard_down, s.udeck_down, s.udiscard_down = list(self.discard_down), list(self.udeck_down), \
            list(self.udiscard_down)
        s.segments_up = list(map(list, self.segments_up))
        s.discard_up, s.udeck_up, s.udiscard_up = list(self.discard_up), list(self.udeck_up), list(self.udiscard_up)
        s.completed, s.scored_cravings = list(map(list, self.completed)), list(map(list, self.scored_cravings))
        s.recipes_left, s.points = dict(self.recipes_left), list(map(dict, self.points))
        s.turn, s.turns, s.last_call = self.turn.clone(), list(self.turns), list(self.last_call)
        s.final_left = list(self.final_left) if self.final_left is not None else None
        return s

    @property
    def n(self) -> int:
        return len(self.players)

    def score(self, seat: int) -> int:
        return sum(self.points[seat].values())

    def name(self, seat: int) -> str:
        return self.players[seat]


def new_points() -> dict[str, int]:
    return {k: 0 for k in POINT_SOURCES}


# ---- moving cards ------------------------------------------------------------------------

def can_draw_search(s: SneakySupperState) -> bool:
    """A Search card can be drawn if the deck, or a discard pile to rebuild it, has one."""
    return bool(s.deck or s.discard)


def take_top(s: SneakySupperState) -> str:
    """The top Search card, off its segment."""
    c = s.deck.pop()
    _drawn(s, s.segments_known[-1], s.segments_down[-1], s.segments_up[-1], c)
    s.segments[-1] -= 1
    if s.segments[-1] == 0:
        s.segments.pop()
        s.segments_known.pop()
        _emptied(s, s.segments_down.pop(), s.segments_up.pop())
    return c


def take_utensil(s: SneakySupperState) -> str:
    c = s.udeck.pop()
    _drawn(s, s.udeck_known, s.udeck_down, s.udeck_up, c)
    return c


def _drawn(s: SneakySupperState, known: list[str], down: list[int], up: list[str], c: str) -> None:
    """A card drawn face up from a pile: if the pile was known to hold one like it, it is
    known no more (a face-down card drawn instead leaves the same cards behind); else it
    was one of the face-down discards there."""
    if c in known:
        known.remove(c)
    else:
        _turned_up(s, down, up, c)


def _emptied(s: SneakySupperState, down: list[int], up: list[str]) -> None:
    """A pile drawn to its end: the cards that turned up from it without the table knowing
    whose were its discarders' (``down``). Each is taken out of a ledger that holds it, the
    first seat that could have discarded it: one of the histories that may have happened."""
    for c in up:
        could = [q for q in dict.fromkeys(down) if c in s.ledger[q]]
        if could:
            down.remove(could[0])
            s.ledger[could[0]].remove(c)


def _turned_up(s: SneakySupperState, down: list[int], up: list[str], c: str) -> None:
    """A face-down discard turned up as ``c``: it was the discard of a seat of ``down``
    that could have discarded a ``c`` (its ledger holds one beyond what it surely holds).
    When only one could have, it was that one's; else the table cannot tell whose (``up``)."""
    could = [q for q in dict.fromkeys(down) if (Counter(s.ledger[q]) - Counter(s.sure[q]))[c] > 0]
    if len(could) == 1:
        down.remove(could[0])
        s.ledger[could[0]].remove(c)
    else:
        up.append(c)


def to_discard(s: SneakySupperState, c: str, by: int | None = None) -> None:
    """Utensil-deck cards go to the Utensil discard; every other card to the Search discard:
    face up, or face down (a hand-limit discard ``by`` a seat: the table knows whose it is)."""
    utensil = from_utensil_deck(c)
    (s.udiscard if utensil else s.discard).append(c)
    if by is None:
        (s.udiscard_known if utensil else s.discard_known).append(c)
    else:
        (s.udiscard_down if utensil else s.discard_down).append(by)


def to_hand(s: SneakySupperState, seat: int, c: str) -> None:
    """A card goes face up into a hand: everyone knows it is there."""
    s.hands[seat].append(c)
    s.seen[seat].append(c)
    s.sure[seat].append(c)
    s.ledger[seat].append(c)


def play_from_hand(s: SneakySupperState, seat: int, c: str) -> None:
    """A card leaves a hand face up (Recipe, consumed, Craving) onto its discard pile."""
    s.hands[seat].remove(c)
    s.seen[seat].remove(c)
    if c in s.sure[seat]:
        s.sure[seat].remove(c)
    if c in s.ledger[seat]:  # not when an emptied pile's turned-up card was taken for this seat's
        s.ledger[seat].remove(c)
    to_discard(s, c)
    _empty_known(s, seat)


def discard_face_down(s: SneakySupperState, seat: int, c: str) -> None:
    """A hand-limit discard: face down, so the table does not learn which card it was — nor,
    from now on, which of the cards it saw go in are still there."""
    s.hands[seat].remove(c)
    s.sure[seat] = []
    to_discard(s, c, by=seat)
    _empty_known(s, seat)


def _empty_known(s: SneakySupperState, seat: int) -> None:
    """Everyone knows what an empty hand holds."""
    if not s.hands[seat]:
        s.seen[seat], s.sure[seat] = [], []


def discard_accidents(s: SneakySupperState) -> list[str]:
    """Accidents drawn this turn go to the discard pile; the rest stay on the Floorplan."""
    accidents = [c for c in s.turn.mat if card(c).kind == ACCIDENT]
    for c in accidents:
        to_discard(s, c)
    s.turn.mat = [c for c in s.turn.mat if c not in accidents]
    return accidents


def put_discard_under_deck(s: SneakySupperState) -> int:
    """After a Recipe: the Search discard pile, shuffled, goes under the deck as a new
    segment. Returns how many cards went under."""
    pile = s.rng.shuffled(s.discard)
    if pile:
        s.deck[:0] = pile
        s.segments.insert(0, len(pile))
        s.segments_known.insert(0, s.discard_known)
        s.segments_down.insert(0, s.discard_down)
        s.segments_up.insert(0, s.discard_up)
    s.discard, s.discard_known, s.discard_down, s.discard_up = [], [], [], []
    return len(pile)


def rebuild_deck(s: SneakySupperState) -> None:
    """Designed: when the Search deck is empty and a card must be drawn, the discard pile
    is shuffled to make a new deck."""
    s.deck = s.rng.shuffled(s.discard)
    s.segments = [len(s.deck)] if s.deck else []
    s.segments_known = [s.discard_known] if s.deck else []
    s.segments_down = [s.discard_down] if s.deck else []
    s.segments_up = [s.discard_up] if s.deck else []
    s.discard, s.discard_known, s.discard_down, s.discard_up = [], [], [], []


def reshuffle_utensils(s: SneakySupperState) -> None:
    """End of turn: the Utensil discard is shuffled into the Utensil deck."""
    if s.udiscard:
        s.udeck = s.rng.shuffled(s.udeck + s.udiscard)
        s.udeck_known += s.udiscard_known
        s.udeck_down += s.udiscard_down
        s.udeck_up += s.udiscard_up
        s.udiscard, s.udiscard_known, s.udiscard_down, s.udiscard_up = [], [], [], []


# ---- questions the rules, the view and the bot all ask ------------------------------------

def least_valuable(hand: Sequence[str]) -> str:
    """The card worth the fewest points (the lowest id among equals)."""
    return min(sorted(hand), key=lambda c: card(c).points)


def can_draw_utensil(s: SneakySupperState) -> bool:
    """From the 2nd card on, once a turn, while fewer than 7 cards are drawn."""
    t = s.turn
    return bool(t.path) and not t.utensil_drawn and len(t.path) < MAX_DRAWN and bool(s.udeck)


def can_hush(s: SneakySupperState) -> bool:
    """Could the active player's Careful tokens bring the Noise under 4?"""
    loud = sorted(s.turn.noises(), reverse=True)
    return s.turn.noise() - sum(loud[: s.tokens[s.active]]) < BUST_NOISE


def may_crave(s: SneakySupperState, seat: int) -> bool:
    """Might ``seat`` complete a Craving, as far as the table knows: it has a Craving and
    holds cards. Whether they fit is secret, so whatever waits for a Craving (the pause
    after a bust, the last call) asks this, never the ways to complete it."""
    return s.cravings[seat] is not None and bool(s.hands[seat]) and s.phase != "over"


def completable(hand: tuple[str, ...], tokens: int, mish_mash: bool) -> frozenset[str]:
    """The Recipes (ids) that these cards and tokens could complete, copies left or not."""
    return _completable(tuple(sorted(hand)), tokens, mish_mash)


@interned(size=4096)
def _completable(hand: tuple[str, ...], tokens: int, mish_mash: bool) -> frozenset[str]:
    return frozenset(r.id for r in RECIPES if can_fill(r.needs, hand, tokens, mish_mash))


def can_crave(s: SneakySupperState, seat: int) -> bool:
    """Could ``seat`` complete its Craving right now?"""
    cid = s.cravings[seat]
    if cid is None or s.phase == "over" or not s.hands[seat]:
        return False
    return _can_crave(cid, tuple(sorted(s.hands[seat])), s.tokens[seat], s.options.mish_mash)


@interned(size=4096)
def _can_crave(cid: str, hand: tuple[str, ...], tokens: int, mish_mash: bool) -> bool:
    return can_fill(CRAVING[cid].needs, hand, tokens, mish_mash)
