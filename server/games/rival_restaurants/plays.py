"""Playing an action card or using an active chef power — one path for both.

A play belongs to one phase (printed on the card or chef), may target another chef and may
need a choice. Before it resolves, the ``before_play`` moment lets any chef's effect stop it
(Clam-Voyance); a play whose ``Play.stoppable`` is false (a SPORK's) cannot be stopped.
Then its immediate effects run and its lasting ones hold for the rest of the day, on the
player or on the target. A chef plays at most one action card a day; each active power
(a ``Use``: a base chef's one power, a SPORK's several) has its own limit.
"""

from __future__ import annotations

from typing import Any

from server.engine import Action, Event, IllegalAction, public, require

from . import ops
from .cards import CHEFS, MARKETS, MYSTERY_MART, PHASE_NAMES, SHAKERS, Chef, Play, Use, action_kind
from .expansion import EXPANSIONS
from .moments import Source, check_now, fire, run_now, source_effects, source_name
from .state import RivalState, without


def _choices(s: RivalState, seat: int, play: Play, action: Action) -> dict[str, Any]:
    """The target and choices of a play, checked against its ``Play``."""
    if s.phase != play.phase:
        raise IllegalAction(f"That can only be used in {PHASE_NAMES.get(play.phase, play.phase)}.")
    values: dict[str, Any] = {}
    if play.target is not None:
        target = action.get("target")
        require(isinstance(target, int) and not isinstance(target, bool) and 0 <= target < len(s.players)
                and target != seat, "Choose another chef as the target.")
        if play.target == "chef_here":
            here = s.today[seat].location
            require(here is not None and here != MYSTERY_MART, "That does not work at the Mystery Mart.")
            if s.today[target].location != here:
                raise IllegalAction(f"{ops.name(s, target)} is not at your location.")
        values["target"] = target
    for key in play.params:
        if key != "target":
            values[key] = action.get(key)
    return values


def _resolve(s: RivalState, seat: int, src: Source, play: Play, values: dict[str, Any]) -> list[Event]:
    """Give other chefs' effects the chance to stop the play, then carry it out."""
    v, events = fire(s, "before_play", [i for i in range(len(s.players)) if i != seat],
                     {"player": seat, "stopped": False, "stoppable": play.stoppable, "source": list(src)})
    if v["stopped"]:
        return events
    events += run_now(s, seat, src, values)
    for on in sorted({e.on for e in source_effects(*src) if e.moment != "now"}):
        affected = values["target"] if on == "target" else seat
        s.today[affected].effects = [*s.today[affected].effects, (src[0], src[1], on)]
    return events


def _play(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
    """Play an action card from your hand (one a day)."""
    card = action.get("card")
    require(isinstance(card, str) and card in s.chefs[seat].actions, "You do not hold that action card.")
    kind = action_kind(card)
    require(s.today[seat].played is None, "You have already played an action card today.")
    require(not s.today[seat].done or kind.play.phase != "buy_barter", "You are done at the market today.")
    values = _choices(s, seat, kind.play, action)
    src: Source = ("action", kind.id)
    check_now(s, seat, src, values)
    s.chefs[seat].actions = without(s.chefs[seat].actions, card)
    s.action_discard = [*s.action_discard, card]
    s.today[seat].played = card
    on = f" on {ops.name(s, values['target'])}" if "target" in values else ""
    events = [public("play", f"{ops.name(s, seat)} plays {kind.name}{on}.", seat=seat, card=card,
                     target=values.get("target"))]
    return events + _resolve(s, seat, src, kind.play, values)


def chosen_use(chef: Chef, ident: Any) -> Use:
    """The use a ``power`` action names (a chef with one use need not name it)."""
    require(chef.uses, f"{chef.name}'s power is not used like that.")
    if ident is None and len(chef.uses) == 1:
        return chef.uses[0]
    use = chef.use(ident) if isinstance(ident, str) else None
    require(use is not None, f"{chef.name}'s powers are used as: {', '.join(u.id for u in chef.uses)}.")
    assert use is not None
    return use


def use_left(s: RivalState, seat: int, use: Use) -> bool:
    """Has this use some of its daily limit left?"""
    return use.per_day is None or s.today[seat].uses.get(use.id, 0) < use.per_day


def _power(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
    """Use one of your chef's active powers (each with its own limit, in its phase)."""
    chef = CHEFS[s.chefs[seat].chef]
    use = chosen_use(chef, action.get("use"))
    require(use_left(s, seat, use), "You have already used your power today." if len(chef.uses) == 1
            else f"You have already used {use.name} today.")
    require(not s.today[seat].done or use.play.phase != "buy_barter", "You are done at the market today.")
    values = _choices(s, seat, use.play, action)
    src: Source = ("use", f"{chef.id}.{use.id}")
    check_now(s, seat, src, values)
    t = s.today[seat]
    t.uses = {**t.uses, use.id: t.uses.get(use.id, 0) + 1}
    if "target" in values:
        t.targets = [*t.targets, (use.id, values["target"])]
    on = f" on {ops.name(s, values['target'])}" if "target" in values else ""
    events = [public("power", f"{ops.name(s, seat)} uses {source_name(src)}{on}.", seat=seat, use=use.id,
                     target=values.get("target"))]
    return events + _resolve(s, seat, src, use.play, values)


HANDLERS = {"play": _play, "power": _power}


def usable(s: RivalState, seat: int) -> list[Use]:
    """The chef's powers that belong to the current phase and have uses left today."""
    t = s.today[seat]
    return [u for u in CHEFS[s.chefs[seat].chef].uses if u.play.phase == s.phase and use_left(s, seat, u)
            and not (t.done and u.play.phase == "buy_barter")]


def playable_cards(s: RivalState, seat: int) -> list[str]:
    """Action cards in hand that belong to the current phase, if none was played today."""
    if s.today[seat].played is not None:
        return []
    return [c for c in s.chefs[seat].actions if action_kind(c).play.phase == s.phase]


# ---- sample plays for the legal actions --------------------------------------------------

SAMPLE_CHOICES = 3  # sample values of a play's choice


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
    for x in EXPANSIONS.at("choices"):
        if choice in x.choices:
            return x.choices[choice](s, seat, target)
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


__all__ = ["HANDLERS", "chosen_use", "play_options", "playable_cards", "usable", "use_left"]

