"""Snollygoster in play: properties of random legal games for 2–6 players, determinism,
and the bot."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.engine import Rng
from server.engine.bots import ask
from server.engine.playout import Entry, play, player_names, random_bots, replay
from server.engine.simulation import simulate
from server.games.snollygoster import GAME
from server.games.snollygoster.bot import SnollygosterBot
from server.games.snollygoster.cards import (ACTION_CARDS, EVENT_CARDS, FUEL_CAP, STASH_SIZE,
                                             TAGS_PER_CHARACTER, deck)

from .helpers import act, draw_next, put_food, set_fuel, set_hand, table

VIEW_KEYS = {"game", "you", "phase", "prompt", "players", "escape_pod", "window", "eating", "hand", "agenda"}


def check_invariants(s: Any) -> None:
    """What must hold after every action."""
    zones = s.event_deck + s.event_discard + s.drawn + sum(s.stashes, []) + sum(s.fuel, [])
    assert sorted(zones) == list(range(len(s.kinds))), "an Event card is lost or doubled"
    assert Counter(s.kinds) == Counter(deck(EVENT_CARDS))
    in_play = []
    if s.window is not None:
        in_play = [s.window.play.card] * (2 if s.window.play.card == "steal" else 1) + ["denied"] * len(s.window.chain)
    assert Counter(s.action_deck + s.action_discard + sum(s.hands, []) + in_play) == Counter(deck(ACTION_CARDS))
    for p in range(s.n):
        assert len(s.stashes[p]) <= STASH_SIZE and len(s.fuel[p]) <= FUEL_CAP and len(s.hands[p]) <= 4
        placed = sum(1 for tagger, _ in s.tags.values() if tagger == p)
        assert s.tags_left[p] + placed == TAGS_PER_CHARACTER
        if s.dead[p] and s.phase == "play":
            assert not s.hands[p] and not s.stashes[p] and not s.fuel[p]
    for food in s.all_foods():
        assert s.kinds[food] in ("safe", "unsafe") and s.public_food[food]
        assert s.placed_by[food] in s.known[food]  # whoever placed it knows it
    for c in s.fuel:
        assert all(s.kinds[f] == "fuel" and s.public_kind[f] for f in c)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), seed=st.integers(0, 10_000), team=st.booleans())
def test_random_legal_play_keeps_every_invariant(players: int, seed: int, team: bool) -> None:
    options = {"team_game": team and players >= 4}
    rng = Rng(seed)
    steps = 0

    def check(state: Any, entry: Entry, events: list) -> None:
        nonlocal steps
        steps += 1
        check_invariants(state)
        if steps % 9 == 0:
            seat = rng.below(players)
            v = GAME.view(state, seat)
            assert VIEW_KEYS <= set(v) and v["you"] == seat and v["prompt"]
            json.dumps(v)
            assert all({"name", "score"} <= set(p) for p in v["players"])

    out = play(GAME, players, options, seed, bots=random_bots, on_step=check)
    result = GAME.result(out.state)
    assert result is not None and out.rejected == 0
    assert len(result.scores) == players and set(result.winners) <= set(range(players))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_bot_games_finish_with_a_result_and_figures(players: int) -> None:
    out = play(GAME, players, None, seed=players)
    result = GAME.result(out.state)
    assert result is not None and out.rejected == 0
    figures = GAME.stats(out.state)
    assert figures["launch"] + figures["everyone_dead"] + figures["round_limit"] == 1
    assert sum(figures[k] for k in figures if k.startswith("held_") and k not in ("held_comrade", "held_rogue")) == players
    assert figures["held_comrade"] + figures["held_rogue"] == players


def test_team_game_with_bots_ends_with_a_winning_team() -> None:
    out = play(GAME, 5, {"team_game": True}, seed=3)
    result = GAME.result(out.state)
    assert result.teams and set(result.winners) in ({*result.teams["Comrade"]}, {*result.teams["Rogue"]},
                                                    {*range(5)})


def test_same_seed_same_bot_game_and_replay_is_exact() -> None:
    a = play(GAME, 4, None, seed=21, start_ms=500)
    b = play(GAME, 4, None, seed=21, start_ms=500)
    assert a.log == b.log and a.state == b.state
    assert replay(GAME, player_names(4), None, 21, a.log, 500) == a.state
    assert play(GAME, 4, None, seed=22).log != a.log


# ---- the bot --------------------------------------------------------------------------------------------

def bot_states(players: int, seed: int, limit: int = 30):
    found: list[Any] = []

    def keep(state: Any, entry: Entry, _events: list) -> None:
        if len(found) < limit and entry.at_ms % 3 == 0:
            found.append(state)

    play(GAME, players, None, seed, on_step=keep)
    return found


def test_bot_chooses_only_from_what_its_seat_knows() -> None:
    """The same decision on the true state and on any re-deal of what the seat cannot see."""
    rng = Rng(8)
    compared = 0
    for s in bot_states(4, 2):
        for seat in range(4):
            d = GAME.determinize(s, seat, rng)
            mine = ask(GAME, SnollygosterBot(GAME, Rng(seat)), s, seat, 5_000_000)
            theirs = ask(GAME, SnollygosterBot(GAME, Rng(seat)), d, seat, 5_000_000)
            assert mine == theirs
            compared += mine is not None
    assert compared > 10


def test_bot_does_not_know_which_unknown_food_is_unsafe() -> None:
    """Choosing between Foods it knows nothing about, its choice cannot follow the truth."""
    s = table(3)
    me, cook = s.turn, (s.turn + 1) % 3
    s.stashes[me] = []
    foods = [put_food(s, me, kind, placer=cook) for kind in ("unsafe", "safe", "unsafe")]
    s = draw_next(s, "hungry", "hungry")
    s, _ = act(s, me, {"type": "keep", "card": 0})
    rng = Rng(3)
    truth = ask(GAME, SnollygosterBot(GAME, Rng(0)), s, me, 20_000)
    for _ in range(12):
        d = GAME.determinize(s, me, rng)
        assert ask(GAME, SnollygosterBot(GAME, Rng(0)), d, me, 20_000) == truth
    assert truth.action["food"] in foods


def bot_for(s, seat, agenda):
    s.agendas[seat] = agenda
    return SnollygosterBot(GAME, Rng(1))


def test_honest_bot_tags_the_truth_and_snollygoster_bot_lies() -> None:
    for agenda, expect in (("captain", "unsafe"), ("inspector", "unsafe"), ("snollygoster", "safe"),
                           ("saboteur", "safe")):
        s = table(3)
        me = s.turn
        food = put_food(s, (me + 1) % 3, "unsafe", placer=(me + 1) % 3)
        set_hand(s, me, ["inspect"])
        s, _ = act(s, me, {"type": "inspect", "food": food})
        for p in s.window.waiting[:]:
            s, _ = act(s, p, {"type": "pass"})
        decision = ask(GAME, bot_for(s, me, agenda), s, me, 20_000)
        assert decision.action == {"type": "tag", "claim": expect}, agenda


def test_bot_reads_tags_with_suspicion() -> None:
    """Two Foods tagged safe: it eats the one whose tagger has not been caught lying."""
    s = table(3)
    me, honest, liar = s.turn, (s.turn + 1) % 3, (s.turn + 2) % 3
    s.stashes[me] = []
    a = put_food(s, me, "safe", placer=honest)
    b = put_food(s, me, "safe", placer=honest)
    s.known[a], s.known[b] = {}, {}
    s.tags[a], s.tags[b] = (liar, "safe"), (honest, "safe")
    s.eaten.append({"food": 99, "kind": "unsafe", "eater": honest, "tag": [liar, "safe"], "placed_by": liar})
    s = draw_next(s, "hungry", "hungry")
    s, _ = act(s, me, {"type": "keep", "card": 0})
    decision = ask(GAME, bot_for(s, me, "captain"), s, me, 20_000)
    assert decision.action == {"type": "eat", "food": b}


def test_bot_denies_a_launch_that_leaves_it_behind_and_doomsayer_denies_any() -> None:
    s = table(3)
    me, rival = s.turn, (s.turn + 1) % 3
    set_hand(s, rival, ["launch"])
    set_fuel(s, rival, 5)
    s, _ = act(s, rival, {"type": "launch", "passengers": []})
    set_hand(s, me, ["denied"])
    assert ask(GAME, bot_for(s, me, "captain"), s, me, 20_000).action == {"type": "denied"}
    set_fuel(s, me, 4)
    s2 = table(3)
    set_hand(s2, rival, ["launch"])
    set_fuel(s2, rival, 5)
    set_fuel(s2, me, 5)
    s2, _ = act(s2, rival, {"type": "launch", "passengers": [me]})
    set_hand(s2, me, ["denied"])
    assert ask(GAME, bot_for(s2, me, "survivor"), s2, me, 20_000).action == {"type": "pass"}
    assert ask(GAME, bot_for(s2, me, "doomsayer"), s2, me, 20_000).action == {"type": "denied"}


def test_bot_launches_when_it_can() -> None:
    s = table(3)
    me = s.turn
    set_hand(s, me, ["launch"])
    set_fuel(s, me, 5)
    assert ask(GAME, bot_for(s, me, "captain"), s, me, 20_000).action == {"type": "launch", "passengers": []}
    assert ask(GAME, bot_for(s, me, "doomsayer"), s, me, 20_000).action["type"] != "launch"


def test_bot_thinks_for_a_human_while_and_keeps_its_plan() -> None:
    s = table(3)
    me = s.turn
    bot = SnollygosterBot(GAME, Rng(4), think_ms=(1000, 2000))
    first = ask(GAME, bot, s, me, s.step_since)
    assert s.step_since + 1000 <= first.at_ms <= s.step_since + 2000
    assert ask(GAME, bot, s, me, s.step_since + 10) == first  # asked again: the same plan
    late = ask(GAME, bot, s, me, first.at_ms + 5000)
    assert late.action == first.action and late.at_ms == first.at_ms + 5000


# ---- no seat is favoured ------------------------------------------------------------------------------

def test_bot_ransoms_any_of_equally_good_targets_not_the_lowest_seat() -> None:
    """Ransom among players it has no reason to prefer: the bot's own coin picks, so no
    seat is robbed more for sitting early."""
    targets = set()
    for salt in range(12):
        s = table(4)
        me = s.turn
        for p in range(4):
            set_fuel(s, p, 0 if p == me else 2)
        s = draw_next(s, "ransom", "hungry")
        targets.add(ask(GAME, SnollygosterBot(GAME, Rng(salt)), s, me, 20_000).action.get("target"))
    assert len(targets) == 3


def test_bot_takes_any_of_equally_trusted_passengers_not_the_lowest_seats() -> None:
    pods = set()
    for salt in range(12):
        s = table(4)
        me = s.turn
        set_hand(s, me, ["launch"])
        rich = [(me + 1) % 4, (me + 3) % 4]
        for p in range(4):
            set_fuel(s, p, 4 if p == me or p in rich else 2)
        s.agendas[me] = "captain"
        pods.add(tuple(ask(GAME, SnollygosterBot(GAME, Rng(salt)), s, me, 20_000).action["passengers"]))
    assert pods == {(rich[0],), (rich[1],)}  # two aboard need 8 Fuel: either 4-Fuel player will do


FAIR_GAMES, FAIR_PLAYERS, FAIR_Z = 240, 5, 3.5


def test_no_seat_wins_more_or_less_than_sampling_noise_allows_in_bot_play() -> None:
    """Bots at every seat: each seat's win rate stays within 3.5 standard errors of the
    fair share (the mean of all seats' rates, ties counting for every winner).

    Why these numbers: a seat wins or not in each game, so with seating that does not
    matter its wins over N games are binomial with the fair share p, and the standard
    error is sqrt(p(1-p)/N). Five players is where the old tie-break bias was largest:
    seat 1 won 10 % against a fair 22 % over 400 games. With N = 240 and p ≈ 0.22 the
    error is 2.7 points and the bound ±9.3 points; that bias lies 4.3 errors out and is
    caught about nine times in ten (here: seat 1 at 10.4 %, z = -4.05, before the fix;
    largest |z| 0.8 after it), while a fair bot breaks the bound for some seat about
    once in 400 seeds (3.5 errors two-sided, five seats). Catching a 5-point bias as
    surely would take about 1,000 games, minutes of CPU; 240 games take about 30 s."""
    summary = simulate(GAME, FAIR_PLAYERS, FAIR_GAMES, seed=2024)
    fair = sum(summary.wins) / FAIR_PLAYERS
    error = math.sqrt(fair * (1 - fair) / FAIR_GAMES)
    for seat, share in enumerate(summary.wins):
        assert abs(share - fair) <= FAIR_Z * error, f"seat {seat + 1} won {share:.1%}, fair {fair:.1%}"


# ---- issue 27, item 10: bots keep a watchable pace; the log reads right --------------------

ANSWERS = {"pass", "denied", "antidote", "launch"}  # what a response window asks of everyone at once


def test_bots_keep_a_watchable_pace_and_never_race_through_turns() -> None:
    """Humans watch the bots (all the more once no human is alive): no bot makes two moves
    closer together than its quickest pause, whatever it answers in a response window."""
    quickest = SnollygosterBot(GAME, Rng(0)).answer_ms[0]
    hurried = []
    for seed in range(40):
        last: dict[int, int] = {}
        for e in play(GAME, 3, {}, seed).log:
            if e.seat is None:
                continue
            if e.action["type"] not in ANSWERS and e.seat in last and e.at_ms - last[e.seat] < quickest:
                hurried.append((seed, e.seat, e.action["type"], e.at_ms - last[e.seat]))
            last[e.seat] = e.at_ms
    assert hurried == []


def test_log_says_cards_and_stashes_as_a_person_would() -> None:
    texts: list[tuple[Any, str]] = []
    for seed in range(6):
        play(GAME, 4, {}, seed, on_step=lambda _state, _entry, events: texts.extend((e.to, e.text) for e in events))
    assert not [t for _, t in texts if "(s)" in t]
    assert not [t for to, t in texts if to is None and "their own" in t]
    assert not [t for to, t in texts if to is not None and t.startswith("You") and "their own" in t]
    assert any(" draws 1 Action card." in t for _, t in texts) and any(" Action cards." in t for _, t in texts)
    assert any("'s own stash." in t for to, t in texts if to is None)
    # a tagged Food is named with its tag in brackets, which reads right mid-sentence
    # (not "Food #52, tagged safe by Bo was SAFE.")
    assert any(re.search(r"Food #\d+ \(tagged (safe|unsafe) by [^()]+\)", t) for _, t in texts)
    assert not [t for _, t in texts if re.search(r"Food #\d+, tagged", t)]
