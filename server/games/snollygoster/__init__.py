"""Snollygoster: escape an alien planet before the food runs out — hidden agendas,
bluffing tags on a shared, possibly poisoned food supply, and Denied in the nick of time."""

from .bot import bot_at
from .hints import TEACHER
from .rules import Snollygoster

GAME = Snollygoster(bots=bot_at, teacher=TEACHER)
