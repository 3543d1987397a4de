"""Parts of Nutty Noodles' views and legal lists, kept by the facts each one reads.

Each part is built from its key's facts alone (``interned``), so two states — or two
seats — with the same facts get the very same object, which the runtime's diff skips and
nobody may change. Nothing here is seen by one seat only: the per-seat fields (``you``,
the prompt) are built in the rules.
"""

from __future__ import annotations

from typing import Any

from server.engine import Action
from server.engine.kept import interned, listed

from .cards import BOWLS, INGREDIENT_NAMES, INGREDIENTS, MODES, MONSTERS

# What views show of the fixed cards, built once and the same object in every view
INGREDIENT_LIST = [{"id": i, "name": INGREDIENT_NAMES[i]} for i in INGREDIENTS]
BOWL_VIEWS = {b: {"id": b, "name": bowl.name, "ingredients": sorted(bowl.ingredients)} for b, bowl in BOWLS.items()}
MONSTER_VIEWS = {m: {"id": m, "name": monster.name, "allergies": sorted(monster.allergies)}
                 for m, monster in MONSTERS.items()}
READY: list[Action] = [{"type": "ready"}]
ROLL: list[Action] = [{"type": "roll"}]


@interned()
def variants(order_please: bool, panic_in_the_kitchen: bool, scrambled: bool) -> dict[str, bool]:
    """The view's ``variants``."""
    return {"order_please": order_please, "panic_in_the_kitchen": panic_in_the_kitchen, "scrambled": scrambled}


@interned()
def grid(mode: str) -> dict[str, int]:
    """The view's ``grid`` of a mode."""
    cols, rows = MODES[mode].grid
    return {"cols": cols, "rows": rows}


@interned(size=4096)
def player(name: str, monsters: tuple[str, ...], ready: bool) -> dict[str, Any]:
    """One entry of the view's ``players``."""
    return {"name": name, "monsters": list(monsters), "score": len(monsters), "ready": ready}


def players(names: list[str], won: list[list[str]], ready: list[int]) -> list[dict[str, Any]]:
    """The view's ``players`` (a kept list of kept entries)."""
    return listed(*(player(name, tuple(won[i]), i in ready) for i, name in enumerate(names)))


@interned()
def bowls(order: tuple[str, ...]) -> list[dict[str, Any]]:
    """The view's ``bowls``, in grid order."""
    return [BOWL_VIEWS[b] for b in order]


@interned(size=4096)
def tables(monsters: tuple[str | None, ...]) -> list[dict[str, Any] | None]:
    """The view's ``tables``: the monster at each, or ``None``."""
    return [None if m is None else MONSTER_VIEWS[m] for m in monsters]


@interned(size=4096)
def throw(number: int, dice: tuple[str, ...], placements: tuple[tuple[int, str, int | None, bool], ...]) -> dict[str, Any]:
    """The view's ``throw``; ``placements``: each one's seat, bowl, table and whether it was right."""
    return {"number": number, "dice": list(dice),
            "placements": [{"seat": s, "bowl": b, "table": t, "correct": c} for s, b, t, c in placements]}


@interned(size=4096)
def place(table: int, bowl: str) -> Action:
    """The action of serving ``bowl`` to ``table``."""
    return {"type": "place", "table": table, "bowl": bowl}


@interned()
def takeaway(bowl: str) -> Action:
    """The action of putting ``bowl`` face down."""
    return {"type": "takeaway", "bowl": bowl}


@interned()
def race(seated: tuple[bool, ...], order: tuple[str, ...]) -> list[Action]:
    """What a seat with no token down may do in the race: serve any bowl to any table with
    a monster (``seated``), left to right, or put any bowl face down."""
    places = [place(t, b) for t, here in enumerate(seated) if here for b in order]
    return places + [takeaway(b) for b in order]
