"""Placeholder until the real bot lands."""
from server.engine import RandomBot


class SnollygosterBot(RandomBot):
    def __init__(self, game, rng, **params):
        super().__init__(game, rng)
