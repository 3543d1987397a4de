"""What each seat's sockets are sent after a change (``SeatViews``): a whole state first,
then patches from the view they hold; one view and one message per seat; a seat whose view
fails is skipped and catches up with the next change."""

from __future__ import annotations

import json
from typing import Any

from server.engine import registry
from server.runtime.patches import apply
from server.runtime.seat_views import SeatViews

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


def send(views: SeatViews, n: int, seats: list[int | None]) -> dict[int | None, dict[str, Any]]:
    texts = views.messages(n, n, seats, legal=lambda seat: [], events=lambda seat: [], common=COMMON)
    return {seat: json.loads(text) for seat, text in texts.items()}


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
    views.messages(state, 0, seats, legal=lambda s: [], events=lambda s: [], common=COMMON)
    held = {seat: views.held[seat].view for seat in seats}
    diffed: list[str] = []

    def counted(old: Any, new: Any, path: str = "") -> Any:
        diffed.append(path)
        return counted.__wrapped__(old, new, path)  # type: ignore[attr-defined]

    counted.__wrapped__ = patches.diff  # type: ignore[attr-defined]
    monkeypatch.setattr(patches, "diff", counted)
    texts = views.messages(after, 1, seats, legal=lambda s: [], events=lambda s: [], common=COMMON)
    for seat in seats:
        assert apply(held[seat], json.loads(texts[seat])["ops"]) == game.view(after, seat)
    assert "/dice" in diffed and len(diffed) == len(set(diffed))  # each member once, for all four
