"""Rival Restaurants: the state of a match, as plain data."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from pydantic import Field

from server.engine import Options, Rng, State, shallow

from .cards import DAY_PLAN, GOAL


class RivalRestaurantsOptions(Options):
    market_ms: int = Field(
        60_000, ge=10_000, le=600_000, title="BUY and BARTER length (ms)",
        description="How long the market lasts; it ends early when every chef says done.",
    )
    claim_ms: int = Field(
        15_000, ge=2_000, le=120_000, title="Claim window (ms)",
        description="At the start of the market, how long chefs have to claim one counter card "
                    "before buying opens at their location.",
    )
    move_ms: int = Field(
        30_000, ge=5_000, le=300_000, title="Move pick deadline (ms)",
        description="Chefs who have not picked a location by then go to the Island.",
    )
    cook_ms: int = Field(
        30_000, ge=5_000, le=300_000, title="Cook deadline (ms)",
        description="Chefs who have not finished declaring by then cook what they declared.",
    )
    goal: int = Field(GOAL, ge=5, le=60, title="Popularity to win",
                      description="The game ends on the day a chef reaches it.")
    max_days: int = Field(
        18, ge=3, le=60, title="Closing day",
        description="If nobody has reached the goal by the end of this day, the most popular chef wins.",
    )
    random_chefs: bool = Field(True, title="Random chefs and restaurants",
                               description="Deal chefs and restaurants at random (off: in seat order).")
    restaurants: Literal["dealt", "chosen"] = Field(
        "dealt", title="Restaurants",
        description="Dealt with the chefs, or chosen: on Day 1 every chef chooses one in secret; the choices "
                    "are revealed together, and a restaurant chosen by several goes to one of them at random.")
    sporks_out: bool = Field(False, title="SPORKS Out",
                             description="The expansion: the Action Auction and the Snackle Box, 5 restaurants, "
                                         "28 recipes and 5 chefs with SPORKs.")
    sporks_chefs: bool = Field(True, title="SPORKS Out chefs",
                               description="With SPORKS Out: deal its 5 new chefs too (off: keep the rest of the "
                                           "expansion, for players new to it).")
    kitchen_squad: bool = Field(False, title="Kitchen Squad (2 players)",
                                description="The two-player mode: each player runs a squad of 3 chefs, chooses one "
                                            "to play each day, and sends a resting chef (the runner) to shop at "
                                            "another location.")
    auction_ms: int = Field(
        20_000, ge=5_000, le=300_000, title="Action Auction deadline (ms)",
        description="SPORKS Out: chefs who have not bid by then bid $0.",
    )


T = TypeVar("T")


def without(items: list[T], item: T) -> list[T]:
    """A new list of ``items`` without the first ``item`` (``ValueError`` if there is none,
    as ``list.remove``): how a shared list loses an element."""
    at = items.index(item)
    return items[:at] + items[at + 1:]


@dataclass
class Pantry:
    """Everything one chef owns — all of it face up. Its lists and its ingredients are
    replaced, never changed in place (``[*p.recipes, r]``, ``without``, ``ops.add_ingredient``):
    a clone shares them with its original."""

    chef: str
    restaurant: str
    money: int = 0
    popularity: int = 0
    ingredients: dict[str, int] = field(default_factory=dict)
    recipes: list[str] = field(default_factory=list)  # at most one basic and one gourmet
    actions: list[str] = field(default_factory=list)
    garbage: int = 0
    upgrades: list[str] = field(default_factory=list)
    levels: list[int] = field(default_factory=list)  # level thresholds reached
    gourmet_cooked: int = 0
    cooked: list[str] = field(default_factory=list)

    def clone(self) -> "Pantry":
        return shallow(self)


@dataclass(frozen=True)
class Dish:
    """A recipe declared for today's cooking, with the specials added to it (in the order
    they take effect)."""

    recipe: str
    extras: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"recipe": self.recipe, "extras": list(self.extras)}


@dataclass
class Today:
    """One chef's day: picks, claims, flags. Reset every morning. Its lists and dicts are
    replaced, never changed in place: a clone shares them with its original."""

    pick: str | None = None  # secret until the reveal
    foresee: int | None = None  # Clam-Voyance's secret pick of a chef
    location: str | None = None  # after the reveal
    claimed: bool = False  # claimed a counter card or waived the claim
    claim: int | None = None  # the claimed slot
    done: bool = False  # finished with BUY and BARTER
    played: str | None = None  # the action card played today (one a day)
    uses: dict[str, int] = field(default_factory=dict)  # chef power uses made today, by use id
    targets: list[tuple[str, int]] = field(default_factory=list)  # (use, target seat) today
    foreseen_hit: bool = False  # Clam-Voyance's foresight came true today
    dishes: list[Dish] = field(default_factory=list)  # secret until served
    ready: bool = False  # finished declaring dishes
    trade_bonus: int = 0  # money earned from completed barters today
    capped: dict[str, int] = field(default_factory=dict)  # what a capped daily reward has paid, by source
    effects: list[tuple[str, str, str]] = field(default_factory=list)  # (source kind, id, on) lasting today

    @property
    def power_used(self) -> bool:
        """Has this chef used a power today?"""
        return bool(self.uses)

    def clone(self) -> "Today":
        return shallow(self)


@dataclass
class MarketState:
    """A market. Each counter card has an identity (``ids``, by slot, numbered as cards
    come onto the counter), so that a marker on it (the Sultan's shaker) stays on that
    card when the counter slides at restocking. Its lists are replaced, never changed in
    place (``take``, ``draw``, ``throw_away``): a clone shares them with its original."""

    id: str
    counter: list[str | None]  # face up, by slot; None: empty slot
    shelf: list[str]  # face down; the top is the end of the list
    discard: list[str] = field(default_factory=list)
    claims_resolved: bool = False
    ids: list[int | None] = field(default_factory=list)  # the counter cards' identities, by slot
    dealt: int = 0  # counter cards dealt so far (the next identity)

    def __post_init__(self) -> None:
        if not self.ids:
            self.ids = [self.deal_id() if c is not None else None for c in self.counter]

    def deal_id(self) -> int:
        self.dealt += 1
        return self.dealt

    def clone(self) -> "MarketState":
        return shallow(self)

    def take(self, slot: int) -> None:
        """Take the card in a counter slot away: the slot is left empty."""
        self.counter, self.ids = _put(self.counter, slot, None), _put(self.ids, slot, None)

    def draw(self) -> str | None:
        """Take the top card of the shelf, or None when it is empty."""
        if not self.shelf:
            return None
        card, self.shelf = self.shelf[-1], self.shelf[:-1]
        return card

    def throw_away(self, *cards: str) -> None:
        """Put cards on the discard pile."""
        self.discard = [*self.discard, *cards]


def _put(items: list[T], at: int, item: T) -> list[T]:
    """A new list of ``items`` with ``item`` at ``at``."""
    out = list(items)
    out[at] = item
    return out


@dataclass
class Auction:
    id: int
    market: str
    slot: int
    bidders: list[int]  # claimants still in
    high: int = 0
    leader: int | None = None


@dataclass(frozen=True)
class Bundle:
    """One side of a barter offer: anything a chef owns. Face-down cards go by their
    market's back ({market: count}); ids are sorted, counts are above zero. Never changed."""

    money: int = 0
    ingredients: dict[str, int] = field(default_factory=dict)
    recipes: tuple[str, ...] = ()
    actions: tuple[str, ...] = ()
    garbage: int = 0
    upgrades: tuple[str, ...] = ()
    face_down: dict[str, int] = field(default_factory=dict)

    def empty(self) -> bool:
        return not (self.money or self.ingredients or self.recipes or self.actions or self.garbage
                    or self.upgrades or self.face_down)

    def to_json(self) -> dict[str, Any]:
        return {"money": self.money, "ingredients": dict(self.ingredients), "recipes": list(self.recipes),
                "actions": list(self.actions), "garbage": self.garbage, "upgrades": list(self.upgrades),
                "face_down": dict(self.face_down)}


@dataclass
class Offer:
    id: int
    frm: int
    to: int
    give: Bundle
    get: Bundle


@dataclass
class RivalState(State):
    players: list[str]
    options: RivalRestaurantsOptions
    rng: Rng
    chefs: list[Pantry]
    today: list[Today]
    markets: dict[str, MarketState]
    decks: dict[str, list[str]]  # recipe decks by kind; the top is the end
    recipe_discards: dict[str, list[str]]
    action_deck: list[str]
    action_discard: list[str] = field(default_factory=list)
    day_plan: list[str] = field(default_factory=lambda: list(DAY_PLAN))
    day: int = 1
    phase: str = DAY_PLAN[0]
    phase_since: int = 0
    auctions: list[Auction] = field(default_factory=list)
    offers: list[Offer] = field(default_factory=list)
    next_id: int = 1  # auctions' ids: public, so offers never draw from it
    offers_between: dict[str, int] = field(default_factory=dict)  # "from>to": offers made so far
    bank: int = 0  # money paid to the bank minus money paid by it
    last_cook: list[dict[str, Any]] = field(default_factory=list)  # the last COOK and COUNTER, public
    end_reason: str | None = None
    trades: int = 0
    fizzled_auctions: int = 0
    expansions: dict[str, Any] = field(default_factory=dict)  # each expansion played: its own record (``expansion``)

    def clone(self) -> "RivalState":
        """A copy that ``apply`` may change. Shared with the original: the players' names,
        the options, and every list the records hold (a chef's cards and ingredients, a
        day's, a market's, the decks and discard piles, the offers, dishes and cook
        records), which are replaced, never changed in place."""
        s = shallow(self)
        s.rng = Rng(self.rng.state)
        s.chefs = [p.clone() for p in self.chefs]
        s.today = [t.clone() for t in self.today]
        s.markets = {k: m.clone() for k, m in self.markets.items()}
        s.decks, s.recipe_discards = dict(self.decks), dict(self.recipe_discards)
        s.auctions = [shallow(a) for a in self.auctions]
        for a in s.auctions:
            a.bidders = list(a.bidders)
        s.offers_between = dict(self.offers_between)
        s.expansions = {k: record.clone() for k, record in self.expansions.items()}
        return s

    def reserved(self, seat: int) -> int:
        """Money promised by a seat's leading bids."""
        return sum(a.high for a in self.auctions if a.leader == seat) if self.auctions else 0

    def available(self, seat: int) -> int:
        """Money a seat may spend now: what it holds less its leading bids."""
        return self.chefs[seat].money - self.reserved(seat)

    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id - 1

    def new_offer_id(self, frm: int, to: int) -> int:
        """An offer's id tells its two chefs nothing they do not know: it counts only the
        offers from ``frm`` to ``to`` (offers between other chefs are secret from them)."""
        key = f"{frm}>{to}"
        self.offers_between[key] = n = self.offers_between.get(key, 0) + 1
        return n * 64 + frm * 8 + to
