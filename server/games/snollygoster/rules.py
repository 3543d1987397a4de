"""Snollygoster: the game object behind the engine contract.

Escape an alien planet before the food runs out. Each player has a Hidden Agenda; the
shared food supply may be poisoned; tags on Food are claims, not truth. Designed details
are listed on ``docs/rules/snollygoster.md``; the rule sentences sit in the docstrings of
``flow.py``, ``windows.py`` and ``actions.py``.
"""

from __future__ import annotations

from typing import Any, ClassVar, Sequence

from server.engine import Action, Event, Game, InvalidOptions, Result, Rng, private, public

from . import actions, flow, hidden, scoring, view, windows
from .cards import (ACTION_CARDS, AGENDAS, CHARACTERS, EVENT_CARDS, FOOD_KINDS, HAND_SIZE, ROGUE,
                    SEEDS_PER_PLAYER, TAGS_PER_CHARACTER, deck, rogue_counts)
from .state import SnollygosterOptions, SnollygosterState, paced

S = SnollygosterState


def deal_agendas(rng: Rng, players: int, team_game: bool) -> tuple[list[str], list[str]]:
    """One Hidden Agenda each; in the team game both teams exist (``rogue_counts``)."""
    pool = rng.shuffled(list(AGENDAS))
    if not team_game:
        return pool[:players], pool[players:]
    rogues = [a for a in pool if AGENDAS[a].team == ROGUE]
    comrades = [a for a in pool if AGENDAS[a].team != ROGUE]
    k = rng.choice(rogue_counts(players))
    dealt = rng.shuffled(rogues[:k] + comrades[:players - k])
    return dealt, rogues[k:] + comrades[players - k:]


class Snollygoster(Game[SnollygosterState, SnollygosterOptions]):
    id = "snollygoster"
    name = "Snollygoster"
    pitch = "Escape the alien planet before the food runs out — trust no tag, push your hidden agenda."
    min_players = 2
    max_players = 6
    options_model = SnollygosterOptions
    # the option sets that change the rules (the contract tests play each); the team game
    # needs four or more players, and ``setup`` refuses it with fewer (``InvalidOptions``)
    variants: ClassVar[dict[str, dict[str, Any]]] = {"default": {}, "team_game": {"team_game": True}}

    def setup(self, players: Sequence[str], options: SnollygosterOptions, seed: int,
              now_ms: int = 0) -> SnollygosterState:
        """Dealer at random; characters dealt; one agenda and four Action cards each; the
        Event deck passed round twice for everyone to seed a Food (see ``do_seed``)."""
        self.check_players(len(players))
        options = paced(self.options(options))
        n = len(players)
        if options.team_game and n < 4:
            raise InvalidOptions("The team game needs four or more players.")
        rng = Rng(seed)
        dealer = rng.below(n)
        characters = rng.shuffled(list(CHARACTERS))[:n]
        agendas, agenda_deck = deal_agendas(rng, n, options.team_game)
        action_deck = rng.shuffled(deck(ACTION_CARDS))
        hands = [[action_deck.pop() for _ in range(HAND_SIZE)] for _ in range(n)]
        kinds = rng.shuffled(deck(EVENT_CARDS))  # which id is which card: random, secret
        first = (dealer + 1) % n
        seeding = [(first + i) % n for i in range(n)] * SEEDS_PER_PLAYER
        return SnollygosterState(
            players=list(players), options=options, rng=rng, characters=characters,
            agendas=agendas, agenda_deck=agenda_deck, hands=hands, action_deck=action_deck,
            action_discard=[], kinds=kinds, event_deck=list(range(len(kinds))), event_discard=[],
            public_kind=[False] * len(kinds), public_food=[False] * len(kinds),
            known=[{} for _ in kinds], stashes=[[] for _ in range(n)], fuel=[[] for _ in range(n)],
            tags_left=[TAGS_PER_CHARACTER] * n, dealer=dealer, turn=first, seeding=seeding,
            step_since=now_ms, quarantined=[False] * n, dead=[False] * n, offers_made=[0] * n,
        )

    # -- the contract --
    def legal(self, state: S, seat: int) -> list[Action]:
        if not isinstance(seat, int) or not 0 <= seat < state.n:
            return []
        return actions.legal(state, seat)

    def legals(self, state: S, seats: Sequence[int]) -> dict[int, list[Action]]:
        n = state.n
        if all([type(seat) is int and 0 <= seat < n for seat in seats]):
            return actions.legals(state, seats)
        return super().legals(state, seats)  # seat by seat: nothing for a seat not at the table

    def apply(self, state: S, seat: int | None, action: Action, now_ms: int) -> tuple[S, list[Event]]:
        if self.screen(state, seat, action, now_ms):
            s = state.clone()
            return s, timeout(s, now_ms)
        assert seat is not None
        s = state.clone()  # the handlers check as they go; a refusal drops this copy
        return s, actions.perform(s, seat, action, now_ms)

    def waiting_for(self, state: S) -> frozenset[int]:
        """Whoever must answer an open window or acknowledge a Food, the seeder, the
        Sleuths still guessing, the eater choosing, else the player whose turn it is."""
        if state.phase == "over":
            return frozenset()
        if state.window is not None:
            return frozenset(state.window.waiting)
        if state.eating is not None:
            return frozenset(state.eating.waiting) if state.eating.food is not None else frozenset([state.eating.eater])
        if state.phase == "seed":
            return frozenset(state.seeding[:1])
        if state.phase == "guess":
            return frozenset(state.guessing)
        return frozenset([state.turn])

    def deadline(self, state: S) -> int | None:
        """Windows close at their deadline; each step has its timer (see the options)."""
        if state.phase == "over":
            return None
        if state.window is not None:
            return state.window.deadline
        if state.eating is not None and state.eating.deadline is not None:
            return state.eating.deadline
        o = state.options
        return state.step_since + (o.turn_ms if state.phase == "play" and state.step == "action" else o.step_ms)

    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        return view.build_view(state, seat, self.deadline(state))

    def views(self, state: S, seats: Sequence[int | None]) -> dict[int | None, dict[str, Any]]:
        return view.build_views(state, seats, self.deadline(state))

    def determinize(self, state: S, seat: int, rng: Rng) -> S:
        return hidden.determinize(state, seat, rng)

    def result(self, state: S) -> Result | None:
        return scoring.outcome(state) if state.phase == "over" else None

    def stats(self, state: S) -> dict[str, float]:
        """Game length, how it ended, and who won by agenda and by team."""
        result = self.result(state)
        out: dict[str, float] = {
            "turns": state.turn_no, "rounds": state.round_no,
            "launch": float(state.end_reason == "launch"),
            "everyone_dead": float(state.end_reason == "everyone died"),
            "round_limit": float(state.end_reason not in ("launch", "everyone died")),
            "pod_size": float(len(state.launch["pod"])) if state.launch else 0.0,
            "quarantines": float(sum(state.tally.get("quarantined", []))),
            "starved": float(sum(len(g) for g in state.death_order) - (0 if not state.launch else
                                                                       state.n - len(state.launch["pod"]))),
            "lies_revealed": float(sum(state.tally.get("lies", []))),
        }
        winners = set(result.winners) if result else set()
        for a in AGENDAS.values():
            held = [p for p in range(state.n) if state.agendas[p] == a.id]
            out[f"held_{a.id}"] = float(len(held))
            out[f"won_{a.id}"] = float(len(winners & set(held)))
        for team in ("Comrade", "Rogue"):
            held = [p for p in range(state.n) if state.team_of(p) == team]
            out[f"held_{team.lower()}"] = float(len(held))
            out[f"won_{team.lower()}"] = float(len(winners & set(held)))
            if state.options.team_game:  # the share of games the team won
                out[f"team_{team.lower()}_won"] = float(bool(winners & set(held)))
        return out



# ---- time moves the game on -------------------------------------------------------------------------

def timeout(s: S, now: int) -> list[Event]:
    """The deadline passed: close the window, reveal the Food, or make the waiting
    player's move for them so an absent player never freezes the table.

    A move time makes for a player is one they could have made, chosen from what everyone
    can see plus a coin (``default_*``), and the others are told exactly what they would
    hear of a chosen move; only the player learns that time chose. It lands at the
    deadline, so the table can tell it was time's — and learns nothing from that."""
    if s.window is not None:
        return [public("timeout", "Time's up for answers.")] + windows.close_window(s, now)
    if s.eating is not None and s.eating.food is not None:
        return flow.reveal(s, now)
    if s.phase == "seed":
        seat = s.seeding[0]
        return [time_chose(seat, "a Food was seeded for you")] + actions.do_seed(s, seat, default_seed(s), now)
    if s.phase == "guess":
        s.guessing = []
        return flow.finish(s)
    if s.step == "action":
        return [public("timeout", f"Time's up: {flow.name(s, s.turn)}'s Action stage ends.")] + \
            flow.begin_event(s, now)
    if s.step == "event":
        return [time_chose(s.turn, "a card was kept for you")] + actions.do_keep(s, s.turn, default_keep(s), now)
    if s.step == "tag":
        return [time_chose(s.turn, "the Food was tagged for you")] + \
            actions.do_tag(s, s.turn, {"type": "tag", "claim": s.rng.choice(FOOD_KINDS)}, now)
    assert s.eating is not None
    eater = s.eating.eater
    return [time_chose(eater, "a Food was chosen for you")] + \
        actions.do_eat(s, eater, {"type": "eat", "food": default_food(s, eater)}, now)


def time_chose(seat: int, what: str) -> Event:
    """Only the absent player hears that time chose for them."""
    return private(seat, "timeout", f"Time's up: {what}.")


def default_seed(s: S) -> Action:
    """Safe or unsafe at the toss of a coin, into your own stash (or one with room)."""
    seat = s.seeding[0]
    stash = seat if s.room(seat) > 0 else s.rng.choice([p for p in range(s.n) if s.room(p) > 0])
    return {"type": "seed", "kind": s.rng.choice(FOOD_KINDS), "stash": stash}


def default_keep(s: S) -> Action:
    """Either drawn card at the toss of a coin — whatever the two are, so the card left
    under the deck tells nothing; a Food goes into your own stash if it can, a Ransom
    names a player with Fuel at random."""
    seat = s.turn
    index = s.rng.below(len(s.drawn))
    options = [a for a in actions.keep_options(s, seat) if a["card"] == index]
    return next((a for a in options if a.get("stash") == seat), None) or s.rng.choice(options)


TAG_RISK = {"safe": 0, None: 1, "unsafe": 2}


def default_food(s: S, seat: int) -> int:
    """A Food tagged safe, else an untagged one, else one tagged unsafe, at random among
    equals: only the public tags count, never what the eater alone knows."""
    def risk(food: int) -> int:
        tag = s.tags.get(food)
        return TAG_RISK[tag[1] if tag else None]

    least = min(risk(f) for f in s.stashes[seat])
    return s.rng.choice([f for f in s.stashes[seat] if risk(f) == least])
