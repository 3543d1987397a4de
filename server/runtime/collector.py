"""Python's cyclic garbage collector, set for a server holding many live matches.

Almost everything the runtime allocates is freed by reference counting: a match's state,
each seat's view and each message live until the next action replaces them. With the
collector's defaults (a young collection every 700 new containers) those objects are
still alive at a young collection, are promoted, and make the full collections — which
walk every object the process holds, hundreds of milliseconds with hundreds of matches —
frequent: profiles of ``bench.load`` showed the collector as the largest single cost of an
action, and its pauses in the action latency. So ``serve`` (not the tests) sets:

- ``gc.freeze()`` once the application is built: what was imported and built at start
  (modules, routes, the schema) is never walked again;
- a young collection every ``YOUNG`` new containers (most of an action's objects are freed
  before one runs, so fewer are promoted) and a full one after ``FULL_AFTER`` middle
  collections (CPython also waits for the objects promoted since the last full collection
  to reach a quarter of those it holds).

Cycles are still collected, only later: a young one at the next young or middle
collection (seconds while matches are played), one that lived long enough to reach the
oldest generation at the next full collection (minutes under load).
"""

from __future__ import annotations

import gc

YOUNG = 20_000
MIDDLE_AFTER = 10
FULL_AFTER = 100


def tune_for_serving() -> None:
    """Freeze what exists now and space the collections out (see the module docstring)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, MIDDLE_AFTER, FULL_AFTER)
