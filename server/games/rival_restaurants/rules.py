"""Rival Restaurants: the game.

2–6 chefs run rival restaurants. Each day has three phases — MONEY and MOVE, BUY and BARTER
(real time), COOK and COUNTER — listed in ``state.day_plan`` and implemented as plug-in
``Phase``s (``moving``, ``market``, ``cooking``); the SPORKS Out option puts the Action
Auction (``auction``) first and adds its content (``cards.pool``) and SPORKs (``sporks``).
Match options add a Day-1 restaurant choice (``choosing``) and the two-player Kitchen
Squad (``squad``). The first chef to 20 popularity wins, on the day it happens; ties go to
most popularity, then most gourmet recipes cooked, then most money. *Designed:* if nobody
gets there by the closing day (18 by default), the same order decides.
"""

from __future__ import annotations

from typing import Any, Sequence

from server.engine import OVER, Action, Event, Game, IllegalAction, Result, Rng, public, require

from . import auction, choosing, cooking, effects, market, moving, sporks, squad  # noqa: F401 - the phases and effect kinds register themselves
from .cards import (
    CHEFS,
    CHOOSE_RESTAURANT,
    DAY_PLAN,
    KINDS,
    KITCHEN_SQUAD,
    MARKETS,
    MONEY_MOVE,
    RECIPES,
    RESTAURANTS,
    SPORKS_DAY_PLAN,
    STARTING_ACTIONS,
    STARTING_MARKETS,
    pool,
)
from .expansion import EXPANSIONS, Expansion, handler
from .moments import fire, reading
from .phase import PHASES, Phase
from .plays import HANDLERS as PLAY_HANDLERS
from .state import Dish, MarketState, Pantry, RivalRestaurantsOptions, RivalState, Today
from .views import build_view, build_views, prompt


def deal_markets(rng: Rng, chefs: int) -> tuple[dict[str, MarketState], list[dict[str, int]]]:
    """Shuffle each market's deck; every chef gets one random card from each market but the
    Mystery Mart; then the counters are dealt face up and the rest is the shelf."""
    markets: dict[str, MarketState] = {}
    hands: list[dict[str, int]] = [{} for _ in range(chefs)]
    for m in MARKETS.values():
        deck = rng.shuffled([i for i, n in m.counts.items() for _ in range(n)])
        if m.id in STARTING_MARKETS:
            for hand in hands:
                card = deck.pop()
                hand[card] = hand.get(card, 0) + 1
        counter: list[str | None] = [deck.pop() for _ in range(m.counter_size)]
        markets[m.id] = MarketState(m.id, counter, deck)
    return markets, hands


def day_plan(options: RivalRestaurantsOptions) -> list[str]:
    """The phases of a day: SPORKS Out's Action Auction first; Kitchen Squad's choice of
    today's chef just before MONEY and MOVE; choosing restaurants before all else when they
    are chosen (it happens on Day 1 only)."""
    plan = list(SPORKS_DAY_PLAN if options.sporks_out else DAY_PLAN)
    if options.kitchen_squad:
        plan.insert(plan.index(MONEY_MOVE), KITCHEN_SQUAD)
    return [CHOOSE_RESTAURANT, *plan] if options.restaurants == "chosen" else plan


class RivalRestaurants(Game[RivalState, RivalRestaurantsOptions]):
    id = "rival-restaurants"
    name = "Rival Restaurants"
    pitch = "Race to the markets, bid and barter in real time, and cook your way to 20 popularity."
    min_players = 2
    max_players = 6
    options_model = RivalRestaurantsOptions
    live_only = "its Buy & Barter phase is a 60-second market where everyone trades at once, so it is played live only."
    variants = {"base": {}, "sporks-out": {"sporks_out": True}}

    # -- set-up --
    def setup(self, players: Sequence[str], options: RivalRestaurantsOptions, seed: int,
              now_ms: int = 0) -> RivalState:
        """Deal each chef a chef card, a restaurant, one ingredient from each market but the
        Mystery Mart, a basic and a gourmet recipe and an action card — from the content the
        options choose (``cards.pool``: SPORKS Out adds its chefs, restaurants and recipes)."""
        self.check_players(len(players))
        options = self.options(options)
        rng = Rng(seed)
        n = len(players)
        content = pool(options.sporks_out, options.sporks_chefs)
        played: list[Expansion] = [x for x in EXPANSIONS.values() if x.on(options)]
        for x in played:
            x.check_players(n)
        per = max((x.chefs_per_seat() for x in played), default=1)
        chefs = (rng.shuffled(list(content.chefs)) if options.random_chefs else list(content.chefs))[:n * per]
        restaurants = (rng.shuffled(list(content.restaurants))[:n] if options.random_chefs
                       else list(content.restaurants)[:n])
        if options.restaurants == "chosen":
            restaurants = [choosing.UNCHOSEN] * n
        markets, hands = deal_markets(rng, n)
        decks = {k: rng.shuffled([r for r in content.recipes if RECIPES[r].kind == k]) for k in KINDS}
        action_deck = rng.shuffled(list(content.action_deck))
        pantries = []
        for i in range(n):
            p = Pantry(chefs[i * per], restaurants[i], ingredients=hands[i])
            p.recipes = [decks[k].pop() for k in KINDS]
            p.actions = [action_deck.pop() for _ in range(STARTING_ACTIONS)]
            pantries.append(p)
        s = RivalState(players=list(players), options=options, rng=rng, chefs=pantries,
                       today=[Today() for _ in range(n)], markets=markets, decks=decks,
                       recipe_discards={k: [] for k in KINDS}, action_deck=action_deck,
                       day_plan=day_plan(options))
        dealt = [chefs[i * per:(i + 1) * per] for i in range(n)]
        s.expansions = {x.id: x.new(s, dealt) for x in played}
        self.begin(s, now_ms)
        return s

    def begin(self, s: RivalState, now: int) -> list[Event]:
        """Start the day and run it on past every phase that does not happen now (the
        Action Auction on Day 1): setup is a step of the phase machine like any other."""
        return self._start_day(s, now) + self._advance(s, now)

    # -- the flow of a day --
    def _phase(self, s: RivalState) -> Phase:
        return PHASES[s.phase]

    def _start_day(self, s: RivalState, now: int) -> list[Event]:
        s.today = [Today() for _ in s.players]
        events = fire(s, "day_start", range(len(s.players)))[1]
        return events + self._enter(s, s.day_plan[0], now)

    def _enter(self, s: RivalState, phase: str, now: int) -> list[Event]:
        s.phase, s.phase_since = phase, now
        return PHASES[phase].begin(s, now)

    def _advance(self, s: RivalState, now: int) -> list[Event]:
        """While the current phase is over, end it and begin the next (a new day after the
        last phase, unless the game ends)."""
        events: list[Event] = []
        while s.phase != OVER and self._phase(s).over(s):
            events += self._phase(s).end(s, now)
            i = s.day_plan.index(s.phase)
            if i + 1 < len(s.day_plan):
                events += self._enter(s, s.day_plan[i + 1], now)
                continue
            events += fire(s, "day_end", range(len(s.players)))[1]
            events += self._check_end(s)
            if s.phase != OVER:
                s.day += 1
                events += self._start_day(s, now)
        return events

    def _check_end(self, s: RivalState) -> list[Event]:
        """The game ends on the day someone reaches the goal, or on the closing day."""
        goal = s.options.goal
        if any(p.popularity >= goal for p in s.chefs):
            s.end_reason = f"reached {goal} popularity"
        elif s.day >= s.options.max_days:
            s.end_reason = f"the most popular restaurant after {s.day} days"
        else:
            return []
        s.phase = OVER
        result = self.result(s)
        assert result is not None
        names = " and ".join(s.players[w] for w in result.winners)
        return [public("game_over", f"{names} {'win' if len(result.winners) > 1 else 'wins'}: {s.end_reason}!",
                       winners=result.winners)]

    # -- what may be done --
    def legal(self, state: RivalState, seat: int) -> list[Action]:
        with reading(state):
            return self._legal(state, seat)

    def legals(self, state: RivalState, seats: Sequence[int]) -> dict[int, list[Action]]:
        """Every seat's legal actions in one reading of the state (each seat's sources and
        what is made once for all, such as prices, are found once)."""
        with reading(state):
            return {seat: self._legal(state, seat) for seat in seats}

    def _legal(self, state: RivalState, seat: int) -> list[Action]:
        if state.phase == OVER or not 0 <= seat < len(state.players):
            return []
        return self._phase(state).legal(state, seat)

    def deadline(self, state: RivalState) -> int | None:
        if state.phase == OVER:
            return None
        return self._phase(state).deadline(state)

    def apply(self, state: RivalState, seat: int | None, action: Action,
              now_ms: int) -> tuple[RivalState, list[Event]]:
        if self.screen(state, seat, action, now_ms):
            s = state.clone()
            events = self._phase(s).timeout(s, now_ms)
            return s, events + self._advance(s, now_ms)
        assert seat is not None
        kind = action["type"]
        due = self.deadline(state)
        require(due is None or now_ms <= due, "Time is up — the clock moves the game on.")
        handle = (PLAY_HANDLERS.get(kind) or self._phase(state).handlers.get(kind)
                  or handler(state.phase, kind))
        if handle is None:
            owner = next((p.name for p in PHASES.values() if kind in p.handlers or handler(p.id, kind)), None)
            if owner:
                raise IllegalAction(f"That belongs to {owner}; it is {self._phase(state).name} now.")
            raise IllegalAction(f"Unknown action {kind!r}.")
        s = state.clone()
        events = handle(s, seat, action, now_ms)
        return s, events + self._advance(s, now_ms)

    # -- what each seat sees --
    def view(self, state: RivalState, seat: int | None) -> dict[str, Any]:
        return build_view(self, state, seat)

    def views(self, state: RivalState, seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
        return build_views(self, state, list(seats))

    def prompt(self, state: RivalState, seat: int | None) -> str:
        return prompt(state, seat)

    def determinize(self, state: RivalState, seat: int, rng: Rng) -> RivalState:
        """Re-deal what ``seat`` cannot know: the order of every shelf and deck, other
        chefs' unrevealed picks and undeclared dishes, and the future of the RNG; with
        SPORKS Out also every Hot Sauce card (the holder's too: nobody knows them), the
        Snackle Box's face-down card and the other chefs' unrevealed bids."""
        s = state.clone()
        for x in EXPANSIONS.at("redeal_unseen"):
            x.redeal_unseen(s, rng)
        for m in s.markets.values():  # sorted first: the sample never follows the true order
            m.shelf = rng.shuffled(sorted(m.shelf))
        for kind, deck in s.decks.items():
            s.decks[kind] = rng.shuffled(sorted(deck))
        s.action_deck = rng.shuffled(sorted(s.action_deck))
        for other, t in enumerate(s.today):
            if other == seat:
                continue
            if t.pick is not None and t.location is None:
                t.pick = rng.choice(moving.move_options(s, other))["location"]
                if t.foresee is not None:
                    t.foresee = rng.choice([i for i in range(len(s.players)) if i != other])
            if s.phase == cooking.COOK_COUNTER:
                ready, t.ready, t.dishes = t.ready, False, []
                choice = rng.choice([None, *cooking.cook_options(s, other)])
                if choice is not None:
                    t.dishes = [Dish(choice["recipe"], tuple(choice["extras"]))]
                t.ready = ready
        for x in EXPANSIONS.at("redeal"):
            x.redeal(s, seat, rng)
        s.rng = rng.fork()
        return s

    def result(self, state: RivalState) -> Result | None:
        """Most popularity wins; ties: most gourmet recipes cooked, then most money."""
        if state.phase != OVER:
            return None
        keys = [(p.popularity, p.gourmet_cooked, p.money) for p in state.chefs]
        best = max(keys)
        winners = [i for i, k in enumerate(keys) if k == best]
        details: dict[str, Any] = {"gourmet_cooked": [p.gourmet_cooked for p in state.chefs],
                                   "money": [p.money for p in state.chefs],
                                   "chefs": [p.chef for p in state.chefs],
                                   "restaurants": [p.restaurant for p in state.chefs]}
        for x in EXPANSIONS.at("result_details"):
            details.update(x.result_details(state))
        return Result(winners=winners, scores=[float(p.popularity) for p in state.chefs],
                      reason=f"{' and '.join(state.players[w] for w in winners)}: {state.end_reason}.",
                      details=details)

    def stats(self, state: RivalState) -> dict[str, float]:
        """Days per game, and for every chef and restaurant seated: did it win (1) or not (0)
        — the mean over games is its win rate when played."""
        result = self.result(state)
        winners = set(result.winners) if result else set()
        out: dict[str, float] = {"days": state.day, "trades": state.trades,
                                 "top popularity": max(p.popularity for p in state.chefs),
                                 "goal reached": float(any(p.popularity >= state.options.goal for p in state.chefs))}
        for seat, p in enumerate(state.chefs):
            out[f"win chef {CHEFS[p.chef].name}"] = float(seat in winners)
            out[f"win restaurant {RESTAURANTS[p.restaurant].name}"] = float(seat in winners)
        for x in EXPANSIONS.at("stats"):
            out.update(x.stats(state))
        return out



__all__ = ["OVER", "RivalRestaurants", "RivalRestaurantsOptions", "RivalState"]
