"""Starting a Potluck server process for a test and waiting until it answers."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_http(url: str, proc: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    """Poll ``url`` until it answers 200; fail early if ``proc`` dies."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode} before answering {url}")
        try:
            if httpx.get(url, timeout=1.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise TimeoutError(f"{url} did not answer within {timeout} s")


def potluck_command() -> list[str]:
    script = Path(sys.executable).with_name("potluck")
    return [str(script)] if script.exists() else [sys.executable, "-m", "server.cli"]
