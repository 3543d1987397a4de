"""Answers of pure functions, kept: the rules ask the same questions again and again (a
pantry, a hand changes little from one state to the next, and the views, the legal actions
and the bots all ask about it)."""

from __future__ import annotations

from functools import wraps
from typing import Any, Callable, Hashable, TypeVar

import orjson

R = TypeVar("R")


Pure = Callable[..., R]


def kept(key: Callable[..., Hashable], copy: Callable[[R], R] | None,
         size: int = 4096) -> Callable[[Pure[R]], Pure[R]]:
    """Keep the answers of a pure function by ``key`` (given the same arguments) for the
    last ``size`` questions, then forget them all at once. Each caller gets
    ``copy(answer)``, never the kept one, so that nothing it changes reaches the next
    caller — or, with ``copy=None``, the kept answer itself, for answers nobody changes.
    ``key`` must tell apart every two questions the function may answer differently."""
    def wrap(fn: Pure[R]) -> Pure[R]:
        memo: dict[Hashable, R] = {}

        @wraps(fn)
        def answer(*args: Any, **kwargs: Any) -> R:
            k = key(*args, **kwargs)
            found = memo.get(k, memo)
            if found is memo:
                if len(memo) >= size:
                    memo.clear()
                found = memo[k] = fn(*args, **kwargs)
            return found if copy is None else copy(found)  # type: ignore[return-value]
        return answer
    return wrap


def interned(size: int = 1024) -> Callable[[Pure[R]], Pure[R]]:
    """Keep the answers of a pure function of hashable arguments and give the kept answer
    itself: the very same object for the same arguments. For what nobody changes once built
    — the parts of a view: two consecutive views of a match share every part whose facts
    did not change, and the runtime's diff skips a shared part without looking into it.
    A part built from its arguments alone cannot be stale. (``kept`` keyed by the arguments
    themselves, without a key function to call: parts are asked for very often.)"""
    def wrap(fn: Pure[R]) -> Pure[R]:
        memo: dict[Hashable, R] = {}

        @wraps(fn)
        def answer(*args: Hashable) -> R:
            found = memo.get(args, memo)
            if found is memo:
                if len(memo) >= size:
                    memo.clear()
                found = memo[args] = fn(*args)
            return found  # type: ignore[return-value]
        return answer
    return wrap


def listed(*parts: Any) -> list[Any]:
    """A list of these parts: the same list for the very same parts, so that a view's list
    of kept parts is kept too (the parts are told apart by their ids, which stay theirs
    while the kept list holds them)."""
    key = tuple(map(id, parts))
    found = _LISTED.get(key)
    if found is None:
        if len(_LISTED) >= 4096:
            _LISTED.clear()
        found = _LISTED[key] = list(parts)
    return found


_LISTED: dict[tuple[int, ...], list[Any]] = {}


def derived(size: int = 1024) -> Callable[[Callable[[Any], R]], Callable[[Any], R]]:
    """Keep the answers of a pure function of one object that nobody changes (a kept part
    of a view, a record replaced but never changed in place) by that very object: asked
    about it again, the very same answer, without looking into it. The object is kept
    alive beside its answer, so its id is not another's meanwhile."""
    def wrap(fn: Callable[[Any], R]) -> Callable[[Any], R]:
        memo: dict[int, tuple[Any, R]] = {}

        @wraps(fn)
        def answer(obj: Any) -> R:
            hit = memo.get(id(obj))
            if hit is None or hit[0] is not obj:
                if len(memo) >= size:
                    memo.clear()
                hit = memo[id(obj)] = (obj, fn(obj))
            return hit[1]
        return answer
    return wrap


_JSON = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS
_ALIKE: dict[bytes, Any] = {}
_KEPT: dict[int, Any] = {}  # the kept values by id (each kept alive in ``_ALIKE``, so its id is its own)
_ALIKE_SIZE = 8192


def alike(value: R) -> R:
    """A kept value that reads the same as JSON as ``value`` (the first one seen): for a
    part of a view cheaper to build than to know by its facts, so that a part equal to
    the last state's (or to another seat's) is the very same object, which the runtime's
    diff skips. Told apart by their JSON (members in any order), so ``1`` and ``True``
    stay apart; a kept value given again is known by itself, not read again. Nobody may
    change the value given, nor ``value`` after."""
    if _KEPT.get(id(value)) is value:
        return value
    key = orjson.dumps(value, option=_JSON)
    found = _ALIKE.get(key)
    if found is None:
        if len(_ALIKE) >= _ALIKE_SIZE:
            _ALIKE.clear()
            _KEPT.clear()
        found = _ALIKE[key] = _KEPT[id(value)] = value
    return found  # type: ignore[no-any-return]
