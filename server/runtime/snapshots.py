"""State snapshots: a pickled state plus a fingerprint of the code that made it.

A snapshot is only used by code with the same fingerprint (the game's package and the
engine, hashed), so changing a game's rules or state layout never unpickles an old state
into new code: such matches are replayed from their seed instead.
"""

from __future__ import annotations

import hashlib
import inspect
import pickle
from functools import cache
from pathlib import Path
from typing import Any

import server.engine as engine


def _sources(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


@cache
def code_fingerprint(game_class: type) -> str:
    digest = hashlib.sha256()
    for folder in (Path(inspect.getfile(game_class)).parent, Path(engine.__file__).parent):
        for path in _sources(folder):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def dump(state: Any) -> bytes:
    return pickle.dumps(state, pickle.HIGHEST_PROTOCOL)


def load(blob: bytes) -> Any:
    return pickle.loads(blob)
