"""Sneaky Supper: push your luck sneaking snacks from the kitchen without waking the house."""

from .bot import bot_at
from .hints import TEACHER
from .rules import SneakySupper

GAME = SneakySupper(bots=bot_at, teacher=TEACHER)
