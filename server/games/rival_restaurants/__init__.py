"""Rival Restaurants: rival chefs race to the markets, bid and barter in real time, and
cook their way to 20 popularity."""

from .bot import bot_at
from .hints import TEACHER
from .rules import RivalRestaurants

GAME = RivalRestaurants(bots=bot_at, teacher=TEACHER)
