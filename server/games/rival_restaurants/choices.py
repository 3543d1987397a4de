"""The legal actions of a seat, where the space is large, as a bounded representative set
(``apply`` accepts any valid value): two bid amounts per auction, a few sample barter
offers per partner, the first few choices for a card's target ingredient or slot."""

from __future__ import annotations

from server.engine import Action, IllegalAction

from .cards import CHEFS, INGREDIENTS, ISLAND, MARKETS, SHAKERS, UPGRADES, Play, action_kind
from .moments import Source, check_now
from .market import MAX_OFFERS, dumpable, in_auction, island_price, min_bid, price, shelf_for_sale
from .plays import _choices, playable_cards, usable
from .squad import runner_options, shops_at
from .state import RivalState

SAMPLE_OFFERS = 6
SAMPLE_CHOICES = 3


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
        if not m.claims_resolved and not t.claimed:
            out += [{"type": "claim", "slot": i} for i, card in enumerate(m.counter)
                    if card is not None and price(s, seat, location, card) <= s.available(seat)]
            out.append({"type": "no_claim"})
        elif m.claims_resolved:
            out += [{"type": "buy", "slot": i} for i, card in enumerate(m.counter)
                    if card is not None and not in_auction(s, location, i)
                    and price(s, seat, location, card) <= s.available(seat)]
            out += shelf_options(s, seat)
    if shops_at(s, seat, ISLAND):
        out += island_options(s, seat)
    out += runner_options(s, seat)
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
    """Buying the top face-down shelf card, when this chef may."""
    try:
        shelf_for_sale(s, seat)
    except IllegalAction:
        return []
    return [{"type": "buy_shelf"}]


def island_options(s: RivalState, seat: int) -> list[Action]:
    money = s.available(seat)
    out: list[Action] = [{"type": "buy_upgrade", "upgrade": u.id} for u in UPGRADES.values()
                         if u.id not in s.chefs[seat].upgrades and island_price(s, seat, "upgrade", u.id) <= money]
    if (s.action_deck or s.action_discard) and island_price(s, seat, "action") <= money:
        out.append({"type": "buy_action"})
    most = dumpable(s, seat)
    if most >= 1:
        out += [{"type": "dump", "count": n} for n in sorted({1, most})]
    return out


def sample_offers(s: RivalState, seat: int) -> list[Action]:
    """A few simple offers to each other chef: buy their first ingredient at its price,
    sell them yours, or swap one for one."""
    if sum(o.frm == seat for o in s.offers) >= MAX_OFFERS:
        return []
    n = len(s.players)
    out: list[Action] = []
    mine, money = sorted(s.chefs[seat].ingredients), s.available(seat)
    for other in ((seat + k) % n for k in range(1, n)):
        if s.today[other].done:
            continue
        theirs = sorted(s.chefs[other].ingredients)
        if theirs and INGREDIENTS[theirs[0]].price <= money:
            out.append(_offer(other, {"money": INGREDIENTS[theirs[0]].price}, {"ingredients": [theirs[0]]}))
        if mine and INGREDIENTS[mine[0]].price <= s.available(other):
            out.append(_offer(other, {"ingredients": [mine[0]]}, {"money": INGREDIENTS[mine[0]].price}))
        swap = next((i for i in theirs if i not in mine), None)
        if mine and swap:
            out.append(_offer(other, {"ingredients": [mine[-1]]}, {"ingredients": [swap]}))
        if len(out) >= SAMPLE_OFFERS:
            break
    return out[:SAMPLE_OFFERS]


def _offer(to: int, give: dict, get: dict) -> Action:
    return {"type": "offer", "to": to, "give": give, "get": get}


def play_options(s: RivalState, seat: int) -> list[Action]:
    """Action cards and active powers this chef can use now, with sample targets/choices."""
    out: list[Action] = []
    seen: set[str] = set()
    for card in playable_cards(s, seat):
        kind = action_kind(card)
        if kind.id in seen:
            continue
        seen.add(kind.id)
        out += _uses(s, seat, {"type": "play", "card": card}, ("action", kind.id), kind.play)
    chef = CHEFS[s.chefs[seat].chef]
    for use in usable(s, seat):
        base: Action = {"type": "power"} if len(chef.uses) == 1 else {"type": "power", "use": use.id}
        out += _uses(s, seat, base, ("use", f"{chef.id}.{use.id}"), use.play)
    return out


def _uses(s: RivalState, seat: int, base: Action, src: Source, play: Play) -> list[Action]:
    """Every sample way to use a play that passes its checks."""
    out: list[Action] = []
    for action in _candidates(s, seat, base, play):
        try:
            check_now(s, seat, src, _choices(s, seat, play, action))
        except IllegalAction:
            continue
        out.append(action)
    return out


def _counter_cards(s: RivalState) -> list[tuple[str, int]]:
    return [(m, i) for m in MARKETS for i, card in enumerate(s.markets[m].counter) if card is not None]


def _choice_values(s: RivalState, seat: int, choice: str | None, target: int | None) -> list[dict]:
    """Sample values for a play's choice (its parameters besides the target)."""
    if choice == "ingredient":
        return [] if target is None else [{"ingredient": i} for i in sorted(s.chefs[target].ingredients)[:SAMPLE_CHOICES]]
    if choice == "own_ingredient":
        return [{"ingredient": i} for i in sorted(s.chefs[seat].ingredients)[:SAMPLE_CHOICES]]
    if choice == "kind":
        return [{"kind": k} for k in ("basic", "gourmet")]
    if choice == "slot":
        return [{"market": m, "slot": i} for m, i in _counter_cards(s)][:SAMPLE_CHOICES * 2]
    if choice == "shaker_slot":
        return [{"shaker": k, "market": m, "slot": i} for k in SHAKERS for m, i in _counter_cards(s)[:SAMPLE_CHOICES]]
    if choice == "market":
        return [{"market": m} for m in MARKETS]
    if choice == "dumpster":
        dumpster = s.sporks.dumpster if s.sporks is not None else {}
        return [{"market": m, "ingredient": i} for m in sorted(dumpster) for i in sorted(set(dumpster[m]))][:SAMPLE_CHOICES]
    return [{}]


def _candidates(s: RivalState, seat: int, base: Action, play: Play) -> list[Action]:
    targets: list[int | None] = [None]
    if play.target is not None:
        targets = [i for i in range(len(s.players)) if i != seat]
    out: list[Action] = []
    for target in targets:
        action = dict(base) if target is None else {**base, "target": target}
        out += [{**action, **values} for values in _choice_values(s, seat, play.choice, target)]
    return out
