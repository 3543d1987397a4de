"""Snollygoster scoring: survivors' Fuel, then every Hidden Agenda; ties and teams.

"Survivors get a point for each Fuel Card they contributed to the launch" (everyone aboard
puts all their Fuel in). Then the agendas are revealed and tallied. A tie goes to whoever
played the Launch; if everyone died, to whoever died last. In the team game each team adds
up its players' points and the bigger total wins (ties the same way, by team).
"""

from __future__ import annotations

from typing import Any, Callable

from server.engine import Result

from .cards import AGENDAS, COMRADE, ROGUE
from .state import SnollygosterState

S = SnollygosterState


def pod(s: S) -> list[int]:
    return list(s.launch["pod"]) if s.launch else []


def launcher(s: S) -> int | None:
    return s.launch["by"] if s.launch else None


def fuel_points(s: S, seat: int) -> int:
    """A point for each Fuel a survivor put into the launch."""
    return int(s.launch["fuel"].get(seat, 0)) if s.launch else 0


DOOM_CAP, NOBODY_ESCAPED = 4, 6  # the Doomsayer's most for those left behind, and if nobody escapes
SLEUTH_MISS = 2  # the +2 pack: "-2 per wrong guess"


def sleuth_points(s: S, seat: int, rate: int) -> int:
    """+rate for each right guess of another's agenda name, -2 for each wrong one."""
    total = 0
    for other, guess in s.guesses.get(seat, {}).items():
        total += rate if AGENDAS[s.agendas[other]].name == guess else -SLEUTH_MISS
    return total


def tags_at_end(s: S, seat: int) -> tuple[int, int]:
    """(true, false) tags of ``seat``: those proven when their Food was eaten, and those
    still on Food in the stashes, checked at the end."""
    true, false = s.counted("true_tags", seat), s.counted("lies", seat)
    for food, (tagger, claim) in s.tags.items():
        if tagger == seat:
            if claim == s.kinds[food]:
                true += 1
            else:
                false += 1
    return true, false


def left_with_others(s: S, seat: int, kind: str) -> int:
    """Food of ``kind`` that ``seat`` placed and another player holds at the end."""
    return sum(1 for owner, stash in enumerate(s.stashes) if owner != seat
               for food in stash if s.placed_by.get(food) == seat and s.kinds[food] == kind)


def doom(s: S, seat: int, rate: int) -> int:
    """+rate per player left on the planet (capped), or a flat bonus if nobody escaped."""
    if not pod(s):
        return NOBODY_ESCAPED
    return min(DOOM_CAP, rate * sum(1 for o in range(s.n) if o not in pod(s)))


RULES: dict[str, Callable[[S, int, int], int]] = {
    "launched": lambda s, p, r: r if launcher(s) == p else 0,
    "passengers": lambda s, p, r: r * sum(1 for o in pod(s) if o != p),
    "honest_tags": lambda s, p, r: r * (tags_at_end(s, p)[0] - tags_at_end(s, p)[1]),
    "safe_given": lambda s, p, r: r * (s.counted("safe_fed", p) + left_with_others(s, p, "safe")),
    "aboard": lambda s, p, r: r if p in pod(s) else 0,
    "sleuth": sleuth_points,
    "lies": lambda s, p, r: r * tags_at_end(s, p)[1],
    "poisoned": lambda s, p, r: r * s.counted("poisoned", p) + left_with_others(s, p, "unsafe"),
    "stowaway": lambda s, p, r: r if p in pod(s) and launcher(s) != p else 0,
    "left_behind": doom,
    "fuel_beyond_one": lambda s, p, r: r * max(0, len(s.fuel[p]) - 1),
}


def agenda_points(s: S, seat: int) -> int:
    agenda = AGENDAS[s.agendas[seat]]
    return RULES[agenda.rule](s, seat, agenda.points)


def breakdown(s: S) -> list[dict[str, Any]]:
    """Per seat: Fuel points, agenda points, the agenda and its team."""
    rows = []
    for seat in range(s.n):
        agenda = AGENDAS[s.agendas[seat]]
        fuel, extra = fuel_points(s, seat), agenda_points(s, seat)
        rows.append({"seat": seat, "fuel": fuel, "agenda_points": extra, "total": fuel + extra,
                     "agenda": agenda.id, "agenda_name": agenda.name, "team": agenda.team,
                     "escaped": seat in pod(s), "guesses": {str(k): v for k, v in s.guesses.get(seat, {}).items()}})
    return rows


def last_to_die(s: S, among: list[int]) -> list[int]:
    """Of ``among``, those in the latest group to die."""
    for group in reversed(s.death_order):
        found = [p for p in among if p in group]
        if found:
            return found
    return among


def break_tie(s: S, tied: list[int]) -> tuple[list[int], str]:
    """A tie goes to the launcher; if everyone died, to who died last; else it is shared."""
    if len(tied) == 1:
        return tied, ""
    if launcher(s) is not None:
        if launcher(s) in tied:
            return [launcher(s)], " (a tie, won by the player who launched)"
        return tied, " (a shared victory)"
    last = last_to_die(s, tied)
    if len(last) < len(tied):
        return last, " (a tie, won by whoever died last)"
    return tied, " (a shared victory)"


def teams(s: S) -> dict[str, list[int]]:
    return {t: [p for p in range(s.n) if s.team_of(p) == t] for t in (COMRADE, ROGUE)}


def outcome(s: S) -> Result:
    """Scores and winners of a finished game."""
    rows = breakdown(s)
    scores = [float(r["total"]) for r in rows]
    why = {"launch": "The escape pod launched.", "everyone died": "Everyone died on the planet."}.get(
        s.end_reason or "", "Nobody escaped before the round limit.")
    details: dict[str, Any] = {"breakdown": rows, "launch": s.launch, "ending": s.end_reason}
    if not s.options.team_game:
        best = max(scores)
        winners, tie = break_tie(s, [p for p in range(s.n) if scores[p] == best])
        return Result(winners, scores, why + tie, None, details)
    sides = teams(s)
    totals = {t: sum(scores[p] for p in seats) for t, seats in sides.items()}
    details["team_totals"] = totals
    best_total = max(totals.values())
    top = [t for t in sides if totals[t] == best_total and sides[t]]
    if len(top) > 1:
        by_seat = [p for t in top for p in sides[t]]
        chosen, tie = break_tie(s, by_seat)
        top = sorted({s.team_of(p) for p in chosen})
    else:
        tie = ""
    winners = sorted(p for t in top for p in sides[t])
    label = " and ".join(f"the {t}s" for t in top)
    return Result(winners, scores, f"{why} {label} win "
                  f"({', '.join(f'{t}s {totals[t]:g}' for t in sides)}){tie}.", sides, details)
