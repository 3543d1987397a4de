"""Nutty Noodles: one test per rule of the rulebook (and per designed ruling)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from server.engine import TIMEOUT, IllegalAction, Rng
from server.engine.bots import ask
from server.engine.playout import play
from server.games.nutty_noodles import GAME
from server.games.nutty_noodles.cards import BLANK, BOWLS, MISO, MODES, MONSTERS, bowl_id
from server.games.nutty_noodles.rules import NuttyNoodlesState, answer, bowl_for_dice, throw_dice

NAMES = ["Ana", "Bo", "Cy", "Di"]


def monster(*allergies: str) -> str:
    """Some monster with exactly these allergies."""
    return next(m.id for m in MONSTERS.values() if m.allergies == frozenset(allergies))


def new(players: int = 2, seed: int = 1, **options) -> NuttyNoodlesState:
    return GAME.setup(NAMES[:players], GAME.options(options), seed, now_ms=0)


def racing(players: int = 2, tables=None, dice=("chilli", "fish"), at: int = 1000,
           **options) -> NuttyNoodlesState:
    """A state right after the dice showed ``dice``, with ``tables`` seated."""
    s = new(players, **options)
    if tables is not None:
        s.tables = list(tables)
    s.dice = list(dice)
    s.target = bowl_for_dice(dice)
    s.phase, s.phase_since, s.throws = "race", at, 1
    return s


def place(s, seat, table, bowl, at):
    return GAME.apply(s, seat, {"type": "place", "table": table, "bowl": bowl}, at)


# ---- components and setup ---------------------------------------------------------------

def test_components_25_noodle_cards_are_every_1_2_3_ingredient_bowl_plus_miso_soup() -> None:
    sizes = Counter(len(b.ingredients) for b in BOWLS.values())
    assert sizes == {0: 1, 1: 5, 2: 10, 3: 10}


def test_components_42_monsters_22_one_allergy_incl_2_miso_and_20_two_allergies() -> None:
    by_count = Counter(len(m.allergies) for m in MONSTERS.values())
    assert by_count == {1: 22, 2: 20}
    ones = Counter(next(iter(m.allergies)) for m in MONSTERS.values() if len(m.allergies) == 1)
    assert ones[MISO] == 2 and all(ones[i] == 4 for i in ones if i != MISO)
    pairs = Counter(m.allergies for m in MONSTERS.values() if len(m.allergies) == 2)
    assert len(pairs) == 10 and set(pairs.values()) == {2}


def test_basic_setup_4x4_grid_of_one_and_two_ingredient_bowls_and_miso_soup() -> None:
    s = new()
    assert len(s.bowls) == 16 and MISO in s.bowls
    assert {len(BOWLS[b].ingredients) for b in s.bowls} == {0, 1, 2}
    assert GAME.view(s, 0)["grid"] == {"cols": 4, "rows": 4}


def test_basic_setup_three_tables_from_the_22_one_allergy_monsters_and_two_dice() -> None:
    s = new()
    assert len(s.tables) == 3
    seated_and_deck = [m for m in s.tables if m] + s.deck
    assert len(seated_and_deck) == 22
    assert all(len(MONSTERS[m].allergies) == 1 for m in seated_and_deck)
    assert MODES["basic"].dice == 2


def test_advanced_setup_4x5_grid_of_two_and_three_ingredient_bowls_four_tables_40_monsters() -> None:
    s = new(mode="advanced")
    assert len(s.bowls) == 20 and {len(BOWLS[b].ingredients) for b in s.bowls} == {2, 3}
    assert len(s.tables) == 4
    everyone = [m for m in s.tables if m] + s.deck
    assert len(everyone) == 40 and all(MISO not in MONSTERS[m].allergies for m in everyone)


def test_bowls_are_placed_randomly() -> None:
    assert new(seed=1).bowls != new(seed=2).bowls


def test_each_player_has_one_table_token_per_table() -> None:
    s = racing(3)
    tables_offered = {a["table"] for a in GAME.legal(s, 1) if a["type"] == "place"}
    assert tables_offered == {0, 1, 2}


def test_first_thrower_is_chosen_at_random() -> None:
    throwers = {new(4, seed=seed).thrower for seed in range(40)}
    assert throwers == {0, 1, 2, 3}


# ---- dice ---------------------------------------------------------------------------------

def test_dice_showing_no_ingredient_ask_for_the_miso_soup() -> None:
    assert bowl_for_dice([BLANK, BLANK]) == MISO


def test_a_repeated_ingredient_counts_as_one() -> None:
    assert bowl_for_dice(["fish", "fish"]) == "fish"
    assert bowl_for_dice(["chilli", "fish", "chilli"]) == bowl_id({"chilli", "fish"})


def test_basic_dice_always_name_a_bowl_on_the_grid() -> None:
    rng, grid = Rng(3), set(new().bowls)
    for _ in range(500):
        faces, attempts = throw_dice(rng, MODES["basic"])
        assert len(faces) == 2 and attempts == 1 and bowl_for_dice(faces) in grid


def test_advanced_three_dice_thrown_again_until_two_different_ingredients() -> None:
    rng, grid = Rng(4), set(new(mode="advanced").bowls)
    rethrown = 0
    for _ in range(500):
        faces, attempts = throw_dice(rng, MODES["advanced"])
        assert len(faces) == 3 and len(set(faces) - {BLANK}) >= 2
        assert bowl_for_dice(faces) in grid
        rethrown += attempts > 1
    assert rethrown > 0


def test_only_the_thrower_may_throw_the_dice() -> None:
    s = new(3)
    other = (s.thrower + 1) % 3
    with pytest.raises(IllegalAction, match="turn to throw"):
        GAME.apply(s, other, {"type": "roll"}, 10)
    s2, events = GAME.apply(s, s.thrower, {"type": "roll"}, 10)
    assert s2.phase == "race" and len(s2.dice) == 2 and events[0].type == "roll"


def test_placing_before_the_dice_are_thrown_is_refused() -> None:
    s = new()
    with pytest.raises(IllegalAction, match="Wait for the dice"):
        place(s, 0, 0, s.bowls[0], 5)


# ---- the round ----------------------------------------------------------------------------

def test_first_correct_placement_wins_the_monster_at_that_table() -> None:
    eats_all = monster("egg")
    s = racing(2, tables=[monster("chilli"), eats_all, monster("fish")], tie_window_ms=0)
    s2, events = place(s, 1, 1, "chilli+fish", 1500)
    assert s2.won[1] == [eats_all]
    assert any(e.type == "win" and e.data["seat"] == 1 for e in events)


def test_the_empty_table_is_refilled_from_the_draw_deck() -> None:
    s = racing(2, tables=[monster("chilli"), monster("egg"), monster("fish")], tie_window_ms=0)
    top = s.deck[-1]
    s2, _ = place(s, 0, 1, "chilli+fish", 1500)
    assert s2.tables[1] == top and len(s2.deck) == len(s.deck) - 1


def test_wrong_placement_takes_the_player_out_of_the_round() -> None:
    s = racing(3, tables=[monster("chilli"), monster("egg"), monster("fish")])
    s2, events = place(s, 0, 0, "chilli+fish", 1200)  # table 1 is allergic to chilli
    assert "wrong" in events[0].text and GAME.legal(s2, 0) == []
    with pytest.raises(IllegalAction, match="already placed"):
        place(s2, 0, 1, "chilli+fish", 1300)
    assert GAME.view(s2, 1)["throw"]["placements"] == [{"seat": 0, "bowl": "chilli+fish", "table": 0, "correct": False}]


def test_wrong_bowl_is_a_wrong_placement() -> None:
    s = racing(2, tables=[monster("egg")] * 3)
    s2, events = place(s, 0, 0, "chilli", 1200)
    assert s2.placements[0].correct is False


def test_after_a_wrong_first_placement_the_others_play_on() -> None:
    s = racing(3, tables=[monster("chilli"), monster("egg"), monster("fish")], tie_window_ms=0)
    s, _ = place(s, 0, 0, "chilli+fish", 1200)
    s, _ = place(s, 2, 1, "chilli+fish", 1400)
    assert len(s.won[2]) == 1 and s.phase == "roll"


def test_each_player_places_exactly_one_token_a_round() -> None:
    s = racing(2, tables=[monster("egg")] * 3)
    s, _ = place(s, 0, 0, "chilli+fish", 1200)
    with pytest.raises(IllegalAction, match="already placed"):
        place(s, 0, 1, "chilli+fish", 1210)


def test_the_previous_winner_throws_next() -> None:
    s = racing(3, tables=[monster("egg")] * 3, tie_window_ms=0)
    s.thrower = 0
    s, _ = place(s, 2, 0, "chilli+fish", 1300)
    assert s.thrower == 2 and GAME.legal(s, 2) == [{"type": "roll"}]


def test_a_monster_not_allergic_to_miso_eats_the_miso_soup_and_a_miso_monster_does_not() -> None:
    s = racing(2, tables=[monster(MISO), monster("fish"), monster(MISO)], dice=(BLANK, BLANK))
    assert answer(s) == {"type": "place", "table": 1, "bowl": MISO}


# ---- special cases ------------------------------------------------------------------------

def test_takeaway_all_monsters_allergic_first_face_down_token_wins_top_of_deck() -> None:
    s = racing(2, tables=[monster("chilli"), monster("fish"), monster("chilli")], tie_window_ms=0)
    top = s.deck[-1]
    seated = list(s.tables)
    s2, events = GAME.apply(s, 1, {"type": "takeaway", "bowl": "chilli+fish"}, 1500)
    assert s2.won[1] == [top] and s2.tables == seated
    assert any("takeaway" in e.text for e in events)


def test_takeaway_is_wrong_when_a_seated_monster_can_eat() -> None:
    s = racing(2, tables=[monster("chilli"), monster("egg"), monster("chilli")])
    s2, _ = GAME.apply(s, 1, {"type": "takeaway", "bowl": "chilli+fish"}, 1500)
    assert s2.placements[0].correct is False


def test_face_up_token_is_wrong_when_every_monster_is_allergic() -> None:
    s = racing(2, tables=[monster("chilli"), monster("fish"), monster("chilli")])
    s2, _ = place(s, 0, 0, "chilli+fish", 1500)
    assert s2.placements[0].correct is False


def test_simultaneous_correct_placements_all_win_first_takes_table_others_the_deck() -> None:
    s = racing(3, tables=[monster("egg"), monster("chilli"), monster("egg")], tie_window_ms=250)
    at_table = s.tables[0]
    s, _ = place(s, 2, 0, "chilli+fish", 2000)
    assert s.phase == "closing" and GAME.deadline(s) == 2250
    s, _ = place(s, 0, 2, "chilli+fish", 2100)
    from_deck = s.deck[-1]
    s, events = GAME.apply(s, None, TIMEOUT, 2250)
    assert s.won[2] == [at_table] and s.won[0] == [from_deck] and s.won[1] == []
    assert any(e.type == "tie" for e in events)


def test_simultaneous_takeaway_everyone_takes_from_the_deck() -> None:
    s = racing(2, tables=[monster("chilli")] * 3)
    seated = list(s.tables)
    top, second = s.deck[-1], s.deck[-2]
    s, _ = GAME.apply(s, 0, {"type": "takeaway", "bowl": "chilli+fish"}, 2000)
    s, _ = GAME.apply(s, 1, {"type": "takeaway", "bowl": "chilli+fish"}, 2050)  # everyone placed
    assert s.won == [[top], [second]] and s.tables == seated


def test_correct_placement_after_the_tie_window_is_too_late() -> None:
    s = racing(3, tables=[monster("egg")] * 3, tie_window_ms=100)
    s, _ = place(s, 0, 0, "chilli+fish", 2000)
    with pytest.raises(IllegalAction, match="Too late"):
        place(s, 1, 1, "chilli+fish", 2101)


def test_after_a_tie_the_tied_winner_with_fewest_monsters_throws() -> None:
    s = racing(3, tables=[monster("egg")] * 3, tie_window_ms=300)
    s.won[0] = [s.deck.pop(), s.deck.pop()]
    s, _ = place(s, 0, 0, "chilli+fish", 2000)
    s, _ = place(s, 1, 1, "chilli+fish", 2010)
    s, _ = GAME.apply(s, None, TIMEOUT, 2300)
    assert s.thrower == 1


def test_nobody_right_the_round_is_repeated_by_throwing_again() -> None:
    s = racing(2, tables=[monster("egg")] * 3)
    s.thrower = 1
    s, _ = place(s, 0, 0, "chilli", 1200)
    s, events = place(s, 1, 0, "fish", 1300)
    assert s.phase == "roll" and s.thrower == 1 and s.won == [[], []]
    assert events[-1].type == "again"


def test_round_timer_with_nobody_right_throws_again() -> None:
    s = racing(2, tables=[monster("egg")] * 3, round_timeout_ms=5000)
    with pytest.raises(IllegalAction, match="Nothing is due"):
        GAME.apply(s, None, TIMEOUT, 5999)
    s2, events = GAME.apply(s, None, TIMEOUT, 6000)
    assert s2.phase == "roll" and events[0].type == "again"


def test_placement_after_the_round_timer_is_too_late() -> None:
    """The round ends at its timer whether or not time's ``timeout`` has been applied yet:
    the rules refuse a later placement themselves rather than trusting the runtime."""
    s = racing(2, tables=[monster("egg")] * 3, at=1000, round_timeout_ms=5000)
    assert GAME.deadline(s) == 6000
    with pytest.raises(IllegalAction, match="Too late"):
        place(s, 0, 0, "chilli+fish", 6001)
    s2, _ = place(s, 0, 0, "chilli+fish", 6000)
    assert s2.placements[0].correct


def test_throw_timer_throws_the_dice_for_an_idle_thrower() -> None:
    s = new(2, roll_timeout_ms=4000)
    assert GAME.deadline(s) == 4000
    s2, events = GAME.apply(s, None, TIMEOUT, 4000)
    assert s2.phase == "race" and s2.dice and "Time's up" in events[0].text


# ---- variants -----------------------------------------------------------------------------

def test_order_please_the_first_monster_left_to_right_that_can_eat_must_be_served() -> None:
    tables = [monster("chilli"), monster("egg"), monster("broccoli")]
    s = racing(2, tables=tables, order_please=True)
    s2, _ = place(s, 0, 2, "chilli+fish", 1200)  # table 3 could eat, but table 2 comes first
    assert s2.placements[0].correct is False
    s3, _ = place(s, 0, 1, "chilli+fish", 1200)
    assert s3.placements[0].correct is True


def test_without_order_please_any_monster_that_can_eat_may_be_served() -> None:
    s = racing(2, tables=[monster("chilli"), monster("egg"), monster("broccoli")])
    s2, _ = place(s, 0, 2, "chilli+fish", 1200)
    assert s2.placements[0].correct is True


def test_panic_in_the_kitchen_scatters_bowls_in_a_seeded_layout() -> None:
    a, b = new(seed=5, panic_in_the_kitchen=True), new(seed=6, panic_in_the_kitchen=True)
    assert a.layout is not None and len(a.layout) == len(a.bowls)
    assert a.layout == new(seed=5, panic_in_the_kitchen=True).layout and a.layout != b.layout
    assert all(0 <= p["x"] <= 100 and 0 <= p["y"] <= 100 and -35 <= p["rot"] <= 35 for p in a.layout)
    assert any(p["rot"] != 0 for p in a.layout)
    spots = [(p["x"], p["y"]) for p in a.layout]
    assert all(abs(x1 - x2) + abs(y1 - y2) > 5 for (x1, y1), (x2, y2) in combinations(spots, 2))
    assert new(seed=5).layout is None


def test_scrambled_shows_the_harder_side_flag_to_every_seat() -> None:
    s = new(scrambled=True)
    assert GAME.view(s, 0)["variants"]["scrambled"] is True
    assert GAME.view(s, None)["variants"]["scrambled"] is True


@pytest.mark.parametrize("mode", ["basic", "advanced"])
def test_variants_combine_in_any_mode(mode: str) -> None:
    options = {"mode": mode, "order_please": True, "panic_in_the_kitchen": True, "scrambled": True}
    out = play(GAME, 4, options, seed=3)
    assert GAME.result(out.state) is not None


# ---- end of the game ----------------------------------------------------------------------

@pytest.mark.parametrize("players,goal", [(2, 7), (3, 6), (4, 5)])
def test_end_first_to_7_6_5_monsters_for_2_3_4_players(players: int, goal: int) -> None:
    s = racing(players, tables=[monster("egg")] * 3, tie_window_ms=0)
    s.won[0] = [s.deck.pop() for _ in range(goal - 2)]
    s1, _ = place(s, 0, 0, "chilli+fish", 1500)
    assert s1.phase != "over" and GAME.result(s1) is None
    s.won[0].append(s.deck.pop())
    s2, events = place(s, 0, 0, "chilli+fish", 1500)
    result = GAME.result(s2)
    assert s2.phase == "over" and result is not None and result.winners == [0]
    assert result.scores[0] == goal and events[-1].type == "game_over"


def test_a_tie_at_the_end_shares_the_victory() -> None:
    s = racing(2, tables=[monster("egg")] * 3, tie_window_ms=200)
    s.won = [[s.deck.pop() for _ in range(6)], [s.deck.pop() for _ in range(6)]]
    s, _ = place(s, 0, 0, "chilli+fish", 1500)
    s, _ = place(s, 1, 1, "chilli+fish", 1600)
    result = GAME.result(s)
    assert result is not None and result.winners == [0, 1]


def test_designed_when_no_monster_is_left_the_most_monsters_wins() -> None:
    s = racing(2, tables=[monster("egg"), None, None], tie_window_ms=0)
    s.won[1] = s.deck[:4]
    s.deck = []
    s, _ = place(s, 0, 0, "chilli+fish", 1500)
    result = GAME.result(s)
    assert s.phase == "over" and result is not None and result.winners == [1]


def test_no_action_after_the_game_is_over() -> None:
    s = racing(2, tables=[monster("egg"), None, None], tie_window_ms=0)
    s.deck = []
    s, _ = place(s, 0, 0, "chilli+fish", 1500)
    with pytest.raises(IllegalAction, match="over"):
        GAME.apply(s, 0, {"type": "roll"}, 1600)


# ---- hidden information, bot --------------------------------------------------------------

def test_determinize_reshuffles_only_the_monster_deck() -> None:
    s = racing(3)
    d = GAME.determinize(s, 0, Rng(1))
    assert sorted(d.deck) == sorted(s.deck) and d.deck != s.deck
    assert (d.tables, d.bowls, d.won, d.dice) == (s.tables, s.bowls, s.won, s.dice)


def test_view_shows_deck_size_but_not_its_order_nor_the_answer() -> None:
    s = racing(2)
    view = GAME.view(s, 0)
    assert view["deck"] == len(s.deck)
    assert "target" not in view and all(m not in str(view) for m in s.deck)


def test_the_view_keeps_the_last_throw_until_the_next_one_replaces_it() -> None:
    """After the round the dice and tokens stay on show (the round's summary names only its
    target and winners); the next throw replaces them whole; nothing in the view repeats
    who is out, the placements say it."""
    s = racing(2, tables=[monster("egg")] * 3)
    s.thrower = 1
    s, _ = place(s, 0, 0, "chilli", 1200)
    s, _ = place(s, 1, 0, "fish", 1300)
    view = GAME.view(s, 0)
    assert view["phase"] == "roll" and view["last_round"] == {"target": "chilli+fish", "winners": []}
    assert view["throw"] == {"number": 1, "dice": ["chilli", "fish"], "placements": [
        {"seat": 0, "bowl": "chilli", "table": 0, "correct": False},
        {"seat": 1, "bowl": "fish", "table": 0, "correct": False}]}
    assert all(set(p) == {"name", "monsters", "score", "ready"} for p in view["players"])
    assert GAME.legal(s, 0) == [] and GAME.legal(s, 1) == [{"type": "roll"}]
    s, _ = GAME.apply(s, 1, {"type": "roll"}, 1400)
    thrown = GAME.view(s, 0)["throw"]
    assert thrown["number"] == 2 and thrown["dice"] == s.dice and thrown["placements"] == []
    assert len(GAME.legal(s, 0)) == len(GAME.legal(s, 1)) > 0  # last round's tokens are no longer down


def test_bot_without_mistakes_always_serves_correctly() -> None:
    out = play(GAME, 3, {"mode": "advanced", "order_please": True}, seed=9,
               bots=lambda game, seat, rng: game.bot(seat, rng, mistake_rate=0.0))
    wrong = [e for e in out.log if e.action["type"] in ("place", "takeaway")]
    state = GAME.setup(NAMES[:3], GAME.options({"mode": "advanced", "order_please": True}), 9)
    for entry in out.log:
        state, events = GAME.apply(state, entry.seat, entry.action, entry.at_ms)
        for e in events:
            if e.type == "place":
                assert e.text.endswith("— right!") and state.placements[-1].correct, e.text
    assert wrong and GAME.result(out.state) is not None


def test_bot_reaction_time_sets_when_it_serves() -> None:
    s = racing(2, at=10_000)
    bot = GAME.bot(0, Rng(1), reaction_ms=3000, jitter_ms=0, mistake_rate=0.0)
    decision = ask(GAME, bot, s, 0, 10_000)
    assert decision is not None and decision.at_ms == 13_000 and decision.action == answer(s)


# ---- the ready check (issue 27, item 3: the game must not start before you are ready) ------

def test_ready_check_no_throw_before_everyone_is_ready_then_the_thrower_throws() -> None:
    s = new(3, ready_check=True)
    assert s.phase == "ready" and GAME.deadline(s) == s.options.ready_timeout_ms
    assert [GAME.legal(s, q) for q in range(3)] == [[{"type": "ready"}]] * 3
    with pytest.raises(IllegalAction, match="everyone is ready"):
        GAME.apply(s, s.thrower, {"type": "roll"}, 10)
    s, events = GAME.apply(s, 0, {"type": "ready"}, 100)
    assert [e.text for e in events] == ["Ana is ready."] and GAME.legal(s, 0) == []
    with pytest.raises(IllegalAction, match="ready already"):
        GAME.apply(s, 0, {"type": "ready"}, 150)
    assert "Bo and Cy" in GAME.view(s, 0)["prompt"] and GAME.view(s, 1)["players"][0]["ready"]
    s, _ = GAME.apply(s, 1, {"type": "ready"}, 200)
    s, events = GAME.apply(s, 2, {"type": "ready"}, 300)
    assert s.phase == "roll" and s.phase_since == 300 and events[-1].type == "start"
    assert GAME.legal(s, s.thrower) == [{"type": "roll"}]


def test_ready_check_the_timer_starts_the_game_without_those_away() -> None:
    s = new(2, ready_check=True)
    s, _ = GAME.apply(s, 1, {"type": "ready"}, 100)
    s, events = GAME.apply(s, None, TIMEOUT, s.options.ready_timeout_ms)
    assert s.phase == "roll" and "without waiting for Ana" in events[-1].text


def test_ready_check_is_off_by_default_for_programs() -> None:
    assert new(2).phase == "roll"
    assert GAME.options_model.model_json_schema()["properties"]["ready_check"]["lobby_default"] is True


# ---- a wrong serve says what was wrong (issue 27, item 7) ----------------------------------

def test_wrong_serve_says_what_was_wrong() -> None:
    fish_hater, egg_hater = monster("fish"), monster("egg")
    s = racing(2, tables=[fish_hater, egg_hater], dice=("chilli", "fish"))
    target = bowl_for_dice(("chilli", "fish"))
    other = next(b for b in s.bowls if b != target)
    _, events = place(s, 0, 1, other, 1100)
    assert events[0].text.endswith(f" — wrong: the dice asked for {BOWLS[target].name}.")  # the renderer reads it there
    _, events = place(s, 0, 0, target, 1100)
    assert f"wrong: {MONSTERS[fish_hater].name} is allergic to Fish." in events[0].text
    assert events[0].data == {"seat": 0}  # the bowl, the table and that it was wrong: in the view's placement
    s2, events = GAME.apply(s, 0, {"type": "takeaway", "bowl": target}, 1100)
    assert "a takeaway is only for a bowl nobody can eat" in events[0].text
    assert GAME.view(s2, 0)["prompt"].startswith("Out of this round: ") and "takeaway" in GAME.view(s2, 0)["prompt"]
    ordered = racing(2, tables=[egg_hater, monster("broccoli")], dice=("chilli", "fish"), order_please=True)
    _, events = place(ordered, 0, 1, target, 1100)
    assert "wrong: Order Please:" in events[0].text and "(table 1) is the first" in events[0].text
