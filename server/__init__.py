"""Potluck: a self-hosted server for food-themed tabletop games played in the browser."""

__version__ = "0.1.0"
