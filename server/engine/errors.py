"""Errors raised by game rules."""

from __future__ import annotations


class IllegalAction(Exception):
    """The action breaks a rule. ``reason`` is a sentence a player understands.

    A game raises it before changing anything, so the state the action was tried on is
    untouched.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class InvalidOptions(ValueError):
    """Match options that a game's options model rejects; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class UnknownGame(LookupError):
    """No registered game has this id."""


def require(condition: object, reason: str) -> None:
    """Raise ``IllegalAction(reason)`` unless ``condition`` holds."""
    if not condition:
        raise IllegalAction(reason)
