"""The one mechanism behind chef powers, restaurant level-ups, upgrades, specials and
action cards: effects that fire at named moments of the day.

A *source* (a chef, a level reached, an upgrade, a card played today, a special added to a
dish) holds ``Effect``s. ``fire(state, moment, seats, values)`` runs, for each seat in turn,
every effect of that seat's sources whose moment matches; an effect reads and changes the
``values`` of the moment (a price, a dish's points, the stop flag of a play) or the state.
New content is new data; a new kind of effect is one function registered with
``@effect("kind")`` — from this package or from an expansion's.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from server.engine import Event, public, require

from . import ops
from .cards import (
    ACTION_CARDS,
    CHEFS,
    INGREDIENTS,
    KINDS,
    MYSTERY_MART,
    RESTAURANTS,
    UPGRADES,
    Effect,
    Recipe,
    meats,
)
from .state import RivalState

MOMENTS: dict[str, str] = {
    "now": "when the source is gained: a card played, a power used, a level reached",
    "day_start": "the start of a day, before income",
    "income": "MONEY: the day's income (values: income)",
    "reveal": "MOVE: locations revealed",
    "price": "BUY: the price of a counter card bought or claimed (values: price, market, ingredient, "
             "remote, at: where the buyer stands)",
    "island_price": "BUY: the price of something bought at the Island (values: price, item: upgrade, "
                    "action or dump (one garbage), id: the upgrade)",
    "market_open": "BUY: the market opens, locations known",
    "acquired": "BUY: a chef has taken a counter card (values: buyer, market, card: its identity, ingredient)",
    "traded": "BARTER: a barter completed, for each side (values: exchange: both sides gave something)",
    "before_play": "any chef plays an action card or uses a power (values: player, stopped)",
    "cook_limit": "COOK: how many recipes a chef may cook today (values: limit)",
    "substitutes": "COOK: what may stand in for a missing ingredient (values: rules)",
    "dish_points": "COOK: a dish's popularity before the garbage penalty (values: points, recipe)",
    "dish_penalty": "COOK: popularity lost to garbage already held (values: penalty)",
    "dish_garbage": "COOK: garbage taken for a dish (values: garbage)",
    "cooked": "COOK: a dish has been scored",
    "counters_close": "COUNTER: after the cooking, before the counters are restocked",
    "discarded": "an ingredient card is discarded (values: ingredient, market, to: discard or dumpster)",
    "shelf_empty": "a market's shelf is empty and about to be refilled from its discard pile (values: market)",
    "recipe_draw": "COUNTER: how many recipes to draw for one (values: draw)",
    "day_end": "the end of a day, after restocking",
}

Source = tuple[str, str]  # (kind, id): ("chef", "biff_brobeque"), ("action", "windfall"), …


@dataclass
class Hook:
    """One effect firing: whose it is, at which moment, on what values."""

    state: RivalState
    seat: int
    moment: str
    values: dict[str, Any]
    source: Source
    events: list[Event] = field(default_factory=list)

    @property
    def who(self) -> str:
        return self.state.players[self.seat]


EffectFn = Callable[[Hook, dict[str, Any]], None]
EFFECTS: dict[str, EffectFn] = {}
CHECKS: dict[str, Callable[[RivalState, int, dict[str, Any], dict[str, Any]], None]] = {}


def effect(kind: str, check: Callable[..., None] | None = None) -> Callable[[EffectFn], EffectFn]:
    """Register the function behind effects of ``kind`` (and the check of a played one's
    choices, which raises ``IllegalAction`` before anything changes)."""

    def register(fn: EffectFn) -> EffectFn:
        EFFECTS[kind] = fn
        if check is not None:
            CHECKS[kind] = check
        return fn

    return register


# ---- which effects a chef has ------------------------------------------------------------

def source_card(kind: str, ident: str) -> Any:
    """The card behind a source: it has a ``name`` (or ``power``) and ``effects``."""
    if kind == "level" or kind == "use":
        return _part(kind, ident)
    return _TABLES[kind][ident]


_PARTS: dict[Source, tuple[str, Any, Any]] = {}


def _part(kind: str, ident: str) -> Any:
    """A restaurant's level (``restaurant:threshold``) or a chef's use (``chef.use``), found
    once and kept while its restaurant or chef is the same card."""
    hit = _PARTS.get((kind, ident))
    table = RESTAURANTS if kind == "level" else CHEFS
    if hit is None or table.get(hit[0]) is not hit[1]:
        if kind == "level":
            restaurant, threshold = ident.rsplit(":", 1)
            card = next(lv for lv in RESTAURANTS[restaurant].levels if lv.threshold == int(threshold))
            hit = (restaurant, RESTAURANTS[restaurant], card)
        else:
            chef, use = ident.split(".", 1)
            hit = (chef, CHEFS[chef], CHEFS[chef].use(use))
        _PARTS[(kind, ident)] = hit
    return hit[2]


_TABLES: dict[str, dict[str, Any]] = {"chef": CHEFS, "upgrade": UPGRADES, "action": ACTION_CARDS,
                                      "special": INGREDIENTS}


def source_effects(kind: str, ident: str) -> tuple[Effect, ...]:
    """The effects a source holds (a special's are its extras in a dish)."""
    card = source_card(kind, ident)
    return card.extras if kind == "special" else card.effects


_BY_MOMENT: dict[tuple[bool, int], tuple[Any, dict[tuple[str, str], tuple[Effect, ...]]]] = {}


def effects_at(src: Source, moment: str, on: str) -> tuple[Effect, ...]:
    """The effects of a source that fire at ``moment`` on ``on``, in the card's order.
    Each card's effects are sorted by moment once (cards are data: they never change; a
    card replaced in its table is a new object, indexed anew)."""
    kind = src[0]
    card = source_card(*src)
    key = (kind == "special", id(card))
    entry = _BY_MOMENT.get(key)
    if entry is None or entry[0] is not card:
        index: dict[tuple[str, str], list[Effect]] = {}
        for eff in (card.extras if kind == "special" else card.effects):
            index.setdefault((eff.moment, eff.on), []).append(eff)
        entry = _BY_MOMENT[key] = (card, {k: tuple(v) for k, v in index.items()})
    return entry[1].get((moment, on), ())


def level_sources(s: RivalState, seat: int) -> list[Source]:
    """Levels reached; a level that replaces the earlier ones hides them."""
    pantry = s.chefs[seat]
    restaurant = RESTAURANTS.get(pantry.restaurant)  # none yet while restaurants are being chosen
    levels = [lv for lv in restaurant.levels if lv.threshold in pantry.levels] if restaurant else []
    for i in range(len(levels) - 1, -1, -1):
        if levels[i].replaces_previous:
            levels = levels[i:]
            break
    return [("level", f"{pantry.restaurant}:{lv.threshold}") for lv in levels]


def sources(s: RivalState, seat: int) -> list[tuple[Source, str]]:
    """Every source whose lasting effects work for ``seat`` now, with the ``on`` side that
    applies ("self", or "target" for a card played on this chef today)."""
    pantry, today = s.chefs[seat], s.today[seat]
    out: list[tuple[Source, str]] = [(("chef", pantry.chef), "self")]
    out += [(src, "self") for src in level_sources(s, seat)]
    out += [(("upgrade", u), "self") for u in pantry.upgrades]
    out += [((kind, ident), on) for kind, ident, on in today.effects]
    return out


def applies(hook: Hook, eff: Effect) -> bool:
    """The conditions an effect may carry: a recipe kind, your own cuisine, some markets,
    a minimum of meats. Location-based effects never work at the Mystery Mart, nor on a
    purchase made from elsewhere (Home Delivery). A moment may say where the chef stands
    (``at``: a price asked about before the reveal); by default it is their location."""
    p, v, s = eff.params, hook.values, hook.state
    where = v.get("at", s.today[hook.seat].location)
    if eff.location_based and (where == MYSTERY_MART or v.get("remote")):
        return False
    recipe: Recipe | None = v.get("recipe")
    if "kind" in p and (recipe is None or recipe.kind != p["kind"]):
        return False
    if p.get("own_cuisine") and (recipe is None or recipe.cuisine != cuisine_of(s, hook.seat)):
        return False
    if "markets" in p and v.get("market") not in p["markets"]:
        return False
    if "min_meats" in p and (recipe is None or _meats(v, recipe) < p["min_meats"]):
        return False
    if "item" in p and v.get("item") != p["item"]:
        return False
    if "phase" in p and s.phase != p["phase"]:
        return False
    return True


def _meats(values: dict[str, Any], recipe: Recipe) -> int:
    """Meats in a dish: those it used when known (stand-ins count), else the recipe's."""
    if "used" in values:
        return sum(i in INGREDIENTS and INGREDIENTS[i].market == "chop_shop" for i in values["used"])
    return meats(recipe)


def cuisine_of(s: RivalState, seat: int) -> str:
    return RESTAURANTS[s.chefs[seat].restaurant].cuisine


def fire(s: RivalState, moment: str, seats: Iterable[int], values: dict[str, Any] | None = None,
         extra: Iterable[Source] = ()) -> tuple[dict[str, Any], list[Event]]:
    """Run the effects of ``moment`` for each of ``seats`` (and ``extra`` sources, such as
    the specials in a dish, for the first seat). Returns the values and the events."""
    values = dict(values) if values else {}
    events: list[Event] = []
    extra = list(extra)
    memo = _reading.acting if _reading.state is s else None
    for seat in seats:
        found = memo.get((seat, moment)) if memo is not None else None
        for src, on, effs in (_acting(s, seat, moment) if found is None else found):
            events += _run_effects(s, seat, moment, values, src, effs)
        for src in extra:
            events += _run(s, seat, moment, values, src, "self")
        extra = []
    return values, events


class _Reading(threading.local):
    """The state only being read now (``reading``), and what was found in it."""

    state: RivalState | None = None
    sources: dict[int, list[tuple[Source, str]]] = {}
    acting: dict[tuple[int, str], list[tuple[Source, str, tuple[Effect, ...]]]] = {}


_reading = _Reading()


class reading:
    """``with reading(s):`` while ``s`` is only read (its views, its legal actions), each
    seat's sources and those acting at each moment are found once, not at every ``fire``.
    Nothing may change ``s`` meanwhile; any other state is read as usual."""

    __slots__ = ("state", "inner")

    def __init__(self, s: RivalState) -> None:
        self.state = s

    def __enter__(self) -> None:
        self.inner = _reading.state is not None  # inside another reading: that one keeps its own
        if not self.inner:
            _reading.state, _reading.sources, _reading.acting = self.state, {}, {}

    def __exit__(self, *exc: object) -> None:
        if not self.inner:
            _reading.state, _reading.sources, _reading.acting = None, {}, {}


def _acting(s: RivalState, seat: int, moment: str) -> list[tuple[Source, str, tuple[Effect, ...]]]:
    """The sources of ``seat`` with effects at ``moment``, with those effects, in order."""
    if _reading.state is not s:
        return [(src, on, effs) for src, on in sources(s, seat) if (effs := effects_at(src, moment, on))]
    found = _reading.acting.get((seat, moment))
    if found is None:
        known = _reading.sources.get(seat)
        if known is None:
            known = _reading.sources[seat] = sources(s, seat)
        found = _reading.acting[(seat, moment)] = [(src, on, effs) for src, on in known
                                                   if (effs := effects_at(src, moment, on))]
    return found


def run_now(s: RivalState, seat: int, src: Source, values: dict[str, Any]) -> list[Event]:
    """Run a source's immediate ("now") effects, e.g. when a level is reached or a card is
    played; its lasting effects are registered by the caller."""
    return _run(s, seat, "now", values, src, "self")


def _run(s: RivalState, seat: int, moment: str, values: dict[str, Any], src: Source, on: str) -> list[Event]:
    return _run_effects(s, seat, moment, values, src, effects_at(src, moment, on))


def _run_effects(s: RivalState, seat: int, moment: str, values: dict[str, Any], src: Source,
                 effs: tuple[Effect, ...]) -> list[Event]:
    events: list[Event] = []
    for eff in effs:
        hook = Hook(s, seat, moment, values, src)
        if applies(hook, eff):
            EFFECTS[eff.kind](hook, eff.params)
            events += hook.events
    return events


def check_now(s: RivalState, seat: int, src: Source, values: dict[str, Any]) -> None:
    """Check a played source's choices before anything changes (raises IllegalAction)."""
    for eff in source_effects(*src):
        if eff.moment == "now" and eff.kind in CHECKS:
            CHECKS[eff.kind](s, seat, eff.params, values)


# ---- modifiers ---------------------------------------------------------------------------

@effect("add")
def _add(hook: Hook, p: dict[str, Any]) -> None:
    """Add ``n`` to a value of the moment (a price, an income, a dish's points…)."""
    hook.values[p["key"]] = hook.values.get(p["key"], 0) + p["n"]


@effect("set")
def _set(hook: Hook, p: dict[str, Any]) -> None:
    """Set a value of the moment (Secret Sauce: the garbage penalty is 0)."""
    hook.values[p["key"]] = p["n"]


@effect("substitute")
def _substitute(hook: Hook, p: dict[str, Any]) -> None:
    """Offer a way to stand in for a missing ingredient (see cooking.match)."""
    hook.values.setdefault("rules", []).append({**p, "source": list(hook.source)})


# ---- money, cards and garbage ------------------------------------------------------------

def _capped(hook: Hook, p: dict[str, Any], amount: int) -> int:
    """How much of ``amount`` a reward with a ``daily_cap`` may still pay today (each
    source keeps its own count); records it."""
    if "daily_cap" not in p:
        return amount
    capped, key = hook.state.today[hook.seat].capped, ".".join(hook.source)
    amount = max(0, min(amount, p["daily_cap"] - capped.get(key, 0)))
    capped[key] = capped.get(key, 0) + amount
    return amount


@effect("gain_money")
def _gain_money(hook: Hook, p: dict[str, Any]) -> None:
    """The bank pays the owner; conditions: alone at the location, a barter in which both
    sides gave something, a daily cap."""
    s, seat = hook.state, hook.seat
    if p.get("exchange") and not hook.values.get("exchange"):
        return
    if p.get("alone"):
        here = s.today[seat].location
        if sum(t.location == here for t in s.today) != 1:
            return
    amount = _capped(hook, p, p["amount"])
    if amount <= 0:
        return
    if hook.moment == "traded":
        s.today[seat].trade_bonus += amount
    ops.earn(s, seat, amount)
    hook.events.append(public("earn", f"{hook.who} earns {ops.money(amount)} ({source_name(hook.source)}).",
                              seat=seat, amount=amount))


@effect("gain_popularity")
def _gain_popularity(hook: Hook, p: dict[str, Any]) -> None:
    """The owner gains popularity (a barter in which both sides gave something; a daily cap)."""
    if p.get("exchange") and not hook.values.get("exchange"):
        return
    n = _capped(hook, p, p["n"])
    if n <= 0:
        return
    hook.state.chefs[hook.seat].popularity += n
    hook.events.append(public("popularity", f"{hook.who} gains {n} popularity ({source_name(hook.source)}).",
                              seat=hook.seat, n=n))


@effect("draw_actions")
def _draw_actions(hook: Hook, p: dict[str, Any]) -> None:
    for _ in range(p["n"]):
        hook.events += ops.draw_action(hook.state, hook.seat)


def _check_has_garbage(s: RivalState, seat: int, p: dict[str, Any], v: dict[str, Any]) -> None:
    require(s.chefs[seat].garbage > 0, "You have no garbage to get rid of.")


@effect("dump_garbage", _check_has_garbage)
def _dump_garbage(hook: Hook, p: dict[str, Any]) -> None:
    """Return garbage to the supply for free (``n`` or "all")."""
    pantry = hook.state.chefs[hook.seat]
    n = pantry.garbage if p["n"] == "all" else min(p["n"], pantry.garbage)
    pantry.garbage -= n
    hook.events.append(public("dump", f"{hook.who} dumps {n} garbage for free.", seat=hook.seat, n=n))


def _target(v: dict[str, Any]) -> int:
    return v["target"]


def _check_take_ingredient(s: RivalState, seat: int, p: dict[str, Any], v: dict[str, Any]) -> None:
    ingredient = v.get("ingredient")
    require(isinstance(ingredient, str) and s.chefs[_target(v)].ingredients.get(ingredient, 0) > 0,
            f"{ops.name(s, _target(v))} has no such ingredient.")
    price = _take_price(p, ingredient)
    require(s.available(seat) >= price, f"You need {ops.money(price)} to pay for it.")


def _take_price(p: dict[str, Any], ingredient: str) -> int:
    """What taking an ingredient pays its owner: its market price (plus ``extra``) or a sum."""
    return (INGREDIENTS[ingredient].price if p["pay"] == "price" else p["pay"]) + p.get("extra", 0)


@effect("take_ingredient", _check_take_ingredient)
def _take_ingredient(hook: Hook, p: dict[str, Any]) -> None:
    """Take one ingredient from the target, paying them (its market price, or a sum)."""
    s, seat, target, ingredient = hook.state, hook.seat, _target(hook.values), hook.values["ingredient"]
    price = _take_price(p, ingredient)
    if s.chefs[target].ingredients.get(ingredient, 0) <= 0 or s.available(seat) < price:
        hook.events.append(public("fizzle", f"{hook.who}'s {source_name(hook.source)} finds nothing to take.",
                                  seat=seat))
        return
    ops.remove_ingredient(s, target, ingredient)
    ops.add_ingredient(s, seat, ingredient)
    ops.transfer(s, seat, target, price)
    hook.events.append(public(
        "take", f"{hook.who} takes {INGREDIENTS[ingredient].name} from {ops.name(s, target)} "
                f"and pays {ops.money(price)}.", seat=seat, target=target, ingredient=ingredient, paid=price))


@effect("take_money")
def _take_money(hook: Hook, p: dict[str, Any]) -> None:
    """Take up to ``amount`` from the target (only money not promised in a bid)."""
    s, target = hook.state, _target(hook.values)
    amount = max(0, min(p["amount"], s.available(target)))
    ops.transfer(s, target, hook.seat, amount)
    hook.events.append(public("take_money", f"{hook.who} takes {ops.money(amount)} from {ops.name(s, target)}.",
                              seat=hook.seat, target=target, amount=amount))


@effect("add_garbage")
def _add_garbage(hook: Hook, p: dict[str, Any]) -> None:
    """The target takes garbage from the supply."""
    s, target = hook.state, _target(hook.values)
    n = ops.take_garbage(s, target, p["n"])
    hook.events.append(public("garbage", f"{ops.name(s, target)} takes {n} garbage.", seat=target, n=n))


def _check_move_garbage(s: RivalState, seat: int, p: dict[str, Any], v: dict[str, Any]) -> None:
    require(s.chefs[seat].garbage >= p["n"], "You have no garbage to give.")
    require(s.available(seat) >= p.get("pay", 0), f"You need {ops.money(p.get('pay', 0))} to pay for it.")


@effect("move_garbage", _check_move_garbage)
def _move_garbage(hook: Hook, p: dict[str, Any]) -> None:
    """Give some of your own garbage to the target (paying them ``pay``, if you still can)."""
    s, target = hook.state, _target(hook.values)
    n = min(p["n"], s.chefs[hook.seat].garbage)
    pay = p.get("pay", 0)
    if not n or s.available(hook.seat) < pay:
        hook.events.append(public("fizzle", f"{hook.who}'s {source_name(hook.source)} comes to nothing.",
                                  seat=hook.seat))
        return
    ops.transfer(s, hook.seat, target, pay)
    s.chefs[hook.seat].garbage -= n
    s.chefs[target].garbage += n
    paid = f" and pays them {ops.money(pay)}" if pay else ""
    hook.events.append(public("garbage", f"{hook.who} gives {n} garbage to {ops.name(s, target)}{paid}.",
                              seat=target, n=n, frm=hook.seat, paid=pay))


def _check_redraw(s: RivalState, seat: int, p: dict[str, Any], v: dict[str, Any]) -> None:
    kind = v.get("kind")
    require(kind in KINDS and ops.recipe_of_kind(s, seat, kind) is not None,
            "Name the kind of recipe to replace: basic or gourmet (one you hold).")


@effect("redraw_recipe", _check_redraw)
def _redraw_recipe(hook: Hook, p: dict[str, Any]) -> None:
    """Discard your recipe of a kind and draw a new one of that kind."""
    s, kind = hook.state, hook.values["kind"]
    old = ops.recipe_of_kind(s, hook.seat, kind)
    if old is None:
        return
    ops.discard_recipe(s, hook.seat, old)
    hook.events += ops.draw_recipe(s, hook.seat, kind)


def _check_remote_buy(s: RivalState, seat: int, p: dict[str, Any], v: dict[str, Any]) -> None:
    from .market import check_slot  # the market rules own what a buyable slot is

    check_slot(s, seat, v.get("market"), v.get("slot"), remote=True)


@effect("remote_buy", _check_remote_buy)
def _remote_buy(hook: Hook, p: dict[str, Any]) -> None:
    """Buy a counter card at any market, wherever you are."""
    from .market import buy_slot

    hook.events += buy_slot(hook.state, hook.seat, hook.values["market"], hook.values["slot"], remote=True)


@effect("foresee_stop")
def _foresee_stop(hook: Hook, p: dict[str, Any]) -> None:
    """Clam-Voyance: the first play of the foreseen chef today is stopped (not a SPORK)."""
    s, v, today = hook.state, hook.values, hook.state.today[hook.seat]
    if v["stopped"] or not v["stoppable"] or today.foreseen_hit:
        return
    if today.foresee != v["player"] or v["player"] == hook.seat:
        return
    v["stopped"] = True
    today.foreseen_hit = True
    ops.earn(s, hook.seat, p["reward"])
    hook.events.append(public("stop", f"{hook.who} saw it coming and stops it, earning {ops.money(p['reward'])}!",
                              seat=hook.seat, stopped=v["player"]))


def source_name(src: Source) -> str:
    """How the log names a source: a chef's power, a card's, use's or level's name."""
    card = source_card(*src)
    return card.power if src[0] == "chef" else card.name


__all__ = ["EFFECTS", "MOMENTS", "Hook", "check_now", "effect", "fire", "run_now", "source_name", "sources"]
