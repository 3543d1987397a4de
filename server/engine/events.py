"""Game log entries: typed, with a human sentence and an audience."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """One thing that happened.

    ``to`` is the audience: ``None`` means everyone (spectators too); otherwise only the
    named seats receive the event. ``text`` is the sentence shown in the game log; ``data``
    carries the same fact in machine form for renderers.
    """

    type: str
    text: str
    to: tuple[int, ...] | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def visible_to(self, seat: int | None) -> bool:
        return self.to is None or (seat is not None and seat in self.to)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "text": self.text, "data": self.data}
        if self.to is not None:
            out["private"] = True
        return out


def public(type: str, text: str, **data: Any) -> Event:
    """An event everyone sees."""
    return Event(type, text, None, data)


def private(seats: int | tuple[int, ...], type: str, text: str, **data: Any) -> Event:
    """An event only ``seats`` see."""
    to = (seats,) if isinstance(seats, int) else tuple(seats)
    return Event(type, text, to, data)


def for_seat(events: list[Event], seat: int | None) -> list[Event]:
    """The events ``seat`` may receive (``None``: the spectators' share)."""
    return [e for e in events if e.visible_to(seat)]
