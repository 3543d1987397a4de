"""The pace of a match: ``live`` (the game's own timers, minutes) or ``turns`` (a move a
day: every move has ``move_hours``, and the windows meant to be quick scale with it).

A game that can be played by turns gives its options model these two fields (inherit
``PacedOptions``) and says in its ``setup`` how its timers scale (``turns_timers``); a game
that cannot says why in ``Game.live_only`` and refuses ``pace: "turns"``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .game import Options

LIVE, TURNS = "live", "turns"
HOUR_MS = 3_600_000


class PacedOptions(Options):
    pace: Literal["live", "turns"] = Field(
        LIVE, title="Live or by turns",
        description="live: everyone at the table now, with the game's own timers. turns: a move "
                    "a day — each player has the time per move below, and is told when it is "
                    "their move.",
    )
    move_hours: Literal[12, 24, 72] = Field(
        24, title="Time per move (hours, by turns)",
        description="By turns: how long each player has for a move before it is made for them.",
    )

    @property
    def by_turns(self) -> bool:
        return self.pace == TURNS

    @property
    def move_ms(self) -> int:
        """The time per move by turns, in ms."""
        return self.move_hours * HOUR_MS
