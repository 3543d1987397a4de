"""What each seat's sockets are sent after a change (``SeatViews``): a whole state first,
then patches from the view they hold; one view and one message per seat; a seat whose view
fails is skipped and catches up with the next change; legal actions whole, or as a patch
of the list held for the sockets that read them so."""

from __future__ import annotations

import json
from typing import Any

from server.engine import registry
from server.runtime.patches import apply
from server.runtime.seat_views import COMPACT, DELTA, WHOLE, Held, SeatViews
from server.runtime.step import Step, settled

COMMON = {"status": "running", "deadline": None, "now": 0, "result": None}


class Views:
    """A game stand-in: the view of seat s at state n; seat 2's view fails at n = 3."""

    id = "stand-in"

    def __init__(self) -> None:
        self.built: list[Any] = []

    def view(self, n: int, seat: int | None) -> dict[str, Any]:
        self.built.append((n, seat))
        if seat == 2 and n == 3:
            raise RuntimeError("no view")
        return {"n": n, "you": seat, "table": {"cards": list(range(n))}, "fixed": [1, 2, 3]}

    def views(self, n: int, seats: list[int | None]) -> dict[int | None, dict[str, Any]]:
        return {seat: self.view(n, seat) for seat in seats}

    def taught(self, n: int, views: dict[int | None, dict[str, Any]]) -> dict[int | None, dict[str, Any]]:
        return views  # not a match in teach mode

    def legals(self, n: int, seats: list[int]) -> dict[int, list[Any]]:
        """Seat s may take any of the first n cards, and pass while n is even."""
        return {seat: [{"type": "take", "card": c} for c in range(n)] + ([{"type": "pass"}] if n % 2 == 0 else [])
                for seat in seats}


def step(n: int) -> Step:
    return Step(n, n, [], None, None)


def send(views: SeatViews, n: int, seats: list[int | None], kind: bool = WHOLE) -> dict[int | None, dict[str, Any]]:
    texts = views.messages(step(n), {seat: {kind} for seat in seats}, COMMON)
    return {seat: json.loads(message.text) for (seat, _), message in texts.items()}


def test_a_whole_state_first_then_patches_from_the_view_held() -> None:
    game = Views()
    views = SeatViews(game)  # type: ignore[arg-type]
    first = send(views, 1, [0, None])
    assert {m["type"] for m in first.values()} == {"state"}
    held = {seat: m["view"] for seat, m in first.items()}
    second = send(views, 2, [0, None])
    for seat, msg in second.items():
        assert (msg["type"], msg["seq"], msg["prev_seq"]) == ("patch", 2, 1)
        assert apply(held[seat], msg["ops"]) == game.view(2, seat)
        assert {op["path"].split("/")[1] for op in msg["ops"]} == {"n", "table"}  # "fixed" did not change


def test_a_seat_whose_view_fails_catches_up_with_the_next_change() -> None:
    game = Views()
    views = SeatViews(game)  # type: ignore[arg-type]
    send(views, 2, [1, 2])
    assert set(send(views, 3, [1, 2])) == {1}  # seat 2's view failed: nothing sent to it
    late = send(views, 4, [1, 2])[2]
    assert (late["type"], late["prev_seq"], late["seq"]) == ("patch", 2, 4)  # from what it holds


def test_a_seat_nobody_watches_any_more_starts_again_with_a_whole_state() -> None:
    views = SeatViews(Views())  # type: ignore[arg-type]
    send(views, 1, [0])
    views.forget(0)
    assert send(views, 2, [0])[0]["type"] == "state"


def test_members_the_seats_share_are_diffed_once(monkeypatch: Any) -> None:
    """Nutty Noodles builds its table once for every seat: each changed member of it is
    diffed once, not once a seat."""
    import server.runtime.patches as patches

    game = registry.get("nutty-noodles")
    state = game.setup(["A", "B", "C"], game.options({}), 5)
    after, _ = game.apply(state, state.thrower, {"type": "roll"}, 10)
    views = SeatViews(game)
    seats: list[int | None] = [0, 1, 2, None]
    views.messages(settled(game, state, 0, []), {seat: {WHOLE} for seat in seats}, COMMON)
    held = {seat: views.held[seat].view for seat in seats}
    diffed: list[str] = []

    def counted(old: Any, new: Any, path: str = "") -> Any:
        diffed.append(path)
        return counted.__wrapped__(old, new, path)  # type: ignore[attr-defined]

    counted.__wrapped__ = patches.diff  # type: ignore[attr-defined]
    monkeypatch.setattr(patches, "diff", counted)
    texts = views.messages(settled(game, after, 1, []), {seat: {WHOLE} for seat in seats}, COMMON)
    for seat in seats:
        assert apply(held[seat], json.loads(texts[(seat, WHOLE)].text)["ops"]) == game.view(after, seat)
    assert "/throw" in diffed and len(diffed) == len(set(diffed))  # each member once, for all four


def test_legal_actions_travel_whole_or_as_a_patch_of_the_list_held() -> None:
    """A seat with sockets of both kinds gets one message of each; the delta, applied to
    the list the socket holds, is the new list, and it is empty when nothing changed."""
    game = Views()
    views = SeatViews(game)  # type: ignore[arg-type]
    first = views.messages(step(2), {0: {WHOLE, DELTA}}, COMMON)
    assert first[(0, WHOLE)] == first[(0, DELTA)] and first[(0, DELTA)].whole  # the first state: whole for both
    held = json.loads(first[(0, DELTA)].text)["legal"]
    for n in (3, 4):
        texts = views.messages(step(n), {0: {WHOLE, DELTA}}, COMMON)
        whole, delta = json.loads(texts[(0, WHOLE)].text), json.loads(texts[(0, DELTA)].text)
        assert "legal_ops" not in whole and "legal" not in delta
        assert whole["legal"] == game.legals(n, [0])[0] == apply(held, delta["legal_ops"])
        assert whole["ops"] == delta["ops"]
        held = whole["legal"]
    unchanged = views.messages(Step(5, 4, [], None, None), {0: {DELTA}}, COMMON)  # a change that keeps the list
    assert json.loads(unchanged[(0, DELTA)].text)["legal_ops"] == []


def test_a_list_that_changed_all_through_is_sent_as_one_replace() -> None:
    game = Views()
    views = SeatViews(game)  # type: ignore[arg-type]
    views.messages(step(8), {0: {DELTA}}, COMMON)
    ops = json.loads(views.messages(step(0), {0: {DELTA}}, COMMON)[(0, DELTA)].text)["legal_ops"]
    assert ops == [{"op": "replace", "path": "", "value": [{"type": "pass"}]}]


def test_a_compact_socket_is_named_the_seq_of_a_legal_list_it_holds_again() -> None:
    """Compact patches: a list the seat held a few changes ago comes back as ``legal_at``
    (that change's seq), a new one as compact operations; the reader's rule (``Held.read``)
    ends at the seat's view and list after every change."""
    game = Views()
    views = SeatViews(game)  # type: ignore[arg-type]
    first = json.loads(views.messages(Step(1, 2, [], None, None), {0: {COMPACT}}, COMMON)[(0, COMPACT)].text)
    reader = Held(first["seq"], first["view"], first["legal"], ("running", None, None), ((1, first["legal"]),))
    said = []
    for seq, n in enumerate([3, 2, 3, 4, 2, 2], start=2):
        msg = json.loads(views.messages(Step(seq, n, [], None, None), {0: {COMPACT}}, COMMON)[(0, COMPACT)].text)
        said.append(msg.get("legal_at", "ops" if "legal_ops" in msg else None))
        reader = reader.read(msg)
        assert (reader.view, reader.legal) == (game.view(n, 0), game.legals(n, [0])[0])
        assert set(msg) <= {"type", "seq", "ops", "legal_ops", "legal_at"}, "nothing unchanged is sent"
    assert said == ["ops", 1, 2, "ops", 3, None]
