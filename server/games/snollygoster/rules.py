"""Snollygoster: the game object behind the engine contract.

Escape an alien planet before the food runs out. Each player has a Hidden Agenda; the
shared food supply may be poisoned; tags on Food are claims, not truth. Designed details
are listed on ``docs/rules/snollygoster.md``; the rule sentences sit in the docstrings of
``flow.py``, ``windows.py`` and ``actions.py``.
"""

from __future__ import annotations

from typing import Any, Sequence

from server.engine import Action, Event, Game, InvalidOptions, Result, Rng, public

from . import actions, flow, hidden, scoring, view, windows
from .cards import (ACTION_CARDS, AGENDAS, CHARACTERS, EVENT_CARDS, HAND_SIZE, ROGUE,
                    SEEDS_PER_PLAYER, TAGS_PER_CHARACTER, deck, rogue_counts)
from .state import SnollygosterOptions, SnollygosterState

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

    def setup(self, players: Sequence[str], options: SnollygosterOptions, seed: int,
              now_ms: int = 0) -> SnollygosterState:
        """Dealer at random; characters dealt; one agenda and four Action cards each; the
        Event deck passed round twice for everyone to seed a Food (see ``do_seed``)."""
        self.check_players(len(players))
        options = self.options(options)
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

    def apply(self, state: S, seat: int | None, action: Action, now_ms: int) -> tuple[S, list[Event]]:
        if self.screen(state, seat, action, now_ms):
            s = state.clone()
            return s, timeout(s, now_ms)
        assert seat is not None
        s = state.clone()  # the handlers check as they go; a refusal drops this copy
        return s, actions.perform(s, seat, action, now_ms)

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
            "quarantines": float(sum(1 for e in state.eaten if e["kind"] == "unsafe")),
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

    def bot(self, seat: int, rng: Rng, **params: Any):  # noqa: ANN201 - Bot
        from .bot import SnollygosterBot

        return SnollygosterBot(self, rng, **params)


# ---- time moves the game on -------------------------------------------------------------------------

def timeout(s: S, now: int) -> list[Event]:
    """The deadline passed: close the window, reveal the Food, or make the waiting
    player's sensible default move so an absent player never freezes the table."""
    if s.window is not None:
        return [public("timeout", "Time's up for answers.")] + windows.close_window(s, now)
    if s.eating is not None and s.eating.food is not None:
        return flow.reveal(s, now)
    if s.phase == "seed":
        return [public("timeout", f"Time's up: a Food is seeded for {flow.name(s, s.seeding[0])}.")] + \
            actions.do_seed(s, s.seeding[0], default_seed(s), now)
    if s.phase == "guess":
        s.guessing = []
        return flow.finish(s)
    who = flow.name(s, s.turn)
    if s.step == "action":
        return [public("timeout", f"Time's up: {who}'s Action stage ends.")] + flow.begin_event(s, now)
    if s.step == "event":
        return [public("timeout", f"Time's up: a card is kept for {who}.")] + \
            actions.do_keep(s, s.turn, default_keep(s), now)
    if s.step == "tag":
        food = s.inspecting
        claim = s.kinds[food] if food is not None else "safe"
        return actions.do_tag(s, s.turn, {"type": "tag", "claim": claim}, now)
    assert s.eating is not None
    return [public("timeout", f"Time's up: a Food is chosen for {flow.name(s, s.eating.eater)}.")] + \
        actions.do_eat(s, s.eating.eater, {"type": "eat", "food": default_food(s, s.eating.eater)}, now)


def default_seed(s: S) -> Action:
    """A safe Food in your own stash (or the next one with room)."""
    seat = s.seeding[0]
    stash = next(p for p in [seat, *range(s.n)] if s.room(p) > 0)
    return {"type": "seed", "kind": "safe", "stash": stash}


KEEP_ORDER = {"fuel": 0, "safe": 1, "ransom": 2, "unsafe": 3, "hungry": 4, "starving": 5}


def default_keep(s: S) -> Action:
    """Fuel if there is room, else safe Food into your own stash, else anything but
    hunger; unsafe Food goes into your own stash where you know it."""
    seat = s.turn
    options = actions.keep_options(s, seat)

    def rank(a: Action) -> tuple[int, int]:
        kind = s.kinds[s.drawn[a["card"]]]
        wasted = kind == "fuel" and s.fuel_room(seat) <= 0
        return (KEEP_ORDER[kind] + 6 * wasted, 0 if a.get("stash", seat) == seat else 1)

    return min(options, key=rank)


def default_food(s: S, seat: int) -> int:
    """The Food you know is safe, else one tagged safe, else one you know nothing of;
    a Food you know is unsafe last."""
    def risk(food: int) -> int:
        if seat in s.known[food]:
            return 0 if s.kinds[food] == "safe" else 3
        tag = s.tags.get(food)
        return 1 if tag and tag[1] == "safe" else 2

    return min(s.stashes[seat], key=risk)
