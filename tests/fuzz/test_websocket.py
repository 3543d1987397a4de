"""A Hypothesis fuzzer for the WebSocket protocol: messages of every shape — well-formed
messages with wrong fields, unknown types, actions with anything inside, JSON only Python
reads (``NaN``, ``1e999``, lone surrogates), deep nesting, binary frames — sent by a
seated player. After each, a ping proves the socket is still open and answering; every
frame the server sends is JSON a browser reads; and when a message was refused (an
``error``), the database is exactly as it was.

Bounded for CI: ``MAX_EXAMPLES`` messages."""

from __future__ import annotations

import json
import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import connect

from server.api import strict_json

from .conftest import Target

MAX_EXAMPLES = 250

ATOMS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False),
                  st.text(max_size=12), st.sampled_from(["roll", "place", "takeaway", "timeout", "chat", "ping"]))
JSON = st.recursive(ATOMS, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                   st.dictionaries(st.text(max_size=8), inner, max_size=3)),
                    max_leaves=10)
ACTIONS = st.one_of(JSON, st.fixed_dictionaries({"type": st.sampled_from(["roll", "place", "takeaway", "timeout"])},
                                                optional={"table": JSON, "bowl": JSON, "junk": JSON}))
MESSAGES = st.fixed_dictionaries(
    {"type": st.one_of(st.sampled_from(["action", "chat", "ping"]), JSON)},
    optional={"id": JSON, "action": ACTIONS, "expect_seq": JSON, "text": JSON})
HOSTILE = ["NaN", "Infinity", "-Infinity", "1e999", '"\\ud800"', '"\\udfff x"', "[" * 40 + "]" * 40]


def _with_hostile(message: dict, atom: str) -> str:
    """``message`` as JSON text with its first string value (or its id) replaced by ``atom``."""
    text = json.dumps({**message, "id": "@@"} if "id" not in message else message)
    return text.replace('"@@"', atom, 1) if '"@@"' in text else text[:-1] + f', "x": {atom}}}'


FRAMES = st.one_of(
    MESSAGES.map(json.dumps),
    st.builds(_with_hostile, MESSAGES, st.sampled_from(HOSTILE)),
    st.text(max_size=40),
    st.binary(max_size=40),
)


@given(frame=FRAMES)
@settings(max_examples=MAX_EXAMPLES, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_any_message_is_answered_and_a_refused_one_changes_nothing(target: Target, frame: str | bytes) -> None:
    with connect(f"{target.ws_url}/ws/matches/{target.running}?token={target.tokens[0]}", open_timeout=20) as ws:
        _until_pong(ws, "hello")
        before = target.fingerprint()
        ws.send(frame)
        answers = _until_pong(ws, "after")
    if any(a["type"] == "error" for a in answers):
        assert target.fingerprint() == before, (frame, answers)


def _until_pong(ws, ping_id: str) -> list[dict]:
    """Send a ping and read until its pong (the server answers in order): what came
    before it, each frame strict JSON with finite numbers only."""
    ws.send(json.dumps({"type": "ping", "id": ping_id}))
    seen = []
    while True:
        raw = ws.recv(timeout=20)
        message = strict_json.loads(raw)  # a browser's JSON.parse reads it
        assert not any(isinstance(v, float) and not math.isfinite(v) for v in message.values())
        if message == {"type": "pong", "id": ping_id}:
            return seen
        seen.append(message)
