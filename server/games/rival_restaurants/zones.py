"""Where the cards of Rival Restaurants lie, and who may know them.

Every hidden thing lives in a *zone* with a visibility: **everyone** (a pantry, a counter,
the Snackle Box's face-up card), its **owner** (a location pick, a declared dish, an
Action Auction bid until the reveal) or **nobody** (the shelves and decks, the Snackle
Box's face-down card, a Hot Sauce card — hidden even from the chef who holds it). The view
(``show``), the events about a card (``tell``: audience and wording) and the error texts
(``unseen``) are derived from the zone, so that a face-down zone cannot leak by oversight.
A card nobody may see is shown by its back: its market for an ingredient, "an action card"
for an action card; copies of a card carry no identity in anything public.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from server.engine import Event, private, public

from .cards import INGREDIENTS

EVERYONE, OWNER, NOBODY = "everyone", "owner", "nobody"
Said = tuple[str, dict[str, Any]]  # an event's text and data


@dataclass(frozen=True)
class Zone:
    id: str
    name: str
    visibility: str
    back: Callable[[str], dict[str, Any]] = lambda card: {}  # what anyone sees of a card they may not see

    def sees(self, owner: int | None, viewer: int | None) -> bool:
        """May ``viewer`` (None: a spectator) know the cards ``owner`` holds in this zone?"""
        if self.visibility == EVERYONE:
            return True
        return self.visibility == OWNER and viewer is not None and viewer == owner

    def show(self, cards: list[str], owner: int | None, viewer: int | None,
             face: Callable[[str], Any] = lambda card: card) -> list[Any]:
        """The cards as ``viewer`` sees them: their faces, or their backs."""
        return self.faces(cards, self.sees(owner, viewer), face)

    def faces(self, cards: list[str], seen: bool, face: Callable[[str], Any] = lambda card: card) -> list[Any]:
        """The cards as a viewer who may (``seen``) or may not know them sees them."""
        if seen:
            return [face(c) for c in cards]
        return [self.back(c) for c in cards]

    def tell(self, owner: int | None, type: str, seen: Said | None, unseen: Said | None) -> list[Event]:
        """The events saying a card came into or left this zone: ``seen`` (text and data
        naming it) for those who may know it, ``unseen`` (its back only) for the others
        (None: nothing is said to them)."""
        if self.visibility == EVERYONE:
            return [public(type, seen[0], **seen[1])] if seen else []
        events = [public(type, unseen[0], **unseen[1])] if unseen else []
        if self.visibility == OWNER and owner is not None and seen:
            events.insert(0, private(owner, type, seen[0], **seen[1]))
        return events

    def tell_choice(self, owner: int, type: str, seen: Said, unseen: Said, first: bool) -> list[Event]:
        """A secret choice made or changed: its maker hears what; the others hear only that
        it was made, and only the first time (a change says nothing to them)."""
        events = self.tell(owner, type, seen, unseen)
        return events if first else [e for e in events if e.to is not None]

    def unseen(self, what: str) -> str:
        """How an error text names a card of this zone that the actor may not know."""
        return what if self.visibility == EVERYONE else f"a {self.name}"


def _ingredient_back(card: str) -> dict[str, Any]:
    return {"market": INGREDIENTS[card].market}


PANTRY = Zone("pantry", "pantry", EVERYONE)
HAND = Zone("hand", "action card", EVERYONE)  # action cards held: face up (everything a chef owns is)
SHELF = Zone("shelf", "shelf card", NOBODY, _ingredient_back)
DECK = Zone("deck", "card from a deck", NOBODY)
PICK = Zone("pick", "location pick", OWNER)
DISHES = Zone("dishes", "declared dish", OWNER)
BID = Zone("bid", "bid", OWNER)  # an Action Auction bid until the reveal
CHOICE = Zone("choice", "restaurant choice", OWNER)  # a restaurant chosen, until the reveal
SQUAD = Zone("squad", "choice of today's chef", OWNER)  # Kitchen Squad: today's chef, until the reveal
BOX_FACE_UP = Zone("box_face_up", "face-up Snackle Box card", EVERYONE)
BOX_FACE_DOWN = Zone("box_face_down", "face-down action card", NOBODY, lambda card: {"face_down": True})
HOT_SAUCE = Zone("hot_sauce", "face-down card", NOBODY, _ingredient_back)
DUMPSTER = Zone("dumpster", "Dumpster card", EVERYONE)
MISSILE = Zone("missile", "missile part", EVERYONE)

ZONES: dict[str, Zone] = {z.id: z for z in (PANTRY, HAND, SHELF, DECK, PICK, DISHES, BID, CHOICE, SQUAD, BOX_FACE_UP,
                                            BOX_FACE_DOWN, HOT_SAUCE, DUMPSTER, MISSILE)}

__all__ = ["EVERYONE", "NOBODY", "OWNER", "ZONES", "Zone"]
