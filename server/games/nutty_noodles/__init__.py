"""Nutty Noodles: a real-time race to serve the right bowl to a monster that can eat it."""

from .rules import NuttyNoodles

GAME = NuttyNoodles()
