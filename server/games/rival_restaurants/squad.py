"""Kitchen Squad, the two-player mode (the match option ``kitchen_squad``).

The published rulebook has it: each player runs **3 chefs, one a day**, and **moves a
non-playing chef with location powers**. The rest is not public, so it is *designed*:

- Each player is dealt a squad of 3 chefs (and one restaurant, dealt or chosen as usual).
- Every day, before MONEY and MOVE, each player **secretly chooses today's chef** from their
  squad (any of the three, yesterday's too); the choices are revealed together. Only
  today's chef's power works that day (the chef's SPORK things — Pam's ring and gloves,
  Papa's missile — stay with the restaurant while she or he rests). A player who has not
  chosen by the deadline keeps yesterday's chef (on Day 1: the first of the squad).
- With the location pick, a player may also send one resting chef, the **runner**, to a
  location (secret until the reveal, like the pick). The runner has **the location's
  powers**: at a market its player may buy free counter cards there once claims there are
  settled (the runner never claims); at the Island its player may buy upgrades and action
  cards and dump garbage. The runner is no chef at its location for anything else: it does
  not claim, is not counted among the chefs there, and location-based powers and cards (Julia Chopper, Flash
  Sale…) work only where today's chef stands, so a runner's purchases get none of them.
"""

from __future__ import annotations

from typing import Any

from server.engine import Action, Event, InvalidOptions, Rng, public, require

from . import ops
from .buying import buy_slot, in_auction, price
from .cards import CHEFS, KITCHEN_SQUAD, LOCATIONS, MARKETS
from .phase import DETERMINIZERS, Phase, register
from .state import RivalState
from .zones import SQUAD

SQUAD_SIZE = 3
SQUAD_PLAYERS = 2


def check_players(players: int) -> None:
    """Kitchen Squad is the two-player mode."""
    if players != SQUAD_PLAYERS:
        raise InvalidOptions(f"Kitchen Squad is the two-player mode: it cannot be played with {players} players.")


def on(s: RivalState) -> bool:
    return s.options.kitchen_squad


def _choose_chef(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
    """Choose today's chef from your squad in secret (again to change it, until the reveal)."""
    chef = action.get("chef")
    require(isinstance(chef, str) and chef in s.chefs[seat].squad, "Choose one of your squad's chefs.")
    t = s.today[seat]
    first = t.squad_pick is None
    t.squad_pick = chef
    return SQUAD.tell_choice(seat, "squad_chef", (f"You choose {CHEFS[chef].name} for today.", {"chef": chef}),
                             (f"{ops.name(s, seat)} has chosen today's chef.", {"seat": seat}), first)


def runner_at(s: RivalState, seat: int) -> str | None:
    """Where this player's runner stands today (after the reveal), if anywhere."""
    return s.today[seat].runner if on(s) else None


def shops_at(s: RivalState, seat: int, location: str) -> bool:
    """Does this player shop at ``location`` today: today's chef or the runner stands there."""
    return location in (s.today[seat].location, runner_at(s, seat))


def runner_buy(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
    """Buy a free counter card at your runner's market (no claim, no location-based discount)."""
    require(not s.today[seat].done, "You have said you are done for today's market.")
    market = runner_at(s, seat)
    require(market in MARKETS, "Your runner is not at a market today.")
    assert market is not None
    return buy_slot(s, seat, market, action.get("slot"), remote=True)


def runner_options(s: RivalState, seat: int) -> list[Action]:
    """Counter cards this player may buy through the runner now."""
    market = runner_at(s, seat)
    if market not in MARKETS or s.today[seat].done:
        return []
    assert market is not None
    m = s.markets[market]
    if not m.claims_resolved:
        return []
    return [{"type": "runner_buy", "slot": i} for i, card in enumerate(m.counter)
            if card is not None and not in_auction(s, market, i)
            and price(s, seat, market, card, remote=True) <= s.available(seat)]


def check_runner(s: RivalState, seat: int, runner: Any) -> None:
    """A runner goes to one of the 7 locations, and only in Kitchen Squad."""
    if runner is None:
        return
    require(on(s), "Only Kitchen Squad has runners.")
    require(isinstance(runner, str) and runner in LOCATIONS, "Send your runner to one of the 7 locations.")


def runner_picks(s: RivalState) -> list[str | None]:
    """The runner choices a move may carry: none, or any location."""
    return [None, *LOCATIONS] if on(s) else [None]


def redeal(s: RivalState, seat: int, rng: Rng) -> None:
    """Other players' unrevealed choices of today's chef and runner: any they could make."""
    if not on(s):
        return
    for other, t in enumerate(s.today):
        if other == seat:
            continue
        if t.squad_pick is not None and s.phase == KITCHEN_SQUAD:
            t.squad_pick = rng.choice(s.chefs[other].squad)
        if t.pick is not None and t.location is None:
            t.runner_pick = rng.choice(runner_picks(s))


class KitchenSquad(Phase):
    id = KITCHEN_SQUAD
    name = "Kitchen Squad"
    handlers = {"squad_chef": _choose_chef}

    def begin(self, s: RivalState, now: int) -> list[Event]:
        return [public("phase", f"Day {s.day}: Kitchen Squad — choose today's chef in secret.", phase=self.id)]

    def length(self, s: RivalState) -> int | None:
        return s.options.move_ms

    def timeout(self, s: RivalState, now: int) -> list[Event]:
        events = []
        for seat, t in enumerate(s.today):
            if t.squad_pick is None:
                t.squad_pick = s.chefs[seat].chef
                events.append(public("late", f"{ops.name(s, seat)} did not choose in time and keeps "
                                             f"{CHEFS[t.squad_pick].name}.", seat=seat))
        return events

    def over(self, s: RivalState) -> bool:
        return all(t.squad_pick is not None for t in s.today)

    def end(self, s: RivalState, now: int) -> list[Event]:
        """Reveal today's chefs together."""
        for p, t in zip(s.chefs, s.today):
            assert t.squad_pick is not None
            p.chef = t.squad_pick
        said = "; ".join(f"{ops.name(s, i)}: {CHEFS[p.chef].name}" for i, p in enumerate(s.chefs))
        return [public("squad_reveal", f"Today's chefs — {said}.", chefs=[p.chef for p in s.chefs])]

    def legal(self, s: RivalState, seat: int) -> list[Action]:
        return [{"type": "squad_chef", "chef": c} for c in s.chefs[seat].squad]

    def prompt(self, s: RivalState, seat: int | None) -> str:
        if seat is None:
            return "The players are choosing today's chefs in secret."
        pick = s.today[seat].squad_pick
        if pick is None:
            return "Choose today's chef from your squad, in secret."
        return f"You chose {CHEFS[pick].name} — waiting for the reveal (you may still change it)."

    def view(self, s: RivalState, seat: int | None) -> dict[str, Any]:
        return {"ends": self.deadline(s), "chosen": [t.squad_pick is not None for t in s.today],
                "your_choice": s.today[seat].squad_pick if seat is not None else None}


PHASE = register(KitchenSquad())
DETERMINIZERS.append(redeal)

__all__ = ["PHASE", "SQUAD_SIZE", "check_players", "check_runner", "runner_at", "runner_options",
           "runner_picks", "shops_at"]
