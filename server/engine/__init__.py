"""The engine contract shared by every game: state, RNG, errors, events, registry."""

from .errors import IllegalAction, InvalidOptions, UnknownGame, require
from .events import Event, for_seat, private, public
from .game import OVER, TIMEOUT, Action, Bot, Decision, Game, Options, RandomBot, Result, State
from .rng import Rng

__all__ = [
    "OVER",
    "TIMEOUT",
    "Action",
    "Bot",
    "Decision",
    "Event",
    "Game",
    "IllegalAction",
    "InvalidOptions",
    "Options",
    "RandomBot",
    "Result",
    "Rng",
    "State",
    "UnknownGame",
    "for_seat",
    "private",
    "public",
    "require",
]
