"""The images the Docker tests run, made on a machine that cannot reach Docker Hub.

- The daemon: ``docker info`` answers, or (as root, with Debian's ``docker.io``) a
  ``dockerd`` started here; else the tests skip, saying why.
- The base: the real ``python:3.11-slim`` when it is already here; otherwise a stand-in
  made from Debian (``debootstrap --variant=minbase --include=python3,python3-venv
  bookworm``, ``docker import``) with a virtual environment on ``PATH`` (so ``python``
  and ``pip`` are the ones a ``python`` image has) and the host's CA bundle as
  ``PIP_CERT`` (the build's pip goes through this machine's network). It is tagged
  ``potluck-test/python:3.11-slim-standin`` — never ``python:3.11-slim`` itself — kept
  between runs, and given to the unchanged Dockerfile as ``BASE_IMAGE``.
- The compose stack's other images (nginx, PostgreSQL, Redis): stand-ins built on that
  base from Debian's packages (``tests/docker/standins/``), with the official images'
  command-line behaviour; kept between runs too.

Nothing of this reaches the image users build: it is all build arguments and tags.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STANDINS = Path(__file__).resolve().parent / "standins"
OFFICIAL_BASE = "python:3.11-slim"
BASE_STANDIN = "potluck-test/python:3.11-slim-standin"
HOST_CA = Path("/etc/ssl/certs/ca-certificates.crt")
DEBIAN_MIRROR = os.environ.get("POTLUCK_TEST_DEBIAN_MIRROR", "http://deb.debian.org/debian")
VENV_PATH = "/opt/python/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


class Unavailable(Exception):
    """Docker (or what makes the stand-ins) is not here: the reason to skip."""


def docker(*args: str, timeout: float = 600, check: bool = True, **kw) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(["docker", *args], capture_output=True, text=True, timeout=timeout, **kw)
    if check and done.returncode != 0:
        raise RuntimeError(f"docker {' '.join(args)} failed ({done.returncode}):\n{done.stdout[-4000:]}"
                           f"\n{done.stderr[-4000:]}")
    return done


def _answers() -> bool:
    try:
        return docker("info", timeout=30, check=False).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def ensure_daemon() -> None:
    """A Docker daemon that answers: the one running, or ``dockerd`` started now (it is
    left running for later runs)."""
    if shutil.which("docker") is None:
        raise Unavailable("the docker command is not installed (apt-get install docker.io)")
    if _answers():
        return
    dockerd = shutil.which("dockerd") or ("/usr/sbin/dockerd" if Path("/usr/sbin/dockerd").exists() else None)
    if dockerd is None or os.geteuid() != 0:
        raise Unavailable("no Docker daemon answers, and none can be started here (needs root and dockerd)")
    log = open(Path(tempfile.gettempdir()) / "potluck-test-dockerd.log", "ab")
    subprocess.Popen([dockerd], stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if _answers():
            return
        time.sleep(0.5)
    raise Unavailable(f"dockerd did not answer within 60 s (see {log.name})")


def has_image(tag: str) -> bool:
    return docker("image", "inspect", tag, check=False, timeout=60).returncode == 0


def base_image() -> str:
    """The base to build Potluck on: the real ``python:3.11-slim`` if present, else the
    Debian stand-in (made once, then kept)."""
    if has_image(OFFICIAL_BASE):
        return OFFICIAL_BASE
    if not has_image(BASE_STANDIN):
        _make_base_standin()
    return BASE_STANDIN


def _make_base_standin() -> None:
    debootstrap = shutil.which("debootstrap") or ("/usr/sbin/debootstrap" if Path("/usr/sbin/debootstrap").exists()
                                                  else None)
    if debootstrap is None or os.geteuid() != 0:
        raise Unavailable(f"{OFFICIAL_BASE} is not here and Docker Hub cannot be assumed; making a stand-in "
                          "needs root and debootstrap (apt-get install debootstrap)")
    with tempfile.TemporaryDirectory(prefix="potluck-base-") as tmp:
        root = Path(tmp) / "root"
        done = subprocess.run([debootstrap, "--variant=minbase", "--include=python3,python3-venv,ca-certificates",
                               "bookworm", str(root), DEBIAN_MIRROR], capture_output=True, text=True, timeout=1200)
        if done.returncode != 0:
            raise RuntimeError(f"debootstrap failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
        subprocess.run(["chroot", str(root), "python3", "-m", "venv", "/opt/python"], check=True, timeout=300)
        for cached in (root / "var/cache/apt/archives").glob("*.deb"):
            cached.unlink()
        changes = [f"ENV PATH={VENV_PATH}", "ENV LANG=C.UTF-8"]
        if HOST_CA.exists():  # this machine's network may see a proxy's certificates: pip must trust them
            shutil.copy(HOST_CA, root / "etc/ssl/certs/potluck-build-ca.crt")
            changes.append("ENV PIP_CERT=/etc/ssl/certs/potluck-build-ca.crt")
        tar = subprocess.Popen(["tar", "-C", str(root), "-c", "."], stdout=subprocess.PIPE)
        args = [a for change in changes for a in ("--change", change)]
        imported = subprocess.run(["docker", "import", *args, "-", BASE_STANDIN], stdin=tar.stdout,
                                  capture_output=True, text=True, timeout=600)
        tar.wait(60)
        if imported.returncode != 0:
            raise RuntimeError(f"docker import failed: {imported.stderr}")


def build_potluck(base: str) -> str:
    """The image of this checkout, built by the unchanged Dockerfile on ``base``; tagged
    by the content hash of what it copies, so an unchanged checkout is not rebuilt."""
    tag = f"potluck-test/potluck:{_source_hash()}"
    if not has_image(tag):
        docker("build", "--network", "host", "--build-arg", f"BASE_IMAGE={base}", "-t", tag, str(ROOT),
               timeout=1200)
        _forget_older(tag)
    return tag


def _forget_older(tag: str) -> None:
    """Untag the other builds of ``tag``'s repository (one is kept per image)."""
    repository = tag.rsplit(":", 1)[0]
    listed = docker("images", "--format", "{{.Repository}}:{{.Tag}}", repository, check=False).stdout.split()
    for old in (t for t in listed if t != tag):
        docker("rmi", old, check=False)


def _source_hash() -> str:
    digest = hashlib.sha256()
    for part in ("Dockerfile", "pyproject.toml", "README.md", "server", "web", "docs", "migrations"):
        path = ROOT / part
        files = sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts) \
            if path.is_dir() else [path]
        for file in files:
            digest.update(str(file.relative_to(ROOT)).encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()[:16]


def standin(name: str, base: str) -> str:
    """A stand-in for an official image (``nginx``, ``postgres``, ``redis``) built from
    Debian's package on ``base`` (``tests/docker/standins/<name>/``)."""
    folder = STANDINS / name
    digest = hashlib.sha256(base.encode())
    for file in sorted(folder.iterdir()):
        digest.update(file.name.encode() + file.read_bytes())
    tag = f"potluck-test/{name}:standin-{digest.hexdigest()[:12]}"
    if not has_image(tag):
        docker("build", "--network", "host", "--build-arg", f"BASE={base}", "-t", tag, str(folder), timeout=1200)
        _forget_older(tag)
    return tag
