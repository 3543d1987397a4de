"""SPORKS Out's Action Auction: the first phase of every day but Day 1, before MONEY and
MOVE (so before the day's income: chefs bid the money left from yesterday).

The Snackle Box holds at most one face-up and one face-down action card. When the phase
begins, an empty box gets one card face up; a box still holding its face-up card (unsold
yesterday) gets a second one face down; a full box gets nothing. Every chef bids in secret
— a multiple of $100 up to the money they hold (*designed*), changeable until all have bid
— and the bids are revealed together when all have bid or at the deadline (a missing bid
is $0, *designed*). The highest bid pays the bank and takes everything in the box (the
face-down card is turned face up for all to see, *designed*: everything a chef owns is
face up); a tie for the top bid, $0 included, leaves it all in the box. No action card can
be played during the auction (no card belongs to this phase). With nothing to auction
(both decks empty) the phase is skipped.
"""

from __future__ import annotations

from typing import Any

from server.engine import Action, Event, Rng, public, require

from . import ops
from .cards import ACTION_AUCTION, BID_STEP, MONEY_MOVE, action_kind
from .describe import action_view
from .moments import rule
from .phase import Phase, register
from .sporks_table import table
from .state import RivalState
from .zones import BID, BOX_FACE_DOWN, BOX_FACE_UP

SAMPLE_BIDS = 4  # bid amounts offered in ``legal`` besides $0 and all-in


def in_box(s: RivalState) -> list[str]:
    """The Snackle Box's cards (face up first)."""
    box = table(s)
    return [] if box is None else [c for c in (box.face_up, box.face_down) if c is not None]


def fill_box(s: RivalState) -> list[Event]:
    """One card face up into an empty box; a second face down beside an unsold one."""
    box = table(s)
    assert box is not None
    if box.face_up is None:
        card = ops.top_action(s)
        if card is None:
            return []
        box.face_up = card
        return BOX_FACE_UP.tell(None, "box_fill", (f"The Snackle Box gets a face-up card: "
                                                   f"{action_kind(card).name}.", {"card": action_view(card)}), None)
    if box.face_down is None:
        card = ops.top_action(s)
        if card is None:
            return []
        box.face_down = card
        return BOX_FACE_DOWN.tell(None, "box_fill", None,
                                  ("A second card goes into the Snackle Box, face down.", {"face_down": True}))
    return [public("box_full", "The Snackle Box is full: nothing is added until it is bought.")]


def _bid(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
    """Bid in secret for the whole Snackle Box (again to change the bid, until the reveal)."""
    amount = action.get("amount")
    money = s.chefs[seat].money
    require(isinstance(amount, int) and not isinstance(amount, bool) and amount >= 0 and amount % BID_STEP == 0,
            f"A bid is a multiple of {ops.money(BID_STEP)}, $0 or more.")
    require(amount <= money, f"You have only {ops.money(money)} to bid.")
    bids = _bids(s)
    first = bids[seat] is None
    bids[seat] = amount
    return BID.tell_choice(seat, "box_bid", (f"You bid {ops.money(amount)} for the Snackle Box.", {"amount": amount}),
                           (f"{ops.name(s, seat)} has bid.", {"seat": seat}), first)


def bid_options(s: RivalState, seat: int) -> list[Action]:
    """$0, all-in and a few amounts between (``apply`` takes any multiple of $100)."""
    money = s.chefs[seat].money - s.chefs[seat].money % BID_STEP
    amounts = sorted({0, money, *(money * k // (SAMPLE_BIDS + 1) // BID_STEP * BID_STEP for k in range(1, SAMPLE_BIDS + 1))})
    return [{"type": "box_bid", "amount": a} for a in amounts]


def bid_of(s: RivalState, seat: int) -> int | None:
    """This chef's bid today (secret until the reveal), if any."""
    box = table(s)
    return box.bids[seat] if box is not None else None


def _bids(s: RivalState) -> list[int | None]:
    """Today's bids, by seat (None: not yet)."""
    box = table(s)
    assert box is not None
    return box.bids


@rule("day_start")
def _no_bids_yet(s: RivalState, values: dict[str, Any]) -> list[Event]:
    """Every morning, nobody has bid."""
    box = table(s)
    if box is not None:
        box.bids = [None] * len(s.players)
    return []


def redeal_bids(s: RivalState, seat: int, rng: Rng) -> None:
    """Other chefs' unrevealed bids: any bid they could have made (that they bid is public)."""
    bids = _bids(s)
    for other, bid in enumerate(bids):
        if other != seat and bid is not None:
            bids[other] = rng.choice(bid_options(s, other))["amount"]


class ActionAuction(Phase):
    id = ACTION_AUCTION
    name = "Action Auction"
    handlers = {"box_bid": _bid}

    def begin(self, s: RivalState, now: int) -> list[Event]:
        if s.day == 1 or table(s) is None:
            return []
        events = fill_box(s)
        if in_box(s):
            events.insert(0, public("phase", f"Day {s.day}: Action Auction — bid in secret for the Snackle Box.",
                                    phase=self.id, day=s.day))
        return events

    def happens(self, s: RivalState) -> bool:
        """Not on Day 1 (nobody has money to bid), nor with an empty box."""
        return s.day > 1 and bool(in_box(s))

    def length(self, s: RivalState) -> int | None:
        return s.options.auction_ms if self.happens(s) else None

    def timeout(self, s: RivalState, now: int) -> list[Event]:
        events = []
        bids = _bids(s)
        for seat, bid in enumerate(bids):
            if bid is None:
                bids[seat] = 0
                events.append(public("late", f"{ops.name(s, seat)} did not bid in time: $0.", seat=seat))
        return events

    def over(self, s: RivalState) -> bool:
        return not self.happens(s) or all(bid is not None for bid in _bids(s))

    def end(self, s: RivalState, now: int) -> list[Event]:
        """Reveal the bids together; a single top bid pays the bank and takes the box."""
        if not self.happens(s):
            return []
        box = table(s)
        assert box is not None
        bids = [bid or 0 for bid in box.bids]
        top = max(bids)
        leaders = [i for i, b in enumerate(bids) if b == top]
        said = "; ".join(f"{ops.name(s, i)}: {ops.money(b)}" for i, b in enumerate(bids))
        box.last_auction = {"day": s.day, "bids": bids, "winner": None, "price": None}
        if len(leaders) > 1:
            return [public("box_tie", f"Bids revealed — {said}. A tie at the top: the Snackle Box keeps its cards.",
                           bids=bids)]
        winner = leaders[0]
        cards = in_box(s)
        ops.pay(s, winner, top)
        box.face_up = box.face_down = None
        s.chefs[winner].actions = [*s.chefs[winner].actions, *cards]
        box.sold.append(top)
        box.last_auction.update(winner=winner, price=top)
        names = " and ".join(action_kind(c).name for c in cards)
        return [public("box_won", f"Bids revealed — {said}. {ops.name(s, winner)} pays {ops.money(top)} and takes "
                                  f"the Snackle Box: {names}.", bids=bids, seat=winner, paid=top,
                       cards=[action_view(c) for c in cards])]

    def legal(self, s: RivalState, seat: int) -> list[Action]:
        return bid_options(s, seat)

    def prompt(self, s: RivalState, seat: int | None) -> str:
        if seat is None:
            return "The chefs are bidding in secret for the Snackle Box."
        bid = _bids(s)[seat]
        if bid is None:
            return "Bid in secret for the Snackle Box (with yesterday's money; $0 to pass)."
        return f"You bid {ops.money(bid)} — waiting for the reveal (you may still change it)."

    def view(self, s: RivalState, seat: int | None) -> dict[str, Any]:
        bids = _bids(s)
        return {"ends": self.deadline(s), "bids": [bid is not None for bid in bids],
                "your_bid": bids[seat] if seat is not None else None,
                "next": MONEY_MOVE}


PHASE = register(ActionAuction())

__all__ = ["PHASE", "bid_of", "bid_options", "fill_box", "in_box", "redeal_bids"]
