"""SPORKS Out's own state: its table and each chef's SPORKS things, one record kept in
``RivalState.expansions["sporks_out"]`` while the match plays it (``expansion``). Only the
expansion's modules (``auction``, ``sporks``) read and write it. What is hidden here is
said in ``zones``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from server.engine import require, shallow

from .cards import SPORKS_OUT
from .state import RivalState


@dataclass
class SporksChef:
    """One chef's SPORKS things — all face up but the Hot Sauce."""

    hot_sauce: list[str] = field(default_factory=list)  # face-down ingredients: nobody sees them, not even their holder
    ring: list[str] = field(default_factory=list)  # Pam: corner markets visited on this boxing ring
    gloves: list[str] = field(default_factory=list)  # Pam: Boxing Gloves held
    missile: list[str] = field(default_factory=list)  # Papa Tio: ingredients built into the Nuclear Missile

    def clone(self) -> "SporksChef":
        return SporksChef(list(self.hot_sauce), list(self.ring), list(self.gloves), list(self.missile))


@dataclass(frozen=True)
class ShakerPlace:
    """Where a shaker sits: on the counter card of ``market`` with identity ``card``."""

    market: str
    card: int


@dataclass
class Sporks:
    """SPORKS Out's table: the Snackle Box, Joe's Dumpster, Scraps, the shakers, the Luau,
    today's Action Auction bids; and every chef's SPORKS things (``chefs``, by seat)."""

    chefs: list[SporksChef]
    face_up: str | None = None  # the Snackle Box's face-up action card
    face_down: str | None = None  # its face-down one: nobody sees it until it is won
    sold: list[int] = field(default_factory=list)  # the prices the Snackle Box went for (public)
    last_auction: dict[str, Any] | None = None  # the last reveal: bids, winner, price (public)
    dumpster: dict[str, list[str]] = field(default_factory=dict)  # Joe's Dumpster by market (nobody's, public)
    scraps: str | None = None  # the market Scraps the Raccoon watches
    shakers: dict[str, ShakerPlace] = field(default_factory=dict)  # shaker -> the counter card it sits on
    luau: str | None = None  # today's Luau market
    bids: list[int | None] = field(default_factory=list)  # today's Action Auction bids, secret until the reveal

    def clone(self) -> "Sporks":
        """A copy ``apply`` may change (the last auction's record is replaced, never changed)."""
        t = shallow(self)
        t.chefs = [c.clone() for c in self.chefs]
        t.sold, t.bids = list(self.sold), list(self.bids)
        t.dumpster = {m: list(cards) for m, cards in self.dumpster.items()}
        t.shakers = dict(self.shakers)
        return t


def table(s: RivalState) -> Sporks | None:
    """SPORKS Out's record, when the match plays it."""
    return s.expansions.get(SPORKS_OUT)


def played(s: RivalState) -> Sporks:
    """SPORKS Out's record; refused (``IllegalAction``) when the match does not play it."""
    t = table(s)
    require(t is not None, "That belongs to SPORKS Out, which this match does not play.")
    assert t is not None
    return t


__all__ = ["ShakerPlace", "Sporks", "SporksChef", "played", "table"]
