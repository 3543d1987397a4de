"""A small disk of its own for a test: a tmpfs mounted on a fresh folder (root only; the
test skips with the reason elsewhere), and a way to fill it."""

from __future__ import annotations

import contextlib
import os
import subprocess
import tempfile
from pathlib import Path
from typing import Iterator

import pytest


@contextlib.contextmanager
def small_disk(size: str = "4m") -> Iterator[Path]:
    """A folder on a tmpfs of ``size``, unmounted afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="potluck-disk-"))
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        folder.rmdir()
        pytest.skip(f"cannot mount a small tmpfs here: {mounted.stderr.strip() or mounted.returncode}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)
        with contextlib.suppress(OSError):
            folder.rmdir()


def fill(folder: Path, name: str = "filler") -> Path:
    """Fill the disk of ``folder`` to the last byte; returns the file (delete it to free it)."""
    path = folder / name
    with open(path, "ab", buffering=0) as out:
        block = b"\0" * 65536
        for size in (65536, 4096, 512, 1):
            with contextlib.suppress(OSError):
                while True:
                    out.write(block[:size])
                    os.fsync(out.fileno())
    return path
