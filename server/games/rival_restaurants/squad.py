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

from dataclasses import dataclass, field
from typing import Any

from server.engine import Action, Event, InvalidOptions, Rng, public, require, shallow

from . import ops
from .buying import buy_slot, in_auction, price
from .cards import BUY_BARTER, CHEFS, KITCHEN_SQUAD, LOCATIONS, MARKETS
from .describe import chef_card
from .expansion import Expansion, register_expansion
from .moments import rule
from .phase import Phase, register
from .state import RivalRestaurantsOptions, RivalState
from .zones import SQUAD

SQUAD_SIZE = 3
SQUAD_PLAYERS = 2


@dataclass
class Squads:
    """Kitchen Squad's own state, by seat: each player's squad and today's choices. Kept in
    ``RivalState.expansions["kitchen_squad"]``; only this module reads and writes it."""

    chefs: list[list[str]]  # each player's 3 chefs (the pantry's ``chef`` is today's)
    picks: list[str | None] = field(default_factory=list)  # today's chef, secret until the reveal
    runner_picks: list[str | None] = field(default_factory=list)  # where the runner goes, secret until the reveal
    runners: list[str | None] = field(default_factory=list)  # the runner's location, after the reveal

    def clone(self) -> "Squads":
        """A copy ``apply`` may change (the squads themselves never change)."""
        t = shallow(self)
        t.picks, t.runner_picks, t.runners = list(self.picks), list(self.runner_picks), list(self.runners)
        return t


def squads(s: RivalState) -> Squads | None:
    """Kitchen Squad's record, when the match plays it."""
    return s.expansions.get(KITCHEN_SQUAD)


def _played(s: RivalState) -> Squads:
    record = squads(s)
    assert record is not None
    return record


def squad_of(s: RivalState, seat: int) -> list[str]:
    """A player's squad of chefs (none without Kitchen Squad)."""
    record = squads(s)
    return record.chefs[seat] if record is not None else []


@rule("day_start")
def _new_day(s: RivalState, values: dict[str, Any]) -> list[Event]:
    """Every morning nobody has chosen today's chef nor sent a runner."""
    record = squads(s)
    if record is not None:
        n = len(s.players)
        record.picks, record.runner_picks, record.runners = [None] * n, [None] * n, [None] * n
    return []


def check_players(players: int) -> None:
    """Kitchen Squad is the two-player mode."""
    if players != SQUAD_PLAYERS:
        raise InvalidOptions(f"Kitchen Squad is the two-player mode: it cannot be played with {players} players.")


def _choose_chef(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
    """Choose today's chef from your squad in secret (again to change it, until the reveal)."""
    chef = action.get("chef")
    require(isinstance(chef, str) and chef in squad_of(s, seat), "Choose one of your squad's chefs.")
    record = _played(s)
    first = record.picks[seat] is None
    record.picks[seat] = chef
    return SQUAD.tell_choice(seat, "squad_chef", (f"You choose {CHEFS[chef].name} for today.", {"chef": chef}),
                             (f"{ops.name(s, seat)} has chosen today's chef.", {"seat": seat}), first)


def chosen(s: RivalState, seat: int) -> str | None:
    """Today's chef this player has chosen (secret until the reveal), if any."""
    record = squads(s)
    return record.picks[seat] if record is not None else None


def runner_at(s: RivalState, seat: int) -> str | None:
    """Where this player's runner stands today (after the reveal), if anywhere."""
    record = squads(s)
    return record.runners[seat] if record is not None else None


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
    require(squads(s) is not None, "Only Kitchen Squad has runners.")
    require(isinstance(runner, str) and runner in LOCATIONS, "Send your runner to one of the 7 locations.")


def runner_picks(s: RivalState) -> list[str | None]:
    """The runner choices a move may carry: none, or any location."""
    return [None, *LOCATIONS] if squads(s) is not None else [None]


def redeal(s: RivalState, seat: int, rng: Rng) -> None:
    """Other players' unrevealed choices of today's chef and runner: any they could make."""
    record = squads(s)
    if record is None:
        return
    for other, t in enumerate(s.today):
        if other == seat:
            continue
        if record.picks[other] is not None and s.phase == KITCHEN_SQUAD:
            record.picks[other] = rng.choice(record.chefs[other])
        if t.pick is not None and t.location is None:
            record.runner_picks[other] = rng.choice(runner_picks(s))


class KitchenSquad(Phase):
    id = KITCHEN_SQUAD
    name = "Kitchen Squad"
    handlers = {"squad_chef": _choose_chef}

    def begin(self, s: RivalState, now: int) -> list[Event]:
        return [public("phase", f"Day {s.day}: Kitchen Squad — choose today's chef in secret.", phase=self.id)]

    def length(self, s: RivalState) -> int | None:
        return s.options.move_ms

    def timeout(self, s: RivalState, now: int) -> list[Event]:
        events, picks = [], _played(s).picks
        for seat, pick in enumerate(picks):
            if pick is None:
                picks[seat] = s.chefs[seat].chef
                events.append(public("late", f"{ops.name(s, seat)} did not choose in time and keeps "
                                             f"{CHEFS[s.chefs[seat].chef].name}.", seat=seat))
        return events

    def over(self, s: RivalState) -> bool:
        return all(pick is not None for pick in _played(s).picks)

    def end(self, s: RivalState, now: int) -> list[Event]:
        """Reveal today's chefs together."""
        for p, pick in zip(s.chefs, _played(s).picks):
            assert pick is not None
            p.chef = pick
        said = "; ".join(f"{ops.name(s, i)}: {CHEFS[p.chef].name}" for i, p in enumerate(s.chefs))
        return [public("squad_reveal", f"Today's chefs — {said}.", chefs=[p.chef for p in s.chefs])]

    def legal(self, s: RivalState, seat: int) -> list[Action]:
        return [{"type": "squad_chef", "chef": c} for c in squad_of(s, seat)]

    def prompt(self, s: RivalState, seat: int | None) -> str:
        if seat is None:
            return "The players are choosing today's chefs in secret."
        pick = chosen(s, seat)
        if pick is None:
            return "Choose today's chef from your squad, in secret."
        return f"You chose {CHEFS[pick].name} — waiting for the reveal (you may still change it)."

    def view(self, s: RivalState, seat: int | None) -> dict[str, Any]:
        picks = _played(s).picks
        return {"ends": self.deadline(s), "chosen": [pick is not None for pick in picks],
                "your_choice": picks[seat] if seat is not None else None}


class KitchenSquadMode(Expansion):
    """Kitchen Squad at the base game's seams: the squads dealt, the runner sent with the
    location pick and revealed with it, the runner's shopping, and what the views show."""

    id = KITCHEN_SQUAD
    handlers = {BUY_BARTER: {"runner_buy": runner_buy}}

    def on(self, options: RivalRestaurantsOptions) -> bool:
        return options.kitchen_squad

    def check_players(self, players: int) -> None:
        check_players(players)

    def chefs_per_seat(self) -> int:
        return SQUAD_SIZE

    def new(self, s: RivalState, chefs: list[list[str]]) -> Squads:
        n = len(s.players)
        return Squads([list(c) for c in chefs], [None] * n, [None] * n, [None] * n)

    def redeal(self, s: RivalState, seat: int, rng: Rng) -> None:
        redeal(s, seat, rng)

    def pick_variants(self, s: RivalState, seat: int) -> list[dict[str, Any]]:
        return [{} if r is None else {"runner": r} for r in runner_picks(s)]

    def pick(self, s: RivalState, seat: int, action: Action) -> tuple[str, dict[str, Any]]:
        runner = action.get("runner")
        check_runner(s, seat, runner)
        record = squads(s)
        if record is not None:
            record.runner_picks[seat] = runner
        return (f", your runner to {LOCATIONS[runner].name}" if runner is not None else ""), {"runner": runner}

    def reveal(self, s: RivalState) -> tuple[list[str], dict[str, Any]]:
        record = squads(s)
        if record is not None:
            record.runners = list(record.runner_picks)
        runners = [runner_at(s, i) for i in range(len(s.players))]
        return [f" (runner: {LOCATIONS[r].name})" if r else "" for r in runners], {"runners": runners}

    def shops_at(self, s: RivalState, seat: int) -> tuple[str, ...]:
        runner = runner_at(s, seat)
        return (runner,) if runner is not None else ()

    def market_options(self, s: RivalState, seat: int) -> list[Action]:
        return runner_options(s, seat)

    def player_fields(self, s: RivalState, seat: int) -> dict[str, Any]:
        return {"squad": [chef_card(c) for c in squad_of(s, seat)], "runner": runner_at(s, seat)}

    def location_fields(self, s: RivalState, location: str) -> dict[str, Any]:
        record = squads(s)
        return {"runners": [i for i, r in enumerate(record.runners) if r == location] if record is not None else []}

    def mine_fields(self, s: RivalState, seat: int) -> dict[str, Any]:
        record = squads(s)
        return {"runner": record.runner_picks[seat] if record is not None else None}


PHASE = register(KitchenSquad())
EXPANSION = register_expansion(KitchenSquadMode())

__all__ = ["EXPANSION", "PHASE", "SQUAD_SIZE", "Squads", "check_players", "check_runner", "chosen", "runner_at",
           "runner_options", "runner_picks", "squad_of", "squads"]
