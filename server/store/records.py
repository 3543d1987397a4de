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
    account_id: int | None = None  # the account that took this seat, signed in


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
    rated: bool = True  # its accounts' ratings change when it ends (a match option outside the games)

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


@dataclass(frozen=True)
class AccountRecord:
    """An account; ``password_hash`` stays in the store's layers (never sent anywhere)."""

    id: int
    name: str
    created_at: int
    password_hash: str | None = None

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "name": self.name, "created_at": self.created_at}


@dataclass(frozen=True)
class PasskeyRecord:
    credential_id: str  # base64url
    account_id: int
    public_key: bytes
    sign_count: int
    created_at: int


@dataclass(frozen=True)
class RatingRecord:
    """An account's rating in a game (see ``skill``)."""

    game: str
    mu: float
    sigma: float
    matches: int
    updated_at: int
    account_id: int = 0
    name: str = ""

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, object]:
        return {"game": self.game, "rating": round(self.ordinal, 2), "mu": round(self.mu, 3),
                "sigma": round(self.sigma, 3), "matches": self.matches, "updated_at": self.updated_at}
