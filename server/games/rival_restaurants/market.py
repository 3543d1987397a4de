"""BUY and BARTER: the real-time market.

Each chef at a market first claims one counter card (or waives the claim). When every chef
there has claimed, or the claim window closes, an uncontested claim is bought at its
price; a card claimed by two or more becomes an ascending auction among them (bid, raise,
pass). Then anyone may buy any free counter card at their own location. At the Island
chefs buy upgrades and action cards and dump garbage. Barter offers go between any two
chefs, anywhere, and are carried out whole or not at all. The market ends when every
chef says done, or when time runs out: an auction still open then gives the card to nobody.
"""

from __future__ import annotations

from typing import Any

from server.engine import Action, Event, private, public, require

from . import ops
from .cards import (
    ACTION_PRICE,
    BID_STEP,
    BUY_BARTER,
    DUMP_PRICE,
    INGREDIENTS,
    ISLAND,
    MARKETS,
    MYSTERY_MART,
    RECIPES,
    UPGRADES,
    action_kind,
)
from .describe import bundle_view
from .moments import fire, run_now
from .phase import Phase, register
from .squad import runner_buy, shops_at
from .state import Auction, Offer, RivalState

MAX_OFFERS = 4  # open offers a chef may have out at once
BUNDLE_KEYS = ("money", "ingredients", "recipes", "actions", "garbage", "upgrades", "face_down")


# ---- prices and buying -------------------------------------------------------------------

def price(s: RivalState, seat: int, market: str, ingredient: str, remote: bool = False,
          at: str | None = None) -> int:
    """What a card costs this chef: its market price, changed by powers and cards (never
    below $0). A remote purchase gets no location-based discount. ``at``: where the chef
    stands, when not yet at their location (before the reveal)."""
    values = {"price": INGREDIENTS[ingredient].price, "market": market, "ingredient": ingredient, "remote": remote}
    if at is not None:
        values["at"] = at
    return max(0, fire(s, "price", [seat], values)[0]["price"])


def shelf_price(s: RivalState, seat: int, market: str) -> int:
    """What a face-down shelf card of an ingredient market costs this chef at their
    location: the market's one price, changed by powers and cards — never by the card,
    which nobody may know before it is bought."""
    values = {"price": MARKETS[market].price, "market": market, "ingredient": None, "remote": False}
    return max(0, fire(s, "price", [seat], values)[0]["price"])


def shelf_for_sale(s: RivalState, seat: int) -> str:
    """The market whose shelf this chef may buy from now: their own ingredient market
    (*Designed:* not the Mystery Mart, whose specials differ in price, so a price would
    tell the card), once claims there are settled, with a card left to draw."""
    _active(s, seat)
    market = s.today[seat].location
    require(market in MARKETS and market != MYSTERY_MART,
            "Face-down shelf cards are sold only at an ingredient market, not at the Island or the Mystery Mart.")
    assert market is not None
    m = s.markets[market]
    require(m.claims_resolved, "Claims at your market are not settled yet.")
    require(bool(m.shelf or m.discard), "The shelf is empty.")
    cost = shelf_price(s, seat, market)
    require(s.available(seat) >= cost, f"It costs {ops.money(cost)}; you have {ops.money(s.available(seat))} to spend.")
    return market


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
    values, _ = fire(s, "island_price", [seat], {"price": base, "item": item, "id": ident})
    return max(0, values["price"])


def dumpable(s: RivalState, seat: int) -> int:
    """How much of their garbage this chef can pay to dump at the Island now."""
    garbage, each = s.chefs[seat].garbage, island_price(s, seat, "dump")
    return min(garbage, s.available(seat) // each) if each else garbage


def _slot_index(market: str, slot: Any) -> int:
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
    slot = _slot_index(market, slot)
    m = s.markets[market]
    require(m.claims_resolved, "Claims at that market are not settled yet.")
    require(m.counter[slot] is not None, "That counter slot is empty.")
    require(not in_auction(s, market, slot), "That card is being auctioned.")
    cost = price(s, seat, market, m.counter[slot], remote)
    require(s.available(seat) >= cost, f"It costs {ops.money(cost)}; you have {ops.money(s.available(seat))} to spend.")
    return cost


def take_card(s: RivalState, seat: int, market: str, slot: int, cost: int) -> tuple[str, list[Event]]:
    """The one place a chef acquires a counter card: pay, take it, then the ``acquired``
    moment (the Sultan's shaker). Returns the ingredient and the moment's events."""
    m = s.markets[market]
    ingredient, card = m.counter[slot], m.ids[slot]
    assert ingredient is not None
    ops.pay(s, seat, cost)
    m.counter[slot], m.ids[slot] = None, None
    ops.add_ingredient(s, seat, ingredient)
    return ingredient, fire(s, "acquired", range(len(s.players)),
                            {"buyer": seat, "market": market, "card": card, "ingredient": ingredient})[1]


def buy_slot(s: RivalState, seat: int, market: str, slot: int, remote: bool = False) -> list[Event]:
    cost = check_slot(s, seat, market, slot, remote)
    ingredient, more = take_card(s, seat, market, slot, cost)
    where = f" from {MARKETS[market].name}" if remote else ""
    return [public("buy", f"{ops.name(s, seat)} buys {INGREDIENTS[ingredient].name}{where} for {ops.money(cost)}.",
                   seat=seat, market=market, slot=slot, ingredient=ingredient, paid=cost)] + more


def _buy_shelf(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
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


def _buy(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
    """Buy a free counter card at your own location, at its price."""
    _active(s, seat)
    location = s.today[seat].location
    require(location in MARKETS, "Counter cards are sold only at a market; you are at the Island.")
    assert location is not None
    return buy_slot(s, seat, location, action.get("slot"))


# ---- claims and auctions -----------------------------------------------------------------

def _active(s: RivalState, seat: int) -> None:
    require(not s.today[seat].done, "You have said you are done for today's market.")


def chefs_at(s: RivalState, location: str) -> list[int]:
    return [i for i, t in enumerate(s.today) if t.location == location]


def _claimable(s: RivalState, seat: int) -> str:
    _active(s, seat)
    location = s.today[seat].location
    require(location in MARKETS, "There are no counter cards to claim at the Island.")
    assert location is not None
    require(not s.markets[location].claims_resolved, "Claims at your market are settled.")
    require(not s.today[seat].claimed, "You have already made your claim.")
    return location


def _claim(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
    """Claim one counter card at your location (you must be able to pay its price)."""
    location = _claimable(s, seat)
    slot = _slot_index(location, action.get("slot"))
    ingredient = s.markets[location].counter[slot]
    require(ingredient is not None, "That counter slot is empty.")
    assert ingredient is not None
    cost = price(s, seat, location, ingredient)
    require(s.available(seat) >= cost, f"You cannot pay the {ops.money(cost)} for it.")
    s.today[seat].claimed, s.today[seat].claim = True, slot
    events = [public("claim", f"{ops.name(s, seat)} claims the {INGREDIENTS[ingredient].name}.",
                     seat=seat, market=location, slot=slot)]
    return events + _maybe_resolve(s, location)


def _waive(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
    """Make no claim today."""
    location = _claimable(s, seat)
    s.today[seat].claimed = True
    return [public("waive", f"{ops.name(s, seat)} makes no claim.", seat=seat)] + _maybe_resolve(s, location)


def _maybe_resolve(s: RivalState, market: str) -> list[Event]:
    if all(s.today[i].claimed for i in chefs_at(s, market)):
        return resolve_claims(s, market)
    return []


def resolve_claims(s: RivalState, market: str) -> list[Event]:
    """Settle a market's claims: a lone claimant pays and takes the card; two or more
    claimants of one card start an auction among them. Buying opens there."""
    m = s.markets[market]
    m.claims_resolved = True
    by_slot: dict[int, list[int]] = {}
    for seat in chefs_at(s, market):
        t = s.today[seat]
        t.claimed = True
        if t.claim is not None:
            by_slot.setdefault(t.claim, []).append(seat)
    events: list[Event] = []
    for slot, claimants in sorted(by_slot.items()):
        ingredient = m.counter[slot]
        assert ingredient is not None
        if len(claimants) == 1:
            seat = claimants[0]
            cost = price(s, seat, market, ingredient)
            if s.available(seat) < cost:
                events.append(public("claim_void", f"{ops.name(s, seat)} can no longer pay for the "
                                                    f"{INGREDIENTS[ingredient].name}.", seat=seat))
                continue
            _, more = take_card(s, seat, market, slot, cost)
            events.append(public("claim_won", f"{ops.name(s, seat)} takes the {INGREDIENTS[ingredient].name} "
                                              f"for {ops.money(cost)}.", seat=seat, market=market,
                                 slot=slot, ingredient=ingredient, paid=cost))
            events += more
        else:
            a = Auction(s.new_id(), market, slot, sorted(claimants))
            s.auctions.append(a)
            names = ", ".join(ops.name(s, c) for c in a.bidders)
            events.append(public("auction", f"{names} all claim the {INGREDIENTS[ingredient].name}: "
                                            f"an auction opens at {ops.money(min_bid(s, a))}.",
                                 auction=a.id, market=market, slot=slot, bidders=list(a.bidders)))
    events.append(public("buying_open", f"Buying opens at {MARKETS[market].name}.", market=market))
    return events


def min_bid(s: RivalState, a: Auction) -> int:
    """The smallest bid now: the card's market price, then the high bid plus $100."""
    if a.leader is None:
        ingredient = s.markets[a.market].counter[a.slot]
        assert ingredient is not None
        return INGREDIENTS[ingredient].price
    return a.high + BID_STEP


def _auction(s: RivalState, seat: int, action: Action) -> Auction:
    _active(s, seat)
    ident = action.get("auction")
    a = next((a for a in s.auctions if a.id == ident and not isinstance(ident, bool)), None)
    require(a is not None, "There is no such auction.")
    assert a is not None
    require(seat in a.bidders, "You are not bidding in that auction.")
    require(a.leader != seat, "You already have the high bid.")
    return a


def _bid(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
    """Bid at least the minimum; the money is promised until someone bids more."""
    a = _auction(s, seat, action)
    amount = action.get("amount")
    low = min_bid(s, a)
    require(isinstance(amount, int) and not isinstance(amount, bool) and amount >= low,
            f"The bid must be at least {ops.money(low)}.")
    require(amount <= s.available(seat), f"You have only {ops.money(s.available(seat))} to bid.")
    a.high, a.leader = amount, seat
    ingredient = s.markets[a.market].counter[a.slot]
    assert ingredient is not None
    return [public("bid", f"{ops.name(s, seat)} bids {ops.money(amount)} for the {INGREDIENTS[ingredient].name}.",
                   auction=a.id, seat=seat, amount=amount)] + _settle(s, a)


def _pass(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
    a = _auction(s, seat, action)
    return pass_auction(s, seat, a)


def pass_auction(s: RivalState, seat: int, a: Auction) -> list[Event]:
    """Drop out of an auction (the high bidder cannot)."""
    a.bidders.remove(seat)
    return [public("pass", f"{ops.name(s, seat)} passes.", auction=a.id, seat=seat)] + _settle(s, a)


def _settle(s: RivalState, a: Auction) -> list[Event]:
    """An auction ends when only the high bidder is left (they pay and take the card) or
    everyone has passed without a bid (the card stays on the counter)."""
    if a.leader is not None and a.bidders == [a.leader]:
        s.auctions.remove(a)
        ingredient, more = take_card(s, a.leader, a.market, a.slot, a.high)
        return [public("auction_won", f"{ops.name(s, a.leader)} wins the {INGREDIENTS[ingredient].name} "
                                      f"for {ops.money(a.high)}.", auction=a.id, seat=a.leader, paid=a.high,
                       ingredient=ingredient)] + more
    if not a.bidders:
        s.auctions.remove(a)
        return [public("auction_void", "Everybody passed: the card stays on the counter.", auction=a.id)]
    return []


# ---- the Island --------------------------------------------------------------------------

def _at_island(s: RivalState, seat: int) -> None:
    _active(s, seat)
    require(shops_at(s, seat, ISLAND), "That is sold only at the Island.")


def _buy_upgrade(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
    _at_island(s, seat)
    upgrade = action.get("upgrade")
    require(isinstance(upgrade, str) and upgrade in UPGRADES, "There is no such upgrade.")
    require(upgrade not in s.chefs[seat].upgrades, "You already have that upgrade.")
    u = UPGRADES[upgrade]
    cost = island_price(s, seat, "upgrade", upgrade)
    ops.pay(s, seat, cost)
    s.chefs[seat].upgrades.append(upgrade)
    events = [public("upgrade", f"{ops.name(s, seat)} buys the {u.name} for {ops.money(cost)}.",
                     seat=seat, upgrade=upgrade, paid=cost)]
    return events + run_now(s, seat, ("upgrade", upgrade), {})


def _buy_action(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
    _at_island(s, seat)
    require(s.action_deck or s.action_discard, "There are no action cards left.")
    ops.pay(s, seat, island_price(s, seat, "action"))
    return ops.draw_action(s, seat)


def _dump(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
    """Dump garbage at the Island, $100 each."""
    _at_island(s, seat)
    count = action.get("count")
    garbage = s.chefs[seat].garbage
    require(isinstance(count, int) and not isinstance(count, bool) and 1 <= count <= garbage,
            f"You can dump between 1 and {garbage} garbage." if garbage else "You have no garbage.")
    cost = island_price(s, seat, "dump") * count
    ops.pay(s, seat, cost)
    s.chefs[seat].garbage -= count
    return [public("dump", f"{ops.name(s, seat)} dumps {count} garbage for {ops.money(cost)}.",
                   seat=seat, n=count, paid=cost)]


# ---- barter ------------------------------------------------------------------------------

def _count(value: Any, what: str) -> int:
    require(isinstance(value, int) and not isinstance(value, bool) and value >= 0,
            f"The {what} in an offer must be a whole number, 0 or more.")
    return value


def parse_bundle(raw: Any) -> dict[str, Any]:
    """One side of an offer: anything a chef owns — money, ingredients (a list or {id:
    count}), recipes, action cards, garbage, upgrades, and face-down cards ({market:
    count}: nobody can tell face-down cards of one market apart). Returns it in a normal form."""
    require(isinstance(raw, dict), f"Each side of an offer is an object: {', '.join(BUNDLE_KEYS)}.")
    require(set(raw) <= set(BUNDLE_KEYS), f"An offer may hold only {', '.join(BUNDLE_KEYS)}.")
    bundle = {"money": _count(raw.get("money", 0), "money"),
              "ingredients": _counts(raw.get("ingredients", {}), INGREDIENTS, "ingredient"),
              "recipes": _ids(raw.get("recipes", []), RECIPES, "recipe"),
              "actions": _ids(raw.get("actions", []), None, "action card"),
              "garbage": _count(raw.get("garbage", 0), "garbage"),
              "upgrades": _ids(raw.get("upgrades", []), UPGRADES, "upgrade"),
              "face_down": _counts(raw.get("face_down", {}), MARKETS, "market")}
    return bundle


def _counts(raw: Any, known: Any, what: str) -> dict[str, int]:
    """Counted ids: a list (repeats count) or a map of counts; zero counts dropped."""
    if isinstance(raw, list):
        counted: dict[str, int] = {}
        for i in raw:
            require(isinstance(i, str), f"Each {what} is named by its id.")
            counted[i] = counted.get(i, 0) + 1
        raw = counted
    require(isinstance(raw, dict), f"The {what}s in an offer are a list or a map of counts.")
    out = {}
    for key, n in sorted(raw.items(), key=lambda kv: str(kv[0])):
        require(isinstance(key, str) and key in known, f"There is no {what} {key!r}.")
        if _count(n, f"{what} counts"):
            out[key] = n
    return out


def _ids(raw: Any, known: Any, what: str) -> list[str]:
    require(isinstance(raw, list) and all(isinstance(x, str) for x in raw) and len(set(raw)) == len(raw),
            f"The {what}s in an offer are a list of different ids.")
    if known is not None:
        require(all(x in known for x in raw), f"There is no such {what}.")
    return sorted(raw)


def empty(bundle: dict[str, Any]) -> bool:
    return not any(bundle[k] for k in BUNDLE_KEYS)


def face_down_of(s: RivalState, seat: int, market: str) -> list[str]:
    """A chef's face-down cards from one market (Hot Sauce), in the order drawn."""
    return [c for c in s.chefs[seat].hot_sauce if INGREDIENTS[c].market == market]


def holds(s: RivalState, seat: int, bundle: dict[str, Any]) -> bool:
    """Does the chef still hold everything in ``bundle``?"""
    p = s.chefs[seat]
    return (s.available(seat) >= bundle["money"] and p.garbage >= bundle["garbage"]
            and all(p.ingredients.get(i, 0) >= n for i, n in bundle["ingredients"].items())
            and all(r in p.recipes for r in bundle["recipes"])
            and all(a in p.actions for a in bundle["actions"])
            and all(u in p.upgrades for u in bundle["upgrades"])
            and all(len(face_down_of(s, seat, m)) >= n for m, n in bundle["face_down"].items()))


def recipes_fit(s: RivalState, offer: Offer) -> bool:
    """After the trade each chef holds at most one basic and one gourmet recipe."""
    for seat, gets, gives in ((offer.frm, offer.get, offer.give), (offer.to, offer.give, offer.get)):
        after = [r for r in s.chefs[seat].recipes if r not in gives["recipes"]] + gets["recipes"]
        kinds = [RECIPES[r].kind for r in after]
        if len(kinds) != len(set(kinds)):
            return False
    return True


def upgrades_fit(s: RivalState, offer: Offer) -> bool:
    """Nobody gets an upgrade they already have (each restaurant has each upgrade once)."""
    return (not set(offer.give["upgrades"]) & set(s.chefs[offer.to].upgrades)
            and not set(offer.get["upgrades"]) & set(s.chefs[offer.frm].upgrades))


def describe(bundle: dict[str, Any]) -> str:
    """A side of an offer in words; face-down cards by their backs only."""
    parts = [f"{n} × {INGREDIENTS[i].name}" if n > 1 else INGREDIENTS[i].name for i, n in bundle["ingredients"].items()]
    parts += [RECIPES[r].name for r in bundle["recipes"]]
    parts += [action_kind(a).name for a in bundle["actions"]]
    parts += [f"the {UPGRADES[u].name}" for u in bundle["upgrades"]]
    parts += [f"{n} face-down {MARKETS[m].name} cards" if n > 1 else f"a face-down {MARKETS[m].name} card"
              for m, n in bundle["face_down"].items()]
    if bundle["money"]:
        parts.append(ops.money(bundle["money"]))
    if bundle["garbage"]:
        parts.append(f"{bundle['garbage']} garbage")
    return ", ".join(parts) or "nothing"


def _offer(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
    """Offer a trade to another chef; it stays open until accepted, declined or withdrawn.
    Designed: offers are between the two chefs — the offer, its answer (declined,
    withdrawn, fallen through) are told to them only; the trade, once made, is public."""
    _active(s, seat)
    to = action.get("to")
    require(isinstance(to, int) and not isinstance(to, bool) and 0 <= to < len(s.players) and to != seat,
            "Offer to another chef.")
    require(not s.today[to].done, f"{ops.name(s, to)} is done for today.")
    give, get = parse_bundle(action.get("give")), parse_bundle(action.get("get"))
    require(not (empty(give) and empty(get)), "An offer must hold something.")
    require(holds(s, seat, give), "You do not hold everything you offer.")
    require(sum(o.frm == seat for o in s.offers) < MAX_OFFERS, f"You may have at most {MAX_OFFERS} open offers.")
    o = Offer(s.new_offer_id(seat, to), seat, to, give, get)
    s.offers.append(o)
    return [private((seat, to), "offer", f"{ops.name(s, seat)} offers {ops.name(s, to)} {describe(give)} for "
                                         f"{describe(get)}.", offer=o.id, frm=seat, to=to)]


def _take_offer(s: RivalState, seat: int, action: Action, mine: bool) -> Offer:
    """Close an open offer made to ``seat`` (or by it, when ``mine``) and return it."""
    _active(s, seat)
    ident = action.get("offer")
    o = next((o for o in s.offers if o.id == ident and not isinstance(ident, bool)), None)
    require(o is not None, "There is no such open offer.")
    assert o is not None
    if mine:
        require(o.frm == seat, "That is not your offer.")
    else:
        require(o.to == seat, "That offer was not made to you.")
    s.offers.remove(o)
    return o


def _accept(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
    """Accept an offer made to you: it is carried out whole if both still hold what they
    offered and the recipe and upgrade limits hold after it; otherwise it falls through."""
    o = _take_offer(s, seat, action, mine=False)
    why = ("one of them no longer holds what was offered" if not (holds(s, o.frm, o.give) and holds(s, o.to, o.get))
           else "a chef may hold only one basic and one gourmet recipe" if not recipes_fit(s, o)
           else "a restaurant has each upgrade only once" if not upgrades_fit(s, o) else None)
    if why is not None:
        return [private((o.frm, o.to), "trade_failed", f"The trade between {ops.name(s, o.frm)} and "
                                                       f"{ops.name(s, seat)} falls through: {why}.", offer=o.id)]
    events = [public("trade", f"{ops.name(s, o.frm)} and {ops.name(s, seat)} trade: {describe(o.give)} for "
                              f"{describe(o.get)}.", frm=o.frm, to=o.to)]
    events += _move_bundle(s, o.frm, o.to, o.give)
    events += _move_bundle(s, o.to, o.frm, o.get)
    s.trades += 1
    exchange = not empty(o.give) and not empty(o.get)
    return events + fire(s, "traded", [o.frm, o.to], {"offer": o.id, "exchange": exchange})[1]


def _move_bundle(s: RivalState, frm: int, to: int, bundle: dict[str, Any]) -> list[Event]:
    """Carry one side of a trade over; face-down cards are turned face up by their receiver."""
    ops.transfer(s, frm, to, bundle["money"])
    for i, n in bundle["ingredients"].items():
        ops.remove_ingredient(s, frm, i, n)
        ops.add_ingredient(s, to, i, n)
    for r in bundle["recipes"]:
        s.chefs[frm].recipes.remove(r)
        s.chefs[to].recipes.append(r)
    for a in bundle["actions"]:
        s.chefs[frm].actions.remove(a)
        s.chefs[to].actions.append(a)
    for u in bundle["upgrades"]:
        s.chefs[frm].upgrades.remove(u)
        s.chefs[to].upgrades.append(u)
    s.chefs[frm].garbage -= bundle["garbage"]
    s.chefs[to].garbage += bundle["garbage"]
    events: list[Event] = []
    for market, n in bundle["face_down"].items():
        for card in face_down_of(s, frm, market)[:n]:
            s.chefs[frm].hot_sauce.remove(card)
            ops.add_ingredient(s, to, card)
            events.append(public("face_up", f"{ops.name(s, to)} turns the face-down {MARKETS[market].name} card face "
                                            f"up: {INGREDIENTS[card].name}.", seat=to, market=market, ingredient=card))
    return events


def _decline(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
    o = _take_offer(s, seat, action, mine=False)
    return [private((o.frm, o.to), "decline", f"{ops.name(s, seat)} declines {ops.name(s, o.frm)}'s offer.", offer=o.id)]


def _withdraw(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
    o = _take_offer(s, seat, action, mine=True)
    return [private((o.frm, o.to), "withdraw", f"{ops.name(s, seat)} withdraws an offer to {ops.name(s, o.to)}.",
                    offer=o.id)]


# ---- done, and the phase -----------------------------------------------------------------

def _done(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
    """Finish with the market: waive an open claim, pass in auctions you do not lead,
    withdraw your offers and decline those made to you."""
    _active(s, seat)
    return finish(s, seat)


def finish(s: RivalState, seat: int) -> list[Event]:
    events: list[Event] = [public("done", f"{ops.name(s, seat)} is done at the market.", seat=seat)]
    t = s.today[seat]
    t.done = True
    location = t.location
    if location in MARKETS and not s.markets[location].claims_resolved and not t.claimed:
        t.claimed = True
        events += _maybe_resolve(s, location)
    for a in [a for a in s.auctions if seat in a.bidders and a.leader != seat]:
        events += pass_auction(s, seat, a)
    s.offers = [o for o in s.offers if seat not in (o.frm, o.to)]
    return events


class BuyAndBarter(Phase):
    id = BUY_BARTER
    name = "BUY and BARTER"
    handlers = {
        "claim": _claim, "no_claim": _waive, "bid": _bid, "pass": _pass, "buy": _buy, "buy_shelf": _buy_shelf,
        "runner_buy": runner_buy,
        "buy_upgrade": _buy_upgrade, "buy_action": _buy_action, "dump": _dump,
        "offer": _offer, "accept": _accept, "decline": _decline, "withdraw": _withdraw, "done": _done,
    }

    def begin(self, s: RivalState, now: int) -> list[Event]:
        events = [public("phase", f"Day {s.day}: BUY and BARTER — {s.options.market_ms // 1000} seconds on the clock.",
                         phase=self.id)]
        for market in s.markets.values():
            market.claims_resolved = not chefs_at(s, market.id)
        return events + fire(s, "market_open", range(len(s.players)))[1]

    def claim_deadline(self, s: RivalState) -> int | None:
        if all(m.claims_resolved for m in s.markets.values()):
            return None
        return s.phase_since + s.options.claim_ms

    def length(self, s: RivalState) -> int | None:
        return s.options.market_ms

    def deadline(self, s: RivalState) -> int | None:
        end = s.phase_since + s.options.market_ms
        claims = self.claim_deadline(s)
        return end if claims is None else min(claims, end)

    def timeout(self, s: RivalState, now: int) -> list[Event]:
        """The claim window closes (open claims are settled), or the market closes: open
        auctions give their card to nobody and everyone is done."""
        events: list[Event] = []
        for m in s.markets.values():
            if not m.claims_resolved:
                events += resolve_claims(s, m.id)
        if now >= s.phase_since + s.options.market_ms:
            for a in s.auctions:
                s.fizzled_auctions += 1
                ingredient = s.markets[a.market].counter[a.slot]
                events.append(public("auction_void", f"Time's up: nobody gets the "
                                                     f"{INGREDIENTS[ingredient or ''].name if ingredient else 'card'}.",
                                     auction=a.id))
            s.auctions = []
            for t in s.today:
                t.done = True
            events.append(public("market_closed", "Time's up: the market closes.", phase=self.id))
        return events

    def over(self, s: RivalState) -> bool:
        return all(t.done for t in s.today)

    def end(self, s: RivalState, now: int) -> list[Event]:
        s.offers = []
        s.auctions = []
        return []

    def legal(self, s: RivalState, seat: int) -> list[Action]:
        from .choices import market_options

        return market_options(s, seat)

    def prompt(self, s: RivalState, seat: int | None) -> str:
        if seat is None:
            return "The market is open: chefs claim, bid, buy and barter."
        t = s.today[seat]
        if t.done:
            return "You are done — waiting for the others or the clock."
        mine = [a for a in s.auctions if seat in a.bidders and a.leader != seat]
        if mine:
            return f"Bid at least {ops.money(min_bid(s, mine[0]))} or pass in the auction."
        if t.location in MARKETS and not t.claimed:
            return "Claim one counter card at your market (or make no claim)."
        if t.location == ISLAND:
            return "At the Island: buy upgrades or action cards, dump garbage, barter — then say done."
        return "Buy at your market, barter with anyone — then say done."

    def view(self, s: RivalState, seat: int | None) -> dict[str, Any]:
        return {
            "claim_deadline": self.claim_deadline(s),
            "ends": s.phase_since + s.options.market_ms,
            "auctions": [auction_view(s, a) for a in s.auctions],
            "offers": {
                "incoming": [offer_view(s, o) for o in s.offers if o.to == seat],
                "outgoing": [offer_view(s, o) for o in s.offers if o.frm == seat],
            },
        }


def auction_view(s: RivalState, a: Auction) -> dict[str, Any]:
    return {"id": a.id, "market": a.market, "slot": a.slot, "ingredient": s.markets[a.market].counter[a.slot],
            "bidders": list(a.bidders), "high": a.high, "leader": a.leader, "min_bid": min_bid(s, a)}


def offer_view(s: RivalState, o: Offer) -> dict[str, Any]:
    return {"id": o.id, "from": o.frm, "to": o.to, "give": bundle_view(o.give), "get": bundle_view(o.get),
            "text": f"{describe(o.give)} for {describe(o.get)}",
            "possible": holds(s, o.frm, o.give) and holds(s, o.to, o.get) and recipes_fit(s, o) and upgrades_fit(s, o)}


PHASE = register(BuyAndBarter())

__all__ = ["PHASE", "buy_slot", "check_slot", "counter_price", "dumpable", "face_down_of", "finish", "holds",
           "island_price", "parse_bundle", "price", "shelf_for_sale", "shelf_price", "take_card"]
