"""The catalogue of games.

Every package under ``server/games/`` that exposes a ``GAME`` object is a game of Potluck;
adding a game means adding a package, nothing else.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import Any

from .errors import UnknownGame
from .game import Game

GAMES_PACKAGE = "server.games"


@cache
def games() -> dict[str, Game[Any, Any]]:
    """All registered games by id, in a stable order."""
    package = importlib.import_module(GAMES_PACKAGE)
    found: dict[str, Game[Any, Any]] = {}
    for module in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if not module.ispkg:
            continue
        game = getattr(importlib.import_module(f"{GAMES_PACKAGE}.{module.name}"), "GAME", None)
        if isinstance(game, Game):
            found[game.id] = game
    return found


def get(game_id: str) -> Game[Any, Any]:
    """The game with this id; ``UnknownGame`` names the ones that exist."""
    try:
        return games()[game_id]
    except KeyError:
        known = ", ".join(games()) or "none"
        raise UnknownGame(f"Unknown game {game_id!r}; known games: {known}.") from None
