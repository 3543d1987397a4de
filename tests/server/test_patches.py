"""JSON Patch between two views (``server.runtime.patches``): small patches for the usual
changes, exact for any pair of JSON documents, never changing what it is given."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.runtime.patches import PatchError, apply, diff, diff_shared, same, smallest


def as_read(value: Any) -> str:
    """What a browser reads from ``value``'s JSON: numbers by value, members in any order."""
    def norm(v: Any) -> Any:
        if isinstance(v, float) and v.is_integer():
            return int(v)
        if isinstance(v, dict):
            return {str(k): norm(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [norm(x) for x in v]
        return v
    return json.dumps(norm(value), sort_keys=True)


def roundtrip(a: Any, b: Any) -> list[dict[str, Any]]:
    """``diff(a, b)``, checked: applied to ``a`` as a client holds it (parsed JSON), it
    gives what a client reads from ``b``."""
    ops = diff(a, b)
    assert as_read(apply(json.loads(json.dumps(a)), ops)) == as_read(b)
    return ops


# ---- small patches for the usual changes -------------------------------------------------

def test_the_same_view_gives_no_operation() -> None:
    view = {"dice": [1, 2], "players": [{"name": "Ann", "score": 3}], "over": False}
    assert diff(view, copy.deepcopy(view)) == []


def test_a_changed_member_deep_inside_is_one_replace() -> None:
    a = {"players": [{"name": "Ann", "score": 3}, {"name": "Bob", "score": 1}], "phase": "race"}
    b = copy.deepcopy(a)
    b["players"][1]["score"] = 2
    assert roundtrip(a, b) == [{"op": "replace", "path": "/players/1/score", "value": 2}]


def test_an_append_is_one_add_at_the_end() -> None:
    a = {"log": ["one", "two"]}
    assert roundtrip(a, {"log": ["one", "two", "three"]}) == [{"op": "add", "path": "/log/2", "value": "three"}]


def test_a_removal_from_the_middle_is_one_remove() -> None:
    a = {"hand": [{"card": 1}, {"card": 2}, {"card": 3}, {"card": 4}]}
    b = {"hand": [{"card": 1}, {"card": 3}, {"card": 4}]}
    assert roundtrip(a, b) == [{"op": "remove", "path": "/hand/1"}]


def test_an_insertion_at_the_front_is_one_add() -> None:
    assert roundtrip([2, 3, 4], [1, 2, 3, 4]) == [{"op": "add", "path": "/0", "value": 1}]


def test_several_elements_removed_then_added() -> None:
    roundtrip([1, 2, 3, 4, 5, 6], [1, 9, 6])
    roundtrip([1, 9, 6], [1, 2, 3, 4, 5, 6])
    assert roundtrip([1, 2, 3], []) == [{"op": "remove", "path": "/0"}] * 3


def test_members_added_and_removed() -> None:
    ops = roundtrip({"a": 1, "gone": 2}, {"a": 1, "new": {"x": [1]}})
    assert sorted(op["op"] for op in ops) == ["add", "remove"]


def test_keys_with_slashes_and_tildes_are_escaped() -> None:
    ops = roundtrip({"a/b": 1, "c~d": 2}, {"a/b": 3, "c~d": 4})
    assert sorted(op["path"] for op in ops) == ["/a~1b", "/c~0d"]


def test_true_is_not_one_but_one_is_one_point_zero() -> None:
    assert roundtrip({"x": [1, 0, 5]}, {"x": [True, 0, 5]}) == [{"op": "replace", "path": "/x/0", "value": True}]
    assert roundtrip({"x": [1, 0]}, {"x": [True, False]}) == [
        {"op": "replace", "path": "/x/0", "value": True}, {"op": "replace", "path": "/x/1", "value": False}]
    assert diff({"x": [1, 2]}, {"x": [1.0, 2]}) == []
    assert not same([1], [True]) and same([1], [1.0]) and same({"a": 1, "b": 2}, {"b": 2, "a": 1})


def test_another_kind_of_value_is_replaced_whole() -> None:
    assert roundtrip({"x": [1]}, {"x": {"0": 1}}) == [{"op": "replace", "path": "/x", "value": {"0": 1}}]
    assert roundtrip([1], {"a": 1}) == [{"op": "replace", "path": "", "value": {"a": 1}}]


def test_tuples_and_int_keys_read_as_arrays_and_strings() -> None:
    assert diff({"x": (1, 2)}, {"x": [1, 2]}) == []
    assert roundtrip({1: "a"}, {1: "b"}) == [{"op": "replace", "path": "/1", "value": "b"}]


# ---- apply -------------------------------------------------------------------------------

def test_apply_changes_nothing_it_is_given_and_shares_untouched_branches() -> None:
    a = {"left": {"deep": [1, 2]}, "right": {"n": 1}}
    before = copy.deepcopy(a)
    ops = [{"op": "replace", "path": "/right/n", "value": 2}]
    out = apply(a, ops)
    assert a == before and out == {"left": {"deep": [1, 2]}, "right": {"n": 2}}
    assert out["left"] is a["left"] and out["right"] is not a["right"]
    added = {"op": "add", "path": "/new", "value": {"k": []}}
    again = apply(out, [added, {"op": "add", "path": "/new/k/0", "value": 1}])
    assert added["value"] == {"k": []}, "a value inside an op was changed"
    assert again["new"] == {"k": [1]}


@pytest.mark.parametrize("op", [
    {"op": "remove", "path": "/missing"},
    {"op": "replace", "path": "/list/5", "value": 1},
    {"op": "add", "path": "/list/9", "value": 1},
    {"op": "add", "path": "/list/01", "value": 1},
    {"op": "add", "path": "/list/x", "value": 1},
    {"op": "replace", "path": "/n/x", "value": 1},
    {"op": "move", "from": "/n", "path": "/m"},
    {"op": "remove", "path": ""},
    {"op": "add", "path": "no-slash", "value": 1},
])
def test_a_patch_that_does_not_fit_is_refused(op: dict[str, Any]) -> None:
    with pytest.raises(PatchError):
        apply({"list": [1, 2], "n": 3}, [op])


def test_dash_appends_to_an_array() -> None:
    assert apply({"l": [1]}, [{"op": "add", "path": "/l/-", "value": 2}]) == {"l": [1, 2]}


# ---- any pair of documents ---------------------------------------------------------------

KEYS = st.text(alphabet="ab/~0-", min_size=0, max_size=3)
SCALARS = st.none() | st.booleans() | st.integers(-3, 3) | st.floats(-2, 2, allow_nan=False) | st.text("xy", max_size=2)
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(KEYS, inner, max_size=5),
                    max_leaves=25)


@st.composite
def edited(draw: Any, value: Any) -> Any:
    """``value`` after a few random edits anywhere in it (how views usually change)."""
    if draw(st.integers(0, 9)) == 0:
        return draw(JSON)
    if isinstance(value, list):
        out = [draw(edited(v)) if draw(st.booleans()) else v for v in value]
        for _ in range(draw(st.integers(0, 2))):
            at = draw(st.integers(0, len(out)))
            if out and draw(st.booleans()):
                del out[min(at, len(out) - 1)]
            else:
                out.insert(at, draw(JSON))
        return out
    if isinstance(value, dict):
        out = {k: draw(edited(v)) if draw(st.booleans()) else v for k, v in value.items()
               if draw(st.integers(0, 5))}
        out.update(draw(st.dictionaries(KEYS, JSON, max_size=2)))
        return out
    return draw(SCALARS)


@settings(max_examples=400, deadline=None)
@given(st.data())
def test_apply_diff_gives_the_new_document(data: Any) -> None:
    a = data.draw(JSON)
    b = data.draw(edited(a) | JSON)
    kept = copy.deepcopy((a, b))
    roundtrip(a, b)
    shared_ops = diff_shared(a, b, {})  # members' patches kept for other seats: the same result
    assert as_read(apply(json.loads(json.dumps(a)), shared_ops)) == as_read(b)
    assert (a, b) == kept and as_read(a) == as_read(kept[0]), "diff or apply changed a document"


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_every_value_in_a_patch_comes_from_the_new_document(data: Any) -> None:
    """What a patch carries is a piece of the new view itself, nothing else."""
    a = data.draw(JSON)
    b = data.draw(edited(a))
    pieces: set[int] = set()

    def collect(v: Any) -> None:
        pieces.add(id(v))
        for child in (v.values() if isinstance(v, dict) else v if isinstance(v, list) else ()):
            collect(child)

    collect(b)
    for op in diff(a, b):
        assert "value" not in op or id(op["value"]) in pieces


@settings(max_examples=200, deadline=None)
@given(JSON)
def test_a_document_against_itself_or_its_copy_gives_no_operation(a: Any) -> None:
    assert diff(a, a) == [] and diff(a, copy.deepcopy(a)) == []


def test_the_smallest_patch_of_a_list_is_a_few_operations_or_one_replace() -> None:
    moves = [{"type": "place", "table": t, "bowl": b} for t in range(3) for b in "abcd"]
    fewer = moves[:5] + moves[6:]
    assert smallest(moves, [dict(m) for m in moves]) == []
    assert smallest(moves, fewer) == [{"op": "remove", "path": "/5"}]
    assert apply(moves, smallest(moves, fewer)) == fewer
    assert smallest(moves, []) == [{"op": "replace", "path": "", "value": []}]
    assert smallest([], moves) == [{"op": "replace", "path": "", "value": moves}]
    other = [{"type": "roll"}, {"type": "pass"}]
    assert smallest(moves[:2], other) == [{"op": "replace", "path": "", "value": other}]


def test_a_value_changed_all_through_is_replaced_whole_when_that_is_shorter() -> None:
    old = {"round": {"target": "egg", "placements": [{"seat": 0, "bowl": "fish"}, {"seat": 1, "bowl": "miso"}]}}
    new = {"round": {"target": "miso", "placements": [{"seat": 0, "bowl": "egg"}, {"seat": 1, "bowl": "fish"}]}}
    assert roundtrip(old, new) == [{"op": "replace", "path": "/round", "value": new["round"]}]
    longer = {"round": {**new["round"], "notes": "x" * 200}}
    ops = roundtrip({"round": {**old["round"], "notes": "x" * 200}}, longer)
    assert [op["path"] for op in ops] == ["/round/target", "/round/placements/0/bowl", "/round/placements/1/bowl"], \
        "a long value keeps its operations"
