"""Table talk: chat lines from seated players, stored with the match and delivered to every
socket once — read as history when it connects, or live after — even a line said while a
socket connects."""

from __future__ import annotations

import asyncio
from typing import Any, Callable

from server.problems import Invalid, NotYourSeat, RateLimited
from server.store import ChatRecord

from .rate import TokenBucket
from .services import Services


class TableChat:
    """``deliver(line)`` sends a line to every socket here; ``name_of(seat)`` names a seat."""

    def __init__(self, services: Services, match_id: str, deliver: Callable[[dict[str, Any]], None],
                 name_of: Callable[[int], str]) -> None:
        self.services, self.match_id = services, match_id
        self._deliver, self._name_of = deliver, name_of
        self._limits: dict[int, TokenBucket] = {}
        self._lock = asyncio.Lock()  # a line is stored and delivered, or read as history, never lost between

    async def join(self, subscribe: Callable[[list[ChatRecord]], None]) -> None:
        """``subscribe(history)`` adds a socket with the lines said so far."""
        async with self._lock:
            subscribe(await self.services.store.chat(self.match_id))

    async def say(self, seat: int | None, text: Any) -> ChatRecord:
        """Store and deliver a line from a seated player; other processes hear of it."""
        settings = self.services.settings
        if seat is None:
            raise NotYourSeat("Only seated players can chat.")
        if not isinstance(text, str) or not text.strip():
            raise Invalid("A chat message needs some text.")
        text = text.strip()
        if len(text) > settings.chat_max_chars:
            raise Invalid(f"A chat message has at most {settings.chat_max_chars} characters.")
        limit = self._limits.setdefault(
            seat, TokenBucket(settings.chat_per_minute / 60, min(settings.chat_per_minute, 5)))
        if not limit.allow():
            raise RateLimited("Slow down: too many chat messages.")
        line = ChatRecord(seat, self._name_of(seat), text, self.services.clock.now_ms())
        async with self._lock:
            await self.services.store.add_chat(self.match_id, line)
            self._deliver(line.to_json())
        self.services.fanout.publish({"match": self.match_id, "kind": "chat", "line": line.to_json()})
        return line

    async def hear(self, line: dict[str, Any]) -> None:
        """A line said through another process (already stored there)."""
        async with self._lock:
            self._deliver(line)
