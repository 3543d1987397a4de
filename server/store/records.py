"""Plain, immutable copies of rows: what the repository hands to the layers above."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class SeatRecord:
    seat: int
    name: str
    bot: bool
    token_hash: str | None
    joined_at: int
    level: str | None = None  # a bot's level (easy, normal, hard); None for a human


@dataclass(frozen=True)
class MatchRecord:
    id: str
    game: str
    options: dict[str, Any]
    players: int
    bots: int
    seed: int
    status: str  # open | running | finished
    created_at: int
    started_at: int | None
    finished_at: int | None
    result: dict[str, Any] | None
    seats: tuple[SeatRecord, ...] = field(default=())
    rematch_id: str | None = None  # the match that plays this one again

    @property
    def human_seats(self) -> int:
        return self.players - self.bots

    def seat_names(self) -> list[str]:
        return [s.name for s in sorted(self.seats, key=lambda s: s.seat)]


@dataclass(frozen=True)
class ActionRecord:
    seq: int
    seat: int | None
    action: dict[str, Any]
    at: int


@dataclass(frozen=True)
class ChatRecord:
    seat: int
    name: str
    text: str
    at: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "chat", "seat": self.seat, "name": self.name, "text": self.text, "at": self.at}
