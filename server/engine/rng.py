"""A small seeded random number generator that lives inside a game state.

Rules may use randomness only through an ``Rng`` stored in their state, so that the same
seed and the same actions always give the same game, on any machine and in any process.
The generator is SplitMix64: one 64-bit integer of state, cheap to copy and to pickle.
"""

from __future__ import annotations

from typing import MutableSequence, Sequence, TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


class Rng:
    """Deterministic generator whose whole state is one integer."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next64(self) -> int:
        """Return the next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def randint(self, lo: int, hi: int) -> int:
        """A uniform integer in ``[lo, hi]`` (both ends included)."""
        return lo + self.below(hi - lo + 1)

    def random(self) -> float:
        """A uniform float in ``[0, 1)``."""
        return (self.next64() >> 11) / float(1 << 53)

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place (Fisher–Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        self.shuffle(out)
        return out

    def fork(self) -> "Rng":
        """A new, independent generator seeded from this one."""
        return Rng(self.next64())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and other.state == self.state

    def __repr__(self) -> str:
        return f"Rng({self.state:#x})"

    def __getstate__(self) -> int:
        return self.state

    def __setstate__(self, state: int) -> None:
        self.state = state
