"""SPORKS Out situations built with the rules, for the renderer alone (``show``): Ann
(seat 0) is the chef whose controls are on show, the others around her as the situation
needs. Each returns the state; the rules decide what is legal."""

from __future__ import annotations

from typing import Any

from server.games.rival_restaurants.cards import CORNERS
from tests.rival_restaurants.helpers import act, give, go, hold, new, serve_all, to_cook
from server.games.rival_restaurants.sporks_table import table

THREE = ["Ann", "Bo", "Cy"]


def sporks(chefs: list[str], restaurants: list[str] | None = None) -> Any:
    """A three-chef SPORKS Out match on Day 1, MONEY and MOVE, with the names the pages use."""
    s = new(3, chefs, restaurants, sporks_out=True)
    s.players = list(THREE)
    return s


def next_day(s: Any, *where: str, bids: tuple[int, ...] = (0, 0, 0)) -> Any:
    """Play today out (everyone at ``where``, cooking nothing) and tomorrow's auction with ``bids``."""
    s = serve_all(to_cook(go(s, *(where or ("island",) * 3))))
    if s.phase == "action_auction":
        for seat, amount in enumerate(bids):
            s = act(s, seat, {"type": "box_bid", "amount": amount})
    return s


def auction() -> Any:
    """Day 3's Action Auction: yesterday's tie left the face-up card, so a second one lies
    beside it face down; Ann has bid $300 in secret and Bo has bid; Cy has not."""
    s = sporks(["clam_voyance", "sal_monella", "pork_knuckles"])
    s = next_day(s)  # day 2: everyone bids $0, a tie
    s = serve_all(to_cook(go(s, "island", "island", "island")))
    assert s.phase == "action_auction" and table(s).face_down is not None
    for seat in range(3):
        s.chefs[seat].money = 900
    s = act(s, 0, {"type": "box_bid", "amount": 300})
    return act(s, 1, {"type": "box_bid", "amount": 500})


def gloves() -> Any:
    """Day 5, BUY and BARTER: Ann (Pam Knee You) has completed her boxing ring and wears both
    gloves; Bo (Crave of Wonders at Hot Sauce) has drawn a face-down card at the Veg Out."""
    s = sporks(["pam_knee_you", "sal_monella", "clam_voyance"], ["rising_sun", "crave_of_wonders", "wok_this_way"])
    for corner in CORNERS:
        s = next_day(s, corner, "island", "island")
    s.chefs[1].levels = [3, 7]
    give(s, 1, "onion", "rice")
    s.chefs[1].money = 600
    s = go(s, "island", "veg_out", "island")
    assert table(s).chefs[0].gloves == ["knockout", "rob"] and table(s).chefs[1].hot_sauce
    return s


def luau() -> Any:
    """Day 1, MONEY and MOVE: Bo (Wahine) has thrown her Luau at the Veg Out; Ann (the
    Sultan) has yet to shake a shaker onto a counter card and pick."""
    s = sporks(["sultan_pepper_shakrh", "wahine", "clam_voyance"])
    hold(s, 1, "onigiri", "sushi_platter")
    for seat in range(3):
        s.chefs[seat].money = 900
    return act(s, 1, {"type": "power", "market": "veg_out"})


def missile() -> Any:
    """Day 1, BUY and BARTER at the Island: Ann (Papa Tio) with two parts in her missile and
    ingredients to spare; Bo is Sloppy Joe."""
    s = sporks(["papa_tio", "sloppy_joe", "clam_voyance"])
    give(s, 0, "onion", "rice", "chili")
    s = go(s, "island", "island", "island")
    for part in ("onion", "rice"):
        s = act(s, 0, {"type": "power", "use": "missile_craft", "ingredient": part})
        s.today[0].uses = {}  # as if each part were built on a day of its own
    return s


def dumpster() -> Any:
    """Day 2, BUY and BARTER: Ann (Sloppy Joe) sent Scraps to the Chop Shop yesterday, and
    its discards lie in Joe's Dumpster."""
    s = sporks(["sloppy_joe", "sal_monella", "clam_voyance"])
    s = go(s, "island", "island", "island")
    s = act(s, 0, {"type": "power", "use": "scraps", "market": "chop_shop"})
    s = serve_all(to_cook(s))
    for seat in range(3):
        s = act(s, seat, {"type": "box_bid", "amount": 0})
    s = go(s, "island", "island", "island")
    assert table(s).dumpster.get("chop_shop")
    return s
