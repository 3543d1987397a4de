"""Snollygoster: a test per rule and per card, named after it."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.engine import IllegalAction, InvalidOptions
from server.games.snollygoster import GAME
from server.games.snollygoster.cards import (ACTION_CARDS, AGENDAS, CHARACTERS, COMRADE, EVENT_CARDS,
                                             POD_FUEL, ROGUE, deck)

from .helpers import (NOW, act, clear_stash, draw_next, everyone_passes, put_food, run, set_fuel, set_hand,
                      stack, table, to_event_stage, types, window_passes)


# ---- the cards ----------------------------------------------------------------------------------

def test_action_deck_has_every_public_card_and_the_designed_ones() -> None:
    assert {"inspect", "launch", "antidote", "denied", "lockout", "steal", "butt_in"} == set(ACTION_CARDS)
    assert all(c.count > 0 for c in ACTION_CARDS.values())
    assert {c.id for c in ACTION_CARDS.values() if c.any_time} == {"launch", "antidote", "denied"}


def test_event_deck_has_fuel_food_hunger_and_ransom() -> None:
    assert set(EVENT_CARDS) == {"fuel", "safe", "unsafe", "hungry", "starving", "ransom"}
    # enough of each Food that seeding can always choose either kind (6 players x 2)
    assert EVENT_CARDS["safe"].count >= 12 and EVENT_CARDS["unsafe"].count >= 12


def test_six_characters_with_five_tag_cards_each() -> None:
    assert len(CHARACTERS) == 6
    assert all(len(c.tags) == 5 for c in CHARACTERS.values())


def test_agendas_are_printed_comrade_or_rogue_and_include_sleuth_and_trojan_horse() -> None:
    assert {a.team for a in AGENDAS.values()} == {COMRADE, ROGUE}
    names = {a.name for a in AGENDAS.values()}
    assert {"Sleuth", "Trojan Horse"} <= names
    assert sum(a.team == ROGUE for a in AGENDAS.values()) >= 3  # enough Rogues for 6 players


def test_rules_page_states_every_agenda_as_its_card_does() -> None:
    """The rules page quotes each Hidden Agenda's card (caps and all)."""
    page = (Path(__file__).parents[2] / "docs/rules/snollygoster.md").read_text()
    flat = " ".join(page.replace("\u2212", "-").split())
    for agenda in AGENDAS.values():
        assert " ".join(agenda.text.split()) in flat, agenda.name


def test_launch_fuel_table_covers_every_pod_size_and_grows() -> None:
    assert sorted(POD_FUEL) == [1, 2, 3, 4, 5, 6]
    assert all(POD_FUEL[k] < POD_FUEL[k + 1] for k in range(1, 6))
    assert POD_FUEL[1] <= 5  # one player with full tanks can go alone


# ---- setup --------------------------------------------------------------------------------------

def test_setup_deals_four_action_cards_and_one_agenda_each() -> None:
    s = GAME.setup(["a", "b", "c", "d"], GAME.options({}), 3)
    assert all(len(h) == 4 for h in s.hands)
    assert len(set(s.agendas)) == 4 and len(s.agendas) + len(s.agenda_deck) == len(AGENDAS)
    assert len(set(s.characters)) == 4
    assert len(s.action_deck) + 16 == len(deck(ACTION_CARDS))


def test_setup_first_player_is_left_of_the_dealer() -> None:
    s = table(4, seed=11)
    assert s.turn == (s.dealer + 1) % 4


def test_seeding_passes_the_event_deck_round_twice() -> None:
    s = GAME.setup(["a", "b", "c"], GAME.options({}), 5)
    first = (s.dealer + 1) % 3
    assert s.seeding == [first, (first + 1) % 3, (first + 2) % 3] * 2
    while s.phase == "seed":
        seat = s.seeding[0]
        s, _ = act(s, seat, {"type": "seed", "kind": "unsafe", "stash": (seat + 1) % 3}, 0)
    assert len(s.all_foods()) == 6 and s.phase == "play"


def test_seeding_may_choose_safe_or_unsafe_for_any_stash_with_room() -> None:
    s = GAME.setup(["a", "b"], GAME.options({}), 5)
    seat = s.seeding[0]
    legal = GAME.legal(s, seat)
    assert {(a["kind"], a["stash"]) for a in legal} == {(k, p) for k in ("safe", "unsafe") for p in (0, 1)}
    assert GAME.legal(s, 1 - seat) == []


def test_seeding_at_most_three_food_a_stash() -> None:
    s = GAME.setup(["a", "b"], GAME.options({}), 5)
    for _ in range(3):
        s, _ = act(s, s.seeding[0], {"type": "seed", "kind": "safe", "stash": 0}, 0)
    with pytest.raises(IllegalAction, match="full"):
        act(s, s.seeding[0], {"type": "seed", "kind": "safe", "stash": 0}, 0)
    assert all(a["stash"] == 1 for a in GAME.legal(s, s.seeding[0]))


def test_seeded_food_is_known_only_to_the_seeder() -> None:
    s = GAME.setup(["a", "b", "c"], GAME.options({}), 5)
    seat = s.seeding[0]
    s, events = act(s, seat, {"type": "seed", "kind": "unsafe", "stash": (seat + 1) % 3}, 0)
    food = s.stashes[(seat + 1) % 3][0]
    assert s.kinds[food] == "unsafe" and s.known[food] == {seat: "placed"}
    for e in events:
        if "unsafe" in e.text:
            assert e.to == (seat,)


# ---- the turn -----------------------------------------------------------------------------------

def test_draw_to_four_at_the_start_of_a_turn() -> None:
    s = table(3)
    set_hand(s, (s.turn + 1) % 3, ["denied"])
    nxt = (s.turn + 1) % 3
    s = next_turn(s)
    assert s.turn == nxt and len(s.hands[nxt]) == 4 and s.hands[nxt][0] == "denied"


def next_turn(s):
    """End the turn quietly: the active player draws two Fuel and keeps one."""
    s = draw_next(s, "fuel", "fuel")
    s, _ = act(s, s.turn, {"type": "keep", "card": 0})
    return s


def until_turn(s, seat):
    while s.turn != seat:
        s = next_turn(s)
    return s


def test_no_draw_when_holding_four() -> None:
    s = table(2)
    nxt = 1 - s.turn
    set_hand(s, nxt, ["denied", "denied", "launch", "inspect"])
    deck_size = len(s.action_deck)
    s = next_turn(s)
    assert s.hands[nxt] == ["denied", "denied", "launch", "inspect"] and len(s.action_deck) == deck_size


def test_action_stage_play_or_discard_any_number() -> None:
    s = table(2)
    me = s.turn
    set_hand(s, me, ["lockout", "butt_in", "denied", "inspect"])
    s, _ = run(s, (me, {"type": "discard", "card": "lockout"}), (me, {"type": "discard", "card": "denied"}))
    assert s.hands[me] == ["butt_in", "inspect"] and s.step == "action"
    assert s.action_discard[-2:] == ["lockout", "denied"]


def test_event_draw_two_keep_one_other_to_the_bottom() -> None:
    s = table(3)
    s = draw_next(s, "fuel", "ransom")
    me = s.turn
    assert [s.kinds[c] for c in s.drawn] == ["fuel", "ransom"]
    ransom = s.drawn[1]
    s, _ = act(s, me, {"type": "keep", "card": 0})
    assert len(s.fuel[me]) == 1 and s.event_deck[0] == ransom
    assert s.known[ransom] == {me: "seen"}  # only the drawer knows what went under


def test_fuel_max_five() -> None:
    s = table(2)
    me = s.turn
    set_fuel(s, me, 5)
    s = draw_next(s, "fuel", "hungry")
    s, events = act(s, me, {"type": "keep", "card": 0})
    assert len(s.fuel[me]) == 5 and "fuel_wasted" in types(events)


def test_food_to_anyones_stash_unseen_by_others() -> None:
    s = table(3)
    me, other = s.turn, (s.turn + 1) % 3
    s = draw_next(s, "unsafe", "hungry")
    food = s.drawn[0]
    s, events = act(s, me, {"type": "keep", "card": 0, "stash": other})
    assert food in s.stashes[other] and s.known[food] == {me: "placed"}
    for e in events:
        if e.to is None:
            assert "unsafe" not in e.text.lower() and e.data.get("kind") is None
    assert GAME.view(s, other)["players"][other]["stash"][-1]["you_know"] is None
    assert GAME.view(s, me)["players"][other]["stash"][-1] == {
        "id": food, "tag": None, "placed_by": me, "antidote": False, "you_know": "unsafe", "how": "placed"}


def test_hunger_is_shown_and_eaten() -> None:
    s = table(2)
    me = s.turn
    s = draw_next(s, "hungry", "hungry")
    s, events = act(s, me, {"type": "keep", "card": 0})
    assert events[0].type == "hunger" and events[0].to is None
    assert s.step == "eat" and s.eating.remaining == 1 and s.eating.eater == me


def test_starving_eats_two() -> None:
    s = table(2)
    me = s.turn
    s = draw_next(s, "starving", "starving")
    s, _ = act(s, me, {"type": "keep", "card": 0})
    first, second = s.stashes[me]
    s, _ = act(s, me, {"type": "eat", "food": first})
    s, _ = everyone_passes(s)
    assert s.eating.remaining == 1 and s.step == "eat"
    s, _ = act(s, me, {"type": "eat", "food": second})
    s, _ = everyone_passes(s)
    assert s.stashes[me] == [] and s.turn != me


def test_play_continues_clockwise_skipping_the_dead() -> None:
    s = table(4)
    me = s.turn
    s.dead[(me + 1) % 4] = True
    s = next_turn(s)
    assert s.turn == (me + 2) % 4


# ---- eating ---------------------------------------------------------------------------------------

def hungry_now(s, me, kind="hungry"):
    s = draw_next(s, kind, kind)
    s, _ = act(s, me, {"type": "keep", "card": 0})
    return s


def test_eating_choice_is_public_then_acknowledged_then_revealed() -> None:
    s = table(3)
    me = s.turn
    s = hungry_now(s, me)
    food = s.stashes[me][0]
    s, events = act(s, me, {"type": "eat", "food": food})
    assert events[0].type == "choose" and events[0].to is None and events[0].data["food"] == food
    assert sorted(s.eating.waiting) == sorted(p for p in range(3) if p != me)
    assert not s.public_kind[food]
    s, _ = act(s, (me + 1) % 3, {"type": "pass"})
    assert food in s.stashes[me]  # not yet revealed
    s, events = act(s, (me + 2) % 3, {"type": "pass"})
    assert "reveal" in types(events) and s.public_kind[food] and food not in s.stashes[me]


def test_acknowledgement_closes_at_its_deadline() -> None:
    s = table(3)
    me = s.turn
    s = hungry_now(s, me)
    s, _ = act(s, me, {"type": "eat", "food": s.stashes[me][0]}, NOW)
    with pytest.raises(IllegalAction):
        act(s, None, {"type": "timeout"}, NOW + 10)
    s, events = act(s, None, {"type": "timeout"}, GAME.deadline(s))
    assert "reveal" in types(events)


def test_safe_food_nothing_happens() -> None:
    s = table(2)
    me = s.turn
    s = hungry_now(s, me)
    s, _ = act(s, me, {"type": "eat", "food": s.stashes[me][0]})
    s, _ = everyone_passes(s)
    assert not s.quarantined[me] and not s.dead[me]


def test_unsafe_food_means_quarantine() -> None:
    s = table(2)
    me = s.turn
    bad = put_food(s, me, "unsafe", placer=1 - me)
    s = hungry_now(s, me)
    s, _ = act(s, me, {"type": "eat", "food": bad})
    s, events = everyone_passes(s)
    assert s.quarantined[me] and "quarantine" in types(events)


def test_starvation_when_food_runs_short() -> None:
    s = table(3)
    me = s.turn
    clear_stash(s, me)
    put_food(s, me, "safe")
    s = draw_next(s, "starving", "starving")
    s, events = act(s, me, {"type": "keep", "card": 0})
    s, events = act(s, me, {"type": "eat", "food": s.stashes[me][0]})
    s, events = everyone_passes(s)
    assert s.dead[me] and "starved" in types(events) and s.turn != me


# ---- Quarantine -------------------------------------------------------------------------------------

def quarantined_table(n=3):
    s = table(n)
    me = s.turn
    bad = put_food(s, me, "unsafe", placer=(me + 1) % n)
    s = hungry_now(s, me)
    s, _ = act(s, me, {"type": "eat", "food": bad})
    s, _ = everyone_passes(s)
    return s, me


def test_quarantine_loses_the_stash() -> None:
    s, me = quarantined_table()
    assert s.stashes[me] == [] and s.quarantined[me]


def test_quarantine_no_adding_food() -> None:
    s, me = quarantined_table()
    s = until_turn(s, me)
    s = draw_next(s, "safe", "hungry")
    food = s.drawn[0]
    keeps = [a for a in GAME.legal(s, me) if a["type"] == "keep"]
    assert {"type": "keep", "card": 0} in keeps and not any("stash" in a for a in keeps)
    with pytest.raises(IllegalAction):
        act(s, me, {"type": "keep", "card": 0, "stash": me})
    s, events = act(s, me, {"type": "keep", "card": 0})
    assert "food_lost" in types(events) and food in s.event_discard and s.stash_of(food) is None


def test_quarantine_two_food_drawn_both_discarded() -> None:
    s, me = quarantined_table()
    s = until_turn(s, me)
    stack(s, "safe", "unsafe")
    discards = len(s.event_discard)
    s, events = act(s, me, {"type": "end_actions"})
    assert "void" in types(events) and len(s.event_discard) == discards + 2 and s.turn != me


def test_quarantine_cannot_launch_or_be_a_passenger() -> None:
    s, me = quarantined_table()
    other = (me + 1) % 3
    set_hand(s, me, ["launch"])
    set_hand(s, other, ["launch"])
    set_fuel(s, me, 5)
    set_fuel(s, other, 5)
    assert not [a for a in GAME.legal(s, me) if a["type"] == "launch"]
    assert all(me not in a["passengers"] for a in GAME.legal(s, other) if a["type"] == "launch")
    with pytest.raises(IllegalAction, match="Quarantine"):
        act(s, other, {"type": "launch", "passengers": [me]})


def test_quarantine_left_by_discarding_two_fuel() -> None:
    s, me = quarantined_table()
    set_fuel(s, me, 3)
    s, events = act(s, me, {"type": "leave_quarantine"})
    assert not s.quarantined[me] and len(s.fuel[me]) == 1 and "unquarantined" in types(events)


def test_quarantined_player_still_has_to_eat() -> None:
    s, me = quarantined_table()
    s = until_turn(s, me)
    s = draw_next(s, "hungry", "hungry")
    s, events = act(s, me, {"type": "keep", "card": 0})
    assert s.dead[me] and "starved" in types(events)


def test_others_may_put_food_in_a_quarantined_players_stash() -> None:
    s, me = quarantined_table()
    s = draw_next(s, "safe", "hungry")
    assert {"type": "keep", "card": 0, "stash": me} in GAME.legal(s, s.turn)


def test_saboteur_scores_when_a_player_goes_into_quarantine_not_when_one_already_there_eats_again() -> None:
    """"+2 each time another player goes into Quarantine from a Food you placed": a
    player already in Quarantine who eats another unsafe Food does not go into it again."""
    s, me = quarantined_table()
    saboteur = (me + 1) % 3
    assert s.counted("poisoned", saboteur) == 1
    again = put_food(s, me, "unsafe", placer=saboteur)
    set_fuel(s, s.turn, 1)
    s, _ = act(s, s.turn, {"type": "feed", "target": me, "food": again})  # pays a Fuel: eat it
    s, _ = everyone_passes(s)
    assert s.quarantined[me] and s.eaten[-1]["food"] == again
    assert s.counted("poisoned", saboteur) == 1 and GAME.stats(s)["quarantines"] == 1


# ---- Inspect and tags -----------------------------------------------------------------------------------

def inspect(s, me, food, claim=None):
    set_hand(s, me, ["inspect"])
    s, _ = act(s, me, {"type": "inspect", "food": food})
    s, events = everyone_passes(s)
    if claim:
        s, more = act(s, me, {"type": "tag", "claim": claim})
        events += more
    return s, events


def test_inspect_shows_the_food_only_to_the_inspector() -> None:
    s = table(3)
    me, other = s.turn, (s.turn + 1) % 3
    food = put_food(s, other, "unsafe", placer=other)
    s, events = inspect(s, me, food)
    result = [e for e in events if e.type == "inspect_result"]
    assert result and result[0].to == (me,) and result[0].data["kind"] == "unsafe"
    assert s.known[food][me] == "inspected" and s.step == "tag"
    assert GAME.view(s, me)["players"][other]["stash"][-1]["how"] == "inspected"
    assert GAME.view(s, (me + 2) % 3)["players"][other]["stash"][-1]["you_know"] is None


def test_inspect_only_untagged_food() -> None:
    s = table(3)
    me = s.turn
    food = s.stashes[me][0]
    s.tags[food] = ((me + 1) % 3, "safe")
    set_hand(s, me, ["inspect"])
    assert {"type": "inspect", "food": food} not in GAME.legal(s, me)
    with pytest.raises(IllegalAction, match="already tagged"):
        act(s, me, {"type": "inspect", "food": food})


def test_tag_may_lie() -> None:
    s = table(3)
    me = s.turn
    food = put_food(s, (me + 1) % 3, "unsafe", placer=(me + 1) % 3)
    s, events = inspect(s, me, food, claim="safe")
    assert s.tags[food] == (me, "safe") and s.tags_left[me] == 4 and s.step == "action"
    assert events[-1].type == "tag" and events[-1].to is None


def test_no_tag_cards_left_no_inspect() -> None:
    s = table(3)
    me = s.turn
    s.tags_left[me] = 0
    set_hand(s, me, ["inspect"])
    assert not [a for a in GAME.legal(s, me) if a["type"] == "inspect"]
    with pytest.raises(IllegalAction, match="Tag cards"):
        act(s, me, {"type": "inspect", "food": s.stashes[me][0]})


def test_tag_card_returns_when_its_food_is_eaten() -> None:
    s = table(2)
    me = s.turn
    food = s.stashes[me][0]
    s, _ = inspect(s, me, food, claim="safe")
    s = hungry_now(s, me)
    s, _ = act(s, me, {"type": "eat", "food": food})
    s, _ = everyone_passes(s)
    assert s.tags_left[me] == 5 and food not in s.tags


# ---- You Lied ---------------------------------------------------------------------------------------------

def test_you_lied_discards_hand_when_a_wrong_tag_is_revealed() -> None:
    s = table(3)
    me, liar = s.turn, (s.turn + 2) % 3  # the liar's turn is not next: no refill
    bad = put_food(s, me, "unsafe", placer=me)
    s.tags[bad] = (liar, "safe")
    set_hand(s, liar, ["denied", "launch"])
    s = hungry_now(s, me)
    s, _ = act(s, me, {"type": "eat", "food": bad})
    s, events = everyone_passes(s)
    assert "you_lied" in types(events) and s.hands[liar] == [] and s.counted("lies", liar) == 1


def test_you_lied_even_on_food_you_ate() -> None:
    s = table(2)
    me = s.turn
    bad = put_food(s, me, "unsafe", placer=me)
    s.tags[bad] = (me, "safe")
    s = hungry_now(s, me)
    set_hand(s, me, ["denied"])
    s, _ = act(s, me, {"type": "eat", "food": bad})
    s, events = everyone_passes(s)
    assert "you_lied" in types(events) and s.hands[me] == []


def test_a_right_tag_is_no_lie() -> None:
    s = table(2)
    me = s.turn
    good = s.stashes[me][0]
    s.tags[good] = (1 - me, "safe")
    set_hand(s, 1 - me, ["denied"])
    s = hungry_now(s, me, "starving")
    s, _ = act(s, me, {"type": "eat", "food": good})
    s, events = everyone_passes(s)
    assert "tag_true" in types(events) and s.hands[1 - me] == ["denied"]


# ---- trading Fuel ----------------------------------------------------------------------------------------------

def test_fuel_trade_offer_and_accept() -> None:
    s = table(3)
    a, b = s.turn, (s.turn + 2) % 3
    set_fuel(s, a, 2)
    food = s.stashes[b][0]
    s, events = act(s, a, {"type": "offer", "to": b, "give_fuel": 1, "want_food": food})
    assert events[0].type == "offer" and {"type": "accept", "by": a} in GAME.legal(s, b)
    s, events = act(s, b, {"type": "accept", "by": a})
    assert len(s.fuel[a]) == 1 and len(s.fuel[b]) == 1 and food in s.stashes[a] and not s.offers


def test_fuel_trade_decline_and_withdraw() -> None:
    s = table(3)
    a, b, c = s.turn, (s.turn + 1) % 3, (s.turn + 2) % 3
    set_fuel(s, a, 2)
    s, _ = run(s, (a, {"type": "offer", "to": b, "give_fuel": 1}), (a, {"type": "offer", "to": c, "give_fuel": 2}))
    s, _ = act(s, b, {"type": "decline", "by": a})
    s, _ = act(s, a, {"type": "withdraw", "to": c})
    assert s.offers == [] and len(s.fuel[a]) == 2
    with pytest.raises(IllegalAction, match="two offers"):
        act(s, a, {"type": "offer", "to": b, "give_fuel": 1})


def test_fuel_trade_cannot_exceed_five() -> None:
    s = table(2)
    a, b = s.turn, 1 - s.turn
    set_fuel(s, a, 2)
    set_fuel(s, b, 5)
    with pytest.raises(IllegalAction, match="five"):
        act(s, a, {"type": "offer", "to": b, "give_fuel": 1})


def test_offers_lapse_at_the_end_of_the_turn() -> None:
    s = table(2)
    a = s.turn
    set_fuel(s, a, 1)
    s, _ = act(s, a, {"type": "offer", "to": 1 - a, "give_fuel": 1})
    s = next_turn(s)
    assert s.offers == []


def test_give_one_fuel_to_make_a_player_eat_a_food_of_your_choice() -> None:
    s = table(3)
    me, victim = s.turn, (s.turn + 1) % 3
    set_fuel(s, me, 2)
    bad = put_food(s, victim, "unsafe", placer=me)
    s, events = act(s, me, {"type": "feed", "target": victim, "food": bad})
    assert len(s.fuel[me]) == 1 and len(s.fuel[victim]) == 1
    assert s.eating.eater == victim and s.eating.food == bad and s.eating.by == me
    s, events = everyone_passes(s)
    assert s.quarantined[victim] and s.step == "action" and s.turn == me
    assert s.counted("poisoned", me) == 1


# ---- death ----------------------------------------------------------------------------------------------------

def test_death_returns_hand_to_the_action_deck_and_stash_and_fuel_to_the_event_deck() -> None:
    s = table(3)
    me, other = s.turn, (s.turn + 1) % 3
    clear_stash(s, me)
    set_hand(s, me, ["denied", "launch"])
    set_fuel(s, me, 2)
    tagged = s.stashes[other][0]
    s.tags[tagged] = (me, "safe")
    s.tags_left[me] -= 1
    action_total = len(s.action_deck) + len(s.action_discard) + sum(len(h) for h in s.hands)
    event_cards = len(s.event_deck) + len(s.event_discard)
    s = draw_next(s, "hungry", "hungry")
    s, events = act(s, me, {"type": "keep", "card": 0})
    assert s.dead[me] and s.hands[me] == [] and s.fuel[me] == [] and s.stashes[me] == []
    assert s.action_discard == [] and len(s.action_deck) + sum(len(h) for h in s.hands) == action_total
    assert len(s.event_deck) == event_cards + 2 and s.event_discard == []  # the Fuel came back
    assert s.tags[tagged] == (me, "safe")  # tags on others' Food stay
    assert s.death_order == [[me]]


def test_dead_players_get_no_turn_and_cannot_act() -> None:
    s = table(3)
    dead = (s.turn + 1) % 3
    s.dead[dead] = True
    set_hand(s, dead, ["launch"])
    assert GAME.legal(s, dead) == []
    with pytest.raises(IllegalAction):
        act(s, dead, {"type": "offer", "to": s.turn, "give_fuel": 0, "want_fuel": 1})


def test_everyone_dead_ends_the_game() -> None:
    s = table(2)
    me = s.turn
    s.dead[1 - me] = True
    s.death_order = [[1 - me]]
    clear_stash(s, me)
    s = draw_next(s, "hungry", "hungry")
    s, events = act(s, me, {"type": "keep", "card": 0})
    assert s.end_reason == "everyone died" and s.phase in ("over", "guess")


# ---- Launch ----------------------------------------------------------------------------------------------------

def test_launch_needs_the_pod_fuel_for_the_passengers() -> None:
    s = table(3)
    me, other = s.turn, (s.turn + 1) % 3
    set_hand(s, me, ["launch"])
    set_fuel(s, me, POD_FUEL[1] - 1)
    set_fuel(s, other, POD_FUEL[2] - POD_FUEL[1])
    assert not [a for a in GAME.legal(s, me) if a["type"] == "launch"]
    with pytest.raises(IllegalAction, match="need"):
        act(s, me, {"type": "launch", "passengers": [other]})
    set_fuel(s, other, POD_FUEL[2] - POD_FUEL[1] + 1)
    assert {"type": "launch", "passengers": [other]} in GAME.legal(s, me)


def test_launch_any_time_even_on_another_players_turn() -> None:
    s = table(3)
    me = (s.turn + 1) % 3
    set_hand(s, me, ["launch"])
    set_fuel(s, me, 5)
    assert {"type": "launch", "passengers": []} in GAME.legal(s, me)
    s = to_event_stage(s)
    assert {"type": "launch", "passengers": []} in GAME.legal(s, me)


def test_launch_ends_the_game_and_those_left_behind_count_as_dead() -> None:
    s = table(3)
    me, mate, left = s.turn, (s.turn + 1) % 3, (s.turn + 2) % 3
    set_hand(s, me, ["launch"])
    set_fuel(s, me, 5)
    set_fuel(s, mate, 3)
    s, events = act(s, me, {"type": "launch", "passengers": [mate]})
    assert s.window is not None and s.window.play.card == "launch"
    s, events = everyone_passes(s)
    assert s.launch == {"by": me, "pod": [me, mate], "fuel": {me: 5, mate: 3}}
    assert s.dead[left] and not s.dead[me] and s.death_order[-1] == [left]
    assert s.phase in ("over", "guess")


def test_launch_passengers_cannot_refuse() -> None:
    s = table(3)
    me, mate = s.turn, (s.turn + 1) % 3
    set_hand(s, me, ["launch"])
    set_fuel(s, me, 5)
    set_fuel(s, mate, 3)
    s, _ = act(s, me, {"type": "launch", "passengers": [mate]})
    assert {a["type"] for a in GAME.legal(s, mate)} <= {"pass", "denied"}


# ---- the response window ---------------------------------------------------------------------------------------

def launch_window(n=3):
    s = table(n)
    me = s.turn
    set_hand(s, me, ["launch", "denied"])
    set_fuel(s, me, 5)
    s, _ = act(s, me, {"type": "launch", "passengers": []})
    return s, me


def test_denied_cancels_an_action_card() -> None:
    s, me = launch_window()
    other = (me + 1) % 3
    set_hand(s, other, ["denied"])
    s, events = act(s, other, {"type": "denied"})
    assert s.window.chain == [other] and sorted(s.window.waiting) == sorted(p for p in range(3) if p != other)
    s, events = everyone_passes(s)
    assert "cancelled" in types(events) and s.launch is None and s.phase == "play"
    assert s.action_discard[-2:] == ["launch", "denied"]


def test_denied_can_cancel_a_denied() -> None:
    s, me = launch_window()
    other = (me + 1) % 3
    set_hand(s, other, ["denied"])
    s, _ = act(s, other, {"type": "denied"})
    s, events = act(s, me, {"type": "denied"})
    assert s.window.chain == [other, me]
    s, events = everyone_passes(s)
    assert s.launch is not None and "launched" in types(events)


def test_denied_cannot_cancel_event_cards() -> None:
    s = table(3)
    me, other = s.turn, (s.turn + 1) % 3
    set_hand(s, other, ["denied"])
    s = draw_next(s, "ransom", "ransom")
    assert not [a for a in GAME.legal(s, other) if a["type"] == "denied"]
    set_fuel(s, other, 1)
    s, _ = act(s, me, {"type": "keep", "card": 0, "target": other})
    assert s.window is None and len(s.fuel[me]) == 1
    with pytest.raises(IllegalAction, match="no card to deny"):
        act(s, other, {"type": "denied"})


def test_response_window_closes_early_when_everyone_passes() -> None:
    s, me = launch_window(4)
    others = [p for p in range(4) if p != me]
    for p in others[:-1]:
        s, _ = act(s, p, {"type": "pass"})
        assert s.window is not None
    s, _ = act(s, others[-1], {"type": "pass"})
    assert s.window is None and s.launch is not None


def test_response_window_closes_at_its_deadline() -> None:
    s, me = launch_window()
    assert GAME.deadline(s) == NOW + s.options.window_ms
    with pytest.raises(IllegalAction, match="due"):
        act(s, None, {"type": "timeout"}, NOW + 1)
    s, events = act(s, None, {"type": "timeout"}, NOW + s.options.window_ms)
    assert s.launch is not None


def test_response_window_restarts_after_a_denied() -> None:
    s, me = launch_window()
    other = (me + 1) % 3
    set_hand(s, other, ["denied"])
    s, _ = act(s, other, {"type": "denied"}, NOW + 3000)
    assert GAME.deadline(s) == NOW + 3000 + s.options.window_ms


def test_passing_is_an_action_and_only_for_those_asked() -> None:
    s, me = launch_window()
    with pytest.raises(IllegalAction):
        act(s, me, {"type": "pass"})
    s2, _ = act(s, (me + 1) % 3, {"type": "pass"})
    assert s2.window.waiting == [(me + 2) % 3]
    with pytest.raises(IllegalAction):
        act(s2, (me + 1) % 3, {"type": "pass"})


def test_only_denied_may_answer_inside_a_window() -> None:
    s, me = launch_window()
    other = (me + 1) % 3
    set_hand(s, other, ["launch", "antidote"])
    set_fuel(s, other, 5)
    assert {a["type"] for a in GAME.legal(s, other)} == {"pass"}
    with pytest.raises(IllegalAction):
        act(s, other, {"type": "launch", "passengers": []})


# ---- the other Action cards ------------------------------------------------------------------------------------

def test_antidote_prevents_quarantine_this_turn() -> None:
    s = table(3)
    me, friend = s.turn, (s.turn + 1) % 3
    bad = put_food(s, me, "unsafe", placer=friend)
    s = hungry_now(s, me)
    s, _ = act(s, me, {"type": "eat", "food": bad})
    set_hand(s, friend, ["antidote"])
    s, _ = act(s, friend, {"type": "antidote", "food": bad})  # any time: during the acknowledgement
    s, _ = window_passes(s)  # the Antidote's window
    assert s.antidote[bad] == s.turn_no
    s, events = everyone_passes(s)  # the acknowledgement, again
    assert "antidote_works" in types(events) and not s.quarantined[me]


def test_antidote_lasts_only_this_turn() -> None:
    s = table(2)
    me = s.turn
    other = 1 - me
    bad = put_food(s, other, "unsafe", placer=me)
    set_hand(s, me, ["antidote"])
    s, _ = act(s, me, {"type": "antidote", "food": bad})
    s, _ = everyone_passes(s)
    assert GAME.view(s, other)["players"][other]["stash"][-1]["antidote"] is True
    s = next_turn(s)
    assert s.turn == other and GAME.view(s, other)["players"][other]["stash"][-1]["antidote"] is False
    s = hungry_now(s, other)
    s, _ = act(s, other, {"type": "eat", "food": bad})
    s, _ = everyone_passes(s)
    assert s.quarantined[other]


def test_lockout_bars_a_player_from_the_stashes_until_the_lockers_next_turn() -> None:
    s = table(2)
    me, target = s.turn, 1 - s.turn
    set_hand(s, me, ["lockout"])
    s, _ = act(s, me, {"type": "lockout", "target": target})
    s, _ = everyone_passes(s)
    assert s.locked == {target: me}
    s = next_turn(s)
    set_hand(s, target, ["inspect", "steal", "steal"])
    legal = GAME.legal(s, target)
    assert not [a for a in legal if a["type"] == "inspect" or (a["type"] == "steal" and a["what"] == "food")]
    s = draw_next(s, "safe", "hungry")
    assert {"type": "keep", "card": 0} in GAME.legal(s, target)  # the Food would be discarded
    s, events = act(s, target, {"type": "keep", "card": 0})
    assert "food_lost" in types(events) and s.turn == me and s.locked == {}


def test_steal_is_played_as_a_pair() -> None:
    s = table(2)
    me, victim = s.turn, 1 - s.turn
    set_fuel(s, victim, 2)
    set_hand(s, me, ["steal"])
    with pytest.raises(IllegalAction, match="pair"):
        act(s, me, {"type": "steal", "target": victim, "what": "fuel"})
    set_hand(s, me, ["steal", "steal"])
    s, _ = act(s, me, {"type": "steal", "target": victim, "what": "fuel"})
    assert s.hands[me] == []
    s, events = everyone_passes(s)
    assert len(s.fuel[me]) == 1 and len(s.fuel[victim]) == 1 and s.action_discard[-2:] == ["steal", "steal"]


def test_steal_a_food_with_its_tag() -> None:
    s = table(3)
    me, victim = s.turn, (s.turn + 1) % 3
    food = s.stashes[victim][0]
    s.tags[food] = (victim, "safe")
    set_hand(s, me, ["steal", "steal"])
    s, _ = act(s, me, {"type": "steal", "target": victim, "what": "food", "food": food})
    s, _ = everyone_passes(s)
    assert food in s.stashes[me] and s.tags[food] == (victim, "safe") and me not in s.known[food]


def test_butt_in_takes_an_extra_event_stage() -> None:
    s = table(2)
    me = s.turn
    set_hand(s, me, ["butt_in"])
    stack(s, "fuel", "ransom")
    s, _ = act(s, me, {"type": "butt_in"})
    s, _ = everyone_passes(s)
    assert s.step == "event" and s.extra_event
    s, _ = act(s, me, {"type": "keep", "card": 0})
    assert s.step == "action" and s.turn == me and len(s.fuel[me]) == 1


def test_ransom_takes_one_fuel_from_a_named_player() -> None:
    s = table(3)
    me, poor, rich = s.turn, (s.turn + 1) % 3, (s.turn + 2) % 3
    set_fuel(s, rich, 3)
    s = draw_next(s, "ransom", "hungry")
    assert {a.get("target") for a in GAME.legal(s, me) if a["type"] == "keep" and a["card"] == 0} == {rich}
    with pytest.raises(IllegalAction):
        act(s, me, {"type": "keep", "card": 0, "target": poor})
    s, _ = act(s, me, {"type": "keep", "card": 0, "target": rich})
    assert len(s.fuel[me]) == 1 and len(s.fuel[rich]) == 2


# ---- special cases ----------------------------------------------------------------------------------------------

def test_two_fuel_at_the_cap_are_discarded_and_drawn_again() -> None:
    s = table(2)
    me = s.turn
    set_fuel(s, me, 5)
    stack(s, "fuel", "fuel", "hungry", "ransom")
    s, events = act(s, me, {"type": "end_actions"})
    assert "void" in types(events) and [s.kinds[c] for c in s.drawn] == ["hungry", "ransom"]
    assert [s.kinds[c] for c in s.event_discard[-2:]] == ["fuel", "fuel"]


def test_two_food_with_every_stash_full_are_discarded_and_drawn_again() -> None:
    s = table(2)
    me = s.turn
    for p in range(2):
        while s.room(p):
            put_food(s, p, "safe")
    stack(s, "unsafe", "safe", "fuel", "hungry")
    s, events = act(s, me, {"type": "end_actions"})
    assert "void" in types(events) and [s.kinds[c] for c in s.drawn] == ["fuel", "hungry"]
    assert all(s.public_food[c] and not s.public_kind[c] for c in s.event_discard[-2:])


# ---- time ------------------------------------------------------------------------------------------------------

def test_timeout_ends_the_action_stage() -> None:
    s = table(2)
    assert GAME.deadline(s) == s.step_since + s.options.turn_ms
    s, events = act(s, None, {"type": "timeout"}, GAME.deadline(s))
    assert s.step == "event"


def test_timeout_keeps_one_drawn_card_and_eats_a_food_from_the_stash() -> None:
    """Time's moves are ordinary moves (how they are chosen: ``test_hidden.py``)."""
    s = table(2)
    me = s.turn
    s = draw_next(s, "fuel", "ransom")
    pair = list(s.drawn)
    s, _ = act(s, None, {"type": "timeout"}, GAME.deadline(s))
    kept = pair[1] if s.event_deck[0] == pair[0] else pair[0]
    assert s.event_deck[0] in pair and s.turn != me
    assert kept in s.fuel[me] or kept in s.event_discard  # a Fuel kept, or the Ransom shown
    s = table(2)
    me = s.turn
    s = hungry_now(s, me)
    stash = list(s.stashes[me])
    s, _ = act(s, None, {"type": "timeout"}, GAME.deadline(s))
    assert s.eating.food in stash


def test_timeout_seeds_a_food_in_your_own_stash_and_tags_the_inspected_food() -> None:
    s = GAME.setup(["a", "b"], GAME.options({}), 1)
    seat = s.seeding[0]
    s, _ = act(s, None, {"type": "timeout"}, GAME.deadline(s))
    assert len(s.stashes[seat]) == 1 and s.known[s.stashes[seat][0]] == {seat: "placed"}
    s = table(2)
    me = s.turn
    bad = put_food(s, 1 - me, "unsafe", placer=1 - me)
    s, _ = inspect(s, me, bad)
    s, _ = act(s, None, {"type": "timeout"}, GAME.deadline(s))
    assert s.tags[bad][0] == me and s.step == "action"


def test_round_limit_ends_the_game_with_nobody_escaping() -> None:
    s = table(2, round_limit=5)
    s.round_no = 5
    while s.phase == "play":
        s = draw_next(s, "fuel", "fuel")
        s, events = act(s, s.turn, {"type": "keep", "card": 0})
    assert s.end_reason == "nobody escaped before the round limit" and all(s.dead)
    assert "round_limit" in types(events) and s.launch is None


# ---- the end and scoring ---------------------------------------------------------------------------------------

def finished(s, agendas, launch=None):
    for seat, agenda in enumerate(agendas):
        s.agendas[seat] = agenda
    s.agenda_deck = [a for a in AGENDAS if a not in agendas]
    s.phase, s.revealed_agendas = "over", list(range(s.n))
    if launch:
        by, pod = launch
        s.launch = {"by": by, "pod": pod, "fuel": {p: len(s.fuel[p]) for p in pod}}
        s.end_reason = "launch"
    else:
        s.end_reason = "everyone died"
    return GAME.result(s)


def test_survivors_score_a_point_per_fuel_contributed() -> None:
    s = table(3)
    set_fuel(s, 0, 4)
    set_fuel(s, 1, 2)
    set_fuel(s, 2, 5)
    r = finished(s, ["inspector", "provider", "medic"], launch=(0, [0, 1]))
    assert r.details["breakdown"][0]["fuel"] == 4 and r.details["breakdown"][1]["fuel"] == 2
    assert r.details["breakdown"][2]["fuel"] == 0  # left behind


@pytest.mark.parametrize("agenda,setup,expected", [
    ("captain", lambda s: None, 5),
    ("medic", lambda s: None, 1),
    ("survivor", lambda s: None, 3),
    ("trojan", lambda s: None, 0),
    ("inspector", lambda s: (s.count("true_tags", 0, 3), s.count("lies", 0, 1)), 2),
    ("provider", lambda s: s.count("safe_fed", 0, 2), 4),
    ("snollygoster", lambda s: s.count("lies", 0, 2), 2),
    ("saboteur", lambda s: s.count("poisoned", 0, 1), 2),
    ("doomsayer", lambda s: None, 2),
    ("hoarder", lambda s: None, 3),
    ("hoarder", lambda s: set_fuel(s, 0, 1), 0),
])
def test_agenda_scoring(agenda, setup, expected) -> None:
    s = table(3)
    set_fuel(s, 0, 4)
    set_fuel(s, 1, 4)
    setup(s)
    others = [a for a in ("hoarder", "medic", "provider") if a != agenda][:2]
    r = finished(s, [agenda, *others], launch=(0, [0, 1]))
    assert r.details["breakdown"][0]["agenda_points"] == expected


def test_doomsayer_scores_those_left_behind_capped_or_a_bonus_if_nobody_escapes() -> None:
    s = table(4)
    set_fuel(s, 1, 5)
    assert finished(s.clone(), ["doomsayer", "medic", "hoarder", "provider"],
                    launch=(1, [1])).details["breakdown"][0]["agenda_points"] == 4  # 3 behind, capped
    assert finished(s.clone(), ["doomsayer", "medic", "hoarder", "provider"]
                    ).details["breakdown"][0]["agenda_points"] == 6


def test_tags_and_placed_food_still_on_the_table_count_at_the_end() -> None:
    s = table(3)
    good = put_food(s, 1, "safe", placer=0)
    bad = put_food(s, 2, "unsafe", placer=0)
    s.tags[good], s.tags[bad] = (0, "safe"), (0, "safe")
    s.tags_left[0] -= 2
    for agenda, expected in (("inspector", 0), ("snollygoster", 1), ("provider", 2), ("saboteur", 1)):
        r = finished(s.clone(), [agenda, "medic", "hoarder"])
        assert r.details["breakdown"][0]["agenda_points"] == expected, agenda


def test_every_food_left_is_revealed_at_the_end() -> None:
    s = table(3)
    me = s.turn
    bad = put_food(s, (me + 1) % 3, "unsafe", placer=(me + 1) % 3)
    set_hand(s, me, ["launch"])
    set_fuel(s, me, 5)
    s.agendas = ["captain", "medic", "hoarder"]
    s, _ = act(s, me, {"type": "launch", "passengers": []})
    s, _ = everyone_passes(s)
    assert s.phase == "over"
    for seat in [None, 0, 1, 2]:
        foods = {f["id"]: f for p in GAME.view(s, seat)["players"] for f in p["stash"]}
        assert foods[bad]["you_know"] == "unsafe" and foods[bad]["how"] == "revealed"


def test_trojan_horse_scores_as_a_passenger() -> None:
    s = table(3)
    set_fuel(s, 0, 4)
    set_fuel(s, 1, 4)
    r = finished(s, ["captain", "trojan", "provider"], launch=(0, [0, 1]))
    assert r.details["breakdown"][1]["agenda_points"] == 3


def launched_alone_by_seat_0(agendas: list[str]):
    """A three-player game with these agendas, ended by seat 0 launching alone."""
    s = table(3)
    s.agendas = agendas
    s.agenda_deck = [a for a in AGENDAS if a not in s.agendas]
    set_hand(s, 0, ["launch"])
    set_fuel(s, 0, 5)
    s, _ = act(s, 0, {"type": "launch", "passengers": []})
    s, _ = everyone_passes(s)
    return s


def test_sleuth_reveals_first_and_guesses_agendas() -> None:
    s = launched_alone_by_seat_0(["sleuth_c", "snollygoster", "hoarder"])
    assert s.phase == "guess" and s.guessing == [0] and s.revealed_agendas == [0]
    assert GAME.view(s, 1)["players"][0]["agenda"]["name"] == "Sleuth"
    assert GAME.view(s, 0)["players"][1]["agenda"] is None
    s, _ = run(s, (0, {"type": "guess", "seat": 1, "agenda": "Snollygoster"}),
               (0, {"type": "guess", "seat": 2, "agenda": "Captain"}), (0, {"type": "done"}))
    r = GAME.result(s)
    assert r.details["breakdown"][0]["agenda_points"] == AGENDAS["sleuth_c"].points - 2


def test_sleuth_guesses_only_agendas_not_yet_revealed() -> None:
    """Both Sleuths reveal themselves first: the other Sleuth is no guess (a sure +4)."""
    s = launched_alone_by_seat_0(["sleuth_c", "sleuth_r", "hoarder"])
    assert s.phase == "guess" and sorted(s.revealed_agendas) == [0, 1]
    assert all(a.get("seat") != 1 for a in GAME.legal(s, 0))
    with pytest.raises(IllegalAction, match="already revealed"):
        act(s, 0, {"type": "guess", "seat": 1, "agenda": "Sleuth"})
    s, _ = act(s, 0, {"type": "guess", "seat": 2, "agenda": "Hoarder"})
    assert s.guesses[0] == {2: "Hoarder"}


def test_tie_goes_to_the_player_who_launched() -> None:
    s = table(3)
    set_fuel(s, 0, 3)
    set_fuel(s, 1, 3)
    r = finished(s, ["hoarder", "hoarder", "provider"], launch=(1, [0, 1]))  # equal points
    assert r.scores[0] == r.scores[1] and r.winners == [1]


def test_tie_when_everyone_died_goes_to_who_died_last() -> None:
    s = table(3)
    s.death_order = [[2], [0], [1]]
    r = finished(s, ["provider", "inspector", "hoarder"])
    assert r.scores == [0.0, 0.0, 0.0] and r.winners == [1]


def test_team_game_adds_up_team_totals() -> None:
    s = table(4, team_game=True)
    set_fuel(s, 0, 5)
    set_fuel(s, 1, 5)
    r = finished(s, ["captain", "survivor", "doomsayer", "hoarder"], launch=(0, [0, 1]))
    assert r.teams == {"Comrade": [0, 1], "Rogue": [2, 3]}
    assert r.details["team_totals"] == {"Comrade": 18.0, "Rogue": 4.0} and r.winners == [0, 1]


def test_team_game_needs_four_players() -> None:
    with pytest.raises(InvalidOptions, match="four"):
        GAME.setup(["a", "b", "c"], GAME.options({"team_game": True}), 1)


def test_team_game_deals_half_the_table_to_each_team_a_coin_for_the_odd_one() -> None:
    sizes = set()
    for seed in range(20):
        s = GAME.setup([str(i) for i in range(5)], GAME.options({"team_game": True}), seed)
        sizes.add(sum(s.team_of(p) == ROGUE for p in range(5)))
        s6 = GAME.setup([str(i) for i in range(6)], GAME.options({"team_game": True}), seed)
        assert sum(s6.team_of(p) == ROGUE for p in range(6)) == 3
    assert sizes == {2, 3}


def test_options_have_titles_descriptions_and_defaults() -> None:
    schema = GAME.options_model.model_json_schema()
    for name, field in schema["properties"].items():
        assert field.get("title") and field.get("description") and "default" in field, name
