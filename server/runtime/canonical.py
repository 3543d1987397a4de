"""The canonical form of a player's action: only what the rules read.

A client may send anything beside a legal action; the log must keep only what replaying
it needs. Rather than ask every game to declare its fields, the runtime watches what the
rules read: ``apply`` is given the action as a ``ReadRecorder`` — a ``dict`` that notes
each key looked up (``[]``, ``get``, ``in``) and marks itself wholly read by anything that
sees all of it (iteration, ``items``, ``==``, ``len``, copying, pickling). The canonical
form keeps the keys read, at every level of nested objects.

When the canonical form differs from what was sent (unread fields were dropped), the
rules are asked again with the canonical form itself, and that is what counts and is
logged: what is stored is exactly what was applied, so a replay gives the same state.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

Json = Any


class ReadRecorder(dict):  # type: ignore[type-arg]
    """A ``dict`` that remembers which of its keys were read (see the module docstring)."""

    __slots__ = ("read", "whole")

    def __init__(self, source: dict[str, Json]) -> None:
        super().__init__(source)
        for k, v in source.items():
            if isinstance(v, (dict, list)):
                dict.__setitem__(self, k, record(v))
        self.read: set[Any] = set()
        self.whole = False

    # a single key
    def __getitem__(self, key: Any) -> Any:
        self.read.add(key)
        return super().__getitem__(key)

    def get(self, key: Any, default: Any = None) -> Any:
        self.read.add(key)
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        self.read.add(key)
        return super().__contains__(key)

    # all of it
    def _all(self) -> "ReadRecorder":
        self.whole = True
        return self

    def __iter__(self) -> Iterator[Any]:
        return super(ReadRecorder, self._all()).__iter__()

    def __len__(self) -> int:
        return super(ReadRecorder, self._all()).__len__()

    def keys(self):  # type: ignore[override]
        return super(ReadRecorder, self._all()).keys()

    def values(self):  # type: ignore[override]
        return super(ReadRecorder, self._all()).values()

    def items(self):  # type: ignore[override]
        return super(ReadRecorder, self._all()).items()

    def __eq__(self, other: object) -> bool:
        return super(ReadRecorder, self._all()).__eq__(other)

    def __ne__(self, other: object) -> bool:
        return super(ReadRecorder, self._all()).__ne__(other)

    __hash__ = None  # type: ignore[assignment]

    def copy(self) -> dict[str, Json]:
        return dict(self.items())

    def __repr__(self) -> str:
        return super(ReadRecorder, self._all()).__repr__()

    def __or__(self, other: Any) -> Any:
        return dict(self.items()) | other

    def __reduce_ex__(self, protocol: Any) -> Any:
        """Pickles (and so clones of a state that kept it) as a plain ``dict``."""
        return (dict, (dict(self.items()),))


def record(value: Json) -> Json:
    """``value`` with every object in it (at any depth) a ``ReadRecorder``."""
    if isinstance(value, dict):
        return value if isinstance(value, ReadRecorder) else ReadRecorder(value)
    if isinstance(value, list):
        return [record(v) for v in value]
    return value


def read_part(value: Json) -> Json:
    """The plain JSON that was read of a recorded ``value``: objects keep the keys read
    (all of them once wholly read), lists and scalars are kept whole."""
    if isinstance(value, ReadRecorder):
        read, whole = value.read, value.whole
        return {k: read_part(v) if isinstance(v, (dict, list)) else v
                for k, v in dict.items(value) if whole or k in read}
    if isinstance(value, list):
        return [read_part(v) for v in value]
    return value


Apply = Callable[[dict[str, Json]], tuple[Any, list[Any]]]


def apply_canonical(apply: Apply, action: dict[str, Json]) -> tuple[dict[str, Json], Any, list[Any]]:
    """Apply ``action`` (``apply`` takes the action and returns ``(state, events)``) and
    return ``(canonical, state, events)``: the canonical form and the outcome of applying
    exactly that. Whatever ``apply`` raises is raised."""
    recorded = record(action)
    state, events = apply(recorded)
    canonical = read_part(recorded)
    if canonical == action:
        return canonical, state, events
    state, events = apply(canonical)
    return canonical, state, events
