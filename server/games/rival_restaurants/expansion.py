"""How an expansion hooks the base game: an ``Expansion`` names every seam.

An expansion (SPORKS Out, or a mode such as Kitchen Squad) owns its state: one record, kept
in ``RivalState.expansions`` under the expansion's id while the match plays it, made by
``new`` at set-up and read and written only by the expansion's own modules. The base game
never names an expansion: at each seam below it asks every registered expansion that
overrides the seam (``EXPANSIONS.at``, in registration order) and uses what they answer.
Every seam's default answers as if the expansion were not there, so an expansion overrides
only its own, and the defaults are never asked (they would change nothing); the
view seams are asked whether or not the match plays the expansion (its fields are there,
empty, without it: then answered from the seam's other arguments alone, never from the
state, and kept — ``unplayed``). New phases and effect kinds plug in as before (``phase.register``,
``moments.effect``; table rules with ``moments.rule``, e.g. a daily reset at ``day_start``).
"""

from __future__ import annotations

from typing import Any, Callable

from server.engine import Action, Event, Rng

from .state import RivalRestaurantsOptions, RivalState
from .zones import Zone

Handler = Callable[[RivalState, int, Action, int], list[Event]]
Choices = Callable[[RivalState, int, int | None], list[dict[str, Any]]]


class Expansion:
    """One expansion's answers at the base game's seams."""

    id: str = ""
    handlers: dict[str, dict[str, Handler]] = {}  # phase id -> action type -> handler, in a base phase
    choices: dict[str, Choices] = {}  # a play's choice kind -> sample values (``plays``), for its own cards
    zones: dict[str, tuple[Zone, Callable[[RivalState, int], list[str]]]] = {}
    """Player-view fields that show a zone: key -> (zone, the seat's cards in it)."""

    def record(self, s: RivalState) -> Any:
        """This expansion's record in ``s``, or None when the match does not play it."""
        return s.expansions.get(self.id)

    # -- set-up --
    def on(self, options: RivalRestaurantsOptions) -> bool:
        """Does a match with these options play this expansion?"""
        return False

    def check_players(self, players: int) -> None:
        """Raise ``InvalidOptions`` for a table this expansion cannot be played at (when on)."""

    def chefs_per_seat(self) -> int:
        """How many chef cards each seat is dealt (when on); the first is today's."""
        return 1

    def new(self, s: RivalState, chefs: list[list[str]]) -> Any:
        """Its record for a new match (``chefs``: the chef cards dealt, by seat)."""
        return None

    # -- what a seat cannot know (``determinize``) --
    def redeal_unseen(self, s: RivalState, rng: Rng) -> None:
        """Re-deal what nobody may know, before the shelves and decks are shuffled."""

    def redeal(self, s: RivalState, seat: int, rng: Rng) -> None:
        """Re-deal the other seats' secrets, after the base game's."""

    # -- MONEY and MOVE: what a location pick may carry --
    def pick_variants(self, s: RivalState, seat: int) -> list[dict[str, Any]]:
        """The extra fields a legal move may carry (each is one variant of every move)."""
        return [{}]

    def pick(self, s: RivalState, seat: int, action: Action) -> tuple[str, dict[str, Any]]:
        """Check (raise ``IllegalAction``) and keep the move's extra fields; returns what the
        picker is told besides the location (text to append, and event data)."""
        return "", {}

    def reveal(self, s: RivalState) -> tuple[list[str], dict[str, Any]]:
        """At the reveal: reveal the extras kept with the picks; returns text to append to
        each seat's place in the reveal, and event data."""
        return [""] * len(s.players), {}

    # -- BUY and BARTER --
    def shops_at(self, s: RivalState, seat: int) -> tuple[str, ...]:
        """Locations where this seat shops today besides its chef's location."""
        return ()

    def market_options(self, s: RivalState, seat: int) -> list[Action]:
        """Extra legal actions of the market (after the Island's)."""
        return []

    def face_down(self, s: RivalState, seat: int) -> list[str]:
        """The face-down cards this seat holds (they may be bartered, by their backs)."""
        return []

    def turn_up(self, s: RivalState, seat: int, card: str) -> None:
        """A face-down card this seat held leaves its face-down cards (traded away)."""

    # -- the views --
    def player_fields(self, s: RivalState, seat: int) -> dict[str, Any]:
        """Fields of a chef that everyone sees alike."""
        return {}

    def location_fields(self, s: RivalState, location: str) -> dict[str, Any]:
        """Fields of a board location; ``market_fields`` too at a market."""
        return {}

    def market_fields(self, s: RivalState, market: str) -> dict[str, Any]:
        return {}

    def counter_fields(self, s: RivalState, market: str) -> dict[str, list[Any]]:
        """Fields of the counter cards of ``market``: each field's value on every slot, in
        slot order (an empty slot's is never shown); asked once a market, not once a card."""
        return {}

    def mine_fields(self, s: RivalState, seat: int) -> dict[str, Any]:
        """Fields of what only this seat knows (``mine``)."""
        return {}

    def view_fields(self, s: RivalState, seat: int | None) -> dict[str, Any]:
        """Top-level fields of a seat's view."""
        return {}

    # -- the end --
    def result_details(self, s: RivalState) -> dict[str, Any]:
        return {}

    def stats(self, s: RivalState) -> dict[str, float]:
        return {}


class Expansions(dict[str, Expansion]):
    """The registered expansions, by id. Which of them override each seam is found once,
    and anew whenever one is registered or removed."""

    def __init__(self) -> None:
        super().__init__()
        self._at: dict[str, tuple[Expansion, ...]] = {}
        self._joined: dict[str, dict[str, Any]] = {}
        self.unplayed: dict[Any, Any] = {}
        """What the view seams answer where no expansion at them is played (``merged``)."""

    def __setitem__(self, key: str, value: Expansion) -> None:
        super().__setitem__(key, value)
        self._at, self._joined, self.unplayed = {}, {}, {}

    def __delitem__(self, key: str) -> None:
        super().__delitem__(key)
        self._at, self._joined, self.unplayed = {}, {}, {}

    def at(self, seam: str) -> tuple[Expansion, ...]:
        """The expansions that answer ``seam`` otherwise than its default, in order."""
        found = self._at.get(seam)
        if found is None:
            default = getattr(Expansion, seam)
            found = self._at[seam] = tuple(x for x in self.values() if getattr(type(x), seam) is not default
                                           or seam in vars(x))
        return found

    def joined(self, table: str) -> dict[str, Any]:
        """The expansions' ``table`` (a class attribute such as ``zones``) in one dict."""
        found = self._joined.get(table)
        if found is None:
            found = self._joined[table] = {k: v for x in self.at(table) for k, v in getattr(x, table).items()}
        return found


EXPANSIONS = Expansions()


def register_expansion(expansion: Expansion) -> Expansion:
    EXPANSIONS[expansion.id] = expansion
    return expansion


def merged(seam: str, s: RivalState, *args: Any) -> dict[str, Any]:
    """Every expansion's answer at a seam of fields (``seam(s, ...)`` with ``args``), in one
    dict, only read (a lone expansion's answer is that very dict); kept where the match
    plays none of them (``unplayed``)."""
    return unplayed(seam, s, (seam, *args), _merged, seam, s, args)


def unplayed(seam: str, s: RivalState, key: Any, make: Callable[..., Any], *args: Any) -> Any:
    """``make(*args)``, something of a view seam's answer; where the match plays no expansion
    at ``seam``, made once for ``key`` (the seam and its other arguments) and kept: each
    expansion then answers with its fields empty, from those arguments alone (``played``)."""
    kept = EXPANSIONS.unplayed
    if s.expansions and played(EXPANSIONS.at(seam), s):
        return make(*args)
    found = kept.get(key, kept)
    if found is kept:
        found = kept[key] = make(*args)
    return found


def played(at: tuple[Expansion, ...], s: RivalState) -> bool:
    """Does the match play any of these expansions? An expansion it does not play answers
    a view seam with its fields empty, from the seam's other arguments alone (never from
    the state): the same for every match not playing it."""
    playing = s.expansions
    return bool(playing) and any(x.id in playing for x in at)


def _merged(seam: str, s: RivalState, args: tuple[Any, ...]) -> dict[str, Any]:
    at = EXPANSIONS.at(seam)
    if len(at) == 1:
        return getattr(at[0], seam)(s, *args)
    out: dict[str, Any] = {}
    for x in at:
        out.update(getattr(x, seam)(s, *args))
    return out


def handler(phase: str, kind: str) -> Handler | None:
    """An expansion's handler of ``kind`` in the base phase ``phase``."""
    return next((x.handlers[phase][kind] for x in EXPANSIONS.at("handlers") if kind in x.handlers.get(phase, {})),
                None)


def face_down_of(s: RivalState, seat: int) -> list[str]:
    """Every face-down card this seat holds, in the order drawn."""
    return [c for x in EXPANSIONS.at("face_down") for c in x.face_down(s, seat)]


__all__ = ["EXPANSIONS", "Expansion", "face_down_of", "handler", "merged", "played", "register_expansion", "unplayed"]
