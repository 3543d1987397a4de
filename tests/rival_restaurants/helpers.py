"""Building Rival Restaurants situations for the tests: a match with chosen chefs and
restaurants, moved to the phase under test through the real rules."""

from __future__ import annotations

from typing import Any

from server.engine import TIMEOUT
from server.games.rival_restaurants import GAME
from server.games.rival_restaurants.cards import RECIPES
from server.games.rival_restaurants.state import RivalState, without

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo"]
# Chefs whose powers do nothing unless used: the default cast of rules tests.
QUIET = ["clam_voyance", "sal_monella", "pork_knuckles", "auntie_pasta", "gordon_rampage", "dr_umami"]
PLAIN = ["rising_sun", "luchador_picante", "pasta_la_vista", "wok_this_way", "curry_favor", "feta_attraction"]


def new(n: int = 2, chefs: list[str] | None = None, restaurants: list[str] | None = None, seed: int = 1,
        **options: Any) -> RivalState:
    """Day 1, MONEY and MOVE, income paid, with the given chefs and restaurants."""
    s = GAME.setup(NAMES[:n], GAME.options({"random_chefs": False, **options}), seed, 0)
    for i, p in enumerate(s.chefs):
        p.chef = (chefs or QUIET)[i]
        p.restaurant = (restaurants or PLAIN)[i]
        p.money = 0
    s.bank = 0
    GAME.begin(s, 0)
    return s


def act(s: RivalState, seat: int | None, action: dict[str, Any], at: int = 1000) -> RivalState:
    return GAME.apply(s, seat, action, at)[0]


def events(s: RivalState, seat: int | None, action: dict[str, Any], at: int = 1000) -> tuple[RivalState, list]:
    return GAME.apply(s, seat, action, at)


def go(s: RivalState, *where: str, at: int = 1000) -> RivalState:
    """Every chef picks a location (in seat order); returns BUY and BARTER."""
    for seat, location in enumerate(where):
        s = act(s, seat, {"type": "move", "location": location}, at)
    assert s.phase == "buy_barter"
    return s


def claims_done(s: RivalState, at: int = 2000) -> RivalState:
    """Every chef at a market waives an open claim."""
    for seat, t in enumerate(s.today):
        if t.location not in (None, "island") and not t.claimed and not s.markets[t.location].claims_resolved:
            s = act(s, seat, {"type": "no_claim"}, at)
    return s


def to_cook(s: RivalState, at: int = 5000) -> RivalState:
    """Everyone says done at the market; returns COOK and COUNTER."""
    for seat in range(len(s.players)):
        if not s.today[seat].done:
            s = act(s, seat, {"type": "done"}, at)
    assert s.phase == "cook_counter"
    return s


def serve_all(s: RivalState, at: int = 9000) -> RivalState:
    for seat in range(len(s.players)):
        if not s.today[seat].ready:
            s = act(s, seat, {"type": "serve"}, at)
    return s


def timeout(s: RivalState) -> RivalState:
    due = GAME.deadline(s)
    assert due is not None
    return act(s, None, dict(TIMEOUT), due)


def give(s: RivalState, seat: int, *ingredients: str) -> None:
    """Put ingredients in a chef's pantry (a test's set-up)."""
    held = dict(s.chefs[seat].ingredients)  # replaced, never changed in place: a clone shares it
    for i in ingredients:
        held[i] = held.get(i, 0) + 1
    s.chefs[seat].ingredients = held


def hold(s: RivalState, seat: int, *recipes: str) -> None:
    """Give a chef exactly these recipes (taken from wherever they are)."""
    for deck in list(s.decks.values()) + list(s.recipe_discards.values()):
        for r in recipes:
            if r in deck:
                deck.remove(r)
    for p in s.chefs:
        for r in recipes:
            if r in p.recipes:
                p.recipes = without(p.recipes, r)
    for r in s.chefs[seat].recipes:
        s.recipe_discards[RECIPES[r].kind].append(r)
    s.chefs[seat].recipes = list(recipes)


def cook(s: RivalState, seat: int, recipe: str, extras: list[str] | None = None, at: int = 6000) -> RivalState:
    return act(s, seat, {"type": "cook", "recipe": recipe, "extras": extras or []}, at)


def hand(s: RivalState, seat: int, kind: str) -> str:
    """Give a chef one action card of ``kind`` (from the deck) and return its id."""
    card = next(c for c in s.action_deck + s.action_discard if c.startswith(kind + "-"))
    (s.action_deck if card in s.action_deck else s.action_discard).remove(card)
    s.chefs[seat].actions = [*s.chefs[seat].actions, card]
    return card
