"""Server subprocesses (``python -m server.cli serve``) on free ports, for crash and
multi-process tests. Each runs from a scratch working directory, so the packaged
migrations must be found without the checkout as the working directory."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import httpx

from .conftest import free_port

REPO = Path(__file__).resolve().parents[2]


class ServerProcess:
    def __init__(self, database_url: str, workdir: Path, preexec_fn: Callable[[], None] | None = None,
                 **env: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        workdir.mkdir(parents=True, exist_ok=True)
        self.log_path = workdir / f"server-{self.port}.log"
        environment = {**os.environ, "DATABASE_URL": database_url, "PYTHONPATH": str(REPO), **env}
        environment.pop("REDIS_URL", None) if "REDIS_URL" not in env else None
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "server.cli", "serve", "--port", str(self.port), "--no-access-log"],
                cwd=workdir, env=environment, stdout=log, stderr=subprocess.STDOUT, preexec_fn=preexec_fn)
        self._wait_ready()

    def _wait_ready(self, timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited with {self.process.returncode}:\n{self.output()}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        self.kill()
        raise TimeoutError(f"server not ready after {timeout} s:\n{self.output()}")

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL: no shutdown handlers, no flushing — a crash."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
