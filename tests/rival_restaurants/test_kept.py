"""What Rival Restaurants keeps from one state to the next is what it would build afresh."""

from __future__ import annotations

import pytest

from server.games.rival_restaurants.cards import LOCATIONS
from server.games.rival_restaurants.moving import KEPT_MOVES, move_options

from .helpers import QUIET, new


def fresh_moves(players: int, seat: int, foresight: bool) -> list[dict]:
    """The moves as the rule states them: every location, and with foresight each with
    another chef to foresee."""
    out = [{"type": "move", "location": loc} for loc in LOCATIONS]
    if foresight:
        out += [{"type": "move", "location": loc, "foresee": other}
                for loc in LOCATIONS for other in range(players) if other != seat]
    return out


@pytest.mark.parametrize("players", range(2, 7))
@pytest.mark.parametrize("foresight", [False, True])
def test_kept_moves_are_the_moves_built_afresh(players: int, foresight: bool) -> None:
    for seat in range(players):
        chefs = [c for c in QUIET if c != "clam_voyance"] + ["biff_brobeque"]
        if foresight:
            chefs[seat] = "clam_voyance"
        s = new(players, chefs[:players])
        KEPT_MOVES.clear()
        made = move_options(s, seat)
        kept = move_options(s, seat)  # from KEPT_MOVES now
        assert (players, seat, foresight) in KEPT_MOVES
        assert made == kept == fresh_moves(players, seat, foresight)
        assert kept is not made
