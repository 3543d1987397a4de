"""What Rival Restaurants keeps from one state to the next is what it would build afresh."""

from __future__ import annotations

from dataclasses import replace

import pytest

from server.engine import TIMEOUT, Rng
from server.games.rival_restaurants import GAME
from server.games.rival_restaurants.buying import price
from server.games.rival_restaurants.barter import MAX_OFFERS, SAMPLE_OFFERS
from server.games.rival_restaurants.cards import BUY_BARTER, CHEFS, INGREDIENTS, LOCATIONS, MARKETS, Effect
from server.games.rival_restaurants.cooking import plan_dishes
from server.games.rival_restaurants.expansion import EXPANSIONS, merged
from server.games.rival_restaurants.moments import MOMENTS, acting, fire, source_effects, sources
from server.games.rival_restaurants.moving import KEPT_MOVES, move_options
from server.games.rival_restaurants.sporks import shaker_on
from server.games.rival_restaurants.sporks_table import ShakerPlace, table
from server.games.rival_restaurants.state import Dish, RivalState
from server.games.rival_restaurants.views import _zone_facts

from .helpers import NAMES, QUIET, new


def fresh_moves(players: int, seat: int, foresight: bool) -> list[dict]:
    """The moves as the rule states them: every location, and with foresight each with
    another chef to foresee."""
    out = [{"type": "move", "location": loc} for loc in LOCATIONS]
    if foresight:
        out += [{"type": "move", "location": loc, "foresee": other}
                for loc in LOCATIONS for other in range(players) if other != seat]
    return out


@pytest.mark.parametrize("players", range(2, 7))
@pytest.mark.parametrize("foresight", [False, True])
def test_kept_moves_are_the_moves_built_afresh(players: int, foresight: bool) -> None:
    for seat in range(players):
        chefs = [c for c in QUIET if c != "clam_voyance"] + ["biff_brobeque"]
        if foresight:
            chefs[seat] = "clam_voyance"
        s = new(players, chefs[:players])
        KEPT_MOVES.clear()
        made = move_options(s, seat)
        kept = move_options(s, seat)  # from KEPT_MOVES now
        assert (players, seat, foresight) in KEPT_MOVES
        assert made == kept == fresh_moves(players, seat, foresight)
        assert kept is not made


# ---- the board: its locations kept by their facts -----------------------------------------

def fresh_board(s: RivalState, seat: int | None) -> list[dict]:
    """The board as the rules state it, read from the state itself: every location with the
    chefs there and the expansions' fields; at a market its counter cards (each with
    ``seat``'s own price), shelf, discard and whether claims are settled."""
    out = []
    for loc in LOCATIONS.values():
        entry = {"id": loc.id, "name": loc.name, "position": list(loc.position), "corner": loc.corner,
                 "market": loc.market, "chefs": [i for i, t in enumerate(s.today) if t.location == loc.id],
                 **merged("location_fields", s, loc.id)}
        if loc.id in MARKETS:
            m = s.markets[loc.id]
            entry.update({
                "category": MARKETS[loc.id].category,
                "counter": [None if card is None else {
                    "slot": i, "ingredient": card, "name": INGREDIENTS[card].name, "price": INGREDIENTS[card].price,
                    "your_price": None if seat is None else fresh_counter_price(s, seat, loc.id, card),
                    "shaker": shaker_on(s, loc.id, m.ids[i])} for i, card in enumerate(m.counter)],
                "shelf": len(m.shelf), "discard": len(m.discard), "claims_resolved": m.claims_resolved,
                **merged("market_fields", s, loc.id)})
        out.append(entry)
    return out


def shaken(s: RivalState, rng: Rng) -> RivalState:
    """``s`` with the salt or the pepper moved onto a random counter card (SPORKS Out)."""
    s = s.clone()
    box = table(s)
    cards = [(m, card) for m, market in s.markets.items() for card in market.ids if card is not None]
    if box is not None and cards:
        market, card = rng.choice(cards)
        box.shakers[rng.choice(["salt", "pepper"])] = ShakerPlace(market, card)
    return s


@pytest.mark.parametrize("players,sporks_out", [(6, False), (6, True), (3, True)])
def test_kept_boards_are_the_boards_built_afresh(players: int, sporks_out: bool) -> None:
    """Every seat's and the spectator's board, over random games (Julia Chopper at the
    table) and their states with a shaker moved or Flash Sale played, is the board read
    afresh from the state."""
    rng = Rng(players * 2 + sporks_out)
    seats: list[int | None] = [*range(players), None]
    for s in walk(players, {"sporks_out": sporks_out}, players, 160, chefs={0: "julia_chopper"}):
        for state in (s, shaken(s, rng), on_sale(s, 0), on_sale(s, players - 1)):
            views = GAME.views(state, seats)
            for seat in seats:
                assert views[seat]["board"] == fresh_board(state, seat), (seat, state.phase)


# ---- what only a seat knows: kept by its facts ---------------------------------------------

def walk(players: int, options: dict, seed: int, steps: int = 200,
         chefs: dict[int, str] | None = None) -> list[RivalState]:
    """The states of one random game with these options (random legal play, timeouts when
    due); ``chefs``: seats dealt these chefs instead."""
    rng = Rng(seed)
    s = GAME.setup(NAMES[:players], GAME.options(options), seed, 0)
    for seat, chef in (chefs or {}).items():
        s.chefs[seat].chef = chef
    out, now = [s], 0
    while GAME.result(s) is None and len(out) < steps:
        moves = [(seat, a) for seat in range(players) for a in GAME.legal(s, seat)]
        now += 500
        deadline = GAME.deadline(s)
        if deadline is not None and (deadline <= now or not moves):
            now = max(now, deadline)
            s = GAME.apply(s, None, dict(TIMEOUT), now)[0]
        else:
            seat, action = rng.choice(moves)
            s = GAME.apply(s, seat, action, now)[0]
        out.append(s)
    return out


def fresh_mine(s: RivalState, seat: int) -> dict:
    """What only ``seat`` knows, as the rules state it: its pick and foresight, its declared
    dishes, its cook limit (the moment fired), which of its recipes it could cook alone now
    (``plan_dishes``), and the expansions' fields."""
    t, p = s.today[seat], s.chefs[seat]
    return {"pick": t.pick, "foresee": t.foresee, "dishes": [d.to_json() for d in t.dishes],
            "cook_limit": fire(s, "cook_limit", [seat], {"limit": 1})[0]["limit"],
            "cookable": {r: plan_dishes(s, seat, [Dish(r)]) is not None for r in p.recipes},
            **merged("mine_fields", s, seat)}


GAMES = [(6, {}, 1), (6, {"sporks_out": True}, 2), (2, {"kitchen_squad": True}, 3),
         (3, {"sporks_out": True, "restaurants": "chosen"}, 4), (2, {"kitchen_squad": True, "sporks_out": True}, 5)]


@pytest.mark.parametrize("players,options,seed", GAMES)
def test_kept_mine_is_mine_built_afresh(players: int, options: dict, seed: int) -> None:
    """Every seat's ``mine``, over random games, is what it knows read afresh from the state."""
    for s in walk(players, options, seed):
        views = GAME.views(s, [*range(players), None])
        assert views[None]["mine"] is None
        for seat in range(players):
            assert views[seat]["mine"] == fresh_mine(s, seat), (seat, s.phase, s.day)


# ---- the sample offers: kept by the hands they are drawn from ------------------------------

def fresh_samples(s: RivalState, seat: int) -> list[dict]:
    """The sample offers as the rule states them, read from the state: to each other chef
    not done, in seat order from the next, buy their first ingredient at its price, sell
    them your first at its price, swap your last for their first one you lack (each only
    when affordable by its payer); at most ``SAMPLE_OFFERS``, none with ``MAX_OFFERS`` open."""
    if sum(o.frm == seat for o in s.offers) >= MAX_OFFERS:
        return []
    n, out = len(s.players), []
    mine = sorted(s.chefs[seat].ingredients)
    for other in [(seat + k) % n for k in range(1, n)]:
        if s.today[other].done:
            continue
        theirs = sorted(s.chefs[other].ingredients)
        if theirs and INGREDIENTS[theirs[0]].price <= s.available(seat):
            out.append({"type": "offer", "to": other, "give": {"money": INGREDIENTS[theirs[0]].price},
                        "get": {"ingredients": [theirs[0]]}})
        if mine and INGREDIENTS[mine[0]].price <= s.available(other):
            out.append({"type": "offer", "to": other, "give": {"ingredients": [mine[0]]},
                        "get": {"money": INGREDIENTS[mine[0]].price}})
        lacked = [i for i in theirs if i not in mine]
        if mine and lacked:
            out.append({"type": "offer", "to": other, "give": {"ingredients": [mine[-1]]},
                        "get": {"ingredients": [lacked[0]]}})
        if len(out) >= SAMPLE_OFFERS:
            break
    return out[:SAMPLE_OFFERS]


@pytest.mark.parametrize("players,options,seed", GAMES)
def test_kept_sample_offers_are_those_drawn_afresh(players: int, options: dict, seed: int) -> None:
    """Every seat's sample offers, over random games, are those drawn afresh from the hands."""
    market = 0
    for s in walk(players, options, seed):
        if s.phase != BUY_BARTER:
            continue
        market += 1
        legals = GAME.legals(s, list(range(players)))
        for seat in range(players):
            if not s.today[seat].done:  # a chef done at the market has no legal action
                assert [a for a in legals[seat] if a["type"] == "offer"] == fresh_samples(s, seat), (seat, s.day)
    assert market


# ---- prices: kept by what the price moment reads -------------------------------------------

def fresh_price(s: RivalState, seat: int, market: str, ingredient: str, remote: bool = False,
                at: str | None = None) -> int:
    """A card's price as the rule states it: its list price through the ``price`` moment,
    fired afresh (never below $0)."""
    values = {"price": INGREDIENTS[ingredient].price, "market": market, "ingredient": ingredient, "remote": remote}
    if at is not None:
        values["at"] = at
    return max(0, fire(s, "price", [seat], values)[0]["price"])


def fresh_counter_price(s: RivalState, seat: int, market: str, ingredient: str) -> int:
    """What a counter card costs a chef as the rule states it: bought where they stand (before
    the reveal: as if they stood at its market), else delivered from afar."""
    here = s.today[seat].location
    if here is None:
        return fresh_price(s, seat, market, ingredient, at=market)
    return fresh_price(s, seat, market, ingredient, remote=here != market)


def on_sale(s: RivalState, seat: int) -> RivalState:
    """``s`` with Flash Sale played today by ``seat`` (its price effect lasting)."""
    s = s.clone()
    s.today[seat].effects = [*s.today[seat].effects, ("action", "flash_sale", "self")]  # replaced: shared with s
    return s


@pytest.mark.parametrize("players,options,seed", GAMES)
def test_kept_prices_are_the_prices_fired_afresh(players: int, options: dict, seed: int) -> None:
    """Every chef's price of every ingredient at every market — where they stand, from afar
    and before the reveal — over random games with Julia Chopper at the table and with Flash
    Sale played, is the ``price`` moment fired afresh."""
    priced = 0
    for s in walk(players, options, seed, chefs={0: "julia_chopper"}):
        for state in (s, on_sale(s, players - 1)):
            for seat in range(players):
                for market in MARKETS:
                    for ingredient in {i.id for i in INGREDIENTS.values() if i.market == market}:
                        for remote, at in ((False, None), (True, None), (False, market)):
                            expected = fresh_price(state, seat, market, ingredient, remote, at)
                            assert price(state, seat, market, ingredient, remote, at) == expected, \
                                (seat, market, ingredient, remote, at, state.today[seat].location)
                            priced += expected != INGREDIENTS[ingredient].price
    assert priced  # a price some effect changed was asked


# ---- the fields of expansions a match does not play: kept by the seam's arguments ----------

def fresh_fields(seam: str, s: RivalState, arg: object) -> dict:
    """Every registered expansion's fields at a view seam, each asked afresh."""
    out: dict = {}
    for x in EXPANSIONS.values():
        out.update(getattr(x, seam)(s, arg))
    return out


@pytest.mark.parametrize("players,options,seed", [*GAMES, (4, {"restaurants": "chosen"}, 6)])
def test_kept_expansion_fields_are_those_asked_afresh(players: int, options: dict, seed: int) -> None:
    """At every view seam, over random games playing each expansion or none, the fields the
    views show (``merged``, kept where the match plays no expansion at the seam) are every
    expansion's asked afresh; so are the cards each chef holds in an expansion's zones."""
    seams = {"player_fields": range(players), "mine_fields": range(players), "view_fields": [*range(players), None],
             "location_fields": LOCATIONS, "market_fields": MARKETS, "counter_fields": MARKETS}
    for s in walk(players, options, seed, steps=120):
        for seam, args in seams.items():
            for arg in args:
                assert merged(seam, s, arg) == fresh_fields(seam, s, arg), (seam, arg, s.phase)
        for seat in range(players):
            for viewer in [*range(players), None]:
                fresh = tuple((key, tuple(cards(s, seat)), zone.sees(seat, viewer))
                              for x in EXPANSIONS.values() for key, (zone, cards) in x.zones.items())
                assert _zone_facts(s, seat, viewer) == fresh, (seat, viewer, s.phase)


# ---- each chef's effects by moment: kept by their sources ----------------------------------

def fresh_acting(s: RivalState, seat: int, moment: str) -> list:
    """The sources of ``seat`` with effects at ``moment`` as the rule states them: every
    source working for the chef now, each with its effects at that moment on its side."""
    return [(src, on, effs) for src, on in sources(s, seat)
            if (effs := tuple(e for e in source_effects(*src) if e.moment == moment and e.on == on))]


@pytest.mark.parametrize("players,options,seed", GAMES)
def test_kept_acting_is_acting_found_afresh(players: int, options: dict, seed: int) -> None:
    """Every chef's effects at every moment, over random games (levels reached, upgrades
    bought, cards played), are those found afresh from their sources."""
    for s in walk(players, options, seed):
        for seat in range(players):
            for moment in MOMENTS:
                assert acting(s, seat, moment) == fresh_acting(s, seat, moment), (seat, moment, s.day)


def test_a_card_replaced_in_its_table_acts_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A chef card replaced in its table (as content is edited) is the card that acts, even
    where the old card's effects were found before."""
    s = new(2)
    before = acting(s, 0, "income")
    chef = CHEFS[s.chefs[0].chef]
    extra = Effect("income", "add", {"key": "income", "n": 100})
    monkeypatch.setitem(CHEFS, chef.id, replace(chef, effects=(*chef.effects, extra)))
    assert [e for _, _, effs in acting(s, 0, "income") for e in effs] == \
        [*(e for _, _, effs in before for e in effs), extra]


def test_a_price_card_replaced_in_its_table_prices_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A chef's price power replaced in its table changes the prices asked after it, even
    where the old power's prices were kept."""
    s = new(2, ["julia_chopper", "sal_monella"])
    meat = next(i.id for i in INGREDIENTS.values() if i.market == "chop_shop")
    assert price(s, 0, "chop_shop", meat, at="chop_shop") == INGREDIENTS[meat].price - 100
    julia = CHEFS["julia_chopper"]
    cheaper = Effect("price", "add", {"key": "price", "n": -150, "markets": ["chop_shop"]}, location_based=True)
    monkeypatch.setitem(CHEFS, julia.id, replace(julia, effects=(cheaper,)))
    assert price(s, 0, "chop_shop", meat, at="chop_shop") == INGREDIENTS[meat].price - 150
