"""A Rival Restaurants bot that plans around its recipes.

It values every ingredient by what it does for its two recipes (a missing one is worth its
price and a premium, more if it completes a recipe), then: goes where the counters hold
what it misses (or to the Island to dump garbage and buy upgrades), claims the most useful
card, bids up to its value, buys the rest, offers fair trades for what others hold and do
not need, sells them what it does not need, accepts any offer that leaves it better off,
plays its action cards where they help, and cooks whatever scores. With SPORKS Out it bids
for the Snackle Box what its cards are worth to it (a face-down card at a flat guess),
uses its SPORKs (gloves, missile, Scraps, shakers, the Luau) and sells its Hot Sauce
cards. It reads only what its seat may see — never a shelf, a deck, a face-down card
(its own Hot Sauce included: only their backs) or another chef's unrevealed bid or pick —
and acts after human-like pauses (virtual time in simulations).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, Iterator

from server.engine import Action, Bot, Decision, IllegalAction, Rng, SampleBot
from server.engine.bots import NORMAL, at_level

from .cards import (
    ACTION_AUCTION,
    BID_STEP,
    BUY_BARTER,
    CHEFS,
    CHOOSE_RESTAURANT,
    CORNERS,
    COOK_COUNTER,
    CUISINE_BONUS,
    DUMP_PRICE,
    EXTRAS,
    INGREDIENTS,
    ISLAND,
    KITCHEN_SQUAD,
    LOCATIONS,
    MARKETS,
    MONEY_MOVE,
    MYSTERY_MART,
    RECIPES,
    RESTAURANTS,
    UPGRADES,
    WILD,
    action_kind,
)
from .choosing import choice_of, choosing, free
from .cooking import cook_limit, plan_dishes, shortfall, substitution_rules
from .buying import dumpable, in_auction, island_price, price, shelf_price
from .market import min_bid
from .moving import foresees
from .ops import garbage_supply
from .plays import use_left
from .auction import bid_of
from .sporks import EXPANSION, shaker_on
from .sporks_table import SporksChef, table
from .squad import chosen, runner_at, runner_options, squad_of
from .zones import HOT_SAUCE
from .state import Dish, RivalState

POINT = 150  # what a point of popularity is worth to the bot, in dollars
UPGRADE_VALUE = {"second_stove": 5 * POINT, "compost_bin": 3 * POINT, "neon_sign": 2 * POINT,
                 "cash_register": 3 * POINT, "spice_rack": POINT}
CARD_VALUE = {"windfall": 300, "rave_review": 2 * POINT, "overtime": 2 * POINT, "secret_ingredient": 2 * POINT,
              "garbage_day": 200, "pickpocket": 200, "home_delivery": 150, "swipe": 150, "flash_sale": 100,
              "health_inspection": 150, "menu_shakeup": 100, "bad_review": 150}
FACE_DOWN_GUESS = 150  # what an unseen action card is worth to the bot


# ---- what the bot knows about recipes ------------------------------------------------------

def missing(s: RivalState, seat: int, recipe: str) -> list[str]:
    """What the chef still has to get for ``recipe`` (stand-ins and Alien Goo counted)."""
    return shortfall(RECIPES[recipe], s.chefs[seat].ingredients, substitution_rules(s, seat))


def worth(s: RivalState, seat: int, recipe: str) -> int:
    """Popularity a recipe would bring now (points, cuisine bonus, garbage penalty)."""
    r = RECIPES[recipe]
    own = r.cuisine == RESTAURANTS[s.chefs[seat].restaurant].cuisine
    return r.points + (CUISINE_BONUS if own else 0) - s.chefs[seat].garbage


def wants(s: RivalState, seat: int) -> dict[str, int]:
    """Ingredient -> the premium over its price this chef would pay for one."""
    out: dict[str, int] = {}
    for recipe in s.chefs[seat].recipes:
        gap = missing(s, seat, recipe)
        if not gap:
            continue
        premium = 60 + 25 * RECIPES[recipe].points + (120 if len(gap) == 1 else 0) - 30 * len(gap)
        for need in gap:
            out[need] = max(out.get(need, 0), max(40, premium))
    return out


def value(s: RivalState, seat: int, ingredient: str, want: dict[str, int]) -> int:
    """What one more of an ingredient is worth to this chef."""
    base = INGREDIENTS[ingredient].price
    if ingredient in want:
        return base + want[ingredient]
    if ingredient in EXTRAS or ingredient == WILD:
        return base
    return base // 2


def keep_value(s: RivalState, seat: int, ingredient: str, n: int) -> int:
    """What giving away ``n`` of an ingredient costs this chef: dear if a recipe needs it."""
    pantry = s.chefs[seat]
    needed = max((RECIPES[r].ingredients.count(ingredient) for r in pantry.recipes), default=0)
    spare = max(0, pantry.ingredients.get(ingredient, 0) - needed)
    base = INGREDIENTS[ingredient].price
    dear = min(n, max(0, n - spare))
    cheap = n - dear
    salvage = base if ingredient in EXTRAS or ingredient == WILD else base // 2
    return dear * (base + 250) + cheap * salvage


def bundle_value(s: RivalState, seat: int, bundle: dict[str, Any], want: dict[str, int], giving: bool) -> int:
    """What a side of an offer is worth to this chef (to receive, or to give away)."""
    total = bundle["money"] - 120 * bundle["garbage"] + 150 * len(bundle["actions"])
    total += sum(UPGRADE_VALUE.get(u, 0) + (UPGRADES[u].price if giving else 0) for u in bundle.get("upgrades", []))
    for market, n in bundle.get("face_down", {}).items():  # a face-down card: its back (market) only
        total += n * (50 if giving else max(100, MARKETS[market].price))
    if giving:
        total += sum(keep_value(s, seat, i, n) for i, n in bundle["ingredients"].items())
        total += sum(150 * RECIPES[r].points for r in bundle["recipes"])
    else:
        total += sum(value(s, seat, i, want) * n for i, n in bundle["ingredients"].items())
        total += sum(60 * RECIPES[r].points for r in bundle["recipes"])
    return total


def needed_by(s: RivalState, seat: int, ingredient: str) -> bool:
    """Is the ingredient in one of this chef's recipes?"""
    return any(ingredient in RECIPES[r].ingredients for r in s.chefs[seat].recipes)


# ---- the bot -------------------------------------------------------------------------------

class RivalBot(SampleBot):
    """``think_ms`` is the pause before a considered move, ``react_ms`` before a quick one;
    ``patience_ms`` is how long into the market it stays open to trades before saying done."""

    def __init__(self, game: Any, rng: Rng, think_ms: tuple[int, int] = (2000, 5000),
                 react_ms: tuple[int, int] = (900, 2500), patience_ms: int = 20_000) -> None:
        self.game, self.rng = game, rng
        self.think_ms, self.react_ms, self.patience_ms = think_ms, react_ms, patience_ms
        self._phase: tuple[int, str] | None = None
        self._first_seen: dict[str, tuple[int, int]] = {}  # action key -> (first seen, pause)

    # -- timing --
    def play(self, state: RivalState, seat: int, now_ms: int) -> Decision | None:
        if self.game.result(state) is not None:
            return None
        if self._phase != (state.day, state.phase):
            self._phase, self._first_seen = (state.day, state.phase), {}
        for action, quick in self.choose(state, seat):
            try:
                self.game.apply(state, seat, action, now_ms)
            except IllegalAction:
                continue
            return self._when(state, action, quick, now_ms)
        return None

    def _when(self, state: RivalState, action: Action, quick: bool, now_ms: int) -> Decision:
        """Play an action a human-like pause after first deciding on it."""
        key = json.dumps(action, sort_keys=True)
        if key not in self._first_seen:
            lo, hi = self.react_ms if quick else self.think_ms
            self._first_seen[key] = (now_ms, self.rng.randint(lo, hi))
        seen, pause = self._first_seen[key]
        at = seen + pause
        if action["type"] == "done":
            at = max(at, state.phase_since + self.patience_ms)
        return Decision(action, max(now_ms, at))

    def choose(self, s: RivalState, seat: int) -> Iterator[tuple[Action, bool]]:
        """The actions the bot would play next, best first, each with whether it is a quick
        reaction; ``play`` plays the first one that is legal."""
        if s.phase == BUY_BARTER:
            yield from self.market(s, seat)
            return
        if s.phase == MONEY_MOVE:
            spork = self.spork_morning(s, seat)
            if spork is not None:
                yield spork
        step = {MONEY_MOVE: self.money_move, COOK_COUNTER: self.cook, ACTION_AUCTION: self.bid,
                CHOOSE_RESTAURANT: self.pick_restaurant, KITCHEN_SQUAD: self.squad_chef}.get(s.phase)
        choice = step(s, seat) if step else None
        if choice is not None:
            yield choice

    # -- choosing a restaurant (option) --
    def pick_restaurant(self, s: RivalState, seat: int) -> tuple[Action, bool] | None:
        """The free restaurant of the cuisine most of its recipes share (at random among equals)."""
        if seat not in choosing(s) or choice_of(s, seat) is not None:
            return None
        cuisines = [RECIPES[r].cuisine for r in s.chefs[seat].recipes]
        scores = {r: cuisines.count(RESTAURANTS[r].cuisine) * 10 + self.rng.randint(0, 9) for r in free(s)}
        return {"type": "choose_restaurant", "restaurant": max(sorted(scores), key=scores.__getitem__)}, False

    # -- Kitchen Squad --
    def squad_chef(self, s: RivalState, seat: int) -> tuple[Action, bool] | None:
        """Today's chef: a cook when a recipe is nearly ready, else a shopper (at random among equals)."""
        pantry, squad = s.chefs[seat], squad_of(s, seat)
        if chosen(s, seat) is not None or not squad:
            return None
        cooking = any(len(missing(s, seat, r)) <= 1 for r in pantry.recipes)
        scores = {c: 10 * ((CHEFS[c].phase == COOK_COUNTER) == cooking) + self.rng.randint(0, 9) for c in squad}
        return {"type": "squad_chef", "chef": max(sorted(scores), key=scores.__getitem__)}, False

    def runner_buy(self, s: RivalState, seat: int, want: dict[str, int]) -> tuple[Action, bool] | None:
        """Kitchen Squad: buy a wanted card at the runner's market."""
        wanted = {a["slot"] for a in runner_options(s, seat)}
        market = runner_at(s, seat)
        for slot in sorted(wanted):
            card = s.markets[market].counter[slot] if market else None
            if card in want and not self._shaken(s, seat, market, slot, want):
                return {"type": "runner_buy", "slot": slot}, False
        return None

    # -- MONEY and MOVE --
    def money_move(self, s: RivalState, seat: int) -> tuple[Action, bool] | None:
        card = self._card(s, seat, "windfall")
        if card:
            return {"type": "play", "card": card}, False
        if s.today[seat].pick is not None:
            return None
        scores = {loc: self.location_score(s, seat, loc) + self.rng.randint(0, 60) for loc in LOCATIONS}
        best = max(sorted(scores), key=lambda loc: scores[loc])
        action: Action = {"type": "move", "location": best}
        if foresees(s, seat):
            action["foresee"] = self.threat(s, seat)
        if squad_of(s, seat):  # Kitchen Squad: the runner shops at the best other market
            markets = [loc for loc in MARKETS if loc != best]
            action["runner"] = max(markets, key=lambda loc: scores[loc])
        return action, False

    def location_score(self, s: RivalState, seat: int, loc: str) -> int:
        """What a day at ``loc`` is worth: the premiums of wanted cards it sells (as far as
        the money goes), or at the Island garbage dumped and upgrades bought; with SPORKS
        Out, a corner Pam has not yet marked, and another chef's Luau."""
        return self.place_score(s, seat, loc) + self.spork_place_score(s, seat, loc)

    def spork_place_score(self, s: RivalState, seat: int, loc: str) -> int:
        pantry, box = s.chefs[seat], table(s)
        ring = box.chefs[seat].ring if box is not None else []
        score = 0
        if pantry.chef == "pam_knee_you" and loc in CORNERS and loc not in ring:
            score += 60 + 40 * len(ring)
        if box is not None and box.luau == loc and pantry.chef != "wahine":
            score += 100
        return score

    def place_score(self, s: RivalState, seat: int, loc: str) -> int:
        pantry, money = s.chefs[seat], s.chefs[seat].money
        if loc == ISLAND:
            days_left = s.options.max_days - s.day
            dump = min(pantry.garbage, money // DUMP_PRICE)
            score = 110 * dump - 90 if pantry.garbage >= 2 else -200
            spare = money - DUMP_PRICE * dump
            for u, worth_ in sorted(UPGRADE_VALUE.items(), key=lambda kv: -kv[1]):
                if u not in pantry.upgrades and UPGRADES[u].price <= spare and days_left >= 4:
                    score += worth_ - UPGRADES[u].price
                    spare -= UPGRADES[u].price
            return score
        want = wants(s, seat)
        counter = [c for c in s.markets[loc].counter if c is not None]
        score, budget, taken = 0, money, Counter[str]()
        gap_total = Counter(i for r in pantry.recipes for i in missing(s, seat, r))
        for card in sorted(counter, key=lambda c: -want.get(c, 0)):
            cost = INGREDIENTS[card].price
            if card in want and taken[card] < gap_total[card] and cost <= budget:
                score += want[card]
                budget -= cost
                taken[card] += 1
        for need, n in gap_total.items():
            if INGREDIENTS[need].market == loc and n > taken[need]:
                score += 25  # it may come up on the counter, or someone there may sell it
        if loc == MYSTERY_MART:
            if gap_total and WILD in counter and INGREDIENTS[WILD].price <= budget:
                score += 120 if sum(gap_total.values()) <= 2 else 40
            for card in counter:
                if card in ("chocolate", "wine") and INGREDIENTS[card].price <= budget:
                    score += POINT - INGREDIENTS[card].price + 60
                    budget -= INGREDIENTS[card].price
        return score

    def threat(self, s: RivalState, seat: int) -> int:
        """The chef most likely to play something: most action cards, then most popular."""
        others = [i for i in range(len(s.players)) if i != seat]
        return max(others, key=lambda i: (len(s.chefs[i].actions), s.chefs[i].popularity, -i))

    # -- BUY and BARTER --
    def market(self, s: RivalState, seat: int) -> Iterator[tuple[Action, bool]]:
        if s.today[seat].done:
            return
        want = wants(s, seat)
        for step in (self.respond, self.auction, self.claim, self.buy, self.runner_buy, self.island,
                     self.play_market, self.barter):
            choice = step(s, seat, want)
            if choice is not None:
                yield choice
        if not any(o.frm == seat for o in s.offers):  # else wait for answers
            yield {"type": "done"}, False

    def respond(self, s: RivalState, seat: int, want: dict[str, int]) -> tuple[Action, bool] | None:
        for o in s.offers:
            if o.to == seat:
                gain = bundle_value(s, seat, o.give, want, False) - bundle_value(s, seat, o.get, want, True)
                return {"type": "accept" if gain > 0 else "decline", "offer": o.id}, False
        return None

    def auction(self, s: RivalState, seat: int, want: dict[str, int]) -> tuple[Action, bool] | None:
        for a in s.auctions:
            if seat in a.bidders and a.leader != seat:
                card = s.markets[a.market].counter[a.slot]
                assert card is not None
                low = min_bid(s, a)
                if low <= value(s, seat, card, want) and low <= s.available(seat):
                    return {"type": "bid", "auction": a.id, "amount": low}, True
                return {"type": "pass", "auction": a.id}, True
        return None

    def claim(self, s: RivalState, seat: int, want: dict[str, int]) -> tuple[Action, bool] | None:
        t = s.today[seat]
        loc = t.location
        if loc not in MARKETS or t.claimed:
            return None
        assert loc is not None
        if s.markets[loc].claims_resolved:
            return None
        slots = [(want.get(c, -1), i) for i, c in enumerate(s.markets[loc].counter)
                 if c is not None and price(s, seat, loc, c) <= s.available(seat) and not self._shaken(s, seat, loc, i, want)
                 and (c in want or loc == MYSTERY_MART and c in ("chocolate", "wine", WILD))]
        if not slots:
            return {"type": "no_claim"}, False
        return {"type": "claim", "slot": max(slots)[1]}, False

    def buy(self, s: RivalState, seat: int, want: dict[str, int]) -> tuple[Action, bool] | None:
        loc = s.today[seat].location
        if loc not in MARKETS or not s.markets[loc].claims_resolved:
            return None
        assert loc is not None
        pantry = s.chefs[seat].ingredients
        for i, card in enumerate(s.markets[loc].counter):
            if card is None or in_auction(s, loc, i) or price(s, seat, loc, card) > s.available(seat) \
                    or self._shaken(s, seat, loc, i, want):
                continue
            useful = card in want or (card in ("chocolate", "wine") and pantry.get(card, 0) == 0)
            if useful:
                return {"type": "buy", "slot": i}, False
        return None

    def island(self, s: RivalState, seat: int, want: dict[str, int]) -> tuple[Action, bool] | None:
        if s.today[seat].location != ISLAND:
            return None
        pantry, money = s.chefs[seat], s.available(seat)
        if most := dumpable(s, seat):
            return {"type": "dump", "count": most}, False
        for u, _ in sorted(UPGRADE_VALUE.items(), key=lambda kv: -kv[1]):
            if u not in pantry.upgrades and island_price(s, seat, "upgrade", u) <= money:
                return {"type": "buy_upgrade", "upgrade": u}, False
        if (money >= island_price(s, seat, "action") + 200 and len(pantry.actions) < 2
                and (s.action_deck or s.action_discard)):
            return {"type": "buy_action"}, False
        return None

    def play_market(self, s: RivalState, seat: int, want: dict[str, int]) -> tuple[Action, bool] | None:
        t = s.today[seat]
        others = [i for i in range(len(s.players)) if i != seat]
        chef_play = self.power(s, seat, want)
        if chef_play:
            return chef_play
        if t.played is not None:
            return None
        pantry = s.chefs[seat]
        richest = max(others, key=lambda i: (s.available(i), -i))
        leader = max(others, key=lambda i: (s.chefs[i].popularity, -i))
        for card in pantry.actions:
            kind = action_kind(card).id
            base = {"type": "play", "card": card}
            if kind == "garbage_day" and pantry.garbage:
                return base, False
            if kind == "pickpocket" and s.available(richest) >= 200:
                return {**base, "target": richest}, False
            if kind == "health_inspection":
                return {**base, "target": leader}, False
            if kind == "swipe" and s.available(seat) >= 100:
                holder = self._holder(s, seat, want)
                if holder:
                    return {**base, "target": holder[0], "ingredient": holder[1]}, False
            if kind == "home_delivery":
                spot = self._remote(s, seat, want)
                if spot:
                    return {**base, "market": spot[0], "slot": spot[1]}, False
            if kind == "flash_sale" and t.location in MARKETS and t.location != MYSTERY_MART \
                    and any(c in want for c in s.markets[t.location].counter if c):
                return base, False
            if kind == "menu_shakeup":
                for r in pantry.recipes:
                    if len(missing(s, seat, r)) >= (4 if RECIPES[r].kind == "gourmet" else 3):
                        return {**base, "kind": RECIPES[r].kind}, False
        return None

    def power(self, s: RivalState, seat: int, want: dict[str, int]) -> tuple[Action, bool] | None:
        t = s.today[seat]
        if t.location is None:
            return None
        spork = self.spork_market(s, seat, want)
        if spork is not None or t.power_used:
            return spork
        here = [i for i in range(len(s.players)) if i != seat and s.today[i].location == t.location]
        chef = s.chefs[seat].chef
        if chef == "pork_knuckles":
            for i in here:
                for ingredient in sorted(s.chefs[i].ingredients):
                    if ingredient in want and INGREDIENTS[ingredient].price + 200 <= s.available(seat):
                        return {"type": "power", "target": i, "ingredient": ingredient}, False
        if chef == "sal_monella" and s.chefs[seat].garbage and s.available(seat) >= 100:
            others = [i for i in range(len(s.players)) if i != seat]
            return {"type": "power", "target": max(others, key=lambda i: (s.chefs[i].popularity, -i))}, False
        return None

    def _holder(self, s: RivalState, seat: int, want: dict[str, int]) -> tuple[int, str] | None:
        for ingredient in sorted(want, key=lambda i: -want[i]):
            for i in range(len(s.players)):
                if i != seat and s.chefs[i].ingredients.get(ingredient, 0):
                    return i, ingredient
        return None

    def _remote(self, s: RivalState, seat: int, want: dict[str, int]) -> tuple[str, int] | None:
        for m in MARKETS:
            if not s.markets[m].claims_resolved:
                continue
            for i, card in enumerate(s.markets[m].counter):
                if card in want and not in_auction(s, m, i) and price(s, seat, m, card, True) <= s.available(seat):
                    return m, i
        return None

    def barter(self, s: RivalState, seat: int, want: dict[str, int]) -> tuple[Action, bool] | None:
        """Offer to buy a wanted ingredient from a chef who does not need it, or to sell an
        unneeded one to a chef who does — one open offer per partner, at a fair price."""
        mine = s.chefs[seat].ingredients
        partners = {o.to for o in s.offers if o.frm == seat}
        if len(partners) >= 3:
            return None
        sale = self.sell_face_down(s, seat)
        if sale is not None:
            return sale
        for ingredient in sorted(want, key=lambda i: -want[i]):
            cost = INGREDIENTS[ingredient].price
            for i in range(len(s.players)):
                if i == seat or i in partners or s.today[i].done or not s.chefs[i].ingredients.get(ingredient):
                    continue
                if needed_by(s, i, ingredient) or self._tried(s, seat, i, ingredient):
                    continue
                if s.available(seat) >= cost:
                    return self._offer(i, {"money": cost}, {"ingredients": {ingredient: 1}})
        for ingredient in sorted(mine):
            if needed_by(s, seat, ingredient) or ingredient in EXTRAS or ingredient == WILD:
                continue
            for i in range(len(s.players)):
                if i == seat or i in partners or s.today[i].done or ingredient not in wants(s, i):
                    continue
                cost = INGREDIENTS[ingredient].price
                if s.available(i) >= cost and not self._tried(s, seat, i, ingredient):
                    return self._offer(i, {"ingredients": {ingredient: 1}}, {"money": cost})
        return None

    def _offer(self, to: int, give: dict[str, Any], get: dict[str, Any]) -> tuple[Action, bool]:
        return {"type": "offer", "to": to, "give": give, "get": get}, False

    def _tried(self, s: RivalState, seat: int, other: int, ingredient: str) -> bool:
        """Each pair of chefs trades about one ingredient once a day (no pestering)."""
        key = f"tried:{other}:{ingredient}"
        if key in self._first_seen:
            return True
        self._first_seen[key] = (0, 0)
        return False

    # -- SPORKS Out --
    def bid(self, s: RivalState, seat: int) -> tuple[Action, bool] | None:
        """Bid for the Snackle Box what its cards are worth to the bot (the face-down one
        at a flat guess: the bot never looks at it), at most half its money, a little
        randomised so that bots seldom tie."""
        box = table(s)
        if box is None or bid_of(s, seat) is not None:
            return None
        worth_ = (CARD_VALUE.get(action_kind(box.face_up).id, 100) if box.face_up else 0) + (
            FACE_DOWN_GUESS if box.face_down is not None else 0)
        money = s.chefs[seat].money
        amount = min(worth_ - 100 + self.rng.randint(0, 2) * BID_STEP, money // 2)
        return {"type": "box_bid", "amount": max(0, amount // BID_STEP * BID_STEP)}, False

    def _shaken(self, s: RivalState, seat: int, market: str, slot: int, want: dict[str, int]) -> bool:
        """Keep off a card under another chef's shaker unless it is much wanted."""
        card = s.markets[market].counter[slot]
        shaker = shaker_on(s, market, s.markets[market].ids[slot])
        return (shaker is not None and s.chefs[seat].chef != "sultan_pepper_shakrh"
                and (card is None or want.get(card, 0) < 150))

    def _use(self, s: RivalState, seat: int, use: str) -> bool:
        chef = CHEFS[s.chefs[seat].chef]
        u = chef.use(use)
        return u is not None and u.play.phase == s.phase and use_left(s, seat, u)

    def spork_morning(self, s: RivalState, seat: int) -> tuple[Action, bool] | None:
        """Before picking: Wahine throws her Luau where her recipes' missing cards are sold;
        the Sultan shakes pepper onto a card he wants (free if nobody buys it)."""
        box = table(s)
        if s.today[seat].pick is not None or box is None:
            return None
        pantry = s.chefs[seat]
        gaps = Counter(INGREDIENTS[i].market for r in pantry.recipes for i in missing(s, seat, r))
        if self._use(s, seat, "luau") and box.luau is None:
            markets = [m for m in MARKETS if m != MYSTERY_MART]
            best = max(markets, key=lambda m: (gaps[m], m))
            return {"type": "power", "market": best}, False
        if self._use(s, seat, "shake"):
            want = wants(s, seat)
            spots = [(want.get(c, 0) + INGREDIENTS[c].price, m, i) for m in MARKETS
                     for i, c in enumerate(s.markets[m].counter) if c is not None]
            if spots:
                _, m, i = max(spots)
                return {"type": "power", "shaker": "pepper", "market": m, "slot": i}, False
        return None

    def spork_market(self, s: RivalState, seat: int, want: dict[str, int]) -> tuple[Action, bool] | None:
        """Gloves on the leader, the missile built from spare cards and launched where the
        others hold most, Scraps at the dearest market, Dumpster cards it needs."""
        pantry, box = s.chefs[seat], table(s)
        mine = box.chefs[seat] if box is not None else SporksChef()
        others = [i for i in range(len(s.players)) if i != seat]
        leader = max(others, key=lambda i: (s.chefs[i].popularity, -i))
        hit = {target for _, target in s.today[seat].targets}
        if self._use(s, seat, "rob") and "rob" in mine.gloves:
            for i in sorted(others, key=lambda i: (-s.chefs[i].popularity, i)):
                goods = sorted(s.chefs[i].ingredients, key=lambda g: (-want.get(g, 0), -INGREDIENTS[g].price, g))
                if goods and i not in hit:
                    return {"type": "power", "use": "rob", "target": i, "ingredient": goods[0]}, False
        if self._use(s, seat, "knockout") and "knockout" in mine.gloves and leader not in hit:
            return {"type": "power", "use": "knockout", "target": leader}, False
        if self._use(s, seat, "missile_craft") and len(mine.missile) < 3:
            spare = [i for i in sorted(pantry.ingredients) if not needed_by(s, seat, i) and i not in EXTRAS and i != WILD]
            if spare:
                return {"type": "power", "use": "missile_craft", "ingredient": spare[0]}, False
        if self._use(s, seat, "lunch_button") and len(mine.missile) >= 3:
            held = Counter()
            for i in others:
                for g, n in s.chefs[i].ingredients.items():
                    held[INGREDIENTS[g].market] += n * INGREDIENTS[g].price
            if held:
                return {"type": "power", "use": "lunch_button", "market": max(sorted(held), key=held.get)}, False
        if self._use(s, seat, "scraps") and box is not None and box.scraps != "chop_shop":
            return {"type": "power", "use": "scraps", "market": "chop_shop"}, False
        if (self._use(s, seat, "dumpster_dive") and box is not None and pantry.garbage <= 2
                and garbage_supply(s) > 0):
            for market, cards in sorted(box.dumpster.items()):
                for card in sorted(set(cards)):
                    if card in want:
                        return {"type": "power", "use": "dumpster_dive", "market": market, "ingredient": card}, False
        return None

    def sell_face_down(self, s: RivalState, seat: int) -> tuple[Action, bool] | None:
        """Offer a Hot Sauce card (known only by its back) for $100 to a chef who can pay."""
        backs = sorted({card["market"] for card in HOT_SAUCE.show(EXPANSION.face_down(s, seat), seat, seat)})
        partners = {o.to for o in s.offers if o.frm == seat}
        for market in backs:
            for i in range(len(s.players)):
                if i == seat or i in partners or s.today[i].done or s.available(i) < 100:
                    continue
                if not self._tried(s, seat, i, f"face_down:{market}"):
                    return self._offer(i, {"face_down": {market: 1}}, {"money": 100})
        return None

    # -- COOK and COUNTER --
    def cook(self, s: RivalState, seat: int) -> tuple[Action, bool] | None:
        t = s.today[seat]
        if t.ready:
            return None
        limit = cook_limit(s, seat)
        card = self._cook_card(s, seat, limit)
        if card:
            return card, False
        if len(t.dishes) < limit:
            best = self.best_dish(s, seat)
            if best is not None:
                return {"type": "cook", "recipe": best[0], "extras": best[1]}, False
        if t.dishes and t.played is None:
            rave = self._card(s, seat, "rave_review")
            if rave:
                return {"type": "play", "card": rave}, False
        bad = self._card(s, seat, "bad_review") if t.played is None else None
        if bad:
            others = [i for i in range(len(s.players)) if i != seat]
            return {"type": "play", "card": bad,
                    "target": max(others, key=lambda i: (s.chefs[i].popularity, -i))}, False
        return {"type": "serve"}, False

    def best_dish(self, s: RivalState, seat: int) -> tuple[str, list[str]] | None:
        """The declarable recipe worth most today (if it scores at all), with the specials
        that help it."""
        t, pantry = s.today[seat], s.chefs[seat]
        best: tuple[int, str, list[str]] | None = None
        for recipe in pantry.recipes:
            if any(d.recipe == recipe for d in t.dishes):
                continue
            if plan_dishes(s, seat, t.dishes + [Dish(recipe)]) is None:
                continue
            extras = self._extras(s, seat, recipe)
            score = worth(s, seat, recipe) + len(extras)
            if best is None or score > best[0]:
                best = (score, recipe, extras)
        if best is None or best[0] <= 0 and pantry.garbage < 2:
            return None
        return best[1], best[2]

    def _extras(self, s: RivalState, seat: int, recipe: str) -> list[str]:
        t, pantry = s.today[seat], s.chefs[seat]
        held = [e for e in EXTRAS if pantry.ingredients.get(e, 0) > sum(e in d.extras for d in t.dishes)]
        useful = [e for e in held if e in ("chocolate", "wine")
                  or e == "secret_sauce" and pantry.garbage >= 2
                  or e == "tofu" and RECIPES[recipe].garbage >= 2]
        if useful and plan_dishes(s, seat, t.dishes + [Dish(recipe, tuple(useful))]) is not None:
            return useful
        return []

    def _cook_card(self, s: RivalState, seat: int, limit: int) -> Action | None:
        t = s.today[seat]
        if t.played is not None or t.dishes:
            return None
        pantry = s.chefs[seat]
        cookable = [r for r in pantry.recipes if plan_dishes(s, seat, [Dish(r)])]
        overtime = self._card(s, seat, "overtime")
        if overtime and limit == 1 and len(cookable) == 2:
            return {"type": "play", "card": overtime}
        secret = self._card(s, seat, "secret_ingredient")
        if secret and any(len(missing(s, seat, r)) == 1 for r in pantry.recipes if r not in cookable):
            return {"type": "play", "card": secret}
        return None

    def _card(self, s: RivalState, seat: int, kind: str) -> str | None:
        if s.today[seat].played is not None:
            return None
        return next((c for c in s.chefs[seat].actions if action_kind(c).id == kind), None)


# ---- hard: spending what the normal bot would keep ------------------------------------------

AUCTION_PREMIUM = 150  # the hard bot bids this much more than the normal bot for a card it needs
EXTRAS_KEPT = 2  # the hard bot keeps up to this many Chocolates and Wines (one a dish)


class HardRivalBot(RivalBot):
    """The normal bot, spending what the normal bot would keep: money left at the end wins
    nothing. Where it has bought what it wants at a market, it buys face-down shelf cards
    there while the market sells a card it misses; it bids a little more for a card it
    needs in an auction; at the Mystery Mart it stocks Chocolate and Wine for its next
    dishes (+1 popularity for $100 or $200); and with SPORKS Out it bids more for the
    Snackle Box."""

    def market(self, s: RivalState, seat: int) -> Iterator[tuple[Action, bool]]:
        for choice in super().market(s, seat):
            if choice[0]["type"] == "done":
                blind = self.blind(s, seat)
                if blind is not None:
                    yield blind
            yield choice

    def blind(self, s: RivalState, seat: int) -> tuple[Action, bool] | None:
        """A face-down card of this market's shelf, if the market sells a card it misses."""
        loc = s.today[seat].location
        if loc not in MARKETS or loc == MYSTERY_MART or not s.markets[loc].claims_resolved:
            return None
        if s.available(seat) < shelf_price(s, seat, loc):
            return None
        sold = MARKETS[loc].counts
        return ({"type": "buy_shelf"}, False) if any(sold.get(i) for i in wants(s, seat)) else None

    def bid(self, s: RivalState, seat: int) -> tuple[Action, bool] | None:
        """SPORKS Out: a Snackle Box bid one step above the normal bot's, even past half its
        money (where the normal bot stops): the box's action cards win games."""
        choice = super().bid(s, seat)
        if choice is None:
            return None
        amount = min(choice[0]["amount"] + BID_STEP, s.chefs[seat].money)
        return {"type": "box_bid", "amount": amount // BID_STEP * BID_STEP}, False

    def auction(self, s: RivalState, seat: int, want: dict[str, int]) -> tuple[Action, bool] | None:
        return super().auction(s, seat, {i: p + AUCTION_PREMIUM for i, p in want.items()})

    def buy(self, s: RivalState, seat: int, want: dict[str, int]) -> tuple[Action, bool] | None:
        return super().buy(s, seat, want) or self.buy_extras(s, seat)

    def buy_extras(self, s: RivalState, seat: int) -> tuple[Action, bool] | None:
        loc = s.today[seat].location
        if loc != MYSTERY_MART or not s.markets[loc].claims_resolved:
            return None
        pantry = s.chefs[seat].ingredients
        for i, card in enumerate(s.markets[loc].counter):
            if card in ("chocolate", "wine") and pantry.get(card, 0) < EXTRAS_KEPT \
                    and not in_auction(s, loc, i) and price(s, seat, loc, card) <= s.available(seat):
                return {"type": "buy", "slot": i}, False
        return None


def bot_at(game: Any, rng: Rng, level: str = NORMAL, **params: Any) -> Bot:
    """This game's bot at ``level``: ``easy`` slips now and then, ``hard`` spends to win."""
    return at_level(level, rng, lambda r: RivalBot(game, r, **params), lambda r: HardRivalBot(game, r, **params))
