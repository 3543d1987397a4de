"""Buying: what a card costs a chef, and the one way a counter card changes hands.

Prices go through the ``price`` and ``island_price`` moments, so every power and card
that changes a price changes it here, for the rules, the view and the bots alike. The
market phase (claims, auctions, the Island) and the effects that buy from afar (Home
Delivery, the Kitchen Squad runner) all buy through ``take_card`` and ``buy_slot``.
"""

from __future__ import annotations

from typing import Any

from server.engine import Action, Event, IllegalAction, public, require

from . import ops
from .cards import ACTION_PRICE, DUMP_PRICE, INGREDIENTS, MARKETS, MYSTERY_MART, UPGRADES
from .moments import acting, fire, fired_values
from .state import RivalState


def price(s: RivalState, seat: int, market: str, ingredient: str, remote: bool = False,
          at: str | None = None) -> int:
    """What a card costs this chef: its market price, changed by powers and cards (never
    below $0). A remote purchase gets no location-based discount. ``at``: where the chef
    stands, when not yet at their location (before the reveal)."""
    return _priced(s, seat, INGREDIENTS[ingredient].price, market, ingredient, remote, at)


LISTED = {i.id: max(0, i.price) for i in INGREDIENTS.values()}
"""What each counter card costs a chef no effect changes its price for."""


def shelf_price(s: RivalState, seat: int, market: str) -> int:
    """What a face-down shelf card of an ingredient market costs this chef at their
    location: the market's one price, changed by powers and cards — never by the card,
    which nobody may know before it is bought."""
    return _priced(s, seat, MARKETS[market].price, market, None, False, None)


def _priced(s: RivalState, seat: int, base: int, market: str, ingredient: str | None, remote: bool,
            at: str | None) -> int:
    """``base`` through the ``price`` moment (a chef with no effect at it pays ``base``)."""
    if not acting(s, seat, "price"):
        return max(0, base)
    values = {"price": base, "market": market, "ingredient": ingredient, "remote": remote}
    if at is not None:
        values["at"] = at
    return max(0, fired_values(s, seat, "price", values)["price"])


def shelf_for_sale(s: RivalState, seat: int) -> str:
    """The market whose shelf this chef may buy from now (else ``IllegalAction``, with
    ``shelf_refusal``'s reason)."""
    refusal = shelf_refusal(s, seat)
    if refusal is not None:
        raise IllegalAction(refusal)
    market = s.today[seat].location
    assert market is not None
    return market


def shelf_refusal(s: RivalState, seat: int) -> str | None:
    """Why this chef may not buy a face-down shelf card now, or None when they may: only at
    their own ingredient market (*Designed:* not the Mystery Mart, whose specials differ in
    price, so a price would tell the card), once claims there are settled, with a card left
    to draw, at a price they can pay."""
    if s.today[seat].done:
        return DONE
    market = s.today[seat].location
    if market not in MARKETS or market == MYSTERY_MART:
        return "Face-down shelf cards are sold only at an ingredient market, not at the Island or the Mystery Mart."
    m = s.markets[market]
    if not m.claims_resolved:
        return "Claims at your market are not settled yet."
    if not (m.shelf or m.discard):
        return "The shelf is empty."
    return unaffordable(s, seat, shelf_price(s, seat, market))


def refuse_unless_affordable(s: RivalState, seat: int, cost: int) -> None:
    """Raise ``IllegalAction`` unless this chef can spend ``cost`` now."""
    refusal = unaffordable(s, seat, cost)
    if refusal is not None:
        raise IllegalAction(refusal)


def unaffordable(s: RivalState, seat: int, cost: int) -> str | None:
    """Why this chef cannot spend ``cost`` now (worded only then), or None when they can."""
    if s.available(seat) < cost:
        return f"It costs {ops.money(cost)}; you have {ops.money(s.available(seat))} to spend."
    return None


def counter_price(s: RivalState, seat: int, market: str, ingredient: str) -> int:
    """What a counter card of ``market`` costs this chef as things stand: claimed or bought
    there if they stand there (before the reveal: as if they stood there), else delivered
    from elsewhere (Home Delivery, no location-based discount). The view shows it."""
    here = s.today[seat].location
    if here is None:
        return price(s, seat, market, ingredient, at=market)
    return price(s, seat, market, ingredient, remote=here != market)


def island_price(s: RivalState, seat: int, item: str, ident: str | None = None) -> int:
    """What this chef pays at the Island for an upgrade (``ident``), an action card or
    dumping one garbage: the list price, changed by effects (never below $0)."""
    base = UPGRADES[ident].price if item == "upgrade" and ident else {"action": ACTION_PRICE, "dump": DUMP_PRICE}[item]
    if not acting(s, seat, "island_price"):
        return max(0, base)
    return max(0, fired_values(s, seat, "island_price", {"price": base, "item": item, "id": ident})["price"])


def dumpable(s: RivalState, seat: int) -> int:
    """How much of their garbage this chef can pay to dump at the Island now."""
    garbage, each = s.chefs[seat].garbage, island_price(s, seat, "dump")
    return min(garbage, s.available(seat) // each) if each else garbage


def slot_index(market: str, slot: Any) -> int:
    require(isinstance(slot, int) and not isinstance(slot, bool) and 0 <= slot < MARKETS[market].counter_size,
            "There is no such counter slot.")
    return slot


def in_auction(s: RivalState, market: str, slot: int) -> bool:
    return any(a.market == market and a.slot == slot for a in s.auctions)


def check_slot(s: RivalState, seat: int, market: Any, slot: Any, remote: bool = False) -> int:
    """A counter card this chef may buy now; returns its price."""
    require(isinstance(market, str) and market in MARKETS, "There is no such market.")
    if not remote:
        require(s.today[seat].location == market, "You can only buy at your own location.")
    slot = slot_index(market, slot)
    m = s.markets[market]
    require(m.claims_resolved, "Claims at that market are not settled yet.")
    require(m.counter[slot] is not None, "That counter slot is empty.")
    require(not in_auction(s, market, slot), "That card is being auctioned.")
    cost = price(s, seat, market, m.counter[slot], remote)
    refuse_unless_affordable(s, seat, cost)
    return cost


def take_card(s: RivalState, seat: int, market: str, slot: int, cost: int) -> tuple[str, list[Event]]:
    """The one place a chef acquires a counter card: pay, take it, then the ``acquired``
    moment (the Sultan's shaker). Returns the ingredient and the moment's events."""
    m = s.markets[market]
    ingredient, card = m.counter[slot], m.ids[slot]
    assert ingredient is not None
    ops.pay(s, seat, cost)
    m.take(slot)
    ops.add_ingredient(s, seat, ingredient)
    return ingredient, fire(s, "acquired", range(len(s.players)),
                            {"buyer": seat, "market": market, "card": card, "ingredient": ingredient})[1]


def buy_slot(s: RivalState, seat: int, market: str, slot: int, remote: bool = False) -> list[Event]:
    cost = check_slot(s, seat, market, slot, remote)
    ingredient, more = take_card(s, seat, market, slot, cost)
    where = f" from {MARKETS[market].name}" if remote else ""
    return [public("buy", f"{ops.name(s, seat)} buys {INGREDIENTS[ingredient].name}{where} for {ops.money(cost)}.",
                   seat=seat, market=market, slot=slot, ingredient=ingredient, paid=cost)] + more


def buy_shelf(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
    """Buy the top face-down card of your market's shelf, blind, at the market's price
    (bert.games: chefs buy "face up or face down cards" at their location). It is turned
    face up as it becomes yours: everything a chef owns is face up."""
    market = shelf_for_sale(s, seat)
    cost = shelf_price(s, seat, market)
    ingredient, events = ops.draw_shelf(s, market)
    assert ingredient is not None
    ops.pay(s, seat, cost)
    ops.add_ingredient(s, seat, ingredient)
    return events + [public("buy_shelf", f"{ops.name(s, seat)} buys a face-down card from {MARKETS[market].name} "
                                         f"for {ops.money(cost)}: {INGREDIENTS[ingredient].name}.",
                            seat=seat, market=market, ingredient=ingredient, paid=cost)]


def buy(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
    """Buy a free counter card at your own location, at its price."""
    active(s, seat)
    location = s.today[seat].location
    require(location in MARKETS, "Counter cards are sold only at a market; you are at the Island.")
    assert location is not None
    return buy_slot(s, seat, location, action.get("slot"))


def active(s: RivalState, seat: int) -> None:
    require(not s.today[seat].done, DONE)


DONE = "You have said you are done for today's market."


__all__ = ["LISTED", "active", "buy", "buy_shelf", "buy_slot", "check_slot", "counter_price", "dumpable", "in_auction",
           "island_price", "price", "shelf_for_sale", "shelf_price", "shelf_refusal", "slot_index", "take_card"]
