"""The effect kinds of the base game: what an effect named in ``cards`` does when its
moment fires (the moment bus is ``moments``). Each is one function registered with
``@effect("kind")``, with the check of a played one's choices beside it."""

from __future__ import annotations

from typing import Any

from server.engine import IllegalAction, public, require

from . import ops
from .buying import buy_slot, check_slot
from .cards import INGREDIENTS, KINDS
from .moments import Hook, effect, source_name
from .state import RivalState


# ---- modifiers ---------------------------------------------------------------------------

@effect("add", values_only=True)
def _add(hook: Hook, p: dict[str, Any]) -> None:
    """Add ``n`` to a value of the moment (a price, an income, a dish's points…)."""
    hook.values[p["key"]] = hook.values.get(p["key"], 0) + p["n"]


@effect("set", values_only=True)
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
    t, key = hook.state.today[hook.seat], ".".join(hook.source)
    amount = max(0, min(amount, p["daily_cap"] - t.capped.get(key, 0)))
    t.capped = {**t.capped, key: t.capped.get(key, 0) + amount}
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
    if not (isinstance(ingredient, str) and s.chefs[_target(v)].ingredients.get(ingredient, 0) > 0):
        raise IllegalAction(f"{ops.name(s, _target(v))} has no such ingredient.")
    price = _take_price(p, ingredient)
    if s.available(seat) < price:
        raise IllegalAction(f"You need {ops.money(price)} to pay for it.")


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
    if s.available(seat) < p.get("pay", 0):
        raise IllegalAction(f"You need {ops.money(p.get('pay', 0))} to pay for it.")


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
    check_slot(s, seat, v.get("market"), v.get("slot"), remote=True)


@effect("remote_buy", _check_remote_buy)
def _remote_buy(hook: Hook, p: dict[str, Any]) -> None:
    """Buy a counter card at any market, wherever you are."""
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
