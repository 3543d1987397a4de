"""The runtime: live matches in memory, each with its lock, timers, bots and sockets.

It serves any registered game through the engine contract and never looks inside one.
"""

from .errors import (
    AtCapacity,
    Busy,
    Conflict,
    Illegal,
    Invalid,
    MatchFull,
    MatchOver,
    NameTaken,
    NotAuthenticated,
    NotFinished,
    NotStarted,
    NotYourSeat,
    Problem,
    RateLimited,
    SeatsHeld,
    StaleSeq,
    Unavailable,
    UnknownMatch,
)
from .hub import Runtime
from .live_match import LiveMatch
from .subscribers import Subscriber

__all__ = [
    "AtCapacity",
    "Busy",
    "Conflict",
    "Illegal",
    "Invalid",
    "LiveMatch",
    "MatchFull",
    "MatchOver",
    "NameTaken",
    "NotAuthenticated",
    "NotFinished",
    "NotStarted",
    "NotYourSeat",
    "Problem",
    "RateLimited",
    "Runtime",
    "SeatsHeld",
    "StaleSeq",
    "Subscriber",
    "Unavailable",
    "UnknownMatch",
]
