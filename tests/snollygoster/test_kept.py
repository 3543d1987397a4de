"""Kept view parts and legal actions are what a fresh build makes: over the states of
random games and their re-deals, every seat's and the spectator's view and every seat's
legal list, built with the parts kept from the states before, read the same as those built
for that seat alone with nothing kept (each kept function called through to its body). A
key that leaves out a fact its part reads shows up here: a part kept for one seat or state
is served to another."""

from __future__ import annotations

from typing import Any, Callable

import orjson
import pytest

from server.engine import Rng
from server.engine.playout import play, random_bots
from server.games.snollygoster import GAME, actions, view
from server.games.snollygoster.cards import FUEL_CAP

JSON = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def unkept(monkeypatch: pytest.MonkeyPatch, module: Any, build: Callable[[], Any]) -> Any:
    """What ``build`` makes with every kept function of ``module`` called through to its body."""
    with monkeypatch.context() as m:
        for name, fn in list(vars(module).items()):
            if hasattr(fn, "__wrapped__"):
                m.setattr(module, name, fn.__wrapped__)
        return build()


def random_states(players: int, options: dict[str, Any], seed: int) -> list[Any]:
    """Every state of a random game, each followed by a re-deal for one seat (other kinds
    under the same public facts: a Food a seat knows may be another kind there) and by a
    fuelled one (random play seldom holds the Fuel a Launch needs)."""
    states: list[Any] = []
    play(GAME, players, options, seed, bots=random_bots, max_steps=500,
         on_step=lambda s, entry, events: states.append(s))
    rng = Rng(seed)
    return [d for s in states for d in (s, GAME.determinize(s, rng.below(players), rng), fuelled(s, rng))]


def fuelled(s: Any, rng: Rng) -> Any:
    """``s`` with each living player's Fuel topped up from the Event deck to a random
    count of 2 to 5, and one of them in Quarantine (who keeps their stash, as one fed since)."""
    d = s.clone()
    fuel = [c for c in d.event_deck if d.kinds[c] == "fuel"]
    alive = d.alive()
    for p in alive:
        wanted = 2 + rng.below(FUEL_CAP - 1)
        while fuel and len(d.fuel[p]) < wanted:
            card = fuel.pop()
            d.event_deck.remove(card)
            d.public_kind[card] = True
            d.fuel[p].append(card)
    if alive:
        d.quarantined[rng.choice(alive)] = True
    return d


def as_json(value: Any) -> bytes:
    return orjson.dumps(value, option=JSON)


TABLES = [(players, variant) for variant in sorted(GAME.variants) for players in (2, 4, 6)
          if players >= 4 or variant != "team_game"]  # the team game needs four or more players


@pytest.mark.parametrize(("players", "variant"), TABLES)
def test_kept_views_and_legal_actions_are_fresh_ones(players: int, variant: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    seats: list[int | None] = [*range(players), None]
    for seed in range(2):
        for s in random_states(players, GAME.variants[variant], Rng(seed * 10 + players).below(1 << 30)):
            kept = GAME.views(s, seats)
            fresh = unkept(monkeypatch, view, lambda: {seat: GAME.view(s, seat) for seat in seats})
            for seat in seats:
                assert as_json(kept[seat]) == as_json(fresh[seat]), f"seat {seat}, turn {s.turn_no}, phase {s.phase}"
            kept_legal = GAME.legals(s, seats[:-1])
            fresh_legal = unkept(monkeypatch, actions, lambda: {seat: GAME.legal(s, seat) for seat in seats[:-1]})
            assert kept_legal == fresh_legal, f"turn {s.turn_no}, phase {s.phase}"


@pytest.mark.parametrize(("players", "variant"), TABLES)
def test_a_seat_not_addressed_is_prompted_as_the_spectator(players: int, variant: str) -> None:
    """``views`` tells a seat outside ``addressed`` the spectator's prompt without asking
    ``prompt``: that is what ``prompt`` tells it."""
    for seed in range(2):
        for s in random_states(players, GAME.variants[variant], Rng(seed * 10 + players).below(1 << 30)):
            addressed = view._addressed(s)
            for seat in range(players):
                if seat not in addressed:
                    assert view.prompt(s, seat) == view.prompt(s, None), f"seat {seat}, turn {s.turn_no}, {s.phase}"
