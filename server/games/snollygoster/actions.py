"""Snollygoster: what each seat may do now (``legal``) and doing it (``perform``).

Each action type has a checker that raises ``IllegalAction`` with a sentence a player
understands, and then does it on the (already copied) state. ``legal`` lists, for one
seat, a bounded representative set; ``perform`` accepts any valid action.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Callable, Hashable, Iterable

from server.engine import Action, Event, IllegalAction, private, public, require
from server.engine.kept import interned, kept

from . import flow, windows
from .cards import AGENDA_NAMES, FEED_FUEL, FOOD_KINDS, FUEL_CAP, QUARANTINE_EXIT_FUEL, STASH_SIZE
from .cards import is_food, pod_fuel
from .flow import name
from .state import Offer, Play, SnollygosterState

S = SnollygosterState
MAX_OFFERS_PER_TURN = 2  # designed: keeps the table from being flooded with offers


# ---- reading an action -------------------------------------------------------------------------

def _int(action: Action, key: str, what: str) -> int:
    value = action.get(key)
    require(isinstance(value, int) and not isinstance(value, bool), f"Say which {what} ({key!r}).")
    return value


def _seat(s: S, action: Action, key: str = "target") -> int:
    seat = _int(action, key, "player")
    require(0 <= seat < s.n, "There is no such player.")
    return seat


def _food(s: S, action: Action, key: str = "food") -> int:
    food = _int(action, key, "Food")
    require(s.stash_of(food) is not None, "There is no such Food on the table.")
    return food


def _opt_food(s: S, action: Action, key: str) -> int | None:
    return None if action.get(key) is None else _food(s, action, key)


# ---- when a seat may act -------------------------------------------------------------------------

def acking(s: S) -> bool:
    """A chosen Food is waiting for everyone's acknowledgement."""
    return s.eating is not None and s.eating.food is not None


def any_time_ok(s: S, seat: int) -> bool:
    """Any-time cards: in play, no card window open, and the seat alive."""
    return s.phase == "play" and s.window is None and not s.dead[seat]


def need_step(s: S, seat: int, step: str) -> None:
    require(s.phase == "play", "The game is not under way.")
    require(s.window is None, "Wait: a card is waiting for answers.")
    require(not acking(s), "Wait: a Food is about to be eaten.")
    require(seat == s.turn, f"It is {name(s, s.turn)}'s turn.")
    words = {"action": "your Action stage", "event": "choosing an Event card", "eat": "eating",
             "tag": "tagging the Food you inspected"}
    require(s.step == step, f"That is for {words[step]}, which is not now.")


def need_card(s: S, seat: int, card: str, count: int = 1) -> None:
    require(s.hands[seat].count(card) >= count,
            f"You need {'a pair of' if count == 2 else 'a'} {flow.card_name(card)} card{'s' if count > 1 else ''}.")


# ---- the Action stage -------------------------------------------------------------------------

def do_end_actions(s: S, seat: int, action: Action, now: int) -> list[Event]:
    """End the Action stage: on to the Event stage."""
    need_step(s, seat, "action")
    return flow.begin_event(s, now)


def do_discard(s: S, seat: int, action: Action, now: int) -> list[Event]:
    """Action stage: discard any card from your hand."""
    need_step(s, seat, "action")
    card = action.get("card")
    require(isinstance(card, str) and card in s.hands[seat], "You have no such card.")
    s.hands[seat].remove(card)
    s.action_discard.append(card)
    return [public("discard", f"{name(s, seat)} discards {flow.card_name(card)}.", seat=seat, card=card)]


def inspect_targets(s: S, seat: int) -> list[int]:
    """Untagged Food anywhere, while you have a Tag card and are not locked out."""
    if s.tags_left[seat] <= 0 or seat in s.locked:
        return []
    return [f for f in s.all_foods() if f not in s.tags]


def do_inspect(s: S, seat: int, action: Action, now: int) -> list[Event]:
    need_step(s, seat, "action")
    need_card(s, seat, "inspect")
    require(s.tags_left[seat] > 0, "All five of your Tag cards are in use: you cannot inspect.")
    require(seat not in s.locked, "You are locked out of the stashes.")
    food = _food(s, action)
    require(food not in s.tags, "That Food is already tagged; only untagged Food can be inspected.")
    return windows.open_window(s, Play(seat, "inspect", {"food": food}), now)


def do_tag(s: S, seat: int, action: Action, now: int) -> list[Event]:
    """Tag the inspected Food safe or unsafe — you may lie."""
    need_step(s, seat, "tag")
    claim = action.get("claim")
    require(claim in FOOD_KINDS, "Tag it 'safe' or 'unsafe'.")
    food = s.inspecting
    s.inspecting, s.step, s.step_since = None, "action", now
    if food is None or s.stash_of(food) is None or food in s.tags:
        return [public("fizzle", "The Food is no longer there to tag.")]
    s.tags[food] = (seat, claim)
    s.tags_left[seat] -= 1
    return [public("tag", f"{name(s, seat)} tags Food #{food} {claim.upper()}.", seat=seat, food=food,
                   claim=claim)]


def do_lockout(s: S, seat: int, action: Action, now: int) -> list[Event]:
    need_step(s, seat, "action")
    need_card(s, seat, "lockout")
    target = _seat(s, action)
    require(target != seat and not s.dead[target], "Lock out another living player.")
    return windows.open_window(s, Play(seat, "lockout", {"target": target}), now)


def steal_options(s: S, seat: int) -> list[Action]:
    out: list[Action] = []
    for target in s.others_alive(seat):
        if s.fuel[target] and s.fuel_room(seat) > 0:
            out.append({"type": "steal", "target": target, "what": "fuel"})
        if windows.can_take_food(s, seat):
            out += [{"type": "steal", "target": target, "what": "food", "food": f} for f in s.stashes[target]]
    return out


def do_steal(s: S, seat: int, action: Action, now: int) -> list[Event]:
    need_step(s, seat, "action")
    need_card(s, seat, "steal", 2)
    target = _seat(s, action)
    require(target != seat and not s.dead[target], "Steal from another living player.")
    what = action.get("what")
    require(what in ("fuel", "food"), "Steal 'fuel' or 'food'.")
    args: dict[str, Any] = {"target": target, "what": what}
    if what == "fuel":
        require(bool(s.fuel[target]), f"{name(s, target)} has no Fuel.")
        require(s.fuel_room(seat) > 0, "You already hold five Fuel.")
    else:
        food = _food(s, action)
        require(food in s.stashes[target], f"That Food is not in {name(s, target)}'s stash.")
        require(windows.can_take_food(s, seat), "You cannot take Food into your stash now.")
        args["food"] = food
    return windows.open_window(s, Play(seat, "steal", args), now)


def do_butt_in(s: S, seat: int, action: Action, now: int) -> list[Event]:
    need_step(s, seat, "action")
    need_card(s, seat, "butt_in")
    return windows.open_window(s, Play(seat, "butt_in", {}), now)


def do_feed(s: S, seat: int, action: Action, now: int) -> list[Event]:
    """Give a player 1 Fuel and they eat the Food of your choice from their stash
    (designed reading of the rulebook's "give a player one fuel to eat any one food")."""
    need_step(s, seat, "action")
    require(len(s.fuel[seat]) >= FEED_FUEL, "You need a Fuel to give.")
    target = _seat(s, action)
    require(target != seat and not s.dead[target], "Choose another living player.")
    food = _food(s, action)
    require(food in s.stashes[target], f"That Food is not in {name(s, target)}'s stash.")
    got = flow.move_fuel(s, seat, target, FEED_FUEL)
    note = "" if got else " (they already hold five, so it is discarded)"
    events = [public("feed", f"{name(s, seat)} gives {name(s, target)} 1 Fuel{note} to make them eat "
                     f"Food #{food}.", seat=seat, target=target, food=food)]
    return events + flow.begin_eating(s, target, 1, "fed", now, by=seat, food=food)


# ---- any time ------------------------------------------------------------------------------------

@interned(size=4096)
def pods(fuel: int, others: tuple[tuple[int, int], ...]) -> list[Action]:
    """The Launches of a seat holding ``fuel`` Fuel, given each other seat that may fly and
    its Fuel: every choice of passengers whose Fuel, with the launcher's, meets the pod's
    table (``s.pod_ok``). Kept: nobody may change the list or its actions."""
    out: list[Action] = []
    for k in range(len(others) + 1):
        need = pod_fuel(k + 1)
        for group in combinations(others, k):
            if fuel + sum(f for _, f in group) >= need:
                out.append({"type": "launch", "passengers": [p for p, _ in group]})
    return out


def do_launch(s: S, seat: int, action: Action, now: int) -> list[Event]:
    require(any_time_ok(s, seat), "You cannot play a card now.")
    need_card(s, seat, "launch")
    require(s.can_fly(seat), "You cannot leave the planet while in Quarantine.")
    passengers = action.get("passengers")
    require(isinstance(passengers, list) and all(isinstance(p, int) and not isinstance(p, bool)
                                                   for p in passengers), "List the passengers by seat.")
    require(len(set(passengers)) == len(passengers) and seat not in passengers
            and all(0 <= p < s.n for p in passengers), "List each other passenger once.")
    for p in passengers:
        require(not s.dead[p], f"{name(s, p)} is dead.")
        require(not s.quarantined[p], f"{name(s, p)} is in Quarantine and cannot leave the planet.")
    pod = [seat, *passengers]
    require(s.pod_ok(pod), f"{len(pod)} aboard need {pod_fuel(len(pod))} Fuel together; "
            f"you have {sum(len(s.fuel[p]) for p in pod)}.")
    return windows.open_window(s, Play(seat, "launch", {"passengers": list(passengers)}), now)


def do_antidote(s: S, seat: int, action: Action, now: int) -> list[Event]:
    require(any_time_ok(s, seat), "You cannot play a card now.")
    need_card(s, seat, "antidote")
    food = _food(s, action)
    return windows.open_window(s, Play(seat, "antidote", {"food": food}), now)


def do_denied(s: S, seat: int, action: Action, now: int) -> list[Event]:
    require(s.phase == "play" and s.window is not None, "There is no card to deny.")
    require(seat in s.window.waiting, "You have already let this card go.")
    need_card(s, seat, "denied")
    return windows.deny(s, seat, now)


def do_pass(s: S, seat: int, action: Action, now: int) -> list[Event]:
    """Let the card (or the chosen Food) go."""
    waiting = s.window.waiting if s.window is not None else (s.eating.waiting if acking(s) else [])  # type: ignore[union-attr]
    require(s.phase == "play" and seat in waiting, "Nothing is waiting for your answer.")
    return windows.pass_window(s, seat, now)


def do_leave_quarantine(s: S, seat: int, action: Action, now: int) -> list[Event]:
    """Discard a pair of Fuel to leave Quarantine (any moment you could play a card)."""
    require(any_time_ok(s, seat), "Not now.")
    require(s.quarantined[seat], "You are not in Quarantine.")
    require(len(s.fuel[seat]) >= QUARANTINE_EXIT_FUEL, "Leaving Quarantine takes two Fuel.")
    for _ in range(QUARANTINE_EXIT_FUEL):
        flow.discard_event(s, s.fuel[seat].pop(), reveal=True)
    s.quarantined[seat] = False
    return [public("unquarantined", f"{name(s, seat)} discards two Fuel and leaves Quarantine.", seat=seat)]


# ---- the Event stage and eating ---------------------------------------------------------------------

def food_stashes(s: S, seat: int) -> list[int]:
    """Where ``seat`` may put a Food it keeps: any living stash with room."""
    if not s.can_add_food(seat):
        return []
    return [p for p in s.alive() if s.room(p) > 0]


def ransom_targets(s: S, seat: int) -> list[int]:
    return [p for p in s.others_alive(seat) if s.fuel[p]]


def keep_options(s: S, seat: int) -> list[Action]:
    out: list[Action] = []
    for i, card in enumerate(s.drawn):
        kind = s.kinds[card]
        if is_food(kind) and food_stashes(s, seat):
            out += [{"type": "keep", "card": i, "stash": p} for p in food_stashes(s, seat)]
        elif kind == "ransom" and ransom_targets(s, seat):
            out += [{"type": "keep", "card": i, "target": p} for p in ransom_targets(s, seat)]
        else:
            out.append({"type": "keep", "card": i})
    return out


def do_keep(s: S, seat: int, action: Action, now: int) -> list[Event]:
    need_step(s, seat, "event")
    index = _int(action, "card", "card to keep (0 or 1)")
    require(0 <= index < len(s.drawn), "Keep one of the cards you drew.")
    kind = s.kinds[s.drawn[index]]
    stash = target = None
    if is_food(kind) and food_stashes(s, seat):
        stash = _seat(s, action, "stash")
        require(stash in food_stashes(s, seat), f"{name(s, stash)}'s stash has no room.")
    elif action.get("stash") is not None:
        raise IllegalAction("You cannot put Food into a stash now: a kept Food is discarded.")
    if kind == "ransom" and ransom_targets(s, seat):
        target = _seat(s, action)
        require(target in ransom_targets(s, seat), "Name another living player who has Fuel.")
    return flow.keep(s, index, stash, target, now)


def do_eat(s: S, seat: int, action: Action, now: int) -> list[Event]:
    need_step(s, seat, "eat")
    assert s.eating is not None
    require(seat == s.eating.eater, "You are not the one eating.")
    food = _food(s, action)
    require(food in s.stashes[seat], "Eat a Food from your own stash.")
    return flow.choose_food(s, food, now)


# ---- trading Fuel ------------------------------------------------------------------------------------

def trade_problem(s: S, o: Offer) -> str | None:
    """Why this trade cannot happen now, or ``None``."""
    a, b = o.by, o.to
    if s.dead[a] or s.dead[b]:
        return "Both players must be alive."
    if o.give_fuel > len(s.fuel[a]) or o.want_fuel > len(s.fuel[b]):
        return "Not enough Fuel for that trade."
    if len(s.fuel[a]) - o.give_fuel + o.want_fuel > FUEL_CAP or len(s.fuel[b]) + o.give_fuel - o.want_fuel > FUEL_CAP:
        return "Nobody may hold more than five Fuel."
    foods = (o.give_food, o.want_food)
    if any(f is not None for f in foods) and (a in s.locked or b in s.locked):
        return "A locked-out player cannot trade Food."
    if o.give_food is not None and o.give_food not in s.stashes[a]:
        return "The Food offered is not in the offerer's stash."
    if o.want_food is not None and o.want_food not in s.stashes[b]:
        return "The Food wanted is not in that stash."
    for taker, gets, loses in ((b, o.give_food, o.want_food), (a, o.want_food, o.give_food)):
        if gets is not None and (s.quarantined[taker] or len(s.stashes[taker]) - (loses is not None) + 1 > STASH_SIZE):
            return f"{name(s, taker)} cannot take that Food into their stash."
    if not (o.give_fuel or o.want_fuel or any(f is not None for f in foods)):
        return "Offer or ask for something."
    return None


def trading_ok(s: S, seat: int) -> bool:
    return s.phase == "play" and s.window is None and s.eating is None and not s.dead[seat]


def trade_table(s: S) -> Hashable:
    """What ``offers_open`` reads of the table: who lives, everyone's Fuel and stash, and
    who is locked out."""
    return tuple(s.dead), tuple(map(len, s.fuel)), tuple(map(tuple, s.stashes)), tuple(s.locked)


@kept(lambda s, seat, table: (seat, s.quarantined[seat], table), None)
def offers_open(s: S, seat: int, table: Hashable) -> list[Action]:
    """The offers ``seat`` may make (while it may trade): a Fuel to each other living
    player, a Fuel from them, or a Fuel for each Food in their stash, whichever the trade
    rules allow (``trade_problem``). Kept by ``table`` (``trade_table(s)``) and whether
    ``seat`` is in Quarantine: nobody may change the list or its actions."""
    out: list[Action] = []
    for to in s.others_alive(seat):
        wishes = [Offer(seat, to, give_fuel=1)] * bool(s.fuel[seat]) + [Offer(seat, to, want_fuel=1)] * bool(s.fuel[to])
        wishes += [Offer(seat, to, give_fuel=1, want_food=f) for f in s.stashes[to] if s.fuel[seat]]
        out += [{"type": "offer", "to": to, "give_fuel": o.give_fuel, "want_fuel": o.want_fuel, "give_food": None,
                 "want_food": o.want_food} for o in wishes if trade_problem(s, o) is None]
    return out


def do_offer(s: S, seat: int, action: Action, now: int) -> list[Event]:
    """Offer a trade of Fuel (and Food) to another player; they accept or decline."""
    require(trading_ok(s, seat), "You cannot trade now.")
    require(s.offers_made[seat] < MAX_OFFERS_PER_TURN, "You have made your two offers this turn.")
    to = _seat(s, action, "to")
    require(to != seat, "Trade with another player.")
    amounts = {k: action.get(k, 0) for k in ("give_fuel", "want_fuel")}
    require(all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= FUEL_CAP for v in amounts.values()),
            "Fuel amounts are whole numbers from 0 to 5.")
    offer = Offer(seat, to, amounts["give_fuel"], amounts["want_fuel"],
                  _opt_food(s, action, "give_food"), _opt_food(s, action, "want_food"))
    problem = trade_problem(s, offer)
    require(problem is None, problem or "")
    s.offers = [o for o in s.offers if (o.by, o.to) != (seat, to)] + [offer]
    s.offers_made[seat] += 1
    return [public("offer", f"{name(s, seat)} offers {name(s, to)} a trade: {trade_words(s, offer)}.",
                   **offer.to_json())]


def trade_words(s: S, o: Offer) -> str:
    give = [f"{o.give_fuel} Fuel"] * bool(o.give_fuel) + [f"Food #{o.give_food}"] * (o.give_food is not None)
    want = [f"{o.want_fuel} Fuel"] * bool(o.want_fuel) + [f"Food #{o.want_food}"] * (o.want_food is not None)
    return f"gives {' and '.join(give) or 'nothing'} for {' and '.join(want) or 'nothing'}"


def _offer_to(s: S, seat: int, action: Action) -> Offer:
    by = _seat(s, action, "by")
    offer = next((o for o in s.offers if o.by == by and o.to == seat), None)
    require(offer is not None, "There is no such offer to you.")
    assert offer is not None
    return offer


def do_accept(s: S, seat: int, action: Action, now: int) -> list[Event]:
    require(trading_ok(s, seat), "You cannot trade now.")
    o = _offer_to(s, seat, action)
    problem = trade_problem(s, o)
    require(problem is None, problem or "")
    s.offers.remove(o)
    for _ in range(o.give_fuel):
        s.fuel[o.to].append(s.fuel[o.by].pop())
    for _ in range(o.want_fuel):
        s.fuel[o.by].append(s.fuel[o.to].pop())
    if o.give_food is not None:
        s.stashes[o.by].remove(o.give_food)
        s.stashes[o.to].append(o.give_food)
    if o.want_food is not None:
        s.stashes[o.to].remove(o.want_food)
        s.stashes[o.by].append(o.want_food)
    return [public("trade", f"{name(s, seat)} accepts: {name(s, o.by)} {trade_words(s, o)}.", **o.to_json())]


def do_decline(s: S, seat: int, action: Action, now: int) -> list[Event]:
    require(s.phase == "play", "The game is not under way.")
    o = _offer_to(s, seat, action)
    s.offers.remove(o)
    return [public("decline", f"{name(s, seat)} declines {name(s, o.by)}'s offer.", by=o.by, to=seat)]


def do_withdraw(s: S, seat: int, action: Action, now: int) -> list[Event]:
    require(s.phase == "play", "The game is not under way.")
    to = _seat(s, action, "to")
    offer = next((o for o in s.offers if o.by == seat and o.to == to), None)
    require(offer is not None, "You have no offer to that player.")
    s.offers.remove(offer)  # type: ignore[arg-type]
    return [public("withdraw", f"{name(s, seat)} withdraws their offer to {name(s, to)}.", by=seat, to=to)]


# ---- setup and the end --------------------------------------------------------------------------------

def do_seed(s: S, seat: int, action: Action, now: int) -> list[Event]:
    """Setup: take a safe or unsafe Food from the Event deck and put it face down in any
    stash (at most 3 a stash)."""
    require(s.phase == "seed", "Seeding is over.")
    require(seat == s.seeding[0], f"It is {name(s, s.seeding[0])}'s turn to seed a Food.")
    kind = action.get("kind")
    require(kind in FOOD_KINDS, "Choose a 'safe' or 'unsafe' Food.")
    stash = _seat(s, action, "stash")
    require(s.room(stash) > 0, f"{name(s, stash)}'s stash is full.")
    choices = [c for c in s.event_deck if s.kinds[c] == kind]
    require(bool(choices), f"There is no {kind} Food left in the deck.")
    card = s.rng.choice(choices)
    s.event_deck.remove(card)
    flow.place_food(s, seat, card, stash)
    s.seeding.pop(0)
    events = [public("seed", f"{name(s, seat)} puts a Food (#{card}) face down in {flow.whose_stash(s, seat, stash)}.",
                     seat=seat, stash=stash, food=card),
              private(seat, "food_known", f"You seeded {flow.a_food(kind)} (#{card}).", food=card, kind=kind)]
    if s.seeding:
        s.turn, s.step_since = s.seeding[0], now
        return events
    s.rng.shuffle(s.event_deck)
    s.phase = "play"
    first = (s.dealer + 1) % s.n
    s.turn = first
    return events + [public("start", "Every Food is in place: the game begins.")] + flow.start_turn(s, first, now)


def do_guess(s: S, seat: int, action: Action, now: int) -> list[Event]:
    """Sleuth: guess another player's hidden agenda (once each; the other Sleuth has
    revealed theirs, so it is no guess)."""
    require(s.phase == "guess" and seat in s.guessing, "Only a Sleuth guesses, at the end.")
    other = _seat(s, action, "seat")
    require(other != seat, "Guess someone else's agenda.")
    require(other not in s.revealed_agendas, f"{name(s, other)}'s agenda is already revealed: guess a hidden one.")
    require(other not in s.guesses.get(seat, {}), "You have already guessed that player.")
    agenda = action.get("agenda")
    require(agenda in AGENDA_NAMES, "Name one of the agendas.")
    s.guesses.setdefault(seat, {})[other] = agenda
    return [public("guess", f"{name(s, seat)} guesses that {name(s, other)} is the {agenda}.",
                   seat=seat, other=other, agenda=agenda)]


def do_done(s: S, seat: int, action: Action, now: int) -> list[Event]:
    require(s.phase == "guess" and seat in s.guessing, "Only a Sleuth guesses, at the end.")
    s.guessing.remove(seat)
    return flow.finish(s) if not s.guessing else []


def guess_options(s: S, seat: int) -> list[Action]:
    if s.phase != "guess" or seat not in s.guessing:
        return []
    mine = s.guesses.get(seat, {})
    return [{"type": "done"}] + [{"type": "guess", "seat": p, "agenda": a} for p in range(s.n)
                                 if p not in s.revealed_agendas and p not in mine for a in AGENDA_NAMES]


HANDLERS: dict[str, Callable[[S, int, Action, int], list[Event]]] = {
    "seed": do_seed, "end_actions": do_end_actions, "discard": do_discard, "inspect": do_inspect,
    "tag": do_tag, "lockout": do_lockout, "steal": do_steal, "butt_in": do_butt_in, "feed": do_feed,
    "launch": do_launch, "antidote": do_antidote, "denied": do_denied, "pass": do_pass,
    "leave_quarantine": do_leave_quarantine, "keep": do_keep, "eat": do_eat, "offer": do_offer,
    "accept": do_accept, "decline": do_decline, "withdraw": do_withdraw, "guess": do_guess,
    "done": do_done,
}


def perform(s: S, seat: int, action: Action, now: int) -> list[Event]:
    kind = action.get("type")
    handler = HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise IllegalAction(f"Unknown action {kind!r}; Snollygoster knows {', '.join(sorted(HANDLERS))}.")
    return handler(s, seat, action, now)


# ---- legal -------------------------------------------------------------------------------------------

def legal(s: S, seat: int) -> list[Action]:
    """What ``seat`` may do now."""
    return legals(s, (seat,))[seat]


def legals(s: S, seats: Iterable[int]) -> dict[int, list[Action]]:
    """What each of ``seats`` may do now: the seeder seeds, the Sleuths guess; in play a
    seat the open card waits on passes or denies it; else a living seat acknowledges the
    Food about to be eaten (if asked to), takes its turn step, plays any-time cards (Launch,
    Antidote), leaves Quarantine, and trades. What the seats' options share (the Food on
    the table, the facts of a trade) is worked out once for them all."""
    if s.phase == "seed":
        return {seat: seed_options(s) if seat == s.seeding[0] else [] for seat in seats}
    if s.phase == "guess":
        return {seat: guess_options(s, seat) for seat in seats}
    if s.phase != "play":
        return {seat: [] for seat in seats}
    dead, hands = s.dead, s.hands
    if s.window is not None:
        waiting = s.window.waiting
        return {seat: [] if dead[seat] or seat not in waiting else
                [{"type": "pass"}] + ([{"type": "denied"}] if "denied" in hands[seat] else []) for seat in seats}
    eating = s.eating
    acking_now = eating is not None and eating.food is not None
    ack = eating.waiting if acking_now else ()  # type: ignore[union-attr]
    trade = trade_table(s) if eating is None else None
    foods: list[int] | None = None
    out: dict[int, list[Action]] = {}
    for seat in seats:
        if dead[seat]:
            out[seat] = []
            continue
        hand = hands[seat]
        mine: list[Action] = [{"type": "pass"}] if seat in ack else []
        if seat == s.turn and not acking_now:
            mine += step_options(s, seat)
        if "launch" in hand and not s.quarantined[seat]:
            mine += pods(len(s.fuel[seat]), tuple([(p, len(f)) for p, f in enumerate(s.fuel)
                                                   if p != seat and not dead[p] and not s.quarantined[p]]))
        if "antidote" in hand:
            if foods is None:
                foods = s.all_foods()
            mine += [{"type": "antidote", "food": f} for f in foods]
        if s.quarantined[seat] and len(s.fuel[seat]) >= QUARANTINE_EXIT_FUEL:
            mine.append({"type": "leave_quarantine"})
        if trade is not None and s.offers_made[seat] < MAX_OFFERS_PER_TURN:
            mine += offers_open(s, seat, trade)
        if s.offers:
            if trade is not None:
                mine += [{"type": "accept", "by": o.by} for o in s.offers
                         if o.to == seat and trade_problem(s, o) is None]
            mine += [{"type": "decline", "by": o.by} for o in s.offers if o.to == seat]
            mine += [{"type": "withdraw", "to": o.to} for o in s.offers if o.by == seat]
        out[seat] = mine
    return out


def seed_options(s: S) -> list[Action]:
    """The seeder's choices: a safe or an unsafe Food, into any stash with room."""
    return [{"type": "seed", "kind": k, "stash": p} for k in FOOD_KINDS for p in range(s.n) if s.room(p) > 0]


def step_options(s: S, seat: int) -> list[Action]:
    """The choices of the seat whose turn step it is (in play, with no card waiting for
    answers and no Food for acknowledgement)."""
    step = s.step
    if step == "action":
        return action_stage_options(s, seat)
    if step == "event":
        return keep_options(s, seat)
    if step == "tag":
        return [{"type": "tag", "claim": c} for c in FOOD_KINDS]
    if step == "eat" and s.eating is not None and seat == s.eating.eater:
        return [{"type": "eat", "food": f} for f in s.stashes[seat]]
    return []


def action_stage_options(s: S, seat: int) -> list[Action]:
    hand = s.hands[seat]
    out: list[Action] = [{"type": "end_actions"}]
    out += [{"type": "discard", "card": c} for c in sorted(set(hand))]
    if "inspect" in hand:
        out += [{"type": "inspect", "food": f} for f in inspect_targets(s, seat)]
    if "lockout" in hand:
        out += [{"type": "lockout", "target": p} for p in s.others_alive(seat)]
    if hand.count("steal") >= 2:
        out += steal_options(s, seat)
    if "butt_in" in hand:
        out.append({"type": "butt_in"})
    if len(s.fuel[seat]) >= FEED_FUEL:
        out += [{"type": "feed", "target": p, "food": f} for p in s.others_alive(seat) for f in s.stashes[p]]
    return out


__all__ = ["legal", "perform"]
