"""The runtime: live matches in memory, each with its lock, timers, bots and sockets.

It serves any registered game through the engine contract and never looks inside one.
Its modules import one way (``pyproject.toml``'s import contracts hold them to it): the hub
→ the loader → the live match → its collaborators (presence, bot driver, table chat, seat
views, turns) → the step, the seats, the deadline timer, the sockets → the shared services
→ the lease books → the leaves (clock, patches, messages…). The errors it raises are ``server.problems``, re-exported here.
"""

from server.problems import (
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
from .hub import Hub, Runtime
from .live_match import LiveMatch
from .subscribers import Subscriber

__all__ = [
    "AtCapacity",
    "Busy",
    "Conflict",
    "Hub",
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
