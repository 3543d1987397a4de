"""Rival Restaurants: barter offers are between the two chefs (designed), so the offer and
its answer — declined, withdrawn, fallen through — are told to them only; the trade, once
made, moves public possessions and is told to everyone."""

from __future__ import annotations

from .helpers import events, go, new


def _audiences(evs: list) -> dict[str, tuple[int, ...] | None]:
    return {e.type: e.to for e in evs}


def test_barter_offers_and_their_answers_are_told_only_to_the_two_chefs() -> None:
    s = go(new(3), "island", "chop_shop", "dairy_king")
    s.chefs[0].ingredients, s.chefs[1].ingredients = {"rice": 2}, {}
    s.chefs[1].money = 500
    offer = {"type": "offer", "to": 1, "give": {"ingredients": ["rice"]}, "get": {"money": 100}}
    told = []
    s, evs = events(s, 0, offer)
    told += evs
    s, evs = events(s, 1, {"type": "decline", "offer": s.offers[0].id})
    told += evs
    s, evs = events(s, 0, offer)
    told += evs
    s, evs = events(s, 0, {"type": "withdraw", "offer": s.offers[0].id})
    told += evs
    s, evs = events(s, 0, offer)
    told += evs
    s.chefs[1].money = 50
    s, evs = events(s, 1, {"type": "accept", "offer": s.offers[0].id})
    told += evs
    assert _audiences(told) == {"offer": (0, 1), "decline": (0, 1), "withdraw": (0, 1), "trade_failed": (0, 1)}
    assert not [e for e in told if e.visible_to(2) or e.visible_to(None)]
    s.chefs[1].money = 500
    s, evs = events(s, 0, offer)
    s, evs = events(s, 1, {"type": "accept", "offer": s.offers[0].id})
    assert [e.to for e in evs if e.type == "trade"] == [None]


def _offer_id(s, others_bartered: bool) -> int:
    """The id chef 0's offer to chef 1 gets after chefs 1 and 2 did or did not barter in
    secret first."""
    s.chefs[0].ingredients, s.chefs[1].ingredients, s.chefs[2].ingredients = {"rice": 2}, {"rice": 1}, {}
    if others_bartered:
        for _ in range(3):
            s, _evs = events(s, 1, {"type": "offer", "to": 2, "give": {"ingredients": ["rice"]}, "get": {}})
            s, _evs = events(s, 1, {"type": "withdraw", "offer": s.offers[-1].id})
    s, _evs = events(s, 0, {"type": "offer", "to": 1, "give": {"ingredients": ["rice"]}, "get": {}})
    return s.offers[-1].id


def test_an_offer_id_tells_nothing_of_offers_between_other_chefs() -> None:
    """Offers between two chefs are secret from the rest, so no id a chef sees may count them
    (offers once drew their ids from the counter the public auctions use too)."""
    quiet = _offer_id(go(new(3), "island", "chop_shop", "dairy_king"), others_bartered=False)
    busy = _offer_id(go(new(3), "island", "chop_shop", "dairy_king"), others_bartered=True)
    assert quiet == busy
    s = go(new(3), "island", "chop_shop", "dairy_king")
    s.chefs[0].ingredients = {"rice": 2}
    s, _evs = events(s, 0, {"type": "offer", "to": 1, "give": {"ingredients": ["rice"]}, "get": {}})
    s, _evs = events(s, 0, {"type": "offer", "to": 1, "give": {"ingredients": ["rice"]}, "get": {}})
    assert len({o.id for o in s.offers}) == 2  # still one id an offer
