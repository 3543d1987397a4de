"""Barter: offers between any two chefs, anywhere, carried out whole or not at all.

A side of an offer (a *bundle*) may hold anything a chef owns. Offers are told to their
two chefs only; a trade once made is public, and fires the ``traded`` moment for both.
The legal actions hold a few sample offers per partner (``sample_offers``); ``apply``
accepts any valid one.
"""

from __future__ import annotations

from typing import Any

from server.engine import Action, Event, private, public, require
from server.engine.kept import derived, kept

from . import expansion, ops
from .buying import active
from .cards import INGREDIENTS, MARKETS, RECIPES, UPGRADES, action_kind
from .describe import bundle_view
from .expansion import EXPANSIONS
from .moments import fire, read_once
from .state import Bundle, Offer, RivalState, without

SAMPLE_OFFERS = 6  # sample offers in a seat's legal actions


MAX_OFFERS = 4  # open offers a chef may have out at once


BUNDLE_KEYS = ("money", "ingredients", "recipes", "actions", "garbage", "upgrades", "face_down")


def _count(value: Any, what: str) -> int:
    require(isinstance(value, int) and not isinstance(value, bool) and value >= 0,
            f"The {what} in an offer must be a whole number, 0 or more.")
    return value


def parse_bundle(raw: Any) -> Bundle:
    """One side of an offer: anything a chef owns — money, ingredients (a list or {id:
    count}), recipes, action cards, garbage, upgrades, and face-down cards ({market:
    count}: nobody can tell face-down cards of one market apart). Returns it in a normal form."""
    require(isinstance(raw, dict), f"Each side of an offer is an object: {', '.join(BUNDLE_KEYS)}.")
    require(set(raw) <= set(BUNDLE_KEYS), f"An offer may hold only {', '.join(BUNDLE_KEYS)}.")
    return Bundle(money=_count(raw.get("money", 0), "money"),
                  ingredients=_counts(raw.get("ingredients", {}), INGREDIENTS, "ingredient"),
                  recipes=_ids(raw.get("recipes", []), RECIPES, "recipe"),
                  actions=_ids(raw.get("actions", []), None, "action card"),
                  garbage=_count(raw.get("garbage", 0), "garbage"),
                  upgrades=_ids(raw.get("upgrades", []), UPGRADES, "upgrade"),
                  face_down=_counts(raw.get("face_down", {}), MARKETS, "market"))


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


def _ids(raw: Any, known: Any, what: str) -> tuple[str, ...]:
    require(isinstance(raw, list) and all(isinstance(x, str) for x in raw) and len(set(raw)) == len(raw),
            f"The {what}s in an offer are a list of different ids.")
    if known is not None:
        require(all(x in known for x in raw), f"There is no such {what}.")
    return tuple(sorted(raw))


def face_down_of(s: RivalState, seat: int, market: str) -> list[str]:
    """A chef's face-down cards from one market (an expansion deals them), in the order drawn."""
    return [c for c in expansion.face_down_of(s, seat) if INGREDIENTS[c].market == market]


def holds(s: RivalState, seat: int, bundle: Bundle) -> bool:
    """Does the chef still hold everything in ``bundle``?"""
    p = s.chefs[seat]
    return (s.available(seat) >= bundle.money and p.garbage >= bundle.garbage
            and (not bundle.ingredients or all(p.ingredients.get(i, 0) >= n for i, n in bundle.ingredients.items()))
            and (not bundle.recipes or all(r in p.recipes for r in bundle.recipes))
            and (not bundle.actions or all(a in p.actions for a in bundle.actions))
            and (not bundle.upgrades or all(u in p.upgrades for u in bundle.upgrades))
            and (not bundle.face_down
                 or all(len(face_down_of(s, seat, m)) >= n for m, n in bundle.face_down.items())))


def recipes_fit(s: RivalState, offer: Offer) -> bool:
    """After the trade each chef holds at most one basic and one gourmet recipe."""
    for seat, gets, gives in ((offer.frm, offer.get, offer.give), (offer.to, offer.give, offer.get)):
        held = s.chefs[seat].recipes
        after = [r for r in held if r not in gives.recipes] + list(gets.recipes) if gets.recipes or gives.recipes else held
        if len({RECIPES[r].kind for r in after}) != len(after):
            return False
    return True


def upgrades_fit(s: RivalState, offer: Offer) -> bool:
    """Nobody gets an upgrade they already have (each restaurant has each upgrade once)."""
    give, get = offer.give.upgrades, offer.get.upgrades
    return ((not give or not set(give) & set(s.chefs[offer.to].upgrades))
            and (not get or not set(get) & set(s.chefs[offer.frm].upgrades)))


def describe(bundle: Bundle) -> str:
    """A side of an offer in words; face-down cards by their backs only."""
    parts = [f"{n} × {INGREDIENTS[i].name}" if n > 1 else INGREDIENTS[i].name for i, n in bundle.ingredients.items()]
    parts += [RECIPES[r].name for r in bundle.recipes]
    parts += [action_kind(a).name for a in bundle.actions]
    parts += [f"the {UPGRADES[u].name}" for u in bundle.upgrades]
    parts += [f"{n} face-down {MARKETS[m].name} cards" if n > 1 else f"a face-down {MARKETS[m].name} card"
              for m, n in bundle.face_down.items()]
    if bundle.money:
        parts.append(ops.money(bundle.money))
    if bundle.garbage:
        parts.append(f"{bundle.garbage} garbage")
    return ", ".join(parts) or "nothing"


def offer(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
    """Offer a trade to another chef; it stays open until accepted, declined or withdrawn.
    Designed: offers are between the two chefs — the offer, its answer (declined,
    withdrawn, fallen through) are told to them only; the trade, once made, is public."""
    active(s, seat)
    to = action.get("to")
    require(isinstance(to, int) and not isinstance(to, bool) and 0 <= to < len(s.players) and to != seat,
            "Offer to another chef.")
    require(not s.today[to].done, f"{ops.name(s, to)} is done for today.")
    give, get = parse_bundle(action.get("give")), parse_bundle(action.get("get"))
    require(not (give.empty() and get.empty()), "An offer must hold something.")
    require(holds(s, seat, give), "You do not hold everything you offer.")
    require(sum(o.frm == seat for o in s.offers) < MAX_OFFERS, f"You may have at most {MAX_OFFERS} open offers.")
    o = Offer(s.new_offer_id(seat, to), seat, to, give, get)
    s.offers = [*s.offers, o]
    return [private((seat, to), "offer", f"{ops.name(s, seat)} offers {ops.name(s, to)} {describe(give)} for "
                                         f"{describe(get)}.", offer=o.id, frm=seat, to=to)]


def _take_offer(s: RivalState, seat: int, action: Action, mine: bool) -> Offer:
    """Close an open offer made to ``seat`` (or by it, when ``mine``) and return it."""
    active(s, seat)
    ident = action.get("offer")
    o = next((o for o in s.offers if o.id == ident and not isinstance(ident, bool)), None)
    require(o is not None, "There is no such open offer.")
    assert o is not None
    if mine:
        require(o.frm == seat, "That is not your offer.")
    else:
        require(o.to == seat, "That offer was not made to you.")
    s.offers = without(s.offers, o)
    return o


def accept(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
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
    exchange = not o.give.empty() and not o.get.empty()
    return events + fire(s, "traded", [o.frm, o.to], {"offer": o.id, "exchange": exchange})[1]


def _move_bundle(s: RivalState, frm: int, to: int, bundle: Bundle) -> list[Event]:
    """Carry one side of a trade over; face-down cards are turned face up by their receiver."""
    ops.transfer(s, frm, to, bundle.money)
    for i, n in bundle.ingredients.items():
        ops.remove_ingredient(s, frm, i, n)
        ops.add_ingredient(s, to, i, n)
    giver, taker = s.chefs[frm], s.chefs[to]
    for r in bundle.recipes:
        giver.recipes, taker.recipes = without(giver.recipes, r), [*taker.recipes, r]
    for a in bundle.actions:
        giver.actions, taker.actions = without(giver.actions, a), [*taker.actions, a]
    for u in bundle.upgrades:
        giver.upgrades, taker.upgrades = without(giver.upgrades, u), [*taker.upgrades, u]
    s.chefs[frm].garbage -= bundle.garbage
    s.chefs[to].garbage += bundle.garbage
    events: list[Event] = []
    for market, n in bundle.face_down.items():
        for card in face_down_of(s, frm, market)[:n]:
            for x in EXPANSIONS.at("turn_up"):
                x.turn_up(s, frm, card)
            ops.add_ingredient(s, to, card)
            events.append(public("face_up", f"{ops.name(s, to)} turns the face-down {MARKETS[market].name} card face "
                                            f"up: {INGREDIENTS[card].name}.", seat=to, market=market, ingredient=card))
    return events


def decline(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
    o = _take_offer(s, seat, action, mine=False)
    return [private((o.frm, o.to), "decline", f"{ops.name(s, seat)} declines {ops.name(s, o.frm)}'s offer.", offer=o.id)]


def withdraw(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
    o = _take_offer(s, seat, action, mine=True)
    return [private((o.frm, o.to), "withdraw", f"{ops.name(s, seat)} withdraws an offer to {ops.name(s, o.to)}.",
                    offer=o.id)]


def offer_view(s: RivalState, o: Offer) -> dict[str, Any]:
    """An open offer as its two chefs see it (made once for both while the state is read)."""
    return read_once(s, ("offer", o.id), _offer_view, s, o)


def _offer_view(s: RivalState, o: Offer) -> dict[str, Any]:
    possible = holds(s, o.frm, o.give) and holds(s, o.to, o.get) and recipes_fit(s, o) and upgrades_fit(s, o)
    return _described(o)[possible]


@derived(size=4096)
def _described(o: Offer) -> dict[bool, dict[str, Any]]:
    """An offer's view as it is possible or not (an offer is replaced, never changed in
    place: described once, the very same object from one state to the next)."""
    shown = {"id": o.id, "from": o.frm, "to": o.to, "give": bundle_view(o.give), "get": bundle_view(o.get),
             "text": f"{describe(o.give)} for {describe(o.get)}"}
    return {True: {**shown, "possible": True}, False: {**shown, "possible": False}}


# ---- sample offers for the legal actions -------------------------------------------------

PRICES = {i: card.price for i, card in INGREDIENTS.items()}  # each ingredient's market price


def sample_offers(s: RivalState, seat: int) -> list[Action]:
    """A few simple offers to each other chef: buy their first ingredient (by id) at its
    price, sell them your first, or swap your last for their first one you lack — none
    while this chef has the most open offers allowed."""
    if sum(o.frm == seat for o in s.offers) >= MAX_OFFERS:
        return []
    return _samples(seat, read_once(s, "hands", _hands, s))


Hand = tuple[bool, frozenset[str], int]


def _hands(s: RivalState) -> tuple[Hand, ...]:
    """What the sample offers are drawn from, by seat: is the chef done, which ingredients
    they hold, the money they may spend."""
    return tuple((t.done, _held(p.ingredients), s.available(i)) for i, (p, t) in enumerate(zip(s.chefs, s.today)))


@derived(size=4096)
def _held(ingredients: dict[str, int]) -> frozenset[str]:
    """The ingredients a chef holds (kept by the very dict: it is replaced, never changed
    in place; the same set from one state to the next, its hash computed once)."""
    return frozenset(ingredients)


@kept(lambda seat, hands: (seat, hands), None)  # never changed: the market's options copy it into theirs
def _samples(seat: int, hands: tuple[Hand, ...]) -> list[Action]:
    """``sample_offers`` from the hands they are drawn from (kept: the same hands at the
    table, the same offers)."""
    n = len(hands)
    out: list[Action] = []
    _, mine, money = hands[seat]
    if mine:
        first, last = min(mine), max(mine)
        asked = PRICES[first]
    for other in ((seat + k) % n for k in range(1, n)):
        done, theirs, theirs_money = hands[other]
        if done:
            continue
        if theirs:
            wanted = min(theirs)
            paid = PRICES[wanted]
            if paid <= money:
                out.append({"type": "offer", "to": other, "give": {"money": paid}, "get": {"ingredients": [wanted]}})
        if mine:
            if asked <= theirs_money:
                out.append({"type": "offer", "to": other, "give": {"ingredients": [first]}, "get": {"money": asked}})
            if theirs:
                swap = min(theirs - mine, default=None)
                if swap is not None:
                    out.append({"type": "offer", "to": other, "give": {"ingredients": [last]},
                                "get": {"ingredients": [swap]}})
        if len(out) >= SAMPLE_OFFERS:
            break
    return out[:SAMPLE_OFFERS]


HANDLERS = {"offer": offer, "accept": accept, "decline": decline, "withdraw": withdraw}

__all__ = ["BUNDLE_KEYS", "HANDLERS", "MAX_OFFERS", "describe", "face_down_of", "holds", "offer_view",
           "parse_bundle", "recipes_fit", "sample_offers", "upgrades_fit"]
