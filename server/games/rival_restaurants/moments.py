"""The one mechanism behind chef powers, restaurant level-ups, upgrades, specials and
action cards: effects that fire at named moments of the day.

A *source* (a chef, a level reached, an upgrade, a card played today, a special added to a
dish) holds ``Effect``s. ``fire(state, moment, seats, values)`` runs, for each seat in turn,
every effect of that seat's sources whose moment matches; an effect reads and changes the
``values`` of the moment (a price, a dish's points, the stop flag of a play) or the state.
New content is new data; a new kind of effect is one function registered with
``@effect("kind")`` — from this package or from an expansion's.

This module is the bottom of the package's stack: the primitives (``ops``) fire moments
through it, and the effect kinds (``effects``, ``sporks``) register into it from above —
hooks registered from above, fired from below.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from server.engine import Event
from server.engine.kept import interned, kept

from .cards import (
    ACTION_CARDS,
    CHEFS,
    INGREDIENTS,
    MYSTERY_MART,
    RESTAURANTS,
    UPGRADES,
    Cards,
    Effect,
    Recipe,
    meats,
)
from .state import RivalState

MOMENTS: dict[str, str] = {
    "now": "when the source is gained: a card played, a power used, a level reached",
    "day_start": "the start of a day, before income",
    "income": "MONEY: the day's income (values: income)",
    "reveal": "MOVE: locations revealed",
    "price": "BUY: the price of a counter card bought or claimed (values: price, market, ingredient, "
             "remote, at: where the buyer stands)",
    "island_price": "BUY: the price of something bought at the Island (values: price, item: upgrade, "
                    "action or dump (one garbage), id: the upgrade)",
    "market_open": "BUY: the market opens, locations known",
    "acquired": "BUY: a chef has taken a counter card (values: buyer, market, card: its identity, ingredient)",
    "traded": "BARTER: a barter completed, for each side (values: exchange: both sides gave something)",
    "before_play": "any chef plays an action card or uses a power (values: player, stopped)",
    "cook_limit": "COOK: how many recipes a chef may cook today (values: limit)",
    "substitutes": "COOK: what may stand in for a missing ingredient (values: rules)",
    "dish_points": "COOK: a dish's popularity before the garbage penalty (values: points, recipe)",
    "dish_penalty": "COOK: popularity lost to garbage already held (values: penalty)",
    "dish_garbage": "COOK: garbage taken for a dish (values: garbage)",
    "cooked": "COOK: a dish has been scored",
    "counters_close": "COUNTER: after the cooking, before the counters are restocked",
    "discarded": "an ingredient card is discarded (values: ingredient, market, to: discard or dumpster)",
    "shelf_empty": "a market's shelf is empty: about to be refilled from its discard pile, or left empty by "
                   "the restock (values: market)",
    "recipe_draw": "COUNTER: how many recipes to draw for one (values: draw)",
    "day_end": "the end of a day, after restocking",
}

Source = tuple[str, str]  # (kind, id): ("chef", "biff_brobeque"), ("action", "windfall"), …


@dataclass
class Hook:
    """One effect firing: whose it is, at which moment, on what values."""

    state: RivalState
    seat: int
    moment: str
    values: dict[str, Any]
    source: Source
    events: list[Event] = field(default_factory=list)

    @property
    def who(self) -> str:
        return self.state.players[self.seat]


EffectFn = Callable[[Hook, dict[str, Any]], None]
EFFECTS: dict[str, EffectFn] = {}
CHECKS: dict[str, Callable[[RivalState, int, dict[str, Any], dict[str, Any]], None]] = {}


TableRule = Callable[[RivalState, dict[str, Any]], list[Event]]
RULES: dict[str, list[TableRule]] = {}
"""Rules of the table at a moment (an expansion's, say): they run once each time the
moment fires, after the seats' effects, whoever's chefs are playing today."""


def rule(moment: str) -> Callable[[TableRule], TableRule]:
    """Register a rule of the table that runs whenever ``moment`` fires (it may change the
    moment's values and the state, and returns its events)."""

    def register(fn: TableRule) -> TableRule:
        RULES.setdefault(moment, []).append(fn)
        return fn

    return register


VALUES_ONLY: set[str] = set()
"""Effect kinds that read and change nothing but the moment's values (``add``, ``set``)."""


def effect(kind: str, check: Callable[..., None] | None = None,
           values_only: bool = False) -> Callable[[EffectFn], EffectFn]:
    """Register the function behind effects of ``kind`` (and the check of a played one's
    choices, which raises ``IllegalAction`` before anything changes); ``values_only``: it
    reads and changes nothing but the moment's values."""

    def register(fn: EffectFn) -> EffectFn:
        EFFECTS[kind] = fn
        if check is not None:
            CHECKS[kind] = check
        if values_only:
            VALUES_ONLY.add(kind)
        else:
            VALUES_ONLY.discard(kind)
        return fn

    return register


# ---- which effects a chef has ------------------------------------------------------------

def source_card(kind: str, ident: str) -> Any:
    """The card behind a source: it has a ``name`` (or ``power``) and ``effects``."""
    if kind == "level" or kind == "use":
        return _part(kind, ident)
    return _TABLES[kind][ident]


_PARTS: dict[Source, tuple[str, Any, Any]] = {}


def _part(kind: str, ident: str) -> Any:
    """A restaurant's level (``restaurant:threshold``) or a chef's use (``chef.use``), found
    once and kept while its restaurant or chef is the same card."""
    hit = _PARTS.get((kind, ident))
    table = RESTAURANTS if kind == "level" else CHEFS
    if hit is None or table.get(hit[0]) is not hit[1]:
        if kind == "level":
            restaurant, threshold = ident.rsplit(":", 1)
            card = next(lv for lv in RESTAURANTS[restaurant].levels if lv.threshold == int(threshold))
            hit = (restaurant, RESTAURANTS[restaurant], card)
        else:
            chef, use = ident.split(".", 1)
            hit = (chef, CHEFS[chef], CHEFS[chef].use(use))
        _PARTS[(kind, ident)] = hit
    return hit[2]


_TABLES: dict[str, dict[str, Any]] = {"chef": CHEFS, "upgrade": UPGRADES, "action": ACTION_CARDS,
                                      "special": INGREDIENTS}


def source_effects(kind: str, ident: str) -> tuple[Effect, ...]:
    """The effects a source holds (a special's are its extras in a dish)."""
    card = source_card(kind, ident)
    return card.extras if kind == "special" else card.effects


_BY_MOMENT: dict[tuple[bool, int], tuple[Any, dict[tuple[str, str], tuple[Effect, ...]]]] = {}


def effects_at(src: Source, moment: str, on: str) -> tuple[Effect, ...]:
    """The effects of a source that fire at ``moment`` on ``on``, in the card's order."""
    return effects_by_moment(src).get((moment, on), ())


def effects_by_moment(src: Source) -> dict[tuple[str, str], tuple[Effect, ...]]:
    """A source's effects by (moment, on), each in the card's order. Each card's effects
    are sorted by moment once (cards are data: they never change; a card replaced in its
    table is a new object, indexed anew)."""
    kind = src[0]
    card = source_card(*src)
    key = (kind == "special", id(card))
    entry = _BY_MOMENT.get(key)
    if entry is None or entry[0] is not card:
        index: dict[tuple[str, str], list[Effect]] = {}
        for eff in (card.extras if kind == "special" else card.effects):
            index.setdefault((eff.moment, eff.on), []).append(eff)
        entry = _BY_MOMENT[key] = (card, {k: tuple(v) for k, v in index.items()})
    return entry[1]


def level_sources(s: RivalState, seat: int) -> list[Source]:
    """Levels reached; a level that replaces the earlier ones hides them."""
    pantry = s.chefs[seat]
    restaurant = RESTAURANTS.get(pantry.restaurant)  # none yet while restaurants are being chosen
    levels = [lv for lv in restaurant.levels if lv.threshold in pantry.levels] if restaurant else []
    for i in range(len(levels) - 1, -1, -1):
        if levels[i].replaces_previous:
            levels = levels[i:]
            break
    return [("level", f"{pantry.restaurant}:{lv.threshold}") for lv in levels]


def sources(s: RivalState, seat: int) -> list[tuple[Source, str]]:
    """Every source whose lasting effects work for ``seat`` now, with the ``on`` side that
    applies ("self", or "target" for a card played on this chef today)."""
    pantry, today = s.chefs[seat], s.today[seat]
    out: list[tuple[Source, str]] = [(("chef", pantry.chef), "self")]
    if pantry.levels:
        out += [(src, "self") for src in level_sources(s, seat)]
    if pantry.upgrades:
        out += [(("upgrade", u), "self") for u in pantry.upgrades]
    if today.effects:
        out += [((kind, ident), on) for kind, ident, on in today.effects]
    return out


def applies(hook: Hook, eff: Effect) -> bool:
    """The conditions an effect may carry: a recipe kind, your own cuisine, some markets,
    a minimum of meats. Location-based effects never work at the Mystery Mart, nor on a
    purchase made from elsewhere (Home Delivery). A moment may say where the chef stands
    (``at``: a price asked about before the reveal); by default it is their location."""
    p, v, s = eff.params, hook.values, hook.state
    where = v.get("at", s.today[hook.seat].location)
    if eff.location_based and (where == MYSTERY_MART or v.get("remote")):
        return False
    recipe: Recipe | None = v.get("recipe")
    if "kind" in p and (recipe is None or recipe.kind != p["kind"]):
        return False
    if p.get("own_cuisine") and (recipe is None or recipe.cuisine != cuisine_of(s, hook.seat)):
        return False
    if "markets" in p and v.get("market") not in p["markets"]:
        return False
    if "min_meats" in p and (recipe is None or _meats(v, recipe) < p["min_meats"]):
        return False
    if "item" in p and v.get("item") != p["item"]:
        return False
    if "phase" in p and s.phase != p["phase"]:
        return False
    return True


def _meats(values: dict[str, Any], recipe: Recipe) -> int:
    """Meats in a dish: those it used when known (stand-ins count), else the recipe's."""
    if "used" in values:
        return sum(i in INGREDIENTS and INGREDIENTS[i].market == "chop_shop" for i in values["used"])
    return meats(recipe)


def cuisine_of(s: RivalState, seat: int) -> str:
    return RESTAURANTS[s.chefs[seat].restaurant].cuisine


def fire(s: RivalState, moment: str, seats: Iterable[int], values: dict[str, Any] | None = None,
         extra: Iterable[Source] = ()) -> tuple[dict[str, Any], list[Event]]:
    """Run the effects of ``moment`` for each of ``seats`` (and ``extra`` sources, such as
    the specials in a dish, for the first seat). Returns the values and the events."""
    values = dict(values) if values else {}
    events: list[Event] = []
    extra = list(extra)
    for seat in seats:
        for src, on, effs in acting(s, seat, moment):
            events += _run_effects(s, seat, moment, values, src, effs)
        for src in extra:
            events += _run(s, seat, moment, values, src, "self")
        extra = []
    for table_rule in RULES.get(moment, ()):
        events += table_rule(s, values)
    return values, events


def fired_values(s: RivalState, seat: int, moment: str, values: dict[str, Any]) -> dict[str, Any]:
    """The values ``fire(s, moment, [seat], values)`` leaves (only read: never change them),
    for a moment that changes nothing else: kept where they can be (``_answers``)."""
    answers = read_once(s, ("answers", moment, seat), _answers, s, seat, moment)
    if answers is None:
        return fire(s, moment, [seat], values)[0]
    key = tuple(values.items())
    found = answers.get(key)
    if found is None:
        found = answers[key] = fire(s, moment, [seat], values)[0]
    return found


def _answers(s: RivalState, seat: int, moment: str) -> dict[Any, dict[str, Any]] | None:
    """This seat's answers at ``moment`` by the values asked, kept; None where they cannot
    be. Where no rule of the table runs at ``moment`` and every effect of this seat's at it
    changes only the values (``VALUES_ONLY``), the answers follow from those effects, from
    what ``applies`` reads (where the chef stands, the phase, their cuisine) and from the
    values: kept by those (a price is asked for every counter card, every seat, every state)."""
    key = answers_key(s, seat, moment)
    return None if key is None else _answers_by(key)


@interned(size=1024)
def _answers_by(key: tuple[Any, ...]) -> dict[Any, dict[str, Any]]:
    """The table of answers kept for ``answers_key``'s ``key`` (filled as they are asked)."""
    return {}


def answers_key(s: RivalState, seat: int, moment: str) -> tuple[Any, ...] | None:
    """What this seat's answers at ``moment`` follow from (``_answers``), or None where they
    cannot be kept: the moment, the seat's sources acting at it (and the cards behind them,
    unedited: ``Cards.edits``), where the chef stands, the phase and their restaurant."""
    found = acting(s, seat, moment)
    if moment in RULES or not all(eff.kind in VALUES_ONLY for _, _, effs in found for eff in effs):
        return None
    return (Cards.edits, moment, tuple((src, on) for src, on, _ in found), s.today[seat].location, s.phase,
            s.chefs[seat].restaurant)


class _Read:
    """A state being only read (``reading``), and what was found in it: each seat's sources
    acting at each moment (with their effects), and what ``read_once`` made."""

    __slots__ = ("state", "acting", "kept")

    def __init__(self, state: RivalState) -> None:
        self.state = state
        self.acting: dict[int, dict[str, list[tuple[Source, str, tuple[Effect, ...]]]]] = {}
        self.kept: dict[Any, Any] = {}


class _Reading(threading.local):
    """This thread's state being only read now, if any (one attribute: a thread's own is
    dearer to reach than an object's)."""

    now: _Read | None = None


_reading = _Reading()


class reading:
    """``with reading(s):`` while ``s`` is only read (its views, its legal actions), each
    seat's sources (with their effects by moment) and those acting at each moment are
    found once, not at every ``fire``.
    Nothing may change ``s`` meanwhile; any other state is read as usual."""

    __slots__ = ("state", "inner")

    def __init__(self, s: RivalState) -> None:
        self.state = s

    def __enter__(self) -> None:
        self.inner = _reading.now is not None  # inside another reading: that one keeps its own
        if not self.inner:
            _reading.now = _Read(self.state)

    def __exit__(self, *exc: object) -> None:
        if not self.inner:
            _reading.now = None


def read_once(s: RivalState, key: Any, make: Callable[..., Any], *args: Any) -> Any:
    """``make(*args)``, made once for ``key`` while ``s`` is only read (``reading``), so that
    every seat's view or options asking it get the very same answer; otherwise made anew."""
    now = _reading.now
    if now is None or now.state is not s:
        return make(*args)
    kept = now.kept
    found = kept.get(key, kept)
    if found is kept:
        found = kept[key] = make(*args)
    return found


def acting(s: RivalState, seat: int, moment: str) -> list[tuple[Source, str, tuple[Effect, ...]]]:
    """The sources of ``seat`` with effects at ``moment``, with those effects, in order
    (none: ``fire`` would leave the moment's values as they are)."""
    now = _reading.now
    if now is None or now.state is not s:
        return _acting_by_moment(s, seat).get(moment, NONE_ACTING)
    found = now.acting.get(seat)
    if found is None:
        found = now.acting[seat] = _acting_by_moment(s, seat)
    return found.get(moment, NONE_ACTING)


NONE_ACTING: list[tuple[Source, str, tuple[Effect, ...]]] = []  # never changed


def _sources_key(s: RivalState, seat: int) -> tuple[Any, ...]:
    """What ``sources`` reads: the chef, the restaurant and its levels reached, the upgrades,
    today's lasting effects — and the cards behind them, unedited (``Cards.edits``)."""
    p, t = s.chefs[seat], s.today[seat]
    return Cards.edits, p.chef, p.restaurant, tuple(p.levels), tuple(p.upgrades), tuple(t.effects)


@kept(_sources_key, None)
def _acting_by_moment(s: RivalState, seat: int) -> dict[str, list[tuple[Source, str, tuple[Effect, ...]]]]:
    """``acting`` at every moment at once (only read; kept by what ``sources`` reads): each
    source's effects by moment read once."""
    out: dict[str, list[tuple[Source, str, tuple[Effect, ...]]]] = {}
    for src, on in sources(s, seat):
        for (moment, side), effs in effects_by_moment(src).items():
            if side == on:
                out.setdefault(moment, []).append((src, on, effs))
    return out


def quiet(s: RivalState, seat: int, moment: str) -> bool:
    """Would ``moment`` leave its values as they are for ``seat``: none of its sources has
    an effect at it, and no rule of the table runs then."""
    return moment not in RULES and not acting(s, seat, moment)


def run_now(s: RivalState, seat: int, src: Source, values: dict[str, Any]) -> list[Event]:
    """Run a source's immediate ("now") effects, e.g. when a level is reached or a card is
    played; its lasting effects are registered by the caller."""
    return _run(s, seat, "now", values, src, "self")


def _run(s: RivalState, seat: int, moment: str, values: dict[str, Any], src: Source, on: str) -> list[Event]:
    return _run_effects(s, seat, moment, values, src, effects_at(src, moment, on))


def _run_effects(s: RivalState, seat: int, moment: str, values: dict[str, Any], src: Source,
                 effs: tuple[Effect, ...]) -> list[Event]:
    events: list[Event] = []
    for eff in effs:
        hook = Hook(s, seat, moment, values, src)
        if applies(hook, eff):
            EFFECTS[eff.kind](hook, eff.params)
            events += hook.events
    return events


def check_now(s: RivalState, seat: int, src: Source, values: dict[str, Any]) -> None:
    """Check a played source's choices before anything changes (raises IllegalAction)."""
    for eff in source_effects(*src):
        if eff.moment == "now" and eff.kind in CHECKS:
            CHECKS[eff.kind](s, seat, eff.params, values)


def source_name(src: Source) -> str:
    """How the log names a source: a chef's power, a card's, use's or level's name."""
    card = source_card(*src)
    return card.power if src[0] == "chef" else card.name


__all__ = ["CHECKS", "EFFECTS", "Hook", "MOMENTS", "RULES", "Source", "VALUES_ONLY", "acting", "answers_key",
           "check_now", "effect", "fire", "fired_values", "quiet", "read_once", "reading", "rule", "run_now",
           "source_name", "sources"]
