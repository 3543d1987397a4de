"""Sneaky Supper components, as data.

From the rulebook: 80 Search cards (Food, Accidents and some Utensils), 8 Utensil cards,
9 Recipe types × 2 cards, 9 Cravings (2 specific Snacks + any Drink), noise 0, 1 or 3 on
every card, a point value on every card, and an icon that gives an extra Careful token
when Busted. Named there: Gem Biscuits (2 points), Seasoned Seaweed (3, "slightly
noisier"), Sliced Bread (1), Kaya & Butter, Eggs, Ice Cream, Instant Noodles, Raw
ingredients, Doodled Up Noodles (1 Utensil + 1 Instant Noodles + 2 different Raw =
7 points) and the Simple Sandwich.

Everything else — the other card names, how many of each, their noise and points, the
recipes' requirements and points, the Cravings — is **designed** (see
``docs/rules/sneaky-supper.md``) and balanced by simulation. A published list would
replace these tables without any code change.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

# Kinds of card.
FOOD, ACCIDENT, UTENSIL = "food", "accident", "utensil"

# Food groups a requirement may ask for ("any Raw", "any Drink", "any Snack").
SNACK, DRINK, RAW, STAPLE = "snack", "drink", "raw", "staple"
GROUP_NAMES: dict[str, str] = {
    SNACK: "Snack", DRINK: "Drink", RAW: "Raw ingredient", STAPLE: "Staple",
    UTENSIL: "Utensil", ACCIDENT: "Accident",
}


@dataclass(frozen=True)
class CardType:
    """One kind of card: ``group`` is its food group (or ``utensil`` / ``accident``);
    ``icon`` is the extra-Careful icon (one more token when Busted with it drawn)."""

    id: str
    name: str
    kind: str
    group: str
    noise: int
    points: int
    icon: bool = False
    text: str = ""


def _food(id: str, name: str, group: str, noise: int, points: int, icon: bool = False,
          text: str = "") -> CardType:
    return CardType(id, name, FOOD, group, noise, points, icon, text)


def _utensil(id: str, name: str, noise: int, text: str = "") -> CardType:
    return CardType(id, name, UTENSIL, UTENSIL, noise, 0, False, text)


def _accident(id: str, name: str, noise: int, icon: bool = False, text: str = "") -> CardType:
    return CardType(id, name, ACCIDENT, ACCIDENT, noise, 0, icon, text)


TYPES: tuple[CardType, ...] = (
    # Snacks: what Cravings ask for.
    _food("gem-biscuits", "Gem Biscuits", SNACK, 0, 2, text="Consuming this scores you 2 points!"),
    _food("chocolate-bar", "Chocolate Bar", SNACK, 1, 1, text="Rustle, rustle."),
    _food("pineapple-tarts", "Pineapple Tarts", SNACK, 0, 1),
    _food("prawn-crackers", "Prawn Crackers", SNACK, 1, 1),
    _food("seasoned-seaweed", "Seasoned Seaweed", SNACK, 1, 3,
          text="This slightly noisier Seaweed scores 3!"),
    _food("potato-chips", "Potato Chips", SNACK, 3, 2, icon=True, text="The crinkliest bag in the house."),
    # Drinks: any one completes a Craving.
    _food("milo", "Milo", DRINK, 1, 1, text="Clink, clink goes the spoon."),
    _food("bubble-tea", "Bubble Tea", DRINK, 1, 1),
    _food("fizzy-soda", "Fizzy Soda", DRINK, 3, 1, text="Pssshhht!"),
    # Raw ingredients.
    _food("eggs", "Eggs", RAW, 1, 1),
    _food("tomato", "Tomato", RAW, 1, 1),
    _food("spring-onion", "Spring Onion", RAW, 1, 1),
    _food("mushrooms", "Mushrooms", RAW, 1, 1),
    _food("bean-sprouts", "Bean Sprouts", RAW, 1, 1),
    # Staples.
    _food("instant-noodles", "Instant Noodles", STAPLE, 1, 1, text="Crinkly packet."),
    _food("sliced-bread", "Sliced Bread", STAPLE, 1, 1,
          text="This Sliced Bread is for a recipe, but you could still consume it for a point!"),
    _food("kaya-butter", "Kaya & Butter", STAPLE, 1, 1),
    _food("ice-cream", "Ice Cream", STAPLE, 3, 1, text="The freezer door sticks."),
    # Utensils (in both decks).
    _utensil("chopsticks", "Chopsticks", 0),
    _utensil("wooden-spoon", "Wooden Spoon", 0),
    _utensil("spatula", "Spatula", 1),
    _utensil("whisk", "Whisk", 1),
    _utensil("ladle", "Ladle", 1),
    _utensil("frying-pan", "Frying Pan", 3, text="Clang."),
    _utensil("wok", "Wok", 3, text="CLANG."),
    # Accidents: discarded, never kept.
    _accident("creaky-floorboard", "Creaky Floorboard", 1),
    _accident("squeaky-door", "Squeaky Door", 1),
    _accident("wrong-turn", "Wrong Turn", 0, text="A dead end. At least it was quiet."),
    _accident("stubbed-toe", "Stubbed Toe", 3),
    _accident("tripped-on-laundry", "Tripped on the Laundry", 3),
    _accident("barking-dog", "The Dog Wakes Up", 3, text="Woof?"),
    _accident("stepped-on-cat", "Stepped on the Cat", 3, icon=True),
)
TYPE: dict[str, CardType] = {t.id: t for t in TYPES}

# How many of each type are in each deck (designed).
SEARCH_COUNTS: dict[str, int] = {
    "gem-biscuits": 3, "chocolate-bar": 3, "pineapple-tarts": 3, "prawn-crackers": 3,
    "seasoned-seaweed": 3, "potato-chips": 3,                                    # 18 Snacks
    "milo": 3, "bubble-tea": 2, "fizzy-soda": 2,                                 # 7 Drinks
    "eggs": 3, "tomato": 2, "spring-onion": 2, "mushrooms": 2, "bean-sprouts": 1,  # 10 Raw
    "instant-noodles": 2, "sliced-bread": 4, "kaya-butter": 2, "ice-cream": 3,   # 11 Staples
    "chopsticks": 1, "spatula": 1, "ladle": 1, "wok": 1,                         # 4 Utensils
    "creaky-floorboard": 4, "squeaky-door": 3, "wrong-turn": 2, "stubbed-toe": 6,
    "tripped-on-laundry": 6, "barking-dog": 6, "stepped-on-cat": 3,            # 30 Accidents
}
UTENSIL_COUNTS: dict[str, int] = {
    "wooden-spoon": 2, "chopsticks": 1, "whisk": 2, "spatula": 1, "frying-pan": 1, "wok": 1,
}


UTENSIL_DECK = "u:"  # how a Utensil-deck card is written: its back differs from a Search card's


def _deck(counts: dict[str, int], prefix: str = "") -> tuple[str, ...]:
    """A deck as the table sees it: one entry per card, in data order. A card is written
    as its type (with ``u:`` in front for the Utensil deck, whose cards have their own
    back); copies of a card are the same string, since nobody at the table can tell them
    apart — so no card carries an identity that could say which copy went where."""
    return tuple(f"{prefix}{t}" for t, n in counts.items() for _ in range(n))


SEARCH_CARDS: tuple[str, ...] = _deck(SEARCH_COUNTS)
UTENSIL_CARDS: tuple[str, ...] = _deck(UTENSIL_COUNTS, UTENSIL_DECK)


def card(c: str) -> CardType:
    """The type of a card (``gem-biscuits``, or ``u:wok`` from the Utensil deck)."""
    return TYPE[c.removeprefix(UTENSIL_DECK)]


def from_utensil_deck(c: str) -> bool:
    """Utensil-deck cards have their own back and go back to their own deck."""
    return c.startswith(UTENSIL_DECK)


# ---- requirements --------------------------------------------------------------------

class Need(NamedTuple):
    """``count`` ingredients that are ``what`` (a card type id or a group); with
    ``different`` the real cards filling it must all be of different types. (A named
    tuple: the rules ask questions keyed by needs, and a tuple hashes in C.)"""

    what: str
    count: int = 1
    different: bool = False

    @property
    def label(self) -> str:
        name = TYPE[self.what].name if self.what in TYPE else GROUP_NAMES[self.what]
        if self.count == 1:
            return name if self.what in TYPE else f"any {name}"
        plural = name if name.endswith("s") else f"{name}s"
        return f"{self.count} {'different ' if self.different else ''}{plural}"


@dataclass(frozen=True)
class Recipe:
    id: str
    name: str
    needs: tuple[Need, ...]
    points: int
    copies: int = 2


RECIPES: tuple[Recipe, ...] = (
    Recipe("doodled-up-noodles", "Doodled Up Noodles",
           (Need(UTENSIL), Need("instant-noodles"), Need(RAW, 2, different=True)), 7),
    Recipe("simple-sandwich", "Simple Sandwich", (Need("sliced-bread"), Need("kaya-butter")), 2),
    Recipe("ice-cream-sandwich", "Ice Cream Sandwich",
           (Need("sliced-bread"), Need("ice-cream"), Need("chocolate-bar")), 3),
    Recipe("midnight-ramen", "Midnight Ramen",
           (Need(UTENSIL), Need("instant-noodles"), Need("eggs"), Need("spring-onion")), 4),
    Recipe("eggy-bread", "Eggy Bread", (Need(UTENSIL), Need("sliced-bread"), Need("eggs"), Need("milo")), 4),
    Recipe("veggie-stir-fry", "Veggie Stir-Fry",
           (Need(UTENSIL), Need("mushrooms"), Need("bean-sprouts"), Need("spring-onion")), 4),
    Recipe("midnight-sundae", "Midnight Sundae",
           (Need("ice-cream"), Need("chocolate-bar"), Need("pineapple-tarts")), 3),
    Recipe("kaya-toast-set", "Kaya Toast Set",
           (Need(UTENSIL), Need("sliced-bread"), Need("kaya-butter"), Need("eggs"), Need("milo")), 5),
    Recipe("midnight-feast", "Midnight Feast",
           (Need(UTENSIL, 2), Need("instant-noodles"), Need("eggs"), Need("seasoned-seaweed"),
            Need("fizzy-soda")), 7),
)
RECIPE: dict[str, Recipe] = {r.id: r for r in RECIPES}


@dataclass(frozen=True)
class Craving:
    """Two specific Snacks and any Drink."""

    id: str
    name: str
    snacks: tuple[str, str]
    points: int

    @cached_property
    def needs(self) -> tuple[Need, ...]:
        return (Need(self.snacks[0]), Need(self.snacks[1]), Need(DRINK))


CRAVINGS: tuple[Craving, ...] = (
    Craving("sweet-tooth", "Sweet Tooth", ("gem-biscuits", "chocolate-bar"), 3),
    Craving("tea-party", "Tea Party", ("gem-biscuits", "pineapple-tarts"), 3),
    Craving("crunch-time", "Crunch Time", ("gem-biscuits", "prawn-crackers"), 3),
    Craving("sweet-and-salty", "Sweet & Salty", ("chocolate-bar", "seasoned-seaweed"), 3),
    Craving("movie-night", "Movie Night", ("chocolate-bar", "potato-chips"), 4),
    Craving("festive-snacking", "Festive Snacking", ("pineapple-tarts", "seasoned-seaweed"), 3),
    Craving("midnight-munchies", "Midnight Munchies", ("pineapple-tarts", "potato-chips"), 4),
    Craving("seaside-supper", "Seaside Supper", ("prawn-crackers", "seasoned-seaweed"), 3),
    Craving("salt-fiend", "Salt Fiend", ("prawn-crackers", "potato-chips"), 4),
)
CRAVING: dict[str, Craving] = {c.id: c for c in CRAVINGS}

# Numbers from the rulebook.
BUST_NOISE = 4
MAX_DRAWN = 7
HAND_LIMIT = 4
MAX_TOKENS = 3
GOAL = 20
START_TOKENS = 1
