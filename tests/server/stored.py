"""Finished matches made without a server: the engine plays every seat with its bots and
the log is written to the store as the runtime would have written it, so a test gets a
whole finished match of any game (a Rival Restaurants one too) in a blink."""

from __future__ import annotations

import secrets
import time
from typing import Sequence

from server.engine import registry
from server.engine.playout import play
from server.store import Store


async def stored_match(store: Store, game_id: str, humans: Sequence[str] = (), bots: int = 2, seed: int = 1,
                       start_ms: int | None = None) -> str:
    """A finished match of ``game_id``: the ``humans`` (by name) in the first seats, then
    ``bots`` bot seats, played to its end by bots from ``start_ms`` (default: now);
    returns its id."""
    game = registry.get(game_id)
    start_ms = int(time.time() * 1000) if start_ms is None else start_ms
    options = game.options({}).model_dump(mode="json")
    players = len(humans) + bots
    record = await store.create_match(id=secrets.token_urlsafe(9), game=game_id, options=options, players=players,
                                      bot_names=[f"Bot {i + 1}" for i in range(bots)], seed=seed, now=start_ms)
    for name in humans:
        _, record = await store.join(record.id, name, secrets.token_hex(32), start_ms)
    out = play(game, record.seat_names(), options, seed=seed, start_ms=start_ms)
    result = game.result(out.state)
    assert result is not None, f"{game_id} did not end"
    for seq, entry in enumerate(out.log, start=1):
        await store.append_action(record.id, seq, entry.seat, entry.action, entry.at_ms,
                                  result.to_json() if seq == len(out.log) else None)
    return record.id
