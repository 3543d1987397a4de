"""Sneaky Supper: the rules.

A turn: draw Search cards one at a time (the first is compulsory; from the 2nd on, once a
turn, the Utensil deck instead), at most 7. Noise of 4 or more is a bust unless Careful
tokens snuff it out. Stop to Retreat: keep the food, complete Recipes, consume one card.
Busted: everyone from the left picks one drawn card. Cravings score at any moment.
Designed rulings are marked "Designed" below and listed in ``docs/rules/sneaky-supper.md``.
"""

from __future__ import annotations

from collections import Counter
from functools import cached_property
from typing import Any, Callable, ClassVar, Sequence

from server.engine import Action, Event, Game, IllegalAction, Result, Rng, private, public, require
from server.engine.kept import interned

from .cards import (
    BUST_NOISE, CRAVING, CRAVINGS, GOAL, HAND_LIMIT, MAX_DRAWN, MAX_TOKENS, RECIPE, START_TOKENS,
    Need, SEARCH_CARDS, UTENSIL_CARDS, card, from_utensil_deck,
)
from .knowledge import redeal
from .matching import Way, fits, ways
from .state import (
    SneakySupperOptions, SneakySupperState, Turn, paced, can_draw_search, can_draw_utensil, can_hush,
    discard_accidents, discard_face_down, least_valuable, may_crave, new_points,
    play_from_hand, put_discard_under_deck, rebuild_deck, reshuffle_utensils,
    take_top, take_utensil, to_discard, to_hand,
)
from .view import card_json, describe_needs, render, render_all

Handler = Callable[[SneakySupperState, int, Action, int], list[Event]]


# ---- reading actions -----------------------------------------------------------------------

def _card_arg(action: Action, key: str = "card") -> str:
    value = action.get(key)
    require(isinstance(value, str), "Say which card (its kind, as the view names it).")
    return value


def _cards_arg(action: Action) -> list[str]:
    value = action.get("cards")
    require(isinstance(value, list) and all(isinstance(c, str) for c in value),
            "Say which cards to use (a list of cards, as the view names them).")
    return list(value)


def _holds(hand: Sequence[str], cards: Sequence[str]) -> bool:
    """Does the hand hold all these cards (as many copies of each as are named)?"""
    return not Counter(cards) - Counter(hand)


def _tokens_arg(action: Action) -> int:
    value = action.get("tokens", 0)
    require(isinstance(value, int) and not isinstance(value, bool) and value >= 0,
            "Say how many Careful tokens to use (0 or more).")
    return value


def _way(way: Way) -> dict[str, Any]:
    return {"cards": list(way.cards), "tokens": way.tokens}


# Ways to complete something, as actions: kept by everything they read (the hand in order,
# its tokens, the Mish-Mash rule, the Craving or the Recipes left), so that the next state's
# legal list takes them as they are. An action listed is never changed in place.

@interned(size=4096)
def craving_moves(craving: str, hand: tuple[str, ...], tokens: int, mish_mash: bool) -> tuple[Action, ...]:
    """Up to 3 ways to complete ``craving`` with this hand and these tokens."""
    return tuple({"type": "craving", **_way(w)} for w in ways(CRAVING[craving].needs, hand, tokens, mish_mash))


@interned(size=4096)
def recipe_moves(available: tuple[str, ...], hand: tuple[str, ...], tokens: int, mish_mash: bool) -> tuple[Action, ...]:
    """Up to 3 ways to complete each Recipe of ``available`` (those with a copy left)."""
    return tuple({"type": "recipe", "recipe": rid, **_way(w)}
                 for rid in available for w in ways(RECIPE[rid].needs, hand, tokens, mish_mash))


# ---- the game ------------------------------------------------------------------------------

class SneakySupper(Game[SneakySupperState, SneakySupperOptions]):
    id = "sneaky-supper"
    name = "Sneaky Supper"
    pitch = "Sneak to the kitchen and back without waking the house — push your luck for snacks."
    min_players = 2
    max_players = 5
    options_model = SneakySupperOptions
    variants: ClassVar[dict[str, dict[str, Any]]] = {"default": {}, "mish_mash": {"mish_mash": True}}

    def setup(self, players: Sequence[str], options: SneakySupperOptions, seed: int,
              now_ms: int = 0) -> SneakySupperState:
        """Shuffle the Search and Utensil decks separately; deal each player a Craving and a
        Careful token. Designed: the player in the first seat starts (seat there whoever most
        recently tripped over something)."""
        self.check_players(len(players))
        options = paced(self.options(options))
        rng = Rng(seed)
        deck = rng.shuffled(sorted(SEARCH_CARDS))
        cravings = rng.shuffled([c.id for c in CRAVINGS])
        udeck = rng.shuffled(sorted(UTENSIL_CARDS))
        n = len(players)
        s = SneakySupperState(
            players=list(players), options=options, rng=rng, deck=deck, segments=[len(deck)],
            segments_known=[list(deck)], udeck=udeck, udeck_known=list(udeck), craving_deck=cravings[n:],
            cravings=list(cravings[:n]), tokens=[START_TOKENS] * n,
            hands=[[] for _ in range(n)], seen=[[] for _ in range(n)], sure=[[] for _ in range(n)],
            ledger=[[] for _ in range(n)], segments_down=[[]], segments_up=[[]],
            completed=[[] for _ in range(n)], scored_cravings=[[] for _ in range(n)],
            points=[new_points() for _ in range(n)], turns=[1] + [0] * (n - 1), since=now_ms,
        )
        return s

    # ---- what may be done ------------------------------------------------------------------
    def legal(self, state: SneakySupperState, seat: int) -> list[Action]:
        if state.phase == "over" or not 0 <= seat < state.n:
            return []
        actions = self._turn_actions(state, seat)
        craving = state.cravings[seat]
        if craving is not None and state.hands[seat]:
            actions += craving_moves(craving, tuple(state.hands[seat]), state.tokens[seat], state.options.mish_mash)
        if state.phase == "last_call" and seat in state.last_call:
            actions.append({"type": "pass"})
        return actions

    def _turn_actions(self, s: SneakySupperState, seat: int) -> list[Action]:
        """What the active player (or the picker of a bust) may do in this phase."""
        t = s.turn
        if s.phase == "pick":
            return [{"type": "pick", "card": c} for c in sorted(set(t.pool))] if seat == t.picker() else []
        if seat != s.active:
            return []
        if s.phase == "turn":
            return self._drawing_actions(s)
        if s.phase == "noisy":
            return self._careful_actions(s) + [{"type": "bust"}]
        if s.phase == "retreat":
            available = tuple(rid for rid, left in s.recipes_left.items() if left)
            out = list(recipe_moves(available, tuple(s.hands[seat]), s.tokens[seat], s.options.mish_mash))
            if t.consumed is None:
                out += [{"type": "consume", "card": c} for c in sorted(set(s.hands[seat]))]
            return out + [{"type": "end_turn"}]
        if s.phase == "after_bust":
            return [{"type": "end_turn"}]
        if s.phase == "discard":
            return [{"type": "discard", "card": c} for c in sorted(set(s.hands[seat]))]
        return []

    def _drawing_actions(self, s: SneakySupperState) -> list[Action]:
        """Before the first card only the compulsory draw; then draw again, the Utensil deck
        (once, from the 2nd card), Retreat, or a Careful token."""
        t = s.turn
        out: list[Action] = []
        if len(t.path) < MAX_DRAWN and can_draw_search(s):
            out.append({"type": "draw"})
        if not t.path:
            return out
        if can_draw_utensil(s):
            out.append({"type": "draw_utensil"})
        return out + [{"type": "retreat"}] + self._careful_actions(s)

    def _careful_actions(self, s: SneakySupperState) -> list[Action]:
        if not s.tokens[s.active]:
            return []
        return [{"type": "careful", "card": c} for c in dict.fromkeys(s.turn.path)
                if s.turn.hushable(c) is not None]

    def waiting_for(self, state: SneakySupperState) -> frozenset[int]:
        """The picker during a bust pick, the players still to answer the last call, else
        the active player (Cravings may be completed on any turn, but nobody waits for them)."""
        if state.phase == "over":
            return frozenset()
        if state.phase == "pick":
            picker = state.turn.picker()
            return frozenset() if picker is None else frozenset([picker])
        if state.phase == "last_call":
            return frozenset(state.last_call)
        return frozenset([state.active])

    def deadline(self, state: SneakySupperState) -> int | None:
        if state.phase == "over":
            return None
        if state.phase in ("pick", "after_bust", "last_call"):
            return state.since + state.options.pick_timer_ms
        return state.since + state.options.turn_timer_ms

    # ---- applying an action ----------------------------------------------------------------
    def apply(self, state: SneakySupperState, seat: int | None, action: Action,
              now_ms: int) -> tuple[SneakySupperState, list[Event]]:
        """Validate on a fresh copy, then change it: the given state is never touched."""
        if self.screen(state, seat, action, now_ms):
            s = state.clone()
            s.since = now_ms
            return s, self._timeout(s, now_ms)
        assert seat is not None
        kind = action["type"]
        handler = self._handlers.get(kind)
        if handler is None:
            raise IllegalAction(f"Unknown action {kind!r}: Sneaky Supper knows "
                                f"{', '.join(sorted(self._handlers))}.")
        s = state.clone()
        events = handler(s, seat, action, now_ms)
        if kind != "craving":
            s.since = max(s.since, now_ms)
        return s, events

    @cached_property
    def _handlers(self) -> dict[str, Handler]:
        """Each kind of action's handler (made once per game)."""
        return {
            "draw": self._act_draw, "draw_utensil": self._act_draw_utensil,
            "careful": self._act_careful, "retreat": self._act_retreat, "bust": self._act_bust,
            "pick": self._act_pick, "recipe": self._act_recipe, "consume": self._act_consume,
            "end_turn": self._act_end_turn, "discard": self._act_discard,
            "craving": self._act_craving, "pass": self._act_pass,
        }

    # ---- drawing ---------------------------------------------------------------------------
    def _act_draw(self, s: SneakySupperState, seat: int, action: Action, now: int) -> list[Event]:
        """To start your turn you MUST draw the top Search card; after each card you may
        draw another, up to the 7th."""
        _require_active(s, seat, "turn", "draw a card")
        require(len(s.turn.path) < MAX_DRAWN, "You cannot draw an 8th card.")
        require(can_draw_search(s), "The Search deck and the discard pile are both empty.")
        return self._draw(s, now)

    def _draw(self, s: SneakySupperState, now: int) -> list[Event]:
        events: list[Event] = []
        if not s.deck:
            rebuild_deck(s)
            events.append(public("rebuild", "The Search deck ran out: the discard pile is "
                                 "shuffled into a new deck.", size=len(s.deck)))
        s.idle_turns = 0
        return events + self._place(s, take_top(s), now, "the Search deck")

    def _act_draw_utensil(self, s: SneakySupperState, seat: int, action: Action, now: int) -> list[Event]:
        """From your 2nd card onwards you may draw from the Utensil deck instead — once a turn."""
        _require_active(s, seat, "turn", "draw a card")
        t = s.turn
        require(bool(t.path), "Your first card must come from the Search deck.")
        require(not t.utensil_drawn, "You may only draw from the Utensil deck once per turn.")
        require(len(t.path) < MAX_DRAWN, "You cannot draw an 8th card.")
        require(bool(s.udeck), "The Utensil deck is empty.")
        t.utensil_drawn = True
        return self._place(s, take_utensil(s), now, "the Utensil deck")

    def _place(self, s: SneakySupperState, c: str, now: int, source: str) -> list[Event]:
        """The card goes face up on the Floorplan; then check the Noise."""
        s.turn.path.append(c)
        s.turn.mat.append(c)
        t = card(c)
        noise = s.turn.noise()
        events = [public("draw", f"{s.name(s.active)} draws {t.name} from {source} "
                         f"({_noise_words(t.noise)}; Noise {noise}).", seat=s.active,
                         card=card_json(c), noise=noise, step=len(s.turn.path))]
        return events + self._after_noise(s, now)

    def _after_noise(self, s: SneakySupperState, now: int) -> list[Event]:
        """Noise of 4 or more: Busted, unless Careful tokens could still hush it (then the
        player chooses). Not Busted after the 7th card: Overwhelming Success."""
        noise = s.turn.noise()
        if noise >= BUST_NOISE:
            if can_hush(s):
                s.phase = "noisy"
                return [public("noisy", f"Noise {noise}! {s.name(s.active)} must use Careful "
                               "tokens or be Busted.", seat=s.active, noise=noise)]
            return self._bust(s, now)
        s.phase = "turn"
        if len(s.turn.path) == MAX_DRAWN:
            return self._retreat(s, now, overwhelming=True)
        return []

    def _act_careful(self, s: SneakySupperState, seat: int, action: Action, now: int) -> list[Event]:
        """At any point during your turn, a Careful token reduces one drawn card's Noise to 0,
        even after making 4 or more Noise."""
        _require_active(s, seat, ("turn", "noisy"), "use a Careful token")
        c = _card_arg(action)
        require(s.tokens[seat] > 0, "You have no Careful token.")
        require(c in s.turn.path, "You did not draw that card this turn.")
        require(card(c).noise > 0, "That card makes no Noise.")
        step = s.turn.hushable(c)
        require(step is not None, "That card's Noise is already snuffed out.")
        assert step is not None
        s.tokens[seat] -= 1
        s.turn.cancelled.append(step)
        events = [public("careful", f"{s.name(seat)} is careful: {card(c).name} makes no Noise "
                         f"(Noise {s.turn.noise()}).", seat=seat, card=card_json(c), step=step + 1,
                         noise=s.turn.noise())]
        return events + self._after_noise(s, now)

    # ---- busted ----------------------------------------------------------------------------
    def _act_bust(self, s: SneakySupperState, seat: int, action: Action, now: int) -> list[Event]:
        """You may choose not to use your Careful tokens and be Busted."""
        _require_active(s, seat, "noisy", "accept being Busted")
        return self._bust(s, now)

    def _bust(self, s: SneakySupperState, now: int) -> list[Event]:
        """Busted: discard the Accidents drawn; then from the player on the left, each
        player in turn order (the active one last) takes one drawn card; fewer cards than
        players: the last ones get nothing."""
        t = s.turn
        s.busts += 1
        t.outcome = "busted"
        t.icon = any(card(c).icon for c in t.path)
        accidents = discard_accidents(s)
        t.pool, t.mat = list(t.mat), []
        t.order = [(s.active + i) % s.n for i in range(1, s.n + 1)][: len(t.pool)]
        s.phase = "pick"
        s.since = now
        who = s.name(s.active)
        gone = f" {_names(accidents)} {'is' if len(accidents) == 1 else 'are'} discarded." if accidents else ""
        events = [public("busted", f"Busted! {who} made {t.noise()} Noise and woke the house.{gone}",
                         seat=s.active, noise=t.noise(), accidents=accidents, order=list(t.order))]
        return events + self._next_pick(s, now)

    def _act_pick(self, s: SneakySupperState, seat: int, action: Action, now: int) -> list[Event]:
        """Each picker in turn order chooses one drawn card for their hand."""
        require(s.phase == "pick", "Nobody is picking cards from a bust now.")
        picker = s.turn.picker()
        require(seat == picker, f"It is {s.name(picker) if picker is not None else 'nobody'}'s pick.")
        c = _card_arg(action)
        require(c in s.turn.pool, "That card is not among the drawn cards left.")
        return self._take(s, seat, c, forced=False) + self._next_pick(s, now)

    def _take(self, s: SneakySupperState, seat: int, c: str, forced: bool) -> list[Event]:
        s.turn.pool.remove(c)
        s.turn.picks.append((seat, c))
        to_hand(s, seat, c)
        how = "gets the last card" if forced else "takes"
        return [public("pick", f"{s.name(seat)} {how}: {card(c).name}.", seat=seat, card=card_json(c),
                       forced=forced)]

    def _next_pick(self, s: SneakySupperState, now: int) -> list[Event]:
        """A single card left is simply taken (no choice). When everyone has picked, the
        leftovers are discarded and the busted player gains a Careful token (+1 more with
        the icon; at most 3)."""
        events: list[Event] = []
        t = s.turn
        while (picker := t.picker()) is not None:
            if len(t.pool) > 1:
                return events
            events += self._take(s, picker, t.pool[0], forced=True)
        for c in t.pool:
            to_discard(s, c)
        if t.pool:
            events.append(public("leftovers", f"{_names(t.pool)} {'is' if len(t.pool) == 1 else 'are'} "
                                 "discarded.", cards=list(t.pool)))
        t.pool = []
        gain = min(MAX_TOKENS - s.tokens[s.active], 2 if t.icon else 1)
        s.tokens[s.active] += gain
        why = " (one more for the icon)" if t.icon and gain == 2 else ""
        text = (f"Lesson learnt: {s.name(s.active)} gains {_tokens(gain)}{why}." if gain else
                f"Lesson learnt — but {s.name(s.active)} already holds {_tokens(MAX_TOKENS)}.")
        events.append(public("lesson", text, seat=s.active, gained=gain, icon=t.icon))
        return events + self._after_bust(s, now)

    def _after_bust(self, s: SneakySupperState, now: int) -> list[Event]:
        """A Craving scores at any moment, so the busted player, who may just have taken a
        card (or a Careful token for the Secret Stash), gets a moment to complete it in
        their own turn before the hand limit. Designed: the pause happens whenever they
        hold cards and a Craving (never only when they can, which is secret) and ends
        with ``end_turn`` or the pick timer."""
        if not may_crave(s, s.active):
            return self._hand_limit(s, now)
        s.phase, s.since = "after_bust", now
        return []

    # ---- retreat ---------------------------------------------------------------------------
    def _act_retreat(self, s: SneakySupperState, seat: int, action: Action, now: int) -> list[Event]:
        """After drawing at least one card and not Busted, you may stop and Retreat."""
        _require_active(s, seat, "turn", "Retreat")
        require(bool(s.turn.path), "You must draw the first card before you can Retreat.")
        return self._retreat(s, now, overwhelming=False)

    def _retreat(self, s: SneakySupperState, now: int, overwhelming: bool) -> list[Event]:
        """Discard the Accidents drawn and add all the other drawn cards to your hand."""
        t = s.turn
        accidents = discard_accidents(s)
        kept = list(t.mat)
        for c in kept:
            to_hand(s, s.active, c)
        t.mat = []
        t.outcome = "overwhelming" if overwhelming else "retreated"
        s.successes += overwhelming
        s.phase = "retreat"
        s.since = now
        who = s.name(s.active)
        head = (f"OVERWHELMING SUCCESS! {who} drew 7 cards without being Busted"
                if overwhelming else f"{who} retreats")
        return [public("overwhelming" if overwhelming else "retreat",
                       f"{head} and keeps {_names(kept) or 'nothing'}.", seat=s.active,
                       kept=[card_json(c) for c in kept], accidents=accidents)]

    def _act_recipe(self, s: SneakySupperState, seat: int, action: Action, now: int) -> list[Event]:
        """When Retreating, complete any number of available Recipes: discard the ingredients
        (Careful tokens may stand for any of them — the Secret Stash — but at least one real
        card is used; with Mish-Mash any 2 non-Utensils may stand for one) and claim it."""
        _require_active(s, seat, "retreat", "complete a Recipe")
        rid = action.get("recipe")
        require(isinstance(rid, str) and rid in RECIPE, "There is no such Recipe.")
        recipe = RECIPE[rid]
        require(s.recipes_left[rid] > 0, f"Both {recipe.name} cards are already claimed.")
        cards, tokens = self._check_ingredients(s, seat, action, recipe.needs, recipe.name)
        self._use(s, seat, cards, tokens)
        s.recipes_left[rid] -= 1
        s.completed[seat].append(rid)
        s.points[seat]["recipes"] += recipe.points
        s.turn.recipes.append(rid)
        events = [public("recipe", f"{s.name(seat)} completes {recipe.name} with "
                         f"{_used(cards, tokens)} for {recipe.points} points!", seat=seat,
                         recipe=rid, cards=[card_json(c) for c in cards], tokens=tokens,
                         points=recipe.points)]
        return events + self._check_goal(s, seat)

    def _check_ingredients(self, s: SneakySupperState, seat: int, action: Action,
                           needs: Sequence[Need], what: str) -> tuple[list[str], int]:
        cards = _cards_arg(action)
        tokens = _tokens_arg(action)
        require(_holds(s.hands[seat], cards), "You can only use cards from your hand.")
        require(tokens <= s.tokens[seat], f"You have only {_tokens(s.tokens[seat])}.")
        require(bool(cards), "At least one real card must be used.")
        require(fits(needs, cards, tokens, s.options.mish_mash),
                f"Those cards and tokens do not make {what}: it needs {describe_needs(needs)}.")
        return cards, tokens

    def _use(self, s: SneakySupperState, seat: int, cards: list[str], tokens: int) -> None:
        for c in cards:
            play_from_hand(s, seat, c)
        s.tokens[seat] -= tokens

    def _act_consume(self, s: SneakySupperState, seat: int, action: Action, now: int) -> list[Event]:
        """When Retreating you may consume one card from your hand: discard it and score
        the points on it."""
        _require_active(s, seat, "retreat", "consume a card")
        require(s.turn.consumed is None, "You have already consumed a card this turn.")
        c = _card_arg(action)
        require(c in s.hands[seat], "That card is not in your hand.")
        play_from_hand(s, seat, c)
        s.turn.consumed = c
        pts = card(c).points
        s.points[seat]["consumed"] += pts
        events = [public("consume", f"{s.name(seat)} eats {card(c).name} for {_points(pts)}.",
                         seat=seat, card=card_json(c), points=pts)]
        return events + self._check_goal(s, seat)

    def _act_end_turn(self, s: SneakySupperState, seat: int, action: Action, now: int) -> list[Event]:
        """Done Retreating (or with the pause after a bust): the turn ends (after the hand
        limit)."""
        _require_active(s, seat, ("retreat", "after_bust"), "end your turn")
        return self._hand_limit(s, now)

    # ---- ending a turn ---------------------------------------------------------------------
    def _hand_limit(self, s: SneakySupperState, now: int) -> list[Event]:
        """After Busting or Retreating you may keep only 4 cards (more after an Overwhelming
        Success, for this turn). Designed: you choose, and discard face down."""
        if len(s.hands[s.active]) > HAND_LIMIT and s.turn.outcome != "overwhelming":
            s.phase = "discard"
            s.since = now
            extra = len(s.hands[s.active]) - HAND_LIMIT
            return [public("hand_limit", f"{s.name(s.active)} must discard {extra} "
                           f"card{'s' if extra > 1 else ''} down to {HAND_LIMIT}.", seat=s.active, count=extra)]
        return self._end_turn(s, now)

    def _act_discard(self, s: SneakySupperState, seat: int, action: Action, now: int) -> list[Event]:
        _require_active(s, seat, "discard", "discard")
        c = _card_arg(action)
        require(c in s.hands[seat], "That card is not in your hand.")
        return self._discard(s, c, now)

    def _discard(self, s: SneakySupperState, c: str, now: int) -> list[Event]:
        seat = s.active
        discard_face_down(s, seat, c)
        pile = "utensil" if from_utensil_deck(c) else "search"
        events = [public("discard", f"{s.name(seat)} discards a card face down.", seat=seat, pile=pile),
                  private(seat, "discarded", f"You discard {card(c).name} face down.", card=card_json(c))]
        if len(s.hands[seat]) <= HAND_LIMIT:
            events += self._end_turn(s, now)
        return events

    def _end_turn(self, s: SneakySupperState, now: int) -> list[Event]:
        """If a Recipe was completed this turn, the Search discard pile is shuffled and put
        under the deck; the Utensil discard is shuffled into the Utensil deck. Next player."""
        events: list[Event] = []
        if s.turn.recipes:
            moved = put_discard_under_deck(s)
            if moved:
                events.append(public("under", f"The discard pile ({moved} cards) is shuffled and "
                                     "put at the bottom of the Search deck.", count=moved))
        reshuffle_utensils(s)
        s.last_turn = self._summary(s)
        nxt = self._next_seat(s)
        if nxt is None:
            return events + self._finish(s, now, "every other player had a final turn")
        return events + self._start_turn(s, nxt, now)

    def _summary(self, s: SneakySupperState) -> dict[str, Any]:
        t = s.turn
        return {"seat": s.active, "outcome": t.outcome, "path": [card_json(c) for c in t.path],
                "cancelled": sorted(i + 1 for i in t.cancelled), "noise": t.noise(),
                "picks": [{"seat": q, "card": card_json(c)} for q, c in t.picks],
                "recipes": list(t.recipes), "consumed": card_json(t.consumed) if t.consumed else None}

    def _next_seat(self, s: SneakySupperState) -> int | None:
        """The next player on the left; after the end is triggered, only the players still
        owed a final turn (the triggering player's turns are skipped)."""
        for i in range(1, s.n + 1):
            q = (s.active + i) % s.n
            if s.final_left is None or q in s.final_left:
                return q
        return None

    def _start_turn(self, s: SneakySupperState, seat: int, now: int) -> list[Event]:
        """Designed: with nothing left to draw anywhere (deck and discard empty) the turn
        passes; if that happens to every player in a row, the game ends."""
        s.active, s.turn, s.phase, s.since = seat, Turn(), "turn", now
        s.turn_number += 1
        s.turns[seat] += 1
        final = s.final_left is not None
        if final:
            s.final_left = [q for q in s.final_left if q != seat]
        events = [public("turn", f"{s.name(seat)}'s {'final ' if final else ''}turn.", seat=seat, final=final)]
        if can_draw_search(s):
            return events
        s.idle_turns += 1
        s.turn.outcome = "skipped"
        events.append(public("skip", f"There is nothing left to draw: {s.name(seat)}'s turn passes.", seat=seat))
        if s.idle_turns >= s.n:
            return events + self._finish(s, now, "nothing was left to draw")
        return events + self._end_turn(s, now)

    # ---- cravings and the end --------------------------------------------------------------
    def _act_craving(self, s: SneakySupperState, seat: int, action: Action, now: int) -> list[Event]:
        """At any time, even in other players' turns, a player holding what their Craving
        asks for (2 Snacks and any Drink; the Secret Stash and Mish-Mash apply) may discard
        them and score it, then draws a new Craving."""
        cid = s.cravings[seat]
        require(cid is not None, "You have no Craving to complete.")
        assert cid is not None
        craving = CRAVING[cid]
        cards, tokens = self._check_ingredients(s, seat, action, craving.needs, craving.name)
        self._use(s, seat, cards, tokens)
        s.scored_cravings[seat].append(cid)
        s.points[seat]["cravings"] += craving.points
        s.cravings[seat] = s.craving_deck.pop() if s.craving_deck else None
        events = [public("craving", f"{s.name(seat)} satisfies the Craving {craving.name} with "
                         f"{_used(cards, tokens)} for {craving.points} points!", seat=seat,
                         craving=cid, cards=[card_json(c) for c in cards], tokens=tokens,
                         points=craving.points)]
        new = s.cravings[seat]
        if new is not None:
            events.append(private(seat, "new_craving", f"Your new Craving: {CRAVING[new].name}.", craving=new))
        events += self._check_goal(s, seat)
        if s.phase == "last_call":
            events += self._settle_last_call(s, seat)
        if s.phase == "discard" and seat == s.active and len(s.hands[seat]) <= HAND_LIMIT:
            events += self._end_turn(s, now)  # the Craving brought the hand within the limit
        if s.phase == "after_bust" and seat == s.active and not may_crave(s, seat):
            events += self._hand_limit(s, now)  # nothing left to wait for
        return events

    def _check_goal(self, s: SneakySupperState, seat: int) -> list[Event]:
        """20 points ends the game: every other player gets one final turn; a player who gets
        there on someone else's turn skips their own next turn. Designed: each other
        player's final turn is a whole turn begun after the trigger."""
        if s.triggered_by is not None or s.phase in ("last_call", "over") or s.score(seat) < GOAL:
            return []
        s.triggered_by = seat
        s.final_left = [q for q in range(s.n) if q != seat]
        return [public("end_triggered", f"{s.name(seat)} has {s.score(seat)} points! Everyone else "
                       "gets one final turn.", seat=seat)]

    def _finish(self, s: SneakySupperState, now: int, reason: str) -> list[Event]:
        """The last turn is over. Designed: players who might still complete their Craving
        (say, with a card just taken from a bust) get a last call before the tally: all who
        hold cards and a Craving, since who really can is secret."""
        s.end_reason = reason
        s.last_call = [q for q in range(s.n) if may_crave(s, q)]
        if not s.last_call:
            return self._game_over(s)
        s.phase, s.since = "last_call", now
        return [public("last_call", f"Last call for Cravings: {_names_of(s, s.last_call)} may complete "
                       "one now, or pass.", seats=list(s.last_call))]

    def _act_pass(self, s: SneakySupperState, seat: int, action: Action, now: int) -> list[Event]:
        require(s.phase == "last_call" and seat in s.last_call, "There is nothing to pass on.")
        s.last_call.remove(seat)
        return [] if s.last_call else self._game_over(s)

    def _settle_last_call(self, s: SneakySupperState, seat: int) -> list[Event]:
        if seat in s.last_call and not may_crave(s, seat):
            s.last_call.remove(seat)
        return [] if s.last_call else self._game_over(s)

    def _game_over(self, s: SneakySupperState) -> list[Event]:
        """Remaining Careful tokens score 1 point each; the most points wins, ties shared."""
        for q in range(s.n):
            s.points[q]["careful"] += s.tokens[q]
            s.tokens[q] = 0
        s.phase, s.last_call = "over", []
        result = self.result(s)
        assert result is not None
        return [public("game_over", result.reason, winners=result.winners, scores=result.scores)]

    # ---- time ------------------------------------------------------------------------------
    def _timeout(self, s: SneakySupperState, now: int) -> list[Event]:
        """The default move for whoever keeps the table waiting: a picker takes the card
        worth the most points; a last call ends; an absent active player draws the
        compulsory card, Retreats (or accepts the bust), keeps the cards and discards the
        least valuable ones down to the hand limit."""
        events = [public("timeout", "Time's up!")]
        if s.phase == "pick":
            picker = s.turn.picker()
            assert picker is not None
            best = max(s.turn.pool, key=lambda c: card(c).points)
            return events + self._take(s, picker, best, forced=False) + self._next_pick(s, now)
        if s.phase == "last_call":
            return events + self._game_over(s)
        number = s.turn_number

        def still(phase: str) -> bool:
            return s.turn_number == number and s.phase == phase

        if still("turn") and not s.turn.path:
            events += self._draw(s, now)
        if still("turn"):
            events += self._retreat(s, now, overwhelming=False)
        if still("noisy"):
            events += self._bust(s, now)
        if still("retreat") or still("after_bust"):
            events += self._hand_limit(s, now)
        while still("discard"):
            events += self._discard(s, least_valuable(s.hands[s.active]), now)
        return events

    # ---- what each seat sees ---------------------------------------------------------------
    def view(self, state: SneakySupperState, seat: int | None) -> dict[str, Any]:
        return render(self, state, seat)

    def views(self, state: SneakySupperState, seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
        return render_all(self, state, seats)

    def determinize(self, state: SneakySupperState, seat: int, rng: Rng) -> SneakySupperState:
        return redeal(state, seat, rng)

    def result(self, state: SneakySupperState) -> Result | None:
        if state.phase != "over":
            return None
        scores = [float(state.score(q)) for q in range(state.n)]
        best = max(scores)
        winners = [q for q, sc in enumerate(scores) if sc == best]
        names = " and ".join(state.name(w) for w in winners)
        verb = "share the victory" if len(winners) > 1 else "is the Ultimate Sneaky Snacker"
        return Result(winners=winners, scores=scores,
                      reason=f"{names} {verb} with {int(best)} points ({state.end_reason}).",
                      details={"points": [dict(p) for p in state.points]})

    def stats(self, state: SneakySupperState) -> dict[str, float]:
        """Per-game figures for ``potluck simulate``."""
        played = sum(state.turns)
        total = {k: sum(p[k] for p in state.points) for k in state.points[0]}
        all_points = sum(total.values()) or 1
        scores = [state.score(q) for q in range(state.n)]
        out = {
            "turns_per_player": played / state.n,
            "bust_rate": state.busts / played if played else 0.0,
            "overwhelming_successes": float(state.successes),
            "winning_score": float(max(scores)),
            "mean_score": sum(scores) / state.n,
            "recipes_completed": float(sum(len(c) for c in state.completed)),
            "cravings_scored": float(sum(len(c) for c in state.scored_cravings)),
        }
        out.update({f"share_{k}": v / all_points for k, v in total.items()})
        return out



def _require_active(s: SneakySupperState, seat: int, phases: str | tuple[str, ...], what: str) -> None:
    phases = (phases,) if isinstance(phases, str) else phases
    require(seat == s.active, f"It is {s.name(s.active)}'s turn: you cannot {what} now.")
    require(s.phase in phases, f"You cannot {what} now.")


def _noise_words(noise: int) -> str:
    return "silent" if noise == 0 else f"{noise} Noise"


def _names(cards: Sequence[str]) -> str:
    names = [card(c).name for c in cards]
    return ", ".join(names[:-1]) + (" and " if len(names) > 1 else "") + names[-1] if names else ""


def _names_of(s: SneakySupperState, seats: Sequence[int]) -> str:
    return " and ".join(s.name(q) for q in seats)


def _tokens(n: int) -> str:
    return f"{n} Careful token{'s' if n != 1 else ''}"


def _points(n: int) -> str:
    return f"{n} point{'s' if n != 1 else ''}"


def _used(cards: Sequence[str], tokens: int) -> str:
    parts = [_names(cards)] if cards else []
    if tokens:
        parts.append(f"{_tokens(tokens)} from the Secret Stash")
    return " and ".join(parts)
