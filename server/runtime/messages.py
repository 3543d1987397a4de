"""The JSON messages the server sends on a WebSocket (see ``server/api/websocket.py``).

``state``  ``{type, seq, status, view, legal, events, deadline, now, result}`` — the seat's
           whole view after change ``seq``: on connect, when asked (``resync``), and after a
           change when the socket holds no view yet; ``events`` are the events of that change
           this seat may see (on connect: the recent ones), each tagged with the ``seq`` that
           caused it; ``deadline`` and ``now`` are game-clock ms. An event of a move a
           stand-in bot played for an absent human carries ``"by": seat, "standin": true``;
           the state of a seat a stand-in played says ``"stood_in": {"since_seq": n}`` (until
           its human acts). A match played by turns adds ``waiting``: the seats whose move it
           is (also in ``patch``).
``patch``  ``{type, seq, prev_seq, ops, legal, events, deadline, now, status, result}`` — after
           every later change: ``ops`` (JSON Patch, RFC 6902: ``add``, ``remove``,
           ``replace``) turn the view of ``prev_seq`` — the one the socket holds — into the
           view of ``seq``; the other fields are as in ``state``. A socket opened with
           ``legal=delta`` gets ``legal_ops`` instead of ``legal``: a JSON Patch of the legal
           list it holds (``[]``: unchanged; a whole new list is one ``replace`` of the path
           ``""``). A client that holds another seq asks for the whole state (``resync``).
           A socket opened with ``updates=compact`` gets the compact patch instead
           (``compact_patch_message``).
``match``  ``{type, match}`` — the public summary (``GET /api/matches/{id}``), at once and
           whenever it changes: a seat taken, a seat's first socket opened or last one
           closed, a stand-in bot taking a seat over or handing it back, a rematch set up.
``ack``    ``{type, id, seq}`` — your action is committed as ``seq``.
``error``  ``{type, id, code, message}`` — your message was refused; nothing changed.
``chat``   ``{type, seat, name, text, at}`` — a table chat line.
"""

from __future__ import annotations

import json
from typing import Any, Iterable

import orjson

from server.engine import Event

_plain_dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def _dumps(message: dict[str, Any]) -> str:
    """Compact JSON text (orjson; the standard library for what orjson refuses: an integer
    beyond 64 bits)."""
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except (TypeError, orjson.JSONEncodeError):
        return _plain_dumps(message)


def event_json(seq: int, event: Event) -> dict[str, Any]:
    return {**event.to_json(), "seq": seq}


def visible_events(events: Iterable[tuple[int, Event]], seat: int | None) -> list[dict[str, Any]]:
    return [event_json(seq, e) for seq, e in events if e.visible_to(seat)]


def state_payload(*, seq: int, status: str, view: dict[str, Any], legal: list[dict[str, Any]],
                  events: list[dict[str, Any]], deadline: int | None, now: int,
                  result: dict[str, Any] | None, waiting: list[int] | None = None) -> dict[str, Any]:
    """``waiting`` (matches played by turns): the seats whose move it is."""
    payload = {"seq": seq, "status": status, "view": view, "legal": legal, "events": events,
               "deadline": deadline, "now": now, "result": result}
    return payload if waiting is None else {**payload, "waiting": waiting}


def state_message(payload: dict[str, Any]) -> str:
    return _dumps({"type": "state", **payload})


def patch_message(*, seq: int, prev_seq: int, ops: list[dict[str, Any]], events: list[dict[str, Any]],
                  deadline: int | None, now: int, status: str, result: dict[str, Any] | None,
                  legal: list[dict[str, Any]] | None = None, legal_ops: list[dict[str, Any]] | None = None,
                  waiting: list[int] | None = None) -> str:
    """With ``legal`` (the whole list) or ``legal_ops`` (a patch of the list held);
    ``waiting`` as in ``state_payload``."""
    said = {"legal": legal} if legal_ops is None else {"legal_ops": legal_ops}
    turns = {} if waiting is None else {"waiting": waiting}
    return _dumps({"type": "patch", "seq": seq, "prev_seq": prev_seq, "ops": ops, **said,
                   "events": events, "deadline": deadline, "now": now, "status": status, "result": result, **turns})


def compact_event(said: dict[str, Any], seq: int) -> dict[str, Any]:
    """An event of change ``seq`` without its ``seq`` (the patch's own)."""
    return {k: v for k, v in said.items() if k != "seq"} if said.get("seq") == seq else said


def compact_patch_message(*, seq: int, prev_seq: int, ops: list[list[Any]], events: list[dict[str, Any]],
                          deadline: int | None, now: int, status: str, result: dict[str, Any] | None,
                          told: tuple[Any, Any, Any], legal_ops: list[list[Any]] | None,
                          legal_at: int | None, waiting: list[int] | None = None) -> str:
    """The compact patch (``updates=compact``): ``{type, seq, ops}`` and only what changed —
    ``prev_seq`` unless it is ``seq - 1``; ``ops``, and ``legal_ops`` (on the legal list
    held), as compact operations (``patches.compact_ops``), or ``legal_at`` (the list is
    again the one held after that seq), neither when the list did not change; ``events`` when there are any (each without ``seq`` when
    it is the patch's); ``deadline`` with ``now`` when the deadline moved; ``status`` and
    ``result`` when they changed (``told``: the status, deadline and result sent last);
    ``waiting`` (by turns) always, as in ``patch_message``."""
    out: dict[str, Any] = {"type": "patch", "seq": seq}
    if prev_seq != seq - 1:
        out["prev_seq"] = prev_seq
    out["ops"] = ops
    if legal_at is not None:
        out["legal_at"] = legal_at
    elif legal_ops:
        out["legal_ops"] = legal_ops
    if events:
        out["events"] = events
    was_status, was_deadline, was_result = told
    if deadline != was_deadline:
        out["deadline"], out["now"] = deadline, now
    if status != was_status:
        out["status"] = status
    if result != was_result:
        out["result"] = result
    if waiting is not None:
        out["waiting"] = waiting
    return _dumps(out)


def match_message(summary: dict[str, Any]) -> str:
    return _dumps({"type": "match", "match": summary})


def ack_message(id: Any, seq: int) -> str:
    return _dumps({"type": "ack", "id": id, "seq": seq})


def error_message(id: Any, code: str, message: str) -> str:
    return _dumps({"type": "error", "id": id, "code": code, "message": message})


def chat_message(line: dict[str, Any]) -> str:
    return _dumps(line)


def pong_message(id: Any) -> str:
    return _dumps({"type": "pong", "id": id})
