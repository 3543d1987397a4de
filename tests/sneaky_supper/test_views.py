"""Consecutive views share what did not change: a part of a view (a player, the recipes,
a hand, the Floorplan) is built from its facts and kept, so the next state's views hold the
very same object wherever those facts are the same (the runtime's diff then skips it
without looking inside), and a new one wherever they changed."""

from __future__ import annotations

from server.games.sneaky_supper import GAME

from .helpers import act, give, new, stack

SEATS = [0, 1, 2, None]


def test_a_draw_leaves_the_players_recipes_and_hands_as_they_were_and_renews_the_floorplan() -> None:
    s = new(3)
    give(s, 1, "gem-biscuits", "milo")
    stack(s, "eggs")
    before = GAME.views(s, SEATS)
    after = GAME.views(act(s, 0, {"type": "draw"})[0], SEATS)
    for seat in SEATS:
        assert after[seat]["players"] is before[seat]["players"]
        assert after[seat]["recipes"] is before[seat]["recipes"]
        assert after[seat]["hand"] is before[seat]["hand"]
        assert after[seat]["floorplan"] is not before[seat]["floorplan"]
        assert [step["card"]["type"] for step in after[seat]["floorplan"]["path"]] == ["eggs"]
    assert [c["type"] for c in after[1]["hand"]] == ["gem-biscuits", "milo"]


def test_what_every_seat_sees_alike_is_one_object_in_all_their_views() -> None:
    s = new(3)
    views = GAME.views(s, SEATS)
    for key in ("players", "floorplan", "decks", "end", "limits"):
        assert len({id(v[key]) for v in views.values()}) == 1, key


def test_a_hand_that_changes_is_seen_anew_by_its_player_and_the_table() -> None:
    s = new(3)
    give(s, 1, "gem-biscuits")
    before = GAME.views(s, SEATS)
    give(s, 1, "milo")
    after = GAME.views(s, SEATS)
    assert after[1]["hand"] is not before[1]["hand"] and len(after[1]["hand"]) == 2
    assert after[0]["players"][1] is not before[0]["players"][1] and after[0]["players"][1]["hand_size"] == 2
    assert after[0]["players"][0] is before[0]["players"][0]
