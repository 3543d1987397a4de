"""SPORKS Out: the effects behind the five SPORKs and the new restaurants' powers.

Each function is an effect kind (``effects.effect``) named in ``cards`` and fired at a
moment of the day. The SPORK rulings are designed (the rulebook only summarises them):

- **Pam Knee You** — ``boxing_ring`` marks the corner she is revealed at; the fourth
  corner earns both Boxing Gloves. ``knockout`` and ``rob`` are the gloves: used once each,
  never both on the same chef on one day.
- **Papa Tio** — ``missile_craft`` builds the Nuclear Missile one ingredient a day;
  ``lunch_button`` launches it at a market.
- **Sloppy Joe** — ``send_scraps`` posts Scraps at a market; ``scraps`` sends what is
  discarded there to Joe's Dumpster; ``dumpster_dive`` takes a card from it for 1 garbage; the
  Dumpster gives a market its cards back whenever its shelf is empty in COOK and COUNTER
  (``dumpster_return``: a rule of the table, hooked on ``shelf_empty``, not Joe's power).
- **Sultan Pepper Shakrh** — ``shake`` puts a shaker on a counter card (by its identity);
  ``shaker_surprise`` hits its buyer; ``shaker_unbought`` sells him the card at day's end.
- **Wahine** — ``throw_luau`` names the day's Luau market; ``luau`` holds it at the reveal.
- **Crave of Wonders** — ``hot_sauce`` draws a face-down card (zone ``HOT_SAUCE``: nobody,
  its holder included, may know it until it is traded).
"""

from __future__ import annotations

from typing import Any

from server.engine import Event, IllegalAction, Rng, public, require

from . import ops
from .auction import redeal_bids
from .cards import COOK_COUNTER, CORNERS, INGREDIENTS, MARKETS, MISSILE_PARTS, MYSTERY_MART, RECIPES, SHAKERS, SPORKS_OUT
from .describe import action_view
from .expansion import Expansion, register_expansion
from .market import finish
from .moments import Hook, effect, rule
from .plays import SAMPLE_CHOICES
from .sporks_table import ShakerPlace, Sporks, SporksChef, played, table
from .state import RivalRestaurantsOptions, RivalState
from .zones import BOX_FACE_DOWN, HOT_SAUCE, MISSILE

GLOVES = ("knockout", "rob")


def things(s: RivalState, seat: int) -> SporksChef:
    """A chef's SPORKS things (only SPORKS Out deals the chefs whose powers use them)."""
    return played(s).chefs[seat]


def _market(v: dict[str, Any], allow_mystery: bool = True) -> str:
    market = v.get("market")
    require(isinstance(market, str) and market in MARKETS and (allow_mystery or market != MYSTERY_MART),
            "Choose a market." if allow_mystery else "Choose an ingredient market (not the Mystery Mart).")
    assert isinstance(market, str)
    return market


# ---- Pam Knee You: the boxing ring and the Boxing Gloves -----------------------------------

@effect("boxing_ring")
def _boxing_ring(hook: Hook, p: dict[str, Any]) -> None:
    """At the reveal, a corner market she stands at is marked on her ring; all four earn
    her the gloves (a fresh pair) and start a new ring."""
    s, pantry = hook.state, things(hook.state, hook.seat)
    here = s.today[hook.seat].location
    if here not in CORNERS or here in pantry.ring:
        return
    pantry.ring.append(here)
    if len(pantry.ring) < len(CORNERS):
        hook.events.append(public("ring", f"{hook.who} marks {MARKETS[here].name} on her boxing ring "
                                          f"({len(pantry.ring)} of {len(CORNERS)}).", seat=hook.seat, market=here))
        return
    pantry.ring = []
    pantry.gloves = list(p["gloves"])
    hook.events.append(public("gloves", f"{hook.who} completes her boxing ring and puts on the Boxing Gloves!",
                              seat=hook.seat))


def _check_glove(glove: str):  # noqa: ANN202
    def check(s: RivalState, seat: int, p: dict[str, Any], v: dict[str, Any]) -> None:
        require(glove in things(s, seat).gloves, "You do not have that glove on (complete your boxing ring).")
        other = next(g for g in GLOVES if g != glove)
        require((other, v["target"]) not in s.today[seat].targets,
                "Both gloves may be used on one day, but not on the same chef.")
        if glove == "rob":
            ingredient = v.get("ingredient")
            require(isinstance(ingredient, str) and s.chefs[v["target"]].ingredients.get(ingredient, 0) > 0,
                    f"{ops.name(s, v['target'])} has no such ingredient.")
    return check


@effect("knockout", _check_glove("knockout"))
def _knockout(hook: Hook, p: dict[str, Any]) -> None:
    """The target is out of today's market (as if they had said done) and takes garbage."""
    s, target = hook.state, hook.values["target"]
    things(s, hook.seat).gloves.remove("knockout")
    if not s.today[target].done:
        hook.events += finish(s, target)
    n = ops.take_garbage(s, target, p["garbage"])
    hook.events.append(public("knockout", f"{hook.who} knocks {ops.name(s, target)} out of today's market; they "
                                          f"take {n} garbage.", seat=hook.seat, target=target))


@effect("rob", _check_glove("rob"))
def _rob(hook: Hook, p: dict[str, Any]) -> None:
    """Take one ingredient of the target and up to ``amount`` of their free money."""
    s, target, ingredient = hook.state, hook.values["target"], hook.values["ingredient"]
    things(s, hook.seat).gloves.remove("rob")
    ops.remove_ingredient(s, target, ingredient)
    ops.add_ingredient(s, hook.seat, ingredient)
    amount = max(0, min(p["amount"], s.available(target)))
    ops.transfer(s, target, hook.seat, amount)
    hook.events.append(public("rob", f"{hook.who} robs {ops.name(s, target)} blind: {INGREDIENTS[ingredient].name} "
                                     f"and {ops.money(amount)}.", seat=hook.seat, target=target,
                              ingredient=ingredient, amount=amount))


# ---- Papa Tio: Missile Craft and the Lunch Button -------------------------------------------

def _check_craft(s: RivalState, seat: int, p: dict[str, Any], v: dict[str, Any]) -> None:
    require(len(things(s, seat).missile) < p["parts"], "The missile is built: launch it before crafting again.")
    ingredient = v.get("ingredient")
    require(isinstance(ingredient, str) and s.chefs[seat].ingredients.get(ingredient, 0) > 0,
            "Put in an ingredient you hold.")


@effect("missile_craft", _check_craft)
def _missile_craft(hook: Hook, p: dict[str, Any]) -> None:
    s, ingredient, pantry = hook.state, hook.values["ingredient"], things(hook.state, hook.seat)
    ops.remove_ingredient(s, hook.seat, ingredient)
    pantry.missile.append(ingredient)
    ready = " The missile is ready!" if len(pantry.missile) >= p["parts"] else ""
    hook.events.append(public("missile", f"{hook.who} builds {INGREDIENTS[ingredient].name} into the Nuclear Missile "
                                         f"({len(pantry.missile)} of {p['parts']}).{ready}", seat=hook.seat,
                              ingredient=ingredient))


def _check_launch(s: RivalState, seat: int, p: dict[str, Any], v: dict[str, Any]) -> None:
    if len(things(s, seat).missile) < p["parts"]:
        raise IllegalAction(f"The missile needs {p['parts']} parts first.")
    _market(v)


@effect("lunch_button", _check_launch)
def _lunch_button(hook: Hook, p: dict[str, Any]) -> None:
    """Every other chef discards every face-up ingredient they hold from the market; the
    missile's parts are discarded too."""
    s, market = hook.state, hook.values["market"]
    hook.events.append(public("launch", f"{hook.who} presses the Lunch Button: the missile hits "
                                        f"{MARKETS[market].name}!", seat=hook.seat, market=market))
    for seat in range(len(s.players)):
        if seat == hook.seat:
            continue
        lost = sorted(i for i, n in s.chefs[seat].ingredients.items() if INGREDIENTS[i].market == market for _ in range(n))
        for ingredient in lost:
            ops.remove_ingredient(s, seat, ingredient)
            hook.events += ops.discard_ingredient(s, ingredient)
        if lost:
            hook.events.append(public("destroyed", f"{ops.name(s, seat)} loses "
                                                   f"{', '.join(INGREDIENTS[i].name for i in lost)}.",
                                      seat=seat, ingredients=lost))
    mine = things(s, hook.seat)
    parts, mine.missile = mine.missile, []
    for ingredient in parts:
        hook.events += ops.discard_ingredient(s, ingredient)


# ---- Sloppy Joe: Scraps the Raccoon and Joe's Dumpster --------------------------------------

def _check_scraps(s: RivalState, seat: int, p: dict[str, Any], v: dict[str, Any]) -> None:
    played(s)
    _market(v)


@effect("send_scraps", _check_scraps)
def _send_scraps(hook: Hook, p: dict[str, Any]) -> None:
    market = hook.values["market"]
    played(hook.state).scraps = market
    hook.events.append(public("scraps", f"{hook.who} sends Scraps the Raccoon to {MARKETS[market].name}.",
                              seat=hook.seat, market=market))


@effect("scraps")
def _scraps(hook: Hook, p: dict[str, Any]) -> None:
    """What is discarded at Scraps' market goes to Joe's Dumpster."""
    box, v = table(hook.state), hook.values
    if box is not None and box.scraps == v["market"] and v["to"] == "discard":
        v["to"] = "dumpster"


@rule("discarded")
def dumpster_keeps(s: RivalState, values: dict[str, Any]) -> list[Event]:
    """A card sent to Joe's Dumpster (``scraps``) lies there, by its market."""
    box = table(s)
    if values["to"] == "dumpster" and box is not None:
        box.dumpster.setdefault(values["market"], []).append(values["ingredient"])
    return []


def _check_dive(s: RivalState, seat: int, p: dict[str, Any], v: dict[str, Any]) -> None:
    market, ingredient = _market(v), v.get("ingredient")
    require(isinstance(ingredient, str) and ingredient in played(s).dumpster.get(market, []),
            "That card is not in Joe's Dumpster.")
    require(ops.garbage_supply(s) >= p["garbage"],
            "The garbage supply is empty: a Dumpster card costs a garbage token, and none is left.")


@effect("dumpster_dive", _check_dive)
def _dumpster_dive(hook: Hook, p: dict[str, Any]) -> None:
    """Take a Dumpster card by taking garbage for it."""
    s, market, ingredient = hook.state, hook.values["market"], hook.values["ingredient"]
    played(s).dumpster[market].remove(ingredient)
    ops.add_ingredient(s, hook.seat, ingredient)
    ops.take_garbage(s, hook.seat, p["garbage"])
    hook.events.append(public("dive", f"{hook.who} digs {INGREDIENTS[ingredient].name} out of the Dumpster and "
                                      f"takes {p['garbage']} garbage.", seat=hook.seat, ingredient=ingredient))


@rule("shelf_empty")
def dumpster_return(s: RivalState, values: dict[str, Any]) -> list[Event]:
    """A rule of the table, not a power of today's chef (so it holds on days Joe rests in
    Kitchen Squad): anytime a market's shelf is empty in COOK and COUNTER, the Dumpster's
    cards of that market go back to its discard pile, to be shuffled into the shelf."""
    box, market = table(s), values["market"]
    if box is None or s.phase != COOK_COUNTER or not box.dumpster.get(market):
        return []
    cards, box.dumpster[market] = box.dumpster[market], []
    s.markets[market].throw_away(*cards)
    said = "1 Dumpster card" if len(cards) == 1 else f"{len(cards)} Dumpster cards"
    return [public("dumpster_return", f"The table returns {said} to {MARKETS[market].name} to refill its shelf.",
                   market=market)]


# ---- Sultan Pepper Shakrh: the Salt and Pepper Shakers --------------------------------------

def _check_shake(s: RivalState, seat: int, p: dict[str, Any], v: dict[str, Any]) -> None:
    shaker = v.get("shaker")
    require(shaker in SHAKERS, "Choose the salt or the pepper shaker.")
    require(shaker not in played(s).shakers, "That shaker is already out.")
    market, slot = _market(v), v.get("slot")
    require(isinstance(slot, int) and not isinstance(slot, bool) and 0 <= slot < len(s.markets[market].counter)
            and s.markets[market].counter[slot] is not None, "Choose a counter card.")


@effect("shake", _check_shake)
def _shake(hook: Hook, p: dict[str, Any]) -> None:
    s, v = hook.state, hook.values
    m = s.markets[v["market"]]
    card_id = m.ids[v["slot"]]
    assert card_id is not None
    played(s).shakers[v["shaker"]] = ShakerPlace(m.id, card_id)
    card = m.counter[v["slot"]] or ""
    hook.events.append(public("shake", f"{hook.who} puts the {v['shaker']} shaker on the {INGREDIENTS[card].name} at "
                                       f"{MARKETS[m.id].name}.", seat=hook.seat, shaker=v["shaker"], market=m.id,
                              slot=v["slot"]))


def shaker_on(s: RivalState, market: str, card: int | None) -> str | None:
    """The shaker on a counter card (by its identity), if any."""
    box = table(s)
    if box is None or card is None:
        return None
    return next((k for k, at in box.shakers.items() if at.market == market and at.card == card), None)


def shakers_by_slot(s: RivalState, market: str) -> list[str | None]:
    """``shaker_on`` each counter card of ``market``, by slot (the first shaker found on a card)."""
    ids = s.markets[market].ids
    box = table(s)
    if box is None or not box.shakers:
        return [None] * len(ids)
    on: dict[int, str] = {}
    for shaker, at in box.shakers.items():
        if at.market == market:
            on.setdefault(at.card, shaker)
    return [None if card is None else on.get(card) for card in ids]


@effect("shaker_surprise")
def _shaker_surprise(hook: Hook, p: dict[str, Any]) -> None:
    """The buyer of a shaken card: Salt — takes garbage; Pepper — pays the Sultan."""
    s, v = hook.state, hook.values
    shaker = shaker_on(s, v["market"], v["card"])
    if shaker is None:
        return
    del played(s).shakers[shaker]
    buyer = v["buyer"]
    if buyer == hook.seat:
        hook.events.append(public("shaker_back", f"{hook.who} takes back his {shaker} shaker.", seat=hook.seat))
        return
    if shaker == "salt":
        text = f"takes {ops.take_garbage(s, buyer, p['salt'])} garbage"
    else:
        amount = max(0, min(p["pepper"], s.available(buyer)))
        ops.transfer(s, buyer, hook.seat, amount)
        text = f"pays {hook.who} {ops.money(amount)}"
    hook.events.append(public("surprise", f"Surprise! The {shaker} shaker was on it: {ops.name(s, buyer)} {text}.",
                              seat=buyer, shaker=shaker))


@effect("shaker_unbought")
def _shaker_unbought(hook: Hook, p: dict[str, Any]) -> None:
    """At the day's end a shaken card nobody bought goes into the Sultan's hands at its
    price, if he can pay it (else it stays on the counter)."""
    s = hook.state
    box = table(s)
    if box is None:
        return
    for shaker, at in sorted(box.shakers.items()):
        m = s.markets[at.market]
        del box.shakers[shaker]
        if at.card not in m.ids:
            continue
        slot = m.ids.index(at.card)
        ingredient = m.counter[slot]
        assert ingredient is not None
        cost = INGREDIENTS[ingredient].price
        if s.available(hook.seat) < cost:
            continue
        ops.pay(s, hook.seat, cost)
        m.take(slot)
        ops.add_ingredient(s, hook.seat, ingredient)
        hook.events.append(public("shaker_unbought", f"Nobody bought the {INGREDIENTS[ingredient].name} under the "
                                                     f"{shaker} shaker: it goes to {hook.who} for "
                                                     f"{ops.money(cost)}.", seat=hook.seat, ingredient=ingredient,
                                  paid=cost))


# ---- Wahine: the Luau -------------------------------------------------------------------------

def _check_luau(s: RivalState, seat: int, p: dict[str, Any], v: dict[str, Any]) -> None:
    played(s)
    _market(v, allow_mystery=False)


@effect("throw_luau", _check_luau)
def _throw_luau(hook: Hook, p: dict[str, Any]) -> None:
    market = hook.values["market"]
    played(hook.state).luau = market
    hook.events.append(public("luau", f"{hook.who} throws a Luau at {MARKETS[market].name}!", seat=hook.seat,
                              market=market))


@effect("luau_over")
def _luau_over(hook: Hook, p: dict[str, Any]) -> None:
    box = table(hook.state)
    if box is not None:
        box.luau = None


@effect("luau")
def _luau(hook: Hook, p: dict[str, Any]) -> None:
    """At the reveal: one shelf card for every other chef at the Luau. She keeps one that
    is listed on her recipes; if none is, every other chef there earns ``pay``."""
    s = hook.state
    box = table(s)
    market = box.luau if box is not None else None
    if market is None:
        return
    guests = [i for i, t in enumerate(s.today) if t.location == market and i != hook.seat]
    drawn: list[str] = []
    for _ in guests:
        card, more = ops.draw_shelf(s, market)
        hook.events += more
        if card is not None:
            drawn.append(card)
    wanted = {i for r in s.chefs[hook.seat].recipes for i in RECIPES[r].ingredients}
    keep = next((c for c in drawn if c in wanted), None)
    names = ", ".join(INGREDIENTS[c].name for c in drawn) or "nothing"
    if keep is not None:
        drawn.remove(keep)
        ops.add_ingredient(s, hook.seat, keep)
        outcome = f"{hook.who} keeps the {INGREDIENTS[keep].name} for her recipe."
    else:
        for guest in guests:
            ops.earn(s, guest, p["pay"])
        outcome = (f"a miss: {', '.join(ops.name(s, g) for g in guests)} earn {ops.money(p['pay'])} each."
                   if guests else "nobody came.")
    hook.events.append(public("luau_held", f"The Luau at {MARKETS[market].name} draws {names} — {outcome}",
                              seat=hook.seat, market=market, guests=guests, kept=keep))
    for card in drawn:
        hook.events += ops.discard_ingredient(s, card)


# ---- Crave of Wonders: Hot Sauce ----------------------------------------------------------------

@effect("hot_sauce")
def _hot_sauce(hook: Hook, p: dict[str, Any]) -> None:
    """Draw face down from the shelf of the market you stand at: nobody may look at it."""
    s, seat = hook.state, hook.seat
    market = s.today[seat].location
    if market not in MARKETS:
        return
    for _ in range(p["n"]):
        card, more = ops.draw_shelf(s, market)
        hook.events += more
        if card is None:
            return
        things(s, seat).hot_sauce.append(card)
        hook.events += HOT_SAUCE.tell(seat, "hot_sauce", None,
                                      (f"{hook.who} draws a face-down {MARKETS[market].name} card (Hot Sauce).",
                                       {"seat": seat, "market": market}))


# ---- re-dealing what nobody knows ----------------------------------------------------------------

def redeal_face_down(s: RivalState, rng: Rng) -> None:
    """Every Hot Sauce card could be any card of its market still unseen (its shelf or
    another Hot Sauce card of that market); the Snackle Box's face-down card any card of
    the action deck."""
    box = table(s)
    if box is None:
        return
    for market in MARKETS:
        slots = [(seat, i) for seat, p in enumerate(box.chefs) for i, c in enumerate(p.hot_sauce)
                 if INGREDIENTS[c].market == market]
        if not slots:
            continue
        cards = rng.shuffled([box.chefs[seat].hot_sauce[i] for seat, i in slots] + s.markets[market].shelf)
        for seat, i in slots:
            box.chefs[seat].hot_sauce[i] = cards.pop()
        s.markets[market].shelf = cards
    if box.face_down is not None:
        cards = rng.shuffled([box.face_down, *s.action_deck])
        box.face_down, s.action_deck = cards.pop(), cards


# ---- SPORKS Out at the base game's seams -----------------------------------------------

def _hot_sauce(s: RivalState, seat: int) -> list[str]:
    box = table(s)
    return box.chefs[seat].hot_sauce if box is not None else []


def _missile(s: RivalState, seat: int) -> list[str]:
    box = table(s)
    return box.chefs[seat].missile if box is not None else []


def _dumpster_choices(s: RivalState, seat: int, target: int | None) -> list[dict[str, Any]]:
    """Sample values of a Dumpster card to dive for (``plays``)."""
    box = table(s)
    dumpster = box.dumpster if box is not None else {}
    return [{"market": m, "ingredient": i} for m in sorted(dumpster) for i in sorted(set(dumpster[m]))][:SAMPLE_CHOICES]


def sporks_view(s: RivalState, seat: int | None) -> dict[str, Any] | None:
    """SPORKS Out's table (see ``views``); the face-down Snackle card by its back."""
    box = table(s)
    if box is None:
        return None
    return {
        "snackle_box": {"face_up": action_view(box.face_up) if box.face_up else None,
                        "face_down": bool(BOX_FACE_DOWN.show([box.face_down] if box.face_down else [], None, seat)),
                        "sold": list(box.sold)},
        "last_auction": dict(box.last_auction) if box.last_auction else None,
        "dumpster": {m: list(cards) for m, cards in sorted(box.dumpster.items()) if cards},
        "scraps": box.scraps,
        "shakers": {k: {"market": at.market, "slot": s.markets[at.market].ids.index(at.card)
                        if at.card in s.markets[at.market].ids else None}
                    for k, at in sorted(box.shakers.items())},
        "luau": box.luau,
    }


class SporksOut(Expansion):
    id = SPORKS_OUT
    choices = {"dumpster": _dumpster_choices}
    zones = {"hot_sauce": (HOT_SAUCE, _hot_sauce), "missile": (MISSILE, _missile)}

    def on(self, options: RivalRestaurantsOptions) -> bool:
        return options.sporks_out

    def new(self, s: RivalState, chefs: list[list[str]]) -> Sporks:
        return Sporks([SporksChef() for _ in s.players], bids=[None] * len(s.players))

    def redeal_unseen(self, s: RivalState, rng: Rng) -> None:
        redeal_face_down(s, rng)

    def redeal(self, s: RivalState, seat: int, rng: Rng) -> None:
        if table(s) is not None:
            redeal_bids(s, seat, rng)

    def face_down(self, s: RivalState, seat: int) -> list[str]:
        return _hot_sauce(s, seat)

    def turn_up(self, s: RivalState, seat: int, card: str) -> None:
        things(s, seat).hot_sauce.remove(card)

    def player_fields(self, s: RivalState, seat: int) -> dict[str, Any]:
        box = table(s)
        mine = box.chefs[seat] if box is not None else None
        return {"ring": list(mine.ring) if mine else [], "gloves": list(mine.gloves) if mine else [],
                "missile_parts": MISSILE_PARTS}

    def market_fields(self, s: RivalState, market: str) -> dict[str, Any]:
        box = table(s)
        return {"luau": box is not None and box.luau == market,
                "scraps": box is not None and box.scraps == market,
                "dumpster": len(box.dumpster.get(market, [])) if box is not None else 0}

    def counter_fields(self, s: RivalState, market: str) -> dict[str, list[Any]]:
        return {"shaker": shakers_by_slot(s, market)}

    def view_fields(self, s: RivalState, seat: int | None) -> dict[str, Any]:
        return {"sporks": sporks_view(s, seat)}

    def result_details(self, s: RivalState) -> dict[str, Any]:
        box = table(s)
        return {"snackle_box_sold": list(box.sold)} if box is not None else {}

    def stats(self, s: RivalState) -> dict[str, float]:
        box = table(s)
        if box is None:
            return {}
        out: dict[str, float] = {"snackle box sales": len(box.sold)}
        if box.sold:
            out["snackle box price"] = sum(box.sold) / len(box.sold)
        return out


EXPANSION = register_expansion(SporksOut())

__all__ = ["EXPANSION", "GLOVES", "redeal_face_down", "shaker_on", "sporks_view", "things"]
