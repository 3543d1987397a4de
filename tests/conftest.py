"""Shared fixtures and helpers for the test suite.

``make test`` runs the suite on every core with pytest-xdist (``-n auto --dist loadgroup``):
tests go to the workers one by one, except the groups marked here, which each run whole on
one worker so that what they share is made once: the tests of a module with a
module-scoped fixture (a server of its own, seeded matches), and the Docker tests (the
images they build once per session).
"""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent


def xdist_group(item: pytest.Item) -> str | None:
    """The group ``item`` runs in under ``--dist loadgroup``, if any."""
    where = item.path.relative_to(TESTS)
    if where.parts[0] == "docker":
        return "docker"
    defs = getattr(item, "_fixtureinfo", None)
    if defs and any(d.scope == "module" for ds in defs.name2fixturedefs.values() for d in ds):
        return where.as_posix()
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        group = xdist_group(item)
        if group and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(group))
