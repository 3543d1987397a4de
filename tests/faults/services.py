"""The fault suite's own services: a PostgreSQL cluster (``initdb``/``pg_ctl``, as a
non-root user when the suite runs as root) and a Redis (``redis-server``), each on a free
port in its own temporary folder, never the machine's. Each can be restarted, frozen
(SIGSTOP of every one of its processes) and killed."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Callable

from tests.server.conftest import free_port


def postgres_binary(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def missing_binaries() -> str | None:
    """Why the suite cannot run here, or ``None``."""
    absent = [n for n in ("initdb", "pg_ctl") if postgres_binary(n) is None]
    if shutil.which("redis-server") is None:
        absent.append("redis-server")
    return f"not installed: {', '.join(absent)}" if absent else None


def _as_user() -> tuple[int, int] | None:
    """PostgreSQL refuses to run as root: the user to run it as (``postgres``, else
    ``nobody``), or ``None`` when the suite is not root."""
    if os.getuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            entry = pwd.getpwnam(name)
            return entry.pw_uid, entry.pw_gid
        except KeyError:
            continue
    raise RuntimeError("running as root and neither a postgres nor a nobody user exists")


def _demote(ids: tuple[int, int] | None) -> Callable[[], None] | None:
    if ids is None:
        return None

    def become() -> None:
        os.setgid(ids[1])
        os.setuid(ids[0])

    return become


class OwnPostgres:
    """A PostgreSQL cluster of its own; ``url`` is its ``postgres`` database."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="potluck-faults-pg-"))
        self.root.chmod(0o755)
        self.data = self.root / "data"
        self.data.mkdir()
        self.user = _as_user()
        if self.user is not None:
            os.chown(self.data, *self.user)
        self.port = free_port()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        self._run(postgres_binary("initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync",
                  "-E", "UTF8")
        self.start()

    def _run(self, *args: str | None) -> None:
        done = subprocess.run([a for a in args if a], capture_output=True, text=True, preexec_fn=_demote(self.user),
                              cwd=self.root, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{args[0]} failed: {done.stdout[-2000:]}{done.stderr[-2000:]}")

    def start(self) -> None:
        options = (f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c max_connections=200 -c shared_buffers=16MB")
        self._run(postgres_binary("pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.data / "log"),
                  "-w", "-t", "60", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run(postgres_binary("pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop")

    def restart(self) -> None:
        self.stop("fast")
        self.start()

    def processes(self) -> list[int]:
        """The postmaster and every process it started."""
        postmaster = int((self.data / "postmaster.pid").read_text().split()[0])
        children = []
        for stat in glob.glob("/proc/[0-9]*/stat"):
            try:
                fields = Path(stat).read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == postmaster:
                children.append(int(stat.split("/")[2]))
        return [postmaster, *children]

    def freeze(self) -> list[int]:
        frozen = self.processes()
        for pid in frozen:
            os.kill(pid, signal.SIGSTOP)
        return frozen

    @staticmethod
    def thaw(frozen: list[int]) -> None:
        for pid in reversed(frozen):
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass

    def close(self) -> None:
        try:
            self.stop("immediate")
        except Exception:
            pass
        shutil.rmtree(self.root, ignore_errors=True)


class OwnRedis:
    """A Redis of its own, with no persistence; killed (SIGKILL) and started again on the
    same port."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="potluck-faults-redis-"))
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        log = open(self.root / "redis.log", "ab")
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.root)], stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            done = subprocess.run(["redis-cli", "-p", str(self.port), "ping"], capture_output=True, text=True) \
                if shutil.which("redis-cli") else None
            if done is None or done.stdout.strip() == "PONG":
                if done is None:
                    time.sleep(0.5)
                return
            time.sleep(0.05)
        raise RuntimeError("redis-server did not answer")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def close(self) -> None:
        self.kill()
        shutil.rmtree(self.root, ignore_errors=True)
