"""Nutty Noodles components, as data.

Everything here follows from the rulebook (see ``docs/rules/nutty-noodles.md``): the 25
noodle bowls are every 1-, 2- and 3-ingredient combination of five ingredients, the Miso
Soup has none; a die has the five ingredients and a blank face; 22 monsters have one
allergy (4 per ingredient, 2 to Miso Soup) and 20 have two (2 per pair of ingredients).
The three ingredients besides chilli and fish, and every monster name, are designed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from itertools import combinations

INGREDIENTS: tuple[str, ...] = ("chilli", "fish", "egg", "mushroom", "broccoli")
INGREDIENT_NAMES: dict[str, str] = {
    "chilli": "Chilli",
    "fish": "Fish",
    "egg": "Egg",
    "mushroom": "Mushroom",
    "broccoli": "Broccoli",
}
MISO = "miso"
BLANK = "blank"
DIE_FACES: tuple[str, ...] = INGREDIENTS + (BLANK,)


@dataclass(frozen=True)
class Bowl:
    id: str
    ingredients: frozenset[str]

    @cached_property
    def name(self) -> str:
        """Worked out once per bowl (a frozen dataclass still has a ``__dict__`` to keep it in)."""
        if not self.ingredients:
            return "Miso Soup"
        return " & ".join(INGREDIENT_NAMES[i] for i in INGREDIENTS if i in self.ingredients) + " noodles"


@dataclass(frozen=True)
class Monster:
    id: str
    name: str
    allergies: frozenset[str]  # ingredient ids, or MISO

    def can_eat(self, bowl: Bowl) -> bool:
        """A monster eats any bowl that holds none of its allergies; a Miso-allergic
        monster refuses only the Miso Soup."""
        if not bowl.ingredients:
            return MISO not in self.allergies
        return not (self.allergies & bowl.ingredients)


def bowl_id(ingredients: frozenset[str] | set[str]) -> str:
    """The id of the bowl with exactly these ingredients (repeats count once)."""
    if not ingredients:
        return MISO
    return "+".join(i for i in INGREDIENTS if i in ingredients)


BOWLS: dict[str, Bowl] = {MISO: Bowl(MISO, frozenset())}
for _size in (1, 2, 3):
    for _combo in combinations(INGREDIENTS, _size):
        BOWLS[bowl_id(set(_combo))] = Bowl(bowl_id(set(_combo)), frozenset(_combo))

_ONE_ALLERGY_NAMES = [
    "Grumbelly", "Slurpo", "Nibblenox", "Wobblegob", "Munchkraw", "Fizzlewump",
    "Gnashbert", "Blorptooth", "Snargle", "Chompsy", "Gulpzilla", "Drooliah",
    "Squelchy", "Burpington", "Yumyum Yeti", "Noodlenoggin", "Slobberella", "Crunchus",
    "Glopglop", "Mawbert", "Snackula", "Gobbledon",
]
_TWO_ALLERGY_NAMES = [
    "Fangsworth", "Belchibald", "Gristlegrub", "Wumpus", "Oozeberry", "Chewbaccus",
    "Grumbletum", "Sniffnose", "Hungerford", "Glimglutton", "Bogmouth", "Mopsy Maw",
    "Scarfington", "Lurpy", "Tentaclaude", "Munchausen", "Gnawdia", "Drizzlegut",
    "Pudgewick", "Zorbleflump",
]


def _monsters() -> dict[str, Monster]:
    allergy_sets: list[frozenset[str]] = []
    for ingredient in INGREDIENTS:
        allergy_sets += [frozenset({ingredient})] * 4
    allergy_sets += [frozenset({MISO})] * 2
    for pair in combinations(INGREDIENTS, 2):
        allergy_sets += [frozenset(pair)] * 2
    names = _ONE_ALLERGY_NAMES + _TWO_ALLERGY_NAMES
    assert len(names) == len(allergy_sets) == 42
    return {
        f"m{i + 1:02d}": Monster(f"m{i + 1:02d}", name, allergies)
        for i, (name, allergies) in enumerate(zip(names, allergy_sets))
    }


MONSTERS: dict[str, Monster] = _monsters()


@dataclass(frozen=True)
class Mode:
    """A way to set up the table (the rulebook's Basic and Advanced modes)."""

    bowl_sizes: tuple[int, ...]  # ingredient counts of the bowls in play (0 = Miso Soup)
    grid: tuple[int, int]  # columns, rows
    tables: int
    dice: int
    min_distinct: int  # throw again until the dice show this many different ingredients
    monster_allergies: tuple[int, ...]  # allergy counts of the monsters in play
    include_miso_monsters: bool


MODES: dict[str, Mode] = {
    "basic": Mode((0, 1, 2), (4, 4), tables=3, dice=2, min_distinct=0,
                  monster_allergies=(1,), include_miso_monsters=True),
    "advanced": Mode((2, 3), (5, 4), tables=4, dice=3, min_distinct=2,
                     monster_allergies=(1, 2), include_miso_monsters=False),
}

# Monsters needed to win, by number of players.
TARGET: dict[int, int] = {2: 7, 3: 6, 4: 5}


def bowls_for(mode: Mode) -> list[str]:
    return [b.id for b in BOWLS.values() if len(b.ingredients) in mode.bowl_sizes]


def monsters_for(mode: Mode) -> list[str]:
    return [
        m.id
        for m in MONSTERS.values()
        if (MISO in m.allergies and mode.include_miso_monsters)
        or (MISO not in m.allergies and len(m.allergies) in mode.monster_allergies)
    ]
