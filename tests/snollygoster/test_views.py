"""Consecutive views share what did not change: each part of a view (a player as one seat
sees them, a Food, the offers) is built from its facts and kept, so the next state's views
hold the very same object wherever those facts are the same (the runtime's diff skips it),
and every seat that sees a player alike holds that one object."""

from __future__ import annotations

from server.games.snollygoster import GAME

from .helpers import act, put_food, set_fuel, table

SEATS = [0, 1, 2, 3, None]


def test_an_offer_renews_the_offers_and_the_prompt_of_its_target_only() -> None:
    s = table(4)
    a, b = s.turn, (s.turn + 1) % 4
    set_fuel(s, a, 2)
    before = GAME.views(s, SEATS)
    after = GAME.views(act(s, a, {"type": "offer", "to": b, "give_fuel": 1})[0], SEATS)
    for seat in SEATS:
        assert after[seat]["players"] is before[seat]["players"]
        assert after[seat]["hand"] is before[seat]["hand"] and after[seat]["decks"] is before[seat]["decks"]
        assert after[seat]["offers"] is not before[seat]["offers"] and len(after[seat]["offers"]) == 1
    assert after[b]["prompt"] != before[b]["prompt"]


def test_a_player_is_one_object_for_every_seat_that_sees_them_alike() -> None:
    s = table(4)
    owner, placer = 2, 3
    food = put_food(s, owner, "unsafe", placer=placer)
    views = GAME.views(s, SEATS)
    alike = [seat for seat in SEATS if seat not in (owner, placer)]
    assert len({id(views[seat]["players"][owner]) for seat in alike}) == 1
    for seat in (owner, placer):  # the owner sees their agenda; the placer knows the Food
        assert views[seat]["players"][owner] is not views[None]["players"][owner]
    mine = next(f for f in views[placer]["players"][owner]["stash"] if f["id"] == food)
    theirs = next(f for f in views[None]["players"][owner]["stash"] if f["id"] == food)
    assert (mine["you_know"], mine["how"], theirs["you_know"]) == ("unsafe", "placed", None)
