"""MONEY and MOVE: income, then every chef secretly picks one of the 7 locations. The picks
are revealed together when all have picked (a pick may be changed until then) or at the
deadline, when chefs who have not picked go to the Island. Nobody moves again that day.
In Kitchen Squad a pick may also send the runner somewhere (``squad``), revealed with it.
"""

from __future__ import annotations

from typing import Any

from server.engine import Action, Event, public, require

from . import ops, squad
from .cards import CHEFS, INCOME, ISLAND, LOCATIONS, MONEY_MOVE
from .moments import fire
from .phase import Phase, register
from .plays import play_options
from .state import RivalState
from .zones import PICK


def foresees(s: RivalState, seat: int) -> bool:
    """Does this chef foresee a chef along with the pick (Clam-Voyance)?"""
    return any(e.kind == "foresee_stop" for e in CHEFS[s.chefs[seat].chef].effects)


def _move(s: RivalState, seat: int, action: Action, now: int) -> list[Event]:
    """Pick a location in secret (again to change it, until the reveal)."""
    location = action.get("location")
    require(isinstance(location, str) and location in LOCATIONS, "There is no such location.")
    foresee = action.get("foresee")
    if foresee is not None:
        require(foresees(s, seat), "Only Clam-Voyance foresees a chef.")
        require(isinstance(foresee, int) and not isinstance(foresee, bool) and 0 <= foresee < len(s.players)
                and foresee != seat, "Foresee another chef.")
    runner = action.get("runner")
    squad.check_runner(s, seat, runner)
    t = s.today[seat]
    first = t.pick is None
    t.pick, t.foresee, t.runner_pick = location, foresee, runner
    seen = f", foreseeing {ops.name(s, foresee)}" if foresee is not None else ""
    seen += f", your runner to {LOCATIONS[runner].name}" if runner is not None else ""
    return PICK.tell_choice(seat, "pick", (f"You pick {LOCATIONS[location].name}{seen}.",
                                           {"location": location, "foresee": foresee, "runner": runner}),
                            (f"{ops.name(s, seat)} has picked a location.", {"seat": seat}), first)


def move_options(s: RivalState, seat: int) -> list[Action]:
    """Every location; with Clam-Voyance each with a chef to foresee; in Kitchen Squad each
    with a place for the runner (or none)."""
    out: list[Action] = [{"type": "move", "location": loc} for loc in LOCATIONS]
    if foresees(s, seat):
        out += [{"type": "move", "location": loc, "foresee": other}
                for loc in LOCATIONS for other in range(len(s.players)) if other != seat]
    return [{**a, "runner": r} if r is not None else a for a in out for r in squad.runner_picks(s)]


class MoneyAndMove(Phase):
    id = MONEY_MOVE
    name = "MONEY and MOVE"
    handlers = {"move": _move}

    def begin(self, s: RivalState, now: int) -> list[Event]:
        """Every chef earns the day's income ($300, more with powers and upgrades)."""
        events = [public("phase", f"Day {s.day}: MONEY and MOVE.", phase=self.id, day=s.day)]
        for seat in range(len(s.players)):
            values, more = fire(s, "income", [seat], {"income": INCOME})
            ops.earn(s, seat, values["income"])
            events += more
            events.append(public("income", f"{ops.name(s, seat)} earns {ops.money(values['income'])} income.",
                                 seat=seat, amount=values["income"]))
        return events

    def length(self, s: RivalState) -> int | None:
        return s.options.move_ms

    def timeout(self, s: RivalState, now: int) -> list[Event]:
        events = []
        for seat, t in enumerate(s.today):
            if t.pick is None:
                t.pick = ISLAND
                events.append(public("late", f"{ops.name(s, seat)} did not pick in time and goes to the Island.",
                                     seat=seat))
        return events

    def over(self, s: RivalState) -> bool:
        return all(t.pick is not None for t in s.today)

    def end(self, s: RivalState, now: int) -> list[Event]:
        """Reveal every pick at once."""
        for t in s.today:
            t.location, t.runner = t.pick, t.runner_pick
        where = "; ".join(f"{ops.name(s, i)}: {LOCATIONS[t.location or ISLAND].name}"
                          + (f" (runner: {LOCATIONS[t.runner].name})" if t.runner else "") for i, t in enumerate(s.today))
        events = [public("reveal", f"Revealed — {where}.", locations=[t.location for t in s.today],
                         foresee=[t.foresee for t in s.today], runners=[t.runner for t in s.today])]
        return events + fire(s, "reveal", range(len(s.players)))[1]

    def legal(self, s: RivalState, seat: int) -> list[Action]:
        return move_options(s, seat) + play_options(s, seat)

    def prompt(self, s: RivalState, seat: int | None) -> str:
        if seat is None:
            return "The chefs are picking their locations in secret."
        t = s.today[seat]
        if t.pick is None:
            return "Pick a location in secret."
        return f"You picked {LOCATIONS[t.pick].name} — waiting for the reveal (you may still change it)."

    def view(self, s: RivalState, seat: int | None) -> dict[str, Any]:
        return {"ends": self.deadline(s)}


PHASE = register(MoneyAndMove())
