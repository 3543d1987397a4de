"""Rival Restaurants components as JSON, for the views: a component is described where
it appears, so the table never rebuilds a name from an id — a recipe or action card held,
offered or played comes whole (``recipe_view``, ``action_view``); one only referred to
(cooked, discarded, in the last service) comes as ``recipe_ref``: id, name and kind."""

from __future__ import annotations

from functools import wraps
from typing import Any, Callable, TypeVar

from .cards import CHEFS, CUISINES, EXTRAS, INGREDIENTS, RECIPES, RESTAURANTS, Play, action_kind
from .state import Bundle

D = TypeVar("D")

INGREDIENT_CATALOGUE = {i.id: {"name": i.name, "market": i.market, "price": i.price, "text": i.text,
                               "extra": i.id in EXTRAS, "wild": i.wild}
                        for i in INGREDIENTS.values()}
"""Every ingredient: ``extra`` — a special added to a dish when cooking (the ``cook``
action's ``extras``); ``wild`` — stands in for any ingredient of a recipe (Alien Goo)."""


def kept(card_of: Callable[[str], Any]) -> Callable[[Callable[[str], D]], Callable[[str], D]]:
    """Describe each card once: the description of ``ident`` is kept and given again — the
    very same object, which views share and a diff skips — as long as ``card_of(ident)`` is
    the same card (cards are data; one replaced in its table is described anew). A
    description is never changed in place."""
    def wrap(describe: Callable[[str], D]) -> Callable[[str], D]:
        memo: dict[str, tuple[Any, D]] = {}

        @wraps(describe)
        def described(ident: str) -> D:
            card = card_of(ident)
            hit = memo.get(ident)
            if hit is None or hit[0] is not card:
                hit = memo[ident] = (card, describe(ident))
            return hit[1]
        return described
    return wrap


@kept(RECIPES.__getitem__)
def recipe_ref(recipe_id: str) -> dict[str, Any]:
    """A recipe referred to (cooked, discarded): its id, name and kind."""
    r = RECIPES[recipe_id]
    return {"id": r.id, "name": r.name, "kind": r.kind}


@kept(RECIPES.__getitem__)
def recipe_view(recipe_id: str) -> dict[str, Any]:
    r = RECIPES[recipe_id]
    return {**recipe_ref(recipe_id), "cuisine": r.cuisine, "cuisine_name": CUISINES[r.cuisine],
            "ingredients": list(r.ingredients), "points": r.points, "garbage": r.garbage}


def play_view(play: Play) -> dict[str, Any]:
    """How an action card or chef power is used: its phase; ``target`` — None, "chef" (any
    other chef) or "chef_here" (another chef at your location); ``choice`` — None,
    "ingredient" (one the target holds), "slot" (a counter card at any market) or "kind"
    (of a recipe you hold); ``params`` — the keys the action carries besides its type (and
    ``card``)."""
    return {"phase": play.phase, "target": play.target, "choice": play.choice, "params": list(play.params),
            "stoppable": play.stoppable}


@kept(action_kind)
def action_view(card: str) -> dict[str, Any]:
    """An action card (``card`` is one copy, e.g. ``swipe-2``)."""
    a = action_kind(card)
    return {"id": card, "kind": a.id, "name": a.name, "text": a.text, "phase": a.play.phase,
            "play": play_view(a.play)}


def bundle_view(bundle: Bundle) -> dict[str, Any]:
    """One side of a barter offer, with its recipes and action cards described."""
    return {**bundle.to_json(), "recipes": [recipe_view(r) for r in bundle.recipes],
            "actions": [action_view(a) for a in bundle.actions]}


@kept(CHEFS.__getitem__)
def chef_card(chef_id: str) -> dict[str, Any]:
    """A chef; ``play`` is its first active power's (``uses`` has them all)."""
    c = CHEFS[chef_id]
    return {"id": c.id, "name": c.name, "title": c.title, "phase": c.phase, "power": c.power, "text": c.text,
            "active": bool(c.uses), "play": play_view(c.uses[0].play) if c.uses else None, "spork": c.spork,
            "uses": [{"id": u.id, "name": u.name, "text": u.text, "play": play_view(u.play), "per_day": u.per_day}
                     for u in c.uses]}


def restaurant_view(restaurant: str, reached: tuple[int, ...] | list[int] = ()) -> dict[str, Any]:
    """A restaurant card: cuisine and levels (``reached``: the thresholds its chef has reached)."""
    r = RESTAURANTS[restaurant]
    return {"id": r.id, "name": r.name, "cuisine": r.cuisine, "cuisine_name": CUISINES[r.cuisine],
            "levels": [{"threshold": lv.threshold, "name": lv.name, "text": lv.text,
                        "reached": lv.threshold in reached} for lv in r.levels]}

