"""Snollygoster: how the game moves on — turns, Event stages, eating, response windows,
death and the end. Every function here works on a fresh copy of the state (the caller
cloned it) and returns the events it caused.
"""

from __future__ import annotations

from server.engine import Event, private, public

from .cards import ACTION_CARDS, AGENDAS, EVENT_CARDS, FUEL_CAP, HAND_SIZE, HUNGER, is_food
from .scoring import outcome
from .state import Eating, SnollygosterState

S = SnollygosterState


# ---- small helpers ---------------------------------------------------------------------------

def name(s: S, seat: int) -> str:
    return s.players[seat]


def card_name(kind: str) -> str:
    card = ACTION_CARDS.get(kind) or EVENT_CARDS[kind]
    return card.name


def a_food(kind: str) -> str:
    """"a safe Food" / "an unsafe Food"."""
    return f"{'an' if kind[0] in 'aeiou' else 'a'} {kind} Food"


def food_label(s: S, food: int) -> str:
    """How a Food is named in the log: its number and its tag, never its safety ("Food #52
    (tagged safe by Bo)", which reads right in the middle of a sentence too)."""
    tag = s.tags.get(food)
    said = f" (tagged {tag[1]} by {name(s, tag[0])})" if tag else ""
    return f"Food #{food}{said}"


def forget(s: S, cards: list[int]) -> None:
    """Cards shuffled into the Event deck: where each one is, nobody knows any more."""
    for c in cards:
        s.public_kind[c] = False
        s.public_food[c] = False
        s.known[c] = {}


def reshuffle_events(s: S, extra: list[int]) -> None:
    """Put ``extra`` and the Event discard pile into the deck and shuffle it all."""
    s.event_deck += extra + s.event_discard
    s.event_discard = []
    s.rng.shuffle(s.event_deck)
    forget(s, s.event_deck)


def draw_event(s: S) -> int | None:
    """The top Event card; an empty deck is first refilled from the discard pile."""
    if not s.event_deck and s.event_discard:
        reshuffle_events(s, [])
    return s.event_deck.pop() if s.event_deck else None


def draw_action(s: S) -> str | None:
    """The top Action card; an empty deck is first refilled from the discard pile."""
    if not s.action_deck and s.action_discard:
        s.action_deck, s.action_discard = s.action_discard, []
        s.rng.shuffle(s.action_deck)
    return s.action_deck.pop() if s.action_deck else None


def discard_event(s: S, card: int, reveal: bool) -> None:
    """An Event card to the discard pile, face up (``reveal``) or face down."""
    s.public_kind[card] = s.public_kind[card] or reveal
    s.event_discard.append(card)


def return_tag(s: S, food: int) -> None:
    """A Food leaves the table: the Tag card on it goes back to its owner."""
    tag = s.tags.pop(food, None)
    if tag is not None:
        s.tags_left[tag[0]] += 1
    s.antidote.pop(food, None)


def discard_hand(s: S, seat: int) -> list[str]:
    hand, s.hands[seat] = s.hands[seat], []
    s.action_discard += hand
    return hand


def move_fuel(s: S, giver: int, taker: int, count: int = 1) -> int:
    """Fuel passes from ``giver`` to ``taker``; any beyond the taker's 5 is discarded.
    Returns how many arrived."""
    arrived = 0
    for _ in range(count):
        card = s.fuel[giver].pop()
        if len(s.fuel[taker]) < FUEL_CAP:
            s.fuel[taker].append(card)
            arrived += 1
        else:
            discard_event(s, card, reveal=True)
    return arrived


def place_food(s: S, seat: int, food: int, stash: int, how: str = "placed") -> None:
    """``seat`` puts ``food`` face down in ``stash``; only they know what it is."""
    s.stashes[stash].append(food)
    s.public_food[food] = True
    s.learn(food, seat, how)
    s.placed_by[food] = seat


# ---- turns -----------------------------------------------------------------------------------

def position(s: S, seat: int) -> int:
    """Places after the dealer: the player left of the dealer is first."""
    return (seat - s.dealer - 1) % s.n


def start_turn(s: S, seat: int, now: int) -> list[Event]:
    """Draw stage: draw Action cards up to four, then the Action stage begins."""
    if s.turn_no == 0 or position(s, seat) <= position(s, s.turn):
        s.round_no += 1
    s.turn, s.turn_no = seat, s.turn_no + 1
    if s.round_no > s.options.round_limit:
        return end_by_round_limit(s, now)
    s.locked = {t: by for t, by in s.locked.items() if by != seat}
    s.offers, s.offers_made = [], [0] * s.n
    s.step, s.step_since, s.extra_event = "action", now, False
    events = [public("turn", f"{name(s, seat)}'s turn (round {s.round_no}).", seat=seat,
                     round=s.round_no, turn=s.turn_no)]
    drawn: list[str] = []
    while len(s.hands[seat]) < HAND_SIZE:
        card = draw_action(s)
        if card is None:
            break
        s.hands[seat].append(card)
        drawn.append(card)
    if drawn:
        events.append(public("draw", f"{name(s, seat)} draws {len(drawn)} Action card{'' if len(drawn) == 1 else 's'}.",
                             seat=seat, count=len(drawn)))
        events.append(private(seat, "drew", "You draw " + ", ".join(card_name(c) for c in drawn) + ".",
                              cards=drawn))
    return events


def end_turn(s: S, now: int) -> list[Event]:
    """The turn passes clockwise to the next living player."""
    s.drawn, s.eating, s.inspecting = [], None, None
    alive = s.alive()
    if s.phase != "play" or not alive:
        return []
    nxt = next(p for p in ((s.turn + k) % s.n for k in range(1, s.n + 1)) if not s.dead[p])
    return start_turn(s, nxt, now)


# ---- the Event stage --------------------------------------------------------------------------

def all_stashes_full(s: S) -> bool:
    return all(s.room(p) == 0 for p in s.alive())


def pair_is_void(s: S, seat: int, kinds: list[str]) -> str | None:
    """The rulebook's special cases for two drawn Event cards: why they are thrown away
    (``quarantine``: both discarded, no redraw; ``fuel``/``food``: discard both and draw
    again), or ``None`` when the player chooses between them."""
    if len(kinds) < 2:
        return None
    if all(is_food(k) for k in kinds):
        if s.quarantined[seat]:
            return "quarantine"
        if all_stashes_full(s):
            return "food"
    if kinds == ["fuel", "fuel"] and len(s.fuel[seat]) >= FUEL_CAP:
        return "fuel"
    return None


VOID_TEXT = {
    "quarantine": "{who} is in Quarantine and drew two Food: both go to the discard pile.",
    "food": "{who} drew two Food but every stash is full: both are discarded, and {who} draws again.",
    "fuel": "{who} drew two Fuel but already holds five: both are discarded, and {who} draws again.",
}


def begin_event(s: S, now: int, extra: bool = False) -> list[Event]:
    """Event stage: draw two Event cards, keep one. Special cases are settled at once."""
    seat = s.turn
    s.extra_event = extra
    events = [public("event", f"{name(s, seat)} draws two Event cards.", seat=seat)]
    for _ in range(len(s.kinds)):  # a redraw loop cannot outlast the deck
        cards = [c for c in (draw_event(s), draw_event(s)) if c is not None]
        void = pair_is_void(s, seat, [s.kinds[c] for c in cards])
        if void is None:
            break
        for c in cards:
            discard_event(s, c, reveal=void == "fuel")
            s.public_food[c] = s.public_food[c] or void != "fuel"
            s.learn(c, seat, "seen")
        events.append(public("void", VOID_TEXT[void].format(who=name(s, seat)), seat=seat, why=void))
        if void == "quarantine":
            return events + finish_event(s, now)
    else:  # pragma: no cover - a deck of nothing but void pairs
        cards = []
    if not cards:
        events.append(public("no_event", "The Event deck is empty: nothing happens.", seat=seat))
        return events + finish_event(s, now)
    for c in cards:
        s.learn(c, seat, "seen")
    s.drawn = cards
    s.step, s.step_since = "event", now
    events.append(private(seat, "drew_events", "You draw " + " and ".join(
        card_name(s.kinds[c]) for c in cards) + ".", cards=[s.kinds[c] for c in cards]))
    return events


def finish_event(s: S, now: int) -> list[Event]:
    """After the Event stage the turn ends — unless it was a Butt In's extra one."""
    s.drawn, s.eating = [], None
    if s.phase != "play":
        return []
    if s.extra_event and not s.dead[s.turn]:
        s.extra_event, s.step, s.step_since = False, "action", now
        return []
    return end_turn(s, now)


def keep(s: S, index: int, stash: int | None, target: int | None, now: int) -> list[Event]:
    """Keep one drawn card and put the other on the bottom of the Event deck; then the
    kept card does what it says (validated by the caller)."""
    seat = s.turn
    card = s.drawn[index]
    for other in s.drawn[:index] + s.drawn[index + 1:]:
        s.event_deck.insert(0, other)
    s.drawn = []
    kind = s.kinds[card]
    who = name(s, seat)
    if kind == "fuel":
        if len(s.fuel[seat]) < FUEL_CAP:
            s.fuel[seat].append(card)
            s.public_kind[card] = True
            return [public("fuel", f"{who} keeps a Fuel ({len(s.fuel[seat])} now).", seat=seat)] \
                + finish_event(s, now)
        discard_event(s, card, reveal=True)
        return [public("fuel_wasted", f"{who} keeps a Fuel but already holds five: it is discarded.",
                       seat=seat)] + finish_event(s, now)
    if is_food(kind):
        return keep_food(s, seat, card, stash) + finish_event(s, now)
    s.public_kind[card] = True
    if kind in HUNGER:
        discard_event(s, card, reveal=True)
        events = [public("hunger", f"{who} shows {card_name(kind)} and must eat {HUNGER[kind]}.",
                         seat=seat, card=kind)]
        return events + begin_eating(s, seat, HUNGER[kind], kind, now)
    discard_event(s, card, reveal=True)
    return ransom(s, seat, target) + finish_event(s, now)


def keep_food(s: S, seat: int, card: int, stash: int | None) -> list[Event]:
    """A kept Food goes face down into the chosen stash, unseen by others; a player in
    Quarantine or Lockout, or with every stash full, must discard it."""
    s.public_food[card] = True
    who = name(s, seat)
    if stash is None:
        discard_event(s, card, reveal=False)
        return [public("food_lost", f"{who} keeps a Food but cannot place it: it is discarded.", seat=seat)]
    place_food(s, seat, card, stash)
    return [
        public("food", f"{who} puts a Food (#{card}) face down in {whose_stash(s, seat, stash)}.", seat=seat,
               stash=stash, food=card),
        private(seat, "food_known",
                f"You put {a_food(s.kinds[card])} (#{card}) in {whose_stash(s, seat, stash, you=True)}.",
                food=card, kind=s.kinds[card]),
    ]


def whose_stash(s: SnollygosterState, seat: int, stash: int, you: bool = False) -> str:
    """The stash a Food went to, as the log says it: "your own stash" to the one who put
    it there, "Ann's own stash" to the table, "Bo's stash" for another player's."""
    if stash != seat:
        return f"{name(s, stash)}'s stash"
    return "your own stash" if you else f"{name(s, seat)}'s own stash"


def ransom(s: S, seat: int, target: int | None) -> list[Event]:
    """Ransom (designed): the named player gives you 1 Fuel."""
    who = name(s, seat)
    if target is None:
        return [public("ransom", f"{who} shows Ransom, but nobody else has Fuel.", seat=seat)]
    got = move_fuel(s, target, seat)
    lost = "" if got else " (it is discarded: they already hold five)"
    return [public("ransom", f"{who} shows Ransom: {name(s, target)} gives them 1 Fuel{lost}.",
                   seat=seat, target=target)]


# ---- eating ----------------------------------------------------------------------------------

def begin_eating(s: S, eater: int, count: int, source: str, now: int, by: int | None = None,
                 food: int | None = None) -> list[Event]:
    s.eating = Eating(eater, count, source, by)
    s.step, s.step_since = "eat", now
    if food is not None:
        return choose_food(s, food, now)
    return next_bite(s, now)


def next_bite(s: S, now: int) -> list[Event]:
    """Eat the next Food owed; with none left in the stash, the eater starves."""
    eating = s.eating
    assert eating is not None
    if eating.remaining <= 0:
        return finish_eating(s, now)
    if not s.stashes[eating.eater]:
        events = [public("starved", f"{name(s, eating.eater)} has no Food left and dies of starvation.",
                         seat=eating.eater)]
        events += die(s, [eating.eater], now)
        return events + (finish_eating(s, now) if s.phase == "play" else [])
    s.step_since = now
    return []


def choose_food(s: S, food: int, now: int) -> list[Event]:
    """The chosen Food is shown to everyone, who acknowledge it before it is revealed."""
    eating = s.eating
    assert eating is not None
    eating.food = food
    eating.waiting = s.others_alive(eating.eater)
    eating.deadline = now + s.options.window_ms
    who = name(s, eating.eater)
    how = f": {name(s, eating.by)} paid 1 Fuel and chose it" if eating.by is not None else ""
    events = [public("choose", f"{who} will eat {food_label(s, food)}{how}.", seat=eating.eater,
                     food=food)]
    if not eating.waiting:
        events += reveal(s, now)
    return events


def reveal(s: S, now: int) -> list[Event]:
    """Reveal the chosen Food. Safe: nothing happens. Unsafe: Quarantine (unless an
    Antidote protects it this turn). A wrong tag on it: its tagger lied."""
    eating = s.eating
    assert eating is not None and eating.food is not None
    food, eater = eating.food, eating.eater
    kind = s.kinds[food]
    label = food_label(s, food)
    s.stashes[eater].remove(food)
    protected = s.antidote.get(food) == s.turn_no
    events = [public("reveal", f"{label} was {kind.upper()}.", food=food, kind=kind, seat=eater)]
    s.eaten.append({"food": food, "kind": kind, "eater": eater,
                    "tag": list(s.tags[food]) if food in s.tags else None,
                    "placed_by": s.placed_by.get(food)})
    events += check_tag(s, food, kind)
    placer = s.placed_by.get(food)
    if kind == "safe" and placer is not None and placer != eater:
        s.count("safe_fed", placer)
    return_tag(s, food)
    discard_event(s, food, reveal=True)
    if kind == "unsafe":
        if protected:
            events.append(public("antidote_works", f"The Antidote works: {name(s, eater)} is fine.", seat=eater))
        else:
            events += quarantine(s, eater, placer)
    eating.remaining -= 1
    eating.food, eating.waiting, eating.deadline = None, [], None
    return events + next_bite(s, now)


def check_tag(s: S, food: int, kind: str) -> list[Event]:
    """"You Lied": a tag proven wrong makes its tagger discard their hand at once."""
    tag = s.tags.get(food)
    if tag is None:
        return []
    tagger, claim = tag
    if claim == kind:
        s.count("true_tags", tagger)
        return [public("tag_true", f"{name(s, tagger)}'s tag was right.", seat=tagger)]
    s.count("lies", tagger)
    hand = discard_hand(s, tagger) if not s.dead[tagger] else []
    return [public("you_lied", f"You Lied! {name(s, tagger)} tagged it {claim} and discards their "
                   f"hand ({len(hand)} cards: {', '.join(card_name(c) for c in hand) or 'none'}).",
                   seat=tagger, cards=hand)]


def quarantine(s: S, seat: int, placer: int | None = None) -> list[Event]:
    """Quarantine: the stash is lost (face down) and the player may add no Food. Going
    into it scores for whoever else placed the Food (the Saboteur); a player already in
    Quarantine who eats unsafe Food again loses their stash again but goes nowhere."""
    already = s.quarantined[seat]
    if not already:
        s.count("quarantined", seat)
        if placer is not None and placer != seat:
            s.count("poisoned", placer)
    s.quarantined[seat] = True
    for food in s.stashes[seat]:
        return_tag(s, food)
        discard_event(s, food, reveal=False)
    lost = len(s.stashes[seat])
    s.stashes[seat] = []
    s.offers = [o for o in s.offers if seat not in (o.by, o.to)]
    return [public("quarantine", f"{name(s, seat)} is {'still' if already else 'now'} in Quarantine and loses "
                   f"the {lost} Food left in their stash.", seat=seat, lost=lost)]


def finish_eating(s: S, now: int) -> list[Event]:
    eating, s.eating = s.eating, None
    if eating is not None and eating.source == "fed":
        s.step, s.step_since = "action", now
        return []
    return finish_event(s, now)


# ---- death and the end --------------------------------------------------------------------------

def die(s: S, seats: list[int], now: int) -> list[Event]:
    """Death: the hand goes back into the Action deck, the stash (unseen) and the Fuel
    into the Event deck, both reshuffled with their discard piles. Tags on others' Food
    stay."""
    for seat in seats:
        s.dead[seat] = True
        s.action_deck += s.hands[seat] + s.action_discard
        s.hands[seat], s.action_discard = [], []
        for food in s.stashes[seat]:
            return_tag(s, food)
        back = s.stashes[seat] + s.fuel[seat]
        s.stashes[seat], s.fuel[seat] = [], []
        reshuffle_events(s, back)
        s.locked = {t: by for t, by in s.locked.items() if seat not in (t, by)}
        s.offers = [o for o in s.offers if seat not in (o.by, o.to)]
    s.rng.shuffle(s.action_deck)
    s.death_order.append(list(seats))
    if not s.alive():
        return end_game(s, "everyone died", now)
    return []


def end_by_round_limit(s: S, now: int) -> list[Event]:
    """Designed safety net: after the last round the food runs out; nobody escapes."""
    alive = s.alive()
    s.dead = [True] * s.n
    s.death_order.append(alive)
    events = [public("round_limit", f"Round {s.options.round_limit} is over and nobody launched: "
                     "the food runs out for good and everyone left on the planet dies.")]
    return events + end_game(s, "nobody escaped before the round limit", now)


def launch(s: S, launcher: int, pod: list[int], now: int) -> list[Event]:
    """A successful Launch ends the game; those left behind count as dead."""
    s.launch = {"by": launcher, "pod": pod, "fuel": {p: len(s.fuel[p]) for p in pod}}
    behind = [p for p in s.alive() if p not in pod]
    if behind:
        s.death_order.append(behind)
        for p in behind:
            s.dead[p] = True
    names = ", ".join(name(s, p) for p in pod)
    events = [public("launched", f"The escape pod lifts off with {names}!", by=launcher, pod=pod)]
    return events + end_game(s, "launch", now)


def end_game(s: S, reason: str, now: int) -> list[Event]:
    """The game ends. Sleuths reveal themselves first and guess; then every agenda."""
    s.end_reason = reason
    s.event_deck[:0] = s.drawn  # a pair still being chosen goes back under the deck
    s.window, s.eating, s.offers, s.drawn, s.inspecting = None, None, [], [], None
    sleuths = [p for p in range(s.n) if AGENDAS[s.agendas[p]].rule == "sleuth"]
    s.step, s.step_since = "none", now
    if sleuths:
        s.phase, s.guessing = "guess", sleuths
        s.revealed_agendas = list(sleuths)
        names = ", ".join(name(s, p) for p in sleuths)
        return [public("sleuth", f"The game is over. {names} reveal{'s' if len(sleuths) == 1 else ''} "
                       "the Sleuth agenda and guess the others' agendas.", seats=sleuths)]
    return finish(s)


def finish(s: S) -> list[Event]:
    """Every agenda is revealed, and so is every Food left in the stashes (the agendas
    that check tags and placed Food score on them)."""
    s.phase, s.guessing = "over", []
    s.revealed_agendas = list(range(s.n))
    for food in s.all_foods():
        s.public_kind[food] = True
    result = outcome(s)
    winners = " and ".join(name(s, w) for w in result.winners)
    return [public("game_over", f"Game over: {winners} win{'s' if len(result.winners) == 1 else ''}. "
                   f"{result.reason}", winners=result.winners, scores=result.scores)]
