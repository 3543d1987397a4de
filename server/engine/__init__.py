"""The engine contract shared by every game: state, RNG, errors, events, registry."""

from .errors import IllegalAction, InvalidOptions, UnknownGame, require
from .events import Event, for_seat, private, public
from .actions import TIMEOUT, Action
from .bots import LEVELS, Bot, BotInput, Decision, RandomBot, SampleBot
from .game import OVER, Game, Options, Result, State, shallow
from .rng import Rng
from .pace import HOUR_MS, LIVE, TURNS, PacedOptions

__all__ = [
    "HOUR_MS",
    "LIVE",
    "OVER",
    "PacedOptions",
    "TURNS",
    "TIMEOUT",
    "Action",
    "Bot",
    "BotInput",
    "Decision",
    "Event",
    "Game",
    "IllegalAction",
    "InvalidOptions",
    "LEVELS",
    "Options",
    "RandomBot",
    "Result",
    "Rng",
    "SampleBot",
    "State",
    "UnknownGame",
    "for_seat",
    "private",
    "public",
    "require",
    "shallow",
]
