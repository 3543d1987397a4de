"""The plug-in points of Rival Restaurants.

- A phase of the day: the day is ``state.day_plan``, a list of phase ids, and each id names
  a ``Phase`` in ``PHASES``. An expansion adds a phase (say, an auction before MONEY and
  MOVE) by registering one and inserting its id in the plan.
- New chefs, restaurants, cards: data in ``cards``, new kinds of effect with
  ``effects.effect``; a play that nothing may stop has ``Play(stoppable=False)``.
- An expansion's own state, and how it hooks the base game's phases and views: ``expansion``.
"""

from __future__ import annotations

from typing import Any, Callable

from server.engine import Action, Event

from .state import RivalState

Handler = Callable[[RivalState, int, Action, int], list[Event]]


class Phase:
    """One step of the day. ``handlers`` maps an action type to the function applying it to
    a copy of the state (raising ``IllegalAction`` leaves the original untouched)."""

    id: str = ""
    name: str = ""
    handlers: dict[str, Handler] = {}

    def begin(self, s: RivalState, now: int) -> list[Event]:
        """Set the phase up (``s.phase`` and ``s.phase_since`` are already set)."""
        return []

    def legal(self, s: RivalState, seat: int) -> list[Action]:
        return []

    def length(self, s: RivalState) -> int | None:
        """How long the phase lasts at most (game-clock ms from ``s.phase_since``), or None."""
        return None

    def deadline(self, s: RivalState) -> int | None:
        length = self.length(s)
        return None if length is None else s.phase_since + length

    def timeout(self, s: RivalState, now: int) -> list[Event]:
        """Time has come: move the phase on (the runtime's ``timeout`` action)."""
        return []

    def over(self, s: RivalState) -> bool:
        return True

    def listed(self, s: RivalState) -> bool:
        """Is this phase shown in today's plan (the view's ``day_plan``)?"""
        return True

    def end(self, s: RivalState, now: int) -> list[Event]:
        """Wrap the phase up before the next one begins."""
        return []

    def prompt(self, s: RivalState, seat: int | None) -> str:
        return ""

    def view(self, s: RivalState, seat: int | None) -> dict[str, Any]:
        """The phase's own part of a seat's view."""
        return {}


PHASES: dict[str, Phase] = {}


def register(phase: Phase) -> Phase:
    PHASES[phase.id] = phase
    return phase
