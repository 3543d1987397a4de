"""The Docker files, without a Docker daemon: ``docker compose config`` (or
``docker-compose config``) accepts docker-compose.yml (nginx in front of Potluck replicas,
PostgreSQL and Redis with named volumes), and the Dockerfile's own install and start
commands, run in a fresh virtual environment and folder, serve /healthz and the lobby
(the only liberty: pip may use its cache, and the port is a free one).

``tests/docker/`` builds the image and runs it, and brings the compose stack up, where a
Docker daemon can run.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import venv
from pathlib import Path

import httpx
import pytest

from tests.browser.serving import free_port, wait_for_http

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = ROOT / "Dockerfile"
IMAGE_PORT = "8000"


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile as (INSTRUCTION, arguments), continuation lines joined."""
    text = DOCKERFILE.read_text().replace("\\\n", " ")
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), " ".join(rest.split())))
    return out


def exec_form(args: str) -> list[str]:
    value = json.loads(args)
    assert isinstance(value, list), f"use the exec form (a JSON list), not {args!r}"
    return value


def test_dockerfile_is_slim_non_root_with_a_healthcheck() -> None:
    steps = dict(instructions())
    assert steps["ARG"] == "BASE_IMAGE=python:3.11-slim" and steps["FROM"] == "${BASE_IMAGE}"
    assert steps["USER"] not in ("root", "0")
    assert steps["HEALTHCHECK"].split()[-1] and "/healthz" in steps["HEALTHCHECK"]


def compose_command() -> list[str] | None:
    """``docker compose`` (the plugin) if it is there, else ``docker-compose``."""
    if shutil.which("docker") and subprocess.run(["docker", "compose", "version"], capture_output=True,
                                                 timeout=60).returncode == 0:
        return ["docker", "compose"]
    return [found] if (found := shutil.which("docker-compose")) else None


def test_docker_compose_config() -> None:
    compose = compose_command()
    if compose is None:
        pytest.skip("neither docker compose nor docker-compose is installed (apt-get install docker-compose)")

    def config(*flags: str) -> str:
        done = subprocess.run([*compose, "-f", str(ROOT / "docker-compose.yml"), "config", *flags],
                              cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return done.stdout

    whole = config()  # the whole file validates
    assert sorted(config("--services").split()) == ["postgres", "potluck", "proxy", "redis"]
    assert sorted(config("--volumes").split()) == ["potluck-postgres", "potluck-redis"]
    assert "scale: 3" in whole and "nginx.conf" in whole


def test_the_image_install_and_start_commands_serve_the_lobby(tmp_path: Path) -> None:
    steps = instructions()
    app = tmp_path / "app"
    app.mkdir()
    for word, args in steps:  # COPY src… dest, relative to WORKDIR
        if word == "COPY":
            *sources, _ = args.split()
            for source in sources:
                path = ROOT / source
                if path.is_dir():
                    shutil.copytree(path, app / source, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
                else:
                    shutil.copy2(path, app / source)
    venv.create(tmp_path / "venv", with_pip=True)
    bin_dir = tmp_path / "venv" / "bin"
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "VIRTUAL_ENV": str(tmp_path / "venv")}
    for word, args in steps:
        if word == "ENV":
            parts = shlex.split(args)
            pairs = [p.split("=", 1) for p in parts] if "=" in parts[0] else [parts[:2]]
            env.update({k: v for k, v in pairs if k != "PIP_NO_CACHE_DIR"})
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'potluck.db'}"
    for key in ("PYTHONPATH", "REDIS_URL"):
        env.pop(key, None)

    installs = [args for word, args in steps if word == "RUN" and "pip install" in args]
    assert installs, "the Dockerfile installs Potluck with pip"
    for command in installs:
        done = subprocess.run(command, shell=True, cwd=app, env=env, capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]

    port = str(free_port())
    start = [a.replace(IMAGE_PORT, port) for a in exec_form(dict(steps)["CMD"])]
    health = exec_form(dict(steps)["HEALTHCHECK"].split(" CMD ", 1)[1])
    health = [a.replace(IMAGE_PORT, port) for a in health]
    log = (tmp_path / "serve.log").open("wb")
    proc = subprocess.Popen(start, cwd=app, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_for_http(f"http://127.0.0.1:{port}/healthz", proc)
        lobby = httpx.get(f"http://127.0.0.1:{port}/", timeout=5)
        assert lobby.status_code == 200 and "Nutty Noodles" in lobby.text
        for path in ("/static/js/client.js", "/static/css/potluck.css", "/games/nutty-noodles/rules"):
            assert httpx.get(f"http://127.0.0.1:{port}{path}", timeout=5).status_code == 200, path
        assert subprocess.run(health, env=env, timeout=30).returncode == 0, "the HEALTHCHECK fails"
    finally:
        proc.terminate()
        proc.wait(15)
        log.close()
