"""COOK and COUNTER: every chef secretly declares the recipes they cook (one a day unless an
upgrade or a card allows more) or passes; when all have served, or at the deadline, the
dishes are revealed and scored in seat order:

    popularity += points + cuisine bonus + extras and powers − 1 per garbage already held

(a dish may score below zero; popularity never drops below 0 — designed). Then the chef
takes the recipe's garbage, the used ingredients go to their markets' discard piles, a new
recipe of the same kind is drawn, levels reached pay their rewards, and the counters are
restocked from the shelves.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Hashable, Iterator

from server.engine import Action, Event, public, require
from server.engine.kept import kept

from . import ops
from .cards import (
    COOK_COUNTER,
    CUISINE_BONUS,
    EXTRAS,
    INGREDIENTS,
    RECIPES,
    GARBAGE,
    RESTAURANTS,
    WILD,
    Recipe,
)
from .moments import fire, quiet, run_now, source_name
from .phase import Phase, register
from .plays import play_options
from .state import Dish, RivalState
from .zones import DISHES


@dataclass(frozen=True)
class Plan:
    """How a dish is cooked: the ingredients it uses (stand-ins included), each missing
    ingredient with what stands in for it (None: a rule lets it go without), and how many
    times each substitution rule (by its index) serves it."""

    used: tuple[str, ...]
    subs: tuple[tuple[str, str | None], ...]
    rules: tuple[tuple[int, int], ...]


# ---- what may stand in for what ----------------------------------------------------------

def cook_limit(s: RivalState, seat: int) -> int:
    """Recipes a chef may cook today: 1, more with an upgrade or a card."""
    if quiet(s, seat, "cook_limit"):
        return 1
    return fire(s, "cook_limit", [seat], {"limit": 1})[0]["limit"]


def substitution_rules(s: RivalState, seat: int) -> list[dict[str, Any]]:
    """What may stand in for a missing ingredient: none but by an upgrade, a card or a power."""
    if quiet(s, seat, "substitutes"):
        return []
    return fire(s, "substitutes", [seat], {"rules": []})[0]["rules"]


def _stand_ins(need: str, pool: Counter[str], rules: list[dict[str, Any]], dish_left: list[int],
               day_left: list[int]) -> Iterator[tuple[str | None, int | None]]:
    """The ways to fill a missing ``need``: (ingredient used or None, rule index or None for
    Alien Goo)."""
    market = INGREDIENTS[need].market
    for i, rule in enumerate(rules):
        if dish_left[i] <= 0 or day_left[i] <= 0:
            continue
        use = rule["use"]
        if "for" in rule and market not in rule["for"]:
            continue
        if use == "nothing":
            yield None, i
            continue
        if use == GARBAGE:
            if pool[GARBAGE] > 0:
                yield GARBAGE, i
            continue
        wanted = market if use == "same_market" else use
        for item in sorted(pool):
            if pool[item] > 0 and item != need and item in INGREDIENTS and INGREDIENTS[item].market == wanted:
                yield item, i
    if pool[WILD] > 0:
        yield WILD, None


def _rules_for(recipe: Recipe, rules: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rules that may serve this recipe (a rule may be limited to one kind of recipe);
    the others stay in place, used up, so rule numbers keep their meaning."""
    return [r if r.get("recipe_kind") in (None, recipe.kind) else {**r, "per_dish": 0} for r in rules]


def _plan_question(recipe: Recipe, pantry: dict[str, int], rules: list[dict[str, Any]],
                   day_used: Counter[int] | None = None) -> Hashable:
    """What a plan depends on: the recipe, what the pantry holds, the rules, their uses today."""
    return (recipe, tuple(sorted(kv for kv in pantry.items() if kv[1] > 0)), repr(rules),
            tuple(sorted(kv for kv in (day_used or {}).items() if kv[1] > 0)))


@kept(_plan_question, None)  # a plan is never changed: every caller may have the kept one
def match(recipe: Recipe, pantry: dict[str, int], rules: list[dict[str, Any]],
          day_used: Counter[int] | None = None) -> Plan | None:
    """How a chef could cook ``recipe`` from ``pantry``: exact ingredients first, then the
    stand-ins their rules allow (same market, meat for vegetables, a free one) and Alien
    Goo. ``None`` when it cannot be cooked."""
    rules = _rules_for(recipe, rules)
    pool: Counter[str] = Counter(pantry)
    used: list[str] = []
    missing: list[str] = []
    for need in recipe.ingredients:
        if pool[need] > 0:
            pool[need] -= 1
            used.append(need)
        else:
            missing.append(need)
    day_used = day_used or Counter()
    dish_left = [r.get("per_dish", 99) for r in rules]
    day_left = [r.get("per_day", 99) - day_used[i] for i, r in enumerate(rules)]
    subs: list[tuple[str, str | None]] = []

    def fill(k: int) -> bool:
        if k == len(missing):
            return True
        for item, rule in _stand_ins(missing[k], pool, rules, dish_left, day_left):
            if item is not None:
                pool[item] -= 1
            if rule is not None:
                dish_left[rule] -= 1
                day_left[rule] -= 1
            subs.append((missing[k], item))
            if fill(k + 1):
                return True
            subs.pop()
            if item is not None:
                pool[item] += 1
            if rule is not None:
                dish_left[rule] += 1
                day_left[rule] += 1
        return False

    if not fill(0):
        return None
    rules_used = Counter({i: (r.get("per_dish", 99) - dish_left[i]) for i, r in enumerate(rules)})
    return Plan(tuple(used + [item for _, item in subs if item is not None]), tuple(subs),
                tuple((i, n) for i, n in rules_used.items() if n))


def shortfall(recipe: Recipe, pantry: dict[str, int], rules: list[dict[str, Any]]) -> list[str]:
    """The ingredients a chef still has to get for ``recipe``: those neither held nor
    covered by a stand-in (taken greedily, in recipe order)."""
    rules = _rules_for(recipe, rules)
    pool: Counter[str] = Counter(pantry)
    missing = []
    for need in recipe.ingredients:
        if pool[need] > 0:
            pool[need] -= 1
        else:
            missing.append(need)
    dish_left = [r.get("per_dish", 99) for r in rules]
    day_left = [r.get("per_day", 99) for r in rules]
    short = []
    for need in missing:
        item, rule = next(_stand_ins(need, pool, rules, dish_left, day_left), (None, -1))
        if rule == -1:
            short.append(need)
            continue
        if item is not None:
            pool[item] -= 1
        if rule is not None:
            dish_left[rule] -= 1
            day_left[rule] -= 1
    return short


def cooking_pool(s: RivalState, seat: int, rules: list[dict[str, Any]]) -> Counter[str]:
    """What a chef may cook with: their face-up ingredients, and their garbage when a rule
    lets garbage stand in (The Greasy Bucket). Face-down cards are not in it."""
    pool: Counter[str] = Counter(s.chefs[seat].ingredients)
    if any(r["use"] == GARBAGE for r in rules) and s.chefs[seat].garbage:
        pool[GARBAGE] = s.chefs[seat].garbage
    return pool


def plan_dishes(s: RivalState, seat: int, dishes: list[Dish]) -> list[Plan] | None:
    """Plans for a chef's declared dishes, in order, each from what the earlier ones left."""
    rules = substitution_rules(s, seat)
    pantry = cooking_pool(s, seat, rules)
    day_used: Counter[int] = Counter()
    plans = []
    for dish in dishes:
        for extra in dish.extras:
            if pantry[extra] <= 0:
                return None
            pantry[extra] -= 1
        plan = match(RECIPES[dish.recipe], +pantry, rules, day_used)
        if plan is None:
            return None
        pantry.subtract(plan.used)
        day_used.update(dict(plan.rules))
        plans.append(plan)
    return plans


def cookable(s: RivalState, seat: int, held: tuple[tuple[str, int], ...]) -> dict[str, bool]:
    """Which of a chef's recipes they could cook now, alone and with no special added
    (``plan_dishes`` of that one dish), the rules and the pool found once for all.
    ``held``: the chef's ingredients as sorted (id, count) pairs (as in their view's facts)."""
    rules = substitution_rules(s, seat)
    p = s.chefs[seat]
    garbage = p.garbage if rules and any(r["use"] == GARBAGE for r in rules) else 0
    return _cookable(tuple(p.recipes), held, garbage, rules)


@kept(lambda recipes, held, garbage, rules: (recipes, held, garbage, repr(rules) if rules else ""), None)
def _cookable(recipes: tuple[str, ...], held: tuple[tuple[str, int], ...], garbage: int,
              rules: list[dict[str, Any]]) -> dict[str, bool]:
    """``cookable`` of these recipes from what is ``held`` (and the ``garbage`` a rule lets
    stand in, as ``cooking_pool`` counts it) by these rules (kept: never changed)."""
    pool: Counter[str] = Counter(dict(held))
    if garbage:
        pool[GARBAGE] = garbage
    pool = +pool
    return {r: match(RECIPES[r], pool, rules, Counter()) is not None for r in recipes}


# ---- declaring -----------------------------------------------------------------------------

def _cooking(s: RivalState, seat: int) -> None:
    require(not s.today[seat].ready, "You have already served today.")


def _cook(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
    """Declare a recipe to cook today (secret until everyone has served), with any specials
    added to it."""
    _cooking(s, seat)
    t = s.today[seat]
    recipe = action.get("recipe")
    require(isinstance(recipe, str) and recipe in s.chefs[seat].recipes, "You do not hold that recipe.")
    require(all(d.recipe != recipe for d in t.dishes), "You are already cooking that recipe.")
    require(len(t.dishes) < cook_limit(s, seat), "You cannot cook another recipe today.")
    extras = action.get("extras", [])
    require(isinstance(extras, list) and all(isinstance(e, str) and e in EXTRAS for e in extras)
            and len(set(extras)) == len(extras),
            f"Extras are different specials among {', '.join(INGREDIENTS[e].name for e in EXTRAS)}.")
    dishes = t.dishes + [Dish(recipe, tuple(sorted(extras)))]
    require(plan_dishes(s, seat, dishes) is not None,
            f"You do not have the ingredients for {RECIPES[recipe].name}" + (" with those extras." if extras else "."))
    t.dishes = dishes
    return DISHES.tell(seat, "declare", (f"You will cook {RECIPES[recipe].name}.",
                                         {"recipe": recipe, "extras": sorted(extras)}), None)


def _serve(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
    """Finish declaring (with no dish declared, this is a pass)."""
    _cooking(s, seat)
    s.today[seat].ready = True
    return [public("served", f"{ops.name(s, seat)} is ready.", seat=seat)]


def cook_options(s: RivalState, seat: int) -> list[Action]:
    """Recipes this chef could declare now: plain, and with every special they could add."""
    t = s.today[seat]
    if t.ready or len(t.dishes) >= cook_limit(s, seat):
        return []
    out: list[Action] = []
    for recipe in s.chefs[seat].recipes:
        if any(d.recipe == recipe for d in t.dishes):
            continue
        held = [e for e in EXTRAS if s.chefs[seat].ingredients.get(e, 0) > 0]
        for extras in ([], held) if held else ([],):
            if plan_dishes(s, seat, t.dishes + [Dish(recipe, tuple(extras))]) is not None:
                out.append({"type": "cook", "recipe": recipe, "extras": extras})
    return out


# ---- scoring -------------------------------------------------------------------------------

def score_dish(s: RivalState, seat: int, dish: Dish, plan: Plan) -> list[Event]:
    """Score one dish, take its garbage, discard what it used and draw a new recipe.
    Garbage that stood in for an ingredient is discarded first, so it does not lower the
    dish's popularity (The Greasy Bucket)."""
    pantry = s.chefs[seat]
    recipe = RECIPES[dish.recipe]
    pantry.garbage -= plan.used.count(GARBAGE)
    specials = [("special", e) for e in dish.extras]
    own = recipe.cuisine == RESTAURANTS[pantry.restaurant].cuisine
    facts = {"recipe": recipe, "used": list(plan.used)}
    values, events = fire(s, "dish_points", [seat], {"points": recipe.points + (CUISINE_BONUS if own else 0),
                                                     **facts}, specials)
    penalty_values, more = fire(s, "dish_penalty", [seat], {"penalty": pantry.garbage, **facts}, specials)
    events += more
    score = values["points"] - penalty_values["penalty"]
    before = pantry.popularity
    pantry.popularity = max(0, pantry.popularity + score)
    garbage_values, more = fire(s, "dish_garbage", [seat], {"garbage": recipe.garbage, **facts}, specials)
    events += more
    garbage = ops.take_garbage(s, seat, max(0, garbage_values["garbage"]))
    for item in plan.used + dish.extras:
        if item != GARBAGE:
            ops.remove_ingredient(s, seat, item)
            events += ops.discard_ingredient(s, item)
    pantry.cooked = [*pantry.cooked, recipe.id]
    pantry.gourmet_cooked += recipe.kind == "gourmet"
    record = {"seat": seat, "recipe": recipe.id, "points": values["points"], "penalty": penalty_values["penalty"],
              "score": score, "popularity": pantry.popularity, "garbage": garbage, "extras": list(dish.extras),
              "subs": [list(sub) for sub in plan.subs]}
    s.last_cook = [*s.last_cook, record]
    sign = "+" if score >= 0 else "−"
    events.insert(0, public("cook", f"{ops.name(s, seat)} cooks {recipe.name}: {sign}{abs(score)} popularity "
                                    f"({values['points']} − {penalty_values['penalty']} for garbage), "
                                    f"takes {garbage} garbage.", **record))
    ops.discard_recipe(s, seat, recipe.id)
    draw = fire(s, "recipe_draw", [seat], {"draw": 1})[0]["draw"]
    events += ops.draw_recipe(s, seat, recipe.kind, draw)
    events += fire(s, "cooked", [seat], facts)[1]
    events += level_ups(s, seat, before)
    return events


def level_ups(s: RivalState, seat: int, before: int) -> list[Event]:
    """Each level (3, 7, 12 popularity) pays its reward the first time it is reached."""
    pantry = s.chefs[seat]
    events: list[Event] = []
    for level in RESTAURANTS[pantry.restaurant].levels:
        if pantry.popularity >= level.threshold and level.threshold not in pantry.levels:
            pantry.levels = [*pantry.levels, level.threshold]
            src = ("level", f"{pantry.restaurant}:{level.threshold}")
            events.append(public("level_up", f"{ops.name(s, seat)} reaches {level.threshold} popularity: "
                                             f"{source_name(src)} — {level.text}", seat=seat,
                                 threshold=level.threshold))
            events += run_now(s, seat, src, {})
    return events


def restock(s: RivalState) -> list[Event]:
    """Every market's oldest counter card (the first slot) is discarded, the others slide
    down with their identities, and the counter is refilled from the shelf at the end; an
    empty shelf is first refilled from the market's discard pile, shuffled. A shelf the
    restock leaves empty is said so (the ``shelf_empty`` moment: SPORKS Out's Dumpster
    returns then, anytime a shelf is empty in COOK and COUNTER). (Designed: the daily
    rotation keeps a counter nobody buys from changing.)"""
    events: list[Event] = []
    for m in s.markets.values():
        cards = [(c, i) for c, i in zip(m.counter, m.ids) if c is not None]
        if cards:
            events += ops.discard_ingredient(s, cards.pop(0)[0])
        while len(cards) < len(m.counter):
            events += ops.refill_shelf(s, m.id)
            if not m.shelf:
                break
            cards.append((m.draw(), m.deal_id()))
        empty = len(m.counter) - len(cards)
        m.counter = [c for c, _ in cards] + [None] * empty
        m.ids = [i for _, i in cards] + [None] * empty
        if not m.shelf:  # the restock's own last card emptied it: a shelf empty in COOK and COUNTER
            events += ops.shelf_emptied(s, m.id)
    return events + [public("restock", "The counters are restocked from the shelves.")]


def refill_recipes(s: RivalState) -> list[Event]:
    """A chef left without a basic or a gourmet recipe (after a barter) draws one."""
    events: list[Event] = []
    for seat in range(len(s.players)):
        for kind in ops.missing_kinds(s, seat):
            events += ops.draw_recipe(s, seat, kind)
    return events


class CookAndCounter(Phase):
    id = COOK_COUNTER
    name = "COOK and COUNTER"
    handlers = {"cook": _cook, "serve": _serve}

    def begin(self, s: RivalState, now: int) -> list[Event]:
        return [public("phase", f"Day {s.day}: COOK and COUNTER — declare what you cook.", phase=self.id)]

    def length(self, s: RivalState) -> int | None:
        return s.options.cook_ms

    def timeout(self, s: RivalState, now: int) -> list[Event]:
        """Chefs who have not served cook what they have declared."""
        for t in s.today:
            t.ready = True
        return [public("cook_time", "Time's up: the kitchen closes.")]

    def over(self, s: RivalState) -> bool:
        return all(t.ready for t in s.today)

    def end(self, s: RivalState, now: int) -> list[Event]:
        s.last_cook = []
        events: list[Event] = []
        for seat in range(len(s.players)):
            dishes = s.today[seat].dishes
            for dish, plan in zip(dishes, plan_dishes(s, seat, dishes) or []):
                events += score_dish(s, seat, dish, plan)
            if not dishes:
                events.append(public("pass_cook", f"{ops.name(s, seat)} cooks nothing today.", seat=seat))
        events += fire(s, "counters_close", range(len(s.players)))[1]
        return events + restock(s) + refill_recipes(s)

    def legal(self, s: RivalState, seat: int) -> list[Action]:
        if s.today[seat].ready:
            return []
        return cook_options(s, seat) + play_options(s, seat) + [{"type": "serve"}]

    def prompt(self, s: RivalState, seat: int | None) -> str:
        if seat is None:
            return "The chefs are deciding what to cook."
        t = s.today[seat]
        if t.ready:
            return "Served — waiting for the other kitchens."
        if t.dishes:
            return f"Cooking {', '.join(RECIPES[d.recipe].name for d in t.dishes)} — serve when ready."
        return "Declare a recipe to cook, or serve nothing."

    def view(self, s: RivalState, seat: int | None) -> dict[str, Any]:
        return {"ends": self.deadline(s)}


PHASE = register(CookAndCounter())

__all__ = ["PHASE", "cook_limit", "cook_options", "cookable", "match", "plan_dishes", "restock"]
