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

from server.engine import Action, Event, public, require
from server.engine.kept import alike

from . import barter, ops
from .barter import offer_view, sample_offers
from .buying import (LISTED, active, buy, buy_shelf, dumpable, in_auction, island_price, price, shelf_refusal,
                     slot_index, take_card)
from .cards import BID_STEP, BUY_BARTER, INGREDIENTS, ISLAND, MARKETS, UPGRADES
from .expansion import EXPANSIONS
from .moments import acting, fire, read_once, run_now
from .phase import Phase, register
from .plays import play_options
from .state import Auction, RivalState


# ---- claims and auctions -----------------------------------------------------------------


def chefs_at(s: RivalState, location: str) -> list[int]:
    return [i for i, t in enumerate(s.today) if t.location == location]


def _claimable(s: RivalState, seat: int) -> str:
    active(s, seat)
    location = s.today[seat].location
    require(location in MARKETS, "There are no counter cards to claim at the Island.")
    assert location is not None
    require(not s.markets[location].claims_resolved, "Claims at your market are settled.")
    require(not s.today[seat].claimed, "You have already made your claim.")
    return location


def _claim(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
    """Claim one counter card at your location (you must be able to pay its price)."""
    location = _claimable(s, seat)
    slot = slot_index(location, action.get("slot"))
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
    active(s, seat)
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

def shops_at(s: RivalState, seat: int, location: str) -> bool:
    """Does this seat shop at ``location`` today: its chef stands there, or an expansion
    sends someone else of its there (``Expansion.shops_at``: Kitchen Squad's runner)."""
    return location == s.today[seat].location or any(location in x.shops_at(s, seat) for x in EXPANSIONS.at("shops_at"))


def _at_island(s: RivalState, seat: int) -> None:
    active(s, seat)
    require(shops_at(s, seat, ISLAND), "That is sold only at the Island.")


def _buy_upgrade(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
    _at_island(s, seat)
    upgrade = action.get("upgrade")
    require(isinstance(upgrade, str) and upgrade in UPGRADES, "There is no such upgrade.")
    require(upgrade not in s.chefs[seat].upgrades, "You already have that upgrade.")
    u = UPGRADES[upgrade]
    cost = island_price(s, seat, "upgrade", upgrade)
    ops.pay(s, seat, cost)
    s.chefs[seat].upgrades = [*s.chefs[seat].upgrades, upgrade]
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


# ---- the legal actions (a bounded, representative set: two bid amounts per auction) -----

def market_options(s: RivalState, seat: int) -> list[Action]:
    """Claims, bids, buys, the Island, barter, plays and done."""
    t = s.today[seat]
    if t.done:
        return []
    out: list[Action] = []
    location = t.location
    if location in MARKETS:
        assert location is not None
        m = s.markets[location]
        money = s.available(seat)
        cost = LISTED.__getitem__ if not acting(s, seat, "price") else lambda card: price(s, seat, location, card)
        if not m.claims_resolved and not t.claimed:
            out += [{"type": "claim", "slot": i} for i, card in enumerate(m.counter)
                    if card is not None and cost(card) <= money]
            out.append({"type": "no_claim"})
        elif m.claims_resolved:
            out += [{"type": "buy", "slot": i} for i, card in enumerate(m.counter)
                    if card is not None and not in_auction(s, location, i) and cost(card) <= money]
            out += shelf_options(s, seat)
    if shops_at(s, seat, ISLAND):
        out += island_options(s, seat)
    for x in EXPANSIONS.at("market_options"):
        out += x.market_options(s, seat)
    for a in s.auctions:
        if seat in a.bidders and a.leader != seat:
            low = min_bid(s, a)
            out += [{"type": "bid", "auction": a.id, "amount": amount}
                    for amount in (low, low + 200) if amount <= s.available(seat)]
            out.append({"type": "pass", "auction": a.id})
    out += [{"type": kind, "offer": o.id} for o in s.offers if o.to == seat for kind in ("accept", "decline")]
    out += [{"type": "withdraw", "offer": o.id} for o in s.offers if o.frm == seat]
    out += sample_offers(s, seat)
    out += play_options(s, seat)
    out.append({"type": "done"})
    return out


def shelf_options(s: RivalState, seat: int) -> list[Action]:
    """Buying the top face-down shelf card, when this chef may (``shelf_refusal``)."""
    return [] if shelf_refusal(s, seat) is not None else [{"type": "buy_shelf"}]


def island_options(s: RivalState, seat: int) -> list[Action]:
    money = s.available(seat)
    held = s.chefs[seat].upgrades
    listed = not acting(s, seat, "island_price")  # no effect on this chef's prices: the list prices
    out: list[Action] = [{"type": "buy_upgrade", "upgrade": u.id} for u in UPGRADES.values()
                         if u.id not in held and (max(0, u.price) if listed
                                                  else island_price(s, seat, "upgrade", u.id)) <= money]
    if (s.action_deck or s.action_discard) and island_price(s, seat, "action") <= money:
        out.append({"type": "buy_action"})
    most = dumpable(s, seat)
    if most >= 1:
        out += [{"type": "dump", "count": n} for n in sorted({1, most})]
    return out


# ---- done, and the phase -----------------------------------------------------------------

def _done(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
    """Finish with the market: waive an open claim, pass in auctions you do not lead,
    withdraw your offers and decline those made to you."""
    active(s, seat)
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
        "claim": _claim, "no_claim": _waive, "bid": _bid, "pass": _pass, "buy": buy, "buy_shelf": buy_shelf,
        "buy_upgrade": _buy_upgrade, "buy_action": _buy_action, "dump": _dump,
        **barter.HANDLERS, "done": _done,
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
        """The market as ``seat`` sees it: what every seat sees alike made once while the
        state is read (``read_once``), the offers to and from the seat for each."""
        if not any(o.to == seat or o.frm == seat for o in s.offers):
            return read_once(s, "market view, no offers", self._with_offers, s, [], [])
        return self._with_offers(s, [offer_view(s, o) for o in s.offers if o.to == seat],
                                 [offer_view(s, o) for o in s.offers if o.frm == seat])

    def _with_offers(self, s: RivalState, incoming: list[Any], outgoing: list[Any]) -> dict[str, Any]:
        """The market as seen with these offers to and from the viewer (kept alike: ``alike``)."""
        return alike({**read_once(s, "market view", self._public_view, s),
                      "offers": {"incoming": incoming, "outgoing": outgoing}})

    def _public_view(self, s: RivalState) -> dict[str, Any]:
        return {"claim_deadline": self.claim_deadline(s), "ends": s.phase_since + s.options.market_ms,
                "auctions": [auction_view(s, a) for a in s.auctions]}


def auction_view(s: RivalState, a: Auction) -> dict[str, Any]:
    return {"id": a.id, "market": a.market, "slot": a.slot, "ingredient": s.markets[a.market].counter[a.slot],
            "bidders": list(a.bidders), "high": a.high, "leader": a.leader, "min_bid": min_bid(s, a)}


PHASE = register(BuyAndBarter())

__all__ = ["PHASE", "chefs_at", "finish", "market_options", "min_bid", "resolve_claims"]
