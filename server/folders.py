"""The folders that ship beside the ``server`` package: ``web/`` (the client), ``docs/``
(the rules pages) and ``migrations/`` (Alembic). They are found beside the package (a
checkout, an editable install) or in the working directory (the Docker image's /app)."""

from __future__ import annotations

from pathlib import Path


def shipped(folder: str) -> Path:
    """The path of ``folder`` (``web``, ``docs`` or ``migrations``)."""
    for base in (Path(__file__).resolve().parents[1], Path.cwd()):
        if (base / folder).is_dir():
            return base / folder
    raise RuntimeError(f"cannot find the {folder}/ folder beside the server package or in {Path.cwd()}")
