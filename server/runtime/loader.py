"""Bringing a match into memory: its record, then its state from the newest usable snapshot
(or ``setup`` with the stored seed and start time) plus the tail of the log. Loading only
loads: whether this process drives the match is the hub's to settle (its lease)."""

from __future__ import annotations

import logging

from server.engine import IllegalAction, UnknownGame, registry
from server.problems import Unavailable, UnknownMatch

from . import snapshots
from .live_match import LiveMatch
from .services import Services

log = logging.getLogger(__name__)


async def load_match(services: Services, match_id: str) -> LiveMatch:
    store = services.store
    record = await store.get_match(match_id)
    try:
        game = registry.get(record.game)
    except UnknownGame:
        raise UnknownMatch(f"Match {match_id!r} is a game of {record.game!r}, which this server "
                           "does not have.") from None
    live = LiveMatch(services, record, game)
    if record.started_at is None:  # waiting for players (or it ended before it began)
        return live
    state, seq, at = None, 0, record.started_at
    snap = await store.latest_snapshot(match_id, live.fingerprint)
    if snap is not None:
        try:
            state, seq, at = snapshots.load(snap[1]), snap[0], snap[2]
        except Exception:
            log.warning("match %s: snapshot %s unusable; replaying from the seed", match_id, snap[0],
                        exc_info=True)
            state, seq, at = None, 0, record.started_at
    if state is None:
        try:
            state = live.first_state(record)
        except Exception as exc:
            await live.cannot_start(exc)
            return live
    live.last_at = at
    try:
        live.restore(state, seq, await store.actions(match_id, after=seq))
    except IllegalAction as exc:
        log.error("match %s does not replay with this code: %s", match_id, exc.reason)
        raise Unavailable(f"Match {match_id!r} cannot be replayed by this version of {game.name}.") from None
    return live
