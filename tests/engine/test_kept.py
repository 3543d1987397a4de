"""``kept``: a pure function's answers kept by a key, each caller getting its own copy."""

from __future__ import annotations

from typing import Callable

from server.engine import kept as kept_module
from server.engine.kept import alike, derived, interned, kept, listed


def _counted() -> tuple[list[int], Callable[..., list[int]]]:
    calls: list[int] = []

    @kept(lambda n, tag="": (n, tag), list, size=2)
    def multiples(n: int, tag: str = "") -> list[int]:
        calls.append(n)
        return [n, 2 * n]

    return calls, multiples


def test_a_question_asked_again_is_answered_from_what_was_kept() -> None:
    calls, multiples = _counted()
    assert multiples(3) == [3, 6] and multiples(3) == [3, 6]
    assert calls == [3]
    assert multiples(3, tag="x") == [3, 6] and calls == [3, 3]


def test_each_caller_gets_its_own_copy() -> None:
    _, multiples = _counted()
    mine = multiples(4)
    mine.append(99)
    assert multiples(4) == [4, 8]


def test_past_its_size_it_forgets_and_answers_anew() -> None:
    calls, multiples = _counted()
    for n in (1, 2, 3, 1):
        multiples(n)
    assert calls == [1, 2, 3, 1]


def test_without_a_copy_the_kept_answer_itself_is_given() -> None:
    @kept(lambda n: n, None)
    def pair(n: int) -> list[int]:
        return [n, n]

    assert pair(1) is pair(1) and pair(1) is not pair(2)


def test_an_interned_part_is_the_same_object_for_the_same_facts_and_built_once() -> None:
    built: list[tuple[str, int]] = []

    @interned(size=2)
    def part(name: str, score: int) -> dict[str, object]:
        built.append((name, score))
        return {"name": name, "score": score}

    first = part("Ann", 3)
    assert part("Ann", 3) is first and part("Ann", 4) == {"name": "Ann", "score": 4}
    assert built == [("Ann", 3), ("Ann", 4)]
    part("Bob", 1)  # a third question: the two kept answers are forgotten
    assert part("Ann", 3) is not first and part("Ann", 3) == first


def test_a_value_alike_as_json_is_the_kept_one_and_others_are_not() -> None:
    first = alike({"b": [1, 2], "a": None, "k": "alike-test"})
    assert alike({"a": None, "b": [1, 2], "k": "alike-test"}) is first  # members in another order
    assert alike({"a": None, "b": [True, 2], "k": "alike-test"}) is not first  # true is not 1 in JSON
    assert alike({"a": None, "b": [1.0, 2], "k": "alike-test"}) is not first  # nor is 1.0
    assert alike({"a": None, "b": [1, 2, 3], "k": "alike-test"}) == {"a": None, "b": [1, 2, 3], "k": "alike-test"}


def test_a_derived_answer_is_kept_for_that_very_object_only() -> None:
    built: list[int] = []

    @derived(size=2)
    def total(numbers: list[int]) -> int:
        built.append(len(numbers))
        return sum(numbers)

    one, other = [1, 2], [1, 2]
    assert total(one) == 3 and total(one) == 3 and built == [2]
    assert total(other) == 3 and built == [2, 2]  # an equal but other object is asked anew


def test_a_kept_value_given_again_is_known_by_itself_not_read_again(monkeypatch) -> None:
    first = alike({"k": "alike-known", "n": [1, 2]})
    read: list[object] = []
    dumps = kept_module.orjson.dumps
    monkeypatch.setattr(kept_module.orjson, "dumps", lambda value, **kw: read.append(value) or dumps(value, **kw))
    assert alike(first) is first
    assert read == []  # known by itself: not written as JSON again
    assert alike({"n": [1, 2], "k": "alike-known"}) is first and len(read) == 1  # an equal one is read


def test_a_list_of_the_very_same_parts_is_the_kept_list_and_of_equal_parts_is_not() -> None:
    a, b = {"part": 1}, {"part": 2}
    first = listed(a, b)
    assert first == [a, b] and listed(a, b) is first
    assert listed(a, dict(b)) is not first  # an equal part is not the very same part
    assert listed(b, a) is not first
