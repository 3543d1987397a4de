"""MONEY and MOVE: income, then every chef secretly picks one of the 7 locations. The picks
are revealed together when all have picked (a pick may be changed until then) or at the
deadline, when chefs who have not picked go to the Island. Nobody moves again that day.
An expansion may have a pick carry more (``Expansion.pick``: Kitchen Squad's runner),
revealed with it (``Expansion.reveal``).
"""

from __future__ import annotations

from typing import Any

from server.engine import Action, Event, public, require

from . import ops
from .cards import CHEFS, INCOME, ISLAND, LOCATIONS, MONEY_MOVE
from .expansion import EXPANSIONS
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
    seen = f", foreseeing {ops.name(s, foresee)}" if foresee is not None else ""
    told: dict[str, Any] = {"location": location, "foresee": foresee}
    for x in EXPANSIONS.at("pick"):
        more, data = x.pick(s, seat, action)
        seen += more
        told.update(data)
    t = s.today[seat]
    first = t.pick is None
    t.pick, t.foresee = location, foresee
    return PICK.tell_choice(seat, "pick", (f"You pick {LOCATIONS[location].name}{seen}.", told),
                            (f"{ops.name(s, seat)} has picked a location.", {"seat": seat}), first)


def move_options(s: RivalState, seat: int) -> list[Action]:
    """Every location; with Clam-Voyance each with a chef to foresee; each with every
    variant an expansion adds (``Expansion.pick_variants``: Kitchen Squad's runner)."""
    key = (len(s.players), seat, foresees(s, seat))
    kept = KEPT_MOVES.get(key)
    if kept is None:
        kept = KEPT_MOVES[key] = table_moves(*key)
    out = list(kept)
    for x in EXPANSIONS.at("pick_variants"):
        variants = x.pick_variants(s, seat)
        if variants != [{}]:
            out = [{**a, **v} if v else a for a in out for v in variants]
    return out


KEPT_MOVES: dict[tuple[int, int, bool], tuple[Action, ...]] = {}
"""``table_moves`` by its arguments: the same moves at every such table, made once (never
changed: an action listed is never changed in place)."""


def table_moves(players: int, seat: int, foresight: bool) -> tuple[Action, ...]:
    """The moves of ``seat`` at a table of ``players``: every location, and with foresight
    (Clam-Voyance) each with another chef to foresee."""
    out: list[Action] = [{"type": "move", "location": loc} for loc in LOCATIONS]
    if foresight:
        out += [{"type": "move", "location": loc, "foresee": other}
                for loc in LOCATIONS for other in range(players) if other != seat]
    return tuple(out)


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
            t.location = t.pick
        more, data = [""] * len(s.players), {}
        for x in EXPANSIONS.at("reveal"):
            said, told = x.reveal(s)
            more = [a + b for a, b in zip(more, said)]
            data.update(told)
        where = "; ".join(f"{ops.name(s, i)}: {LOCATIONS[t.location or ISLAND].name}{more[i]}"
                          for i, t in enumerate(s.today))
        events = [public("reveal", f"Revealed — {where}.", locations=[t.location for t in s.today],
                         foresee=[t.foresee for t in s.today], **data)]
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
