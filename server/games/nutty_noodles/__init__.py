"""Nutty Noodles: a real-time race to serve the right bowl to a monster that can eat it."""

from .bot import bot_at
from .hints import TEACHER
from .rules import NuttyNoodles

GAME = NuttyNoodles(bots=bot_at, teacher=TEACHER)
