"""Snollygoster: response windows and what each Action card does once it stands.

Every Action card goes through a window: the others may answer it with Denied (and a
Denied with another Denied) or pass. The window closes when all living players have
passed on the latest card, or at its deadline (the system ``timeout``). Each Denied
cancels the card below it, so the card stands when an even number was played on it.
"""

from __future__ import annotations

from typing import Callable

from server.engine import Event, private, public

from . import flow
from .flow import card_name, food_label, name
from .state import Play, SnollygosterState, Window

S = SnollygosterState


def open_window(s: S, play: Play, now: int) -> list[Event]:
    """An Action card is played: everyone else gets a short chance to answer with Denied."""
    for card in cards_of(play):
        s.hands[play.seat].remove(card)
    s.window = Window(play, [], s.others_alive(play.seat), now + s.options.window_ms)
    events = [public("play", f"{name(s, play.seat)} plays {describe(s, play)}.", seat=play.seat,
                     card=play.card, args=dict(play.args))]
    if not s.window.waiting:
        events += close_window(s, now)
    return events


def cards_of(play: Play) -> list[str]:
    """The cards a play uses (Steal takes a pair)."""
    return [play.card] * (2 if play.card == "steal" else 1)


def describe(s: S, play: Play) -> str:
    """The log's words for a played card."""
    a = play.args
    if play.card == "launch":
        pod = [name(s, p) for p in a["passengers"]]
        return "Launch, taking " + (", ".join(pod) if pod else "nobody") + " along"
    if play.card in ("inspect", "antidote"):
        return f"{card_name(play.card)} on {food_label(s, a['food'])}"
    if play.card == "lockout":
        return f"Lockout on {name(s, a['target'])}"
    if play.card == "steal":
        what = "1 Fuel" if a["what"] == "fuel" else f"Food #{a['food']}"
        return f"a pair of Steal, taking {what} from {name(s, a['target'])}"
    return card_name(play.card)


def deny(s: S, seat: int, now: int) -> list[Event]:
    """Denied answers the latest card in the window; the window starts again."""
    w = s.window
    assert w is not None
    s.hands[seat].remove("denied")
    w.chain.append(seat)
    w.waiting, w.deadline = s.others_alive(seat), now + s.options.window_ms
    target = "Denied" if len(w.chain) > 1 else card_name(w.play.card)
    events = [public("denied", f"{name(s, seat)} plays Denied on the {target}!", seat=seat,
                     depth=len(w.chain))]
    if not w.waiting:
        events += close_window(s, now)
    return events


def pass_window(s: S, seat: int, now: int) -> list[Event]:
    """A seat lets the card (or the Food about to be eaten) go; when all have, it resolves."""
    if s.window is not None:
        s.window.waiting.remove(seat)
        return close_window(s, now) if not s.window.waiting else []
    eating = s.eating
    assert eating is not None
    eating.waiting.remove(seat)
    return flow.reveal(s, now) if not eating.waiting else []


def close_window(s: S, now: int) -> list[Event]:
    """Resolve the chain: each Denied cancels the card below it, so the card takes effect
    when an even number of Denied were played on it."""
    w = s.window
    assert w is not None
    s.window = None
    s.action_discard += cards_of(w.play) + ["denied"] * len(w.chain)
    s.step_since = now
    if s.eating is not None and s.eating.food is not None:
        s.eating.waiting = s.others_alive(s.eating.eater)
        s.eating.deadline = now + s.options.window_ms
    if len(w.chain) % 2:
        return [public("cancelled", f"{name(s, w.play.seat)}'s {card_name(w.play.card)} is cancelled.",
                       seat=w.play.seat, card=w.play.card)]
    return EFFECTS[w.play.card](s, w.play, now)


# ---- the effects of Action cards that stand -------------------------------------------------

def inspect(s: S, play: Play, now: int) -> list[Event]:
    """Inspect: look at the Food privately, put it back, then tag it (``tag`` step)."""
    food, seat = play.args["food"], play.seat
    if s.stash_of(food) is None or food in s.tags:
        return [public("fizzle", "The Food is gone or already tagged: nothing to inspect.")]
    s.learn(food, seat, "inspected")
    s.inspecting, s.step, s.step_since = food, "tag", now
    return [
        public("inspected", f"{name(s, seat)} looks at Food #{food} and must now tag it.", seat=seat, food=food),
        private(seat, "inspect_result", f"You inspect Food #{food}: it is {s.kinds[food].upper()}.",
                food=food, kind=s.kinds[food]),
    ]


def launch(s: S, play: Play, now: int) -> list[Event]:
    pod = [play.seat] + list(play.args["passengers"])
    if not s.pod_ok(pod):
        return [public("fizzle", "The pod no longer has the fuel to launch.")]
    return flow.launch(s, play.seat, pod, now)


def antidote(s: S, play: Play, now: int) -> list[Event]:
    """Antidote: the Food does no harm if eaten this turn."""
    food = play.args["food"]
    if s.stash_of(food) is None:
        return [public("fizzle", "That Food is gone: the Antidote is wasted.")]
    s.antidote[food] = s.turn_no
    return [public("antidote", f"Food #{food} is protected by an Antidote this turn.", food=food)]


def lockout(s: S, play: Play, now: int) -> list[Event]:
    """Lockout (designed): no Food in or out of stashes, no Inspect, until the player who
    played it starts their next turn."""
    target = play.args["target"]
    if s.dead[target]:
        return []
    s.locked[target] = play.seat
    s.offers = [o for o in s.offers if not (target in (o.by, o.to) and (o.give_food or o.want_food) is not None)]
    return [public("locked", f"{name(s, target)} is locked out of the stashes until "
                   f"{name(s, play.seat)}'s next turn.", seat=target, by=play.seat)]


def steal(s: S, play: Play, now: int) -> list[Event]:
    """Steal pair (designed): take 1 Fuel, or one Food with its tag, from another player."""
    seat, target, what = play.seat, play.args["target"], play.args["what"]
    thief, victim = name(s, seat), name(s, target)
    if what == "fuel":
        if not s.fuel[target] or s.fuel_room(seat) <= 0:
            return [public("fizzle", "There is no Fuel to steal.")]
        flow.move_fuel(s, target, seat)
        return [public("stolen", f"{thief} steals 1 Fuel from {victim}.", seat=seat, target=target)]
    food = play.args["food"]
    if food not in s.stashes[target] or not can_take_food(s, seat):
        return [public("fizzle", "That Food can no longer be stolen.")]
    s.stashes[target].remove(food)
    s.stashes[seat].append(food)
    return [public("stolen", f"{thief} steals Food #{food} from {victim}'s stash.", seat=seat,
                   target=target, food=food)]


def can_take_food(s: S, seat: int) -> bool:
    """Taking Food into your stash needs room, and neither Quarantine nor Lockout."""
    return s.can_add_food(seat) and s.room(seat) > 0


def butt_in(s: S, play: Play, now: int) -> list[Event]:
    """Butt In (designed): an extra Event stage now; the Action stage carries on after."""
    return flow.begin_event(s, now, extra=True)


EFFECTS: dict[str, Callable[[S, Play, int], list[Event]]] = {
    "inspect": inspect, "launch": launch, "antidote": antidote, "lockout": lockout,
    "steal": steal, "butt_in": butt_in,
}
