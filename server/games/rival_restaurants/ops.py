"""The primitive moves of Rival Restaurants: money, cards and garbage changing hands.

Every change of ownership goes through these few functions, so money and cards are
conserved by construction: the bank's balance (``state.bank``) records what it took and
paid, garbage comes from and returns to a supply of ``GARBAGE_TOKENS`` (the box's 32).
"""

from __future__ import annotations

from server.engine import Event, IllegalAction, public

from .cards import GARBAGE_TOKENS, INGREDIENTS, KINDS, RECIPES, action_kind
from .moments import fire
from .state import RivalState, without
from .zones import HAND


def name(s: RivalState, seat: int) -> str:
    return s.players[seat]


def money(n: int) -> str:
    return f"${n:,}"


def pay(s: RivalState, seat: int, amount: int) -> None:
    """A chef pays the bank; they must have the money free of their leading bids."""
    if amount > s.available(seat):
        raise IllegalAction(f"{name(s, seat)} has only {money(s.available(seat))} to spend, not {money(amount)}.")
    s.chefs[seat].money -= amount
    s.bank += amount


def earn(s: RivalState, seat: int, amount: int) -> None:
    """The bank pays a chef."""
    s.chefs[seat].money += amount
    s.bank -= amount


def transfer(s: RivalState, frm: int, to: int, amount: int) -> None:
    """Money from one chef to another (never more than the payer has free)."""
    if amount > s.available(frm):
        raise IllegalAction(f"{name(s, frm)} has only {money(s.available(frm))} to spare, not {money(amount)}.")
    s.chefs[frm].money -= amount
    s.chefs[to].money += amount


def garbage_supply(s: RivalState) -> int:
    """The garbage tokens left in the supply: the box's 32 less every chef's."""
    return GARBAGE_TOKENS - sum(p.garbage for p in s.chefs)


def take_garbage(s: RivalState, seat: int, n: int) -> int:
    """A chef takes ``n`` garbage from the supply. *Designed:* when the supply runs short,
    they take what is left and the rest is not taken (the box has only 32 tokens).
    Returns how many were taken."""
    taken = max(0, min(n, garbage_supply(s)))
    s.chefs[seat].garbage += taken
    return taken


def add_ingredient(s: RivalState, seat: int, ingredient: str, n: int = 1) -> None:
    """The one place a chef gains ingredient cards (the chef's ingredients are replaced,
    never changed in place: a clone shares them)."""
    p = s.chefs[seat]
    p.ingredients = {**p.ingredients, ingredient: p.ingredients.get(ingredient, 0) + n}


def remove_ingredient(s: RivalState, seat: int, ingredient: str, n: int = 1) -> None:
    """The one place a chef loses ingredient cards (replaced, as ``add_ingredient``)."""
    p = s.chefs[seat]
    left = p.ingredients.get(ingredient, 0) - n
    if left < 0:
        raise IllegalAction(f"{name(s, seat)} does not have {n} × {INGREDIENTS[ingredient].name}.")
    p.ingredients = {**p.ingredients, ingredient: left} if left else {
        i: k for i, k in p.ingredients.items() if i != ingredient}


def discard_ingredient(s: RivalState, ingredient: str) -> list[Event]:
    """The one place an ingredient card is discarded (cooked, rotated off a counter, left
    over): it goes to its market's discard pile, to refill the shelf later — unless a
    power or rule at the ``discarded`` moment sends it elsewhere (``to``: an expansion keeps it)."""
    market = INGREDIENTS[ingredient].market
    values, events = fire(s, "discarded", range(len(s.players)),
                          {"ingredient": ingredient, "market": market, "to": "discard"})
    if values["to"] == "discard":
        s.markets[market].throw_away(ingredient)
    return events


def refill_shelf(s: RivalState, market: str) -> list[Event]:
    """The one place a market's shelf is refilled: when it is empty, the ``shelf_empty``
    moment comes first (in COOK and COUNTER, Joe's Dumpster gives that market its cards
    back), then the market's discard pile is shuffled into it."""
    m, events = s.markets[market], []
    if not m.shelf:
        events = shelf_emptied(s, market)
    m.shelf, m.discard = refilled(s, m.shelf, m.discard)
    return events


def shelf_emptied(s: RivalState, market: str) -> list[Event]:
    """The ``shelf_empty`` moment: a market's shelf is empty (before it is refilled from
    its discard pile, or at the end of restocking when the last card went to the counter)."""
    return fire(s, "shelf_empty", range(len(s.players)), {"market": market})[1]


def draw_shelf(s: RivalState, market: str) -> tuple[str | None, list[Event]]:
    """Take the top card of a market's shelf (refilled first if empty), or None."""
    events = refill_shelf(s, market)
    return s.markets[market].draw(), events


def refilled(s: RivalState, deck: list[str], discard: list[str]) -> tuple[list[str], list[str]]:
    """A deck and its discard pile, as they are after the deck is refilled: an empty deck
    takes its discard pile, shuffled (new lists: the old ones may be shared)."""
    if not deck and discard:
        return s.rng.shuffled(discard), []
    return deck, discard


def draw_recipe(s: RivalState, seat: int, kind: str, draw: int = 1) -> list[Event]:
    """Draw ``draw`` recipes of ``kind``; keep the one the chef holds most ingredients for,
    then the one worth most popularity (then the first drawn); discard the others face up."""
    drawn: list[str] = []
    for _ in range(draw):
        s.decks[kind], s.recipe_discards[kind] = refilled(s, s.decks[kind], s.recipe_discards[kind])
        if s.decks[kind]:
            drawn.append(s.decks[kind][-1])
            s.decks[kind] = s.decks[kind][:-1]
    if not drawn:
        return [public("no_recipe", f"The {kind} recipe deck is empty: {name(s, seat)} draws nothing.", seat=seat)]
    held = s.chefs[seat].ingredients
    keep = max(drawn, key=lambda r: (sum(min(held.get(i, 0), RECIPES[r].ingredients.count(i))
                                         for i in set(RECIPES[r].ingredients)), RECIPES[r].points))
    s.chefs[seat].recipes = [*s.chefs[seat].recipes, keep]
    s.recipe_discards[kind] = [*s.recipe_discards[kind], *(r for r in drawn if r != keep)]
    others = [RECIPES[r].name for r in drawn if r != keep]
    extra = f" (and discards {', '.join(others)})" if others else ""
    return [public("draw_recipe", f"{name(s, seat)} draws {RECIPES[keep].name}{extra}.",
                   seat=seat, recipe=keep, discarded=[r for r in drawn if r != keep])]


def discard_recipe(s: RivalState, seat: int, recipe: str) -> None:
    s.chefs[seat].recipes = without(s.chefs[seat].recipes, recipe)
    kind = RECIPES[recipe].kind
    s.recipe_discards[kind] = [*s.recipe_discards[kind], recipe]


def top_action(s: RivalState) -> str | None:
    """Take the top action card (the discard pile is reshuffled when the deck is empty)."""
    s.action_deck, s.action_discard = refilled(s, s.action_deck, s.action_discard)
    if not s.action_deck:
        return None
    card, s.action_deck = s.action_deck[-1], s.action_deck[:-1]
    return card


def draw_action(s: RivalState, seat: int) -> list[Event]:
    """Draw the top action card into a chef's hand (face up, like all a chef owns)."""
    card = top_action(s)
    if card is None:
        return [public("no_action", "The action deck is empty.", seat=seat)]
    s.chefs[seat].actions = [*s.chefs[seat].actions, card]
    return HAND.tell(seat, "draw_action",
                     (f"{name(s, seat)} draws the action card {action_kind(card).name}.", {"seat": seat, "card": card}),
                     (f"{name(s, seat)} draws an action card.", {"seat": seat}))


def recipe_of_kind(s: RivalState, seat: int, kind: str) -> str | None:
    return next((r for r in s.chefs[seat].recipes if RECIPES[r].kind == kind), None)


def missing_kinds(s: RivalState, seat: int) -> list[str]:
    """The recipe kinds a chef holds none of."""
    return [k for k in KINDS if recipe_of_kind(s, seat, k) is None]
