"""Answers of pure functions, kept: the rules ask the same questions again and again (a
pantry, a hand changes little from one state to the next, and the views, the legal actions
and the bots all ask about it)."""

from __future__ import annotations

from functools import wraps
from typing import Any, Callable, Hashable, TypeVar

R = TypeVar("R")


Pure = Callable[..., R]


def kept(key: Callable[..., Hashable], copy: Callable[[R], R], size: int = 4096) -> Callable[[Pure[R]], Pure[R]]:
    """Keep the answers of a pure function by ``key`` (given the same arguments) for the
    last ``size`` questions, then forget them all at once. Each caller gets
    ``copy(answer)``, never the kept one, so that nothing it changes reaches the next
    caller. ``key`` must tell apart every two questions the function may answer differently."""
    def wrap(fn: Pure[R]) -> Pure[R]:
        memo: dict[Hashable, R] = {}

        @wraps(fn)
        def answer(*args: Any, **kwargs: Any) -> R:
            k = key(*args, **kwargs)
            if k not in memo:
                if len(memo) >= size:
                    memo.clear()
                memo[k] = fn(*args, **kwargs)
            return copy(memo[k])
        return answer
    return wrap
