"""Ratings as pure functions: who took part in a finished match, in what order they came,
and their OpenSkill (Plackett–Luce) ratings afterwards.

A match is rated for its accounts. Bots take part as anchors: each level of each game has
a fixed, published rating (``bot_ratings.json``, measured by ``bench.bot_ratings``) that a
match never changes. Humans without an account take no part: the accounts are ranked as
they finished among the rated entrants. A match is rated when an account meets at least one
other rated entrant (another account, or a bot) on another side.

Places: the winners first (tied with each other), then the others by score, equal scores
tied. A team game (Snollygoster's Comrades and Rogues) is rated side against side: the
winning side first, the other second (both first when they share the victory).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Mapping, Sequence

from openskill.models import PlackettLuce

MU = 25.0
SIGMA = MU / 3
BOT_RATINGS = Path(__file__).with_name("bot_ratings.json")

Entrant = tuple[str, Any]  # ("account", id) or ("bot", level)


@dataclass(frozen=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        """What a leaderboard sorts by: a rating the player is very likely above (μ − 3σ);
        0 for a newcomer."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Table:
    """How a rated match came out: sides of entrants and each side's place (0 first)."""

    teams: tuple[tuple[Entrant, ...], ...]
    ranks: tuple[int, ...]

    def accounts(self) -> list[int]:
        return sorted({who for team in self.teams for kind, who in team if kind == "account"})

    def to_json(self) -> dict[str, Any]:
        return {"teams": [[{kind: who} for kind, who in team] for team in self.teams], "ranks": list(self.ranks)}

    @classmethod
    def from_json(cls, teams: Sequence[Sequence[Mapping[str, Any]]], ranks: Sequence[int]) -> "Table":
        return cls(tuple(tuple(next(iter(e.items())) for e in team) for team in teams), tuple(ranks))


def places(keys: Sequence[Any]) -> list[int]:
    """Dense places from keys where more is better: ``[3, 5, 3] → [1, 0, 1]``."""
    better = sorted(set(keys), reverse=True)
    return [better.index(k) for k in keys]


def table(result: Mapping[str, Any] | None, entrants: Mapping[int, Entrant]) -> Table | None:
    """The rated table of a finished match whose rated seats are ``entrants`` (seat →
    entrant), or ``None`` when it is not rated: no result, no account, or nobody to meet."""
    if not result or not any(kind == "account" for kind, _ in entrants.values()):
        return None
    winners = set(result.get("winners") or [])
    scores = result.get("scores") or []
    sides = result.get("teams")
    if sides:
        teams = [tuple(entrants[s] for s in sorted(seats) if s in entrants) for seats in sides.values()]
        won = [any(s in winners for s in seats) for seats in sides.values()]
        kept = [(team, w) for team, w in zip(teams, won) if team]
        if len(kept) < 2:
            return None
        return Table(tuple(t for t, _ in kept), tuple(places([w for _, w in kept])))
    seats = sorted(entrants)
    if len(seats) < 2:
        return None
    keys = [(s in winners, _score(scores, s)) for s in seats]
    return Table(tuple((entrants[s],) for s in seats), tuple(places(keys)))


def _score(scores: Sequence[Any], seat: int) -> float:
    value = scores[seat] if seat < len(scores) else 0.0
    return float(value) if isinstance(value, (int, float)) and value == value else 0.0


@cache
def _model() -> PlackettLuce:
    return PlackettLuce(mu=MU, sigma=SIGMA)


@cache
def bot_ratings() -> dict[str, dict[str, Rating]]:
    """game → level → the bot's fixed rating, as published in ``bot_ratings.json``."""
    data = json.loads(BOT_RATINGS.read_text(encoding="utf-8"))
    return {game: {level: Rating(r["mu"], r["sigma"]) for level, r in levels.items()}
            for game, levels in data["games"].items()}


def bot_rating(game: str, level: str) -> Rating:
    """A bot's anchor; a game or level never measured plays as a newcomer would."""
    return bot_ratings().get(game, {}).get(level, Rating())


def rate(game: str, played: Table, ratings: Mapping[int, Rating]) -> dict[int, Rating]:
    """The accounts' ratings after ``played`` (those before: ``ratings``, a newcomer where
    missing). Bots keep their anchors."""
    model = _model()

    def before(entrant: Entrant) -> Any:
        kind, who = entrant
        r = ratings.get(who, Rating()) if kind == "account" else bot_rating(game, who)
        return model.rating(mu=r.mu, sigma=r.sigma)

    teams = [[before(e) for e in team] for team in played.teams]
    after = model.rate(teams, ranks=list(played.ranks))
    out: dict[int, Rating] = {}
    for team, rated in zip(played.teams, after):
        for (kind, who), r in zip(team, rated):
            if kind == "account":
                out[who] = Rating(r.mu, r.sigma)
    return out


def fold(game: str, start: Mapping[int, Rating], matches: Sequence[Table]) -> list[dict[int, Rating]]:
    """Rate ``matches`` one after another from ``start``: each one's accounts' ratings after it."""
    current = dict(start)
    out = []
    for played in matches:
        after = rate(game, played, current)
        current.update(after)
        out.append(after)
    return out
