"""Fixtures for the tests that build and run the Docker image (see ``images``): the image
of this checkout, containers that are always removed, and a PostgreSQL database and Redis
for the image to use. Without a Docker daemon (or what the stand-ins need) they skip,
saying why; CI installs and starts what they need (``.ci/run``)."""

from __future__ import annotations

import asyncio
import secrets
import time
from contextlib import contextmanager
from typing import Iterator

import httpx
import pytest

from tests.browser.serving import free_port
from tests.server.conftest import ADMIN_URL, _admin
from tests.server.test_two_processes import REDIS_URL, _redis_reason

from . import images


@pytest.fixture(scope="session")
def docker_base() -> str:
    """The base image to build on (the real ``python:3.11-slim``, or the Debian stand-in)."""
    try:
        images.ensure_daemon()
        return images.base_image()
    except images.Unavailable as exc:
        pytest.skip(str(exc))


@pytest.fixture(scope="session")
def potluck_image(docker_base: str) -> str:
    return images.build_potluck(docker_base)


class Container:
    def __init__(self, id: str, url: str) -> None:
        self.id, self.url = id, url
        self.ws_url = url.replace("http://", "ws://", 1)

    def logs(self) -> str:
        done = images.docker("logs", self.id, check=False, timeout=60)
        return done.stdout[-4000:] + done.stderr[-4000:]

    def wait_healthy(self, timeout: float = 120) -> None:
        """Until ``/healthz`` answers 200 (the container's own health check is run by the
        tests that need it)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/healthz", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            state = images.docker("inspect", "-f", "{{.State.Status}}", self.id, check=False).stdout.strip()
            if state in ("exited", "dead"):
                break
            time.sleep(0.2)
        raise AssertionError(f"the container never served /healthz:\n{self.logs()}")


@contextmanager
def container(image: str, *args: str, env: dict[str, str] | None = None, host_network: bool = False,
              name: str | None = None) -> Iterator[Container]:
    """Run ``image`` (published on a free local port, or on the host's network with the
    server on a free port), wait for ``/healthz``, and remove the container afterwards."""
    port = free_port()
    run = ["run", "-d", "--name", name or f"potluck-test-{secrets.token_hex(4)}"]
    for key, value in (env or {}).items():
        run += ["-e", f"{key}={value}"]
    if host_network:
        run += ["--network", "host", *args, image, "potluck", "serve", "--host", "127.0.0.1", "--port", str(port)]
    else:
        run += ["-p", f"127.0.0.1:{port}:8000", *args, image]
    cid = images.docker(*run, timeout=120).stdout.strip()
    box = Container(cid, f"http://127.0.0.1:{port}")
    try:
        box.wait_healthy()
        yield box
    finally:
        images.docker("rm", "-f", "-v", cid, check=False, timeout=120)


@pytest.fixture
def postgres_for_docker() -> Iterator[str]:
    """A new PostgreSQL database on this machine, as the image's ``DATABASE_URL``."""
    name = f"potluck_docker_{secrets.token_hex(6)}"
    try:
        asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    except Exception as exc:
        pytest.skip(f"PostgreSQL unreachable at {ADMIN_URL}: {type(exc).__name__}: {exc}")
    try:
        yield f"{ADMIN_URL.rsplit('/', 1)[0]}/{name}"
    finally:
        asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture
def redis_for_docker() -> str:
    reason = _redis_reason()
    if reason:
        pytest.skip(reason)
    return REDIS_URL


@pytest.fixture
def docker_volume() -> Iterator[str]:
    """A named volume, removed afterwards."""
    name = f"potluck-test-{secrets.token_hex(6)}"
    yield name
    images.docker("volume", "rm", "-f", name, check=False, timeout=120)
