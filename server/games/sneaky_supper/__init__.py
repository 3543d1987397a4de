"""Sneaky Supper: push your luck sneaking snacks from the kitchen without waking the house."""

from .rules import SneakySupper

GAME = SneakySupper()
