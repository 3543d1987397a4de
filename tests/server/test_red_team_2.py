"""Issue 23, the second red team and the faults of the services: one test per finding of
the store and the API, named after it (the runtime's findings are in
``test_runtime_faults``, ``test_slow_sockets`` and ``test_limits``)."""

from __future__ import annotations

import logging
import secrets

from server.app import RedactTokens

from .clients import Api
from .conftest import Served


async def test_history_offset_past_a_64_bit_integer_is_422_not_500(api: Api) -> None:
    """Finding 11: ``?offset=9223372036854775808`` overflowed the database's integer."""
    for offset in ("9223372036854775808", "9223372036854775807", "1000000001"):
        r = await api.client.get("/api/players/Ann/matches", params={"offset": offset})
        assert (r.status_code, r.json()["code"]) == (422, "invalid"), (offset, r.text)
    assert (await api.client.get("/api/players/Ann/matches", params={"offset": 1_000_000_000})).status_code == 200


async def test_history_does_not_count_matches_that_never_started(api: Api, served: Served) -> None:
    """Finding 13: a table whose seats never filled ends unplayed; it is nobody's history."""
    name = f"Una {secrets.token_hex(4)}"
    match_id = await api.create(players=2)
    await api.join(match_id, name)
    ended = await served.runtime.store.expire_unfilled(2**62, 1, {"reason": "nobody came"})
    assert match_id in ended
    page = (await api.client.get(f"/api/players/{name}/matches")).json()
    assert (page["total"], page["items"]) == (0, [])
    assert (await api.client.get(f"/api/players/{name}")).json()["played"] == 0


def test_a_seat_token_under_a_name_that_does_not_authenticate_is_redacted_from_logs() -> None:
    """Finding 13: ``?t=<token>`` or ``?seat=<token>`` reached the log in clear."""
    token = secrets.token_urlsafe(32)
    for query in (f"t={token}", f"seat={token}&legal=delta", f"tok={token}", f"key={token}"):
        record = logging.LogRecord("uvicorn.error", logging.INFO, __file__, 1, '%s - "WebSocket %s" [accepted]',
                                   ("127.0.0.1:5", f"/ws/matches/abc?{query}"), None)
        RedactTokens().filter(record)
        assert token not in record.getMessage(), query
    kept = "/ws/matches/Xy3_abcdefgh?legal=delta&game=rival-restaurants"
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "%s", (kept,), None)
    RedactTokens().filter(record)
    assert record.getMessage() == kept
