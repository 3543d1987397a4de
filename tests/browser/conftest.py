"""Browser tests: Playwright driving Debian's Chromium against a real ``potluck serve``.

One server process (a temp SQLite database, a free port) and one browser serve all the
tests of this folder, and stop when they are done: a live sync Playwright holds an event
loop that the asyncio tests elsewhere could not share. Every page a test opens is watched: a JavaScript console error or an uncaught
exception fails the test. Screenshots go to ``test-artifacts/screenshots/`` (gitignored;
CI prints the path). Without Chromium at ``/usr/bin/chromium`` (``apt-get install
chromium``) the tests skip and say so; never ``playwright install``.
"""

from __future__ import annotations

import os
import subprocess
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import httpx
import pytest

from .serving import free_port, potluck_command, wait_for_http

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-quic", "--no-first-run"]
ROOT = Path(__file__).resolve().parents[2]
PLUGINS = Path(__file__).resolve().parent / "plugins"
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
LAPTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
# How long a step may wait for its condition. Generous: a loaded 2-core CI machine can take
# many seconds to serve a navigation; a step that succeeds returns as soon as it can.
TIMEOUT_MS = int(os.environ.get("POTLUCK_BROWSER_TIMEOUT_MS", "60000"))


@contextmanager
def potluck_server(workdir: Path, host: str = "127.0.0.1", **env_overrides: str) -> Iterator[str]:
    """Run ``potluck serve`` (a SQLite database in ``workdir``, a free port, the test game
    ``secret-snack``) until the block ends; yields its base URL (on 127.0.0.1, whatever
    ``host`` it listens on). ``env_overrides`` are added to its environment, e.g.
    ``POTLUCK_CLOCK_SPEED="8"`` for quick bots."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{workdir / 'potluck.db'}",
        "PYTHONPATH": os.pathsep.join([str(PLUGINS), str(ROOT), os.environ.get("PYTHONPATH", "")]),
        "POTLUCK_STANDIN_AFTER_S": "0",  # nobody's seat is handed to a bot mid-test
        "POTLUCK_CREATE_PER_MINUTE": "0",  # every test's matches come from 127.0.0.1
        **env_overrides,
    }
    env.pop("REDIS_URL", None)
    log = (workdir / "server.log").open("wb")
    proc = subprocess.Popen([*potluck_command(), "serve", "--host", host, "--port", str(port)],
                            cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for_http(f"{base}/healthz", proc)
        yield base
    except Exception:
        print((workdir / "server.log").read_text(errors="replace")[-4000:])
        raise
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture(scope="package")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a ``potluck serve`` subprocess (with the test game ``secret-snack``)."""
    with potluck_server(tmp_path_factory.mktemp("potluck-serve")) as base:
        yield base


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium); "
                    "the browser tests need it")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - the dev extra installs it
        pytest.skip("the playwright Python package is not installed (pip install -e '.[dev]')")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


# Chromium drops the loads in flight when the host's network interfaces change — as they do
# when the Docker tests beside these bring a compose network up — and logs each as this
# console error: the machine's doing, not the page's (a page that needed the load still
# fails the test on what it then shows).
HOST_NETWORK_CHANGED = "net::ERR_NETWORK_CHANGED"


class Pages:
    """Opens pages in fresh browser contexts (separate localStorage: separate people) and
    remembers every console error and uncaught exception they report."""

    def __init__(self, browser: Any, base: str, test_name: str) -> None:
        self.browser, self.base, self.test_name = browser, base, test_name
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def open(self, path: str = "/", viewport: dict[str, int] = LAPTOP, who: str = "page",
             base: str | None = None) -> Any:
        """A page at ``path`` of the server (or of ``base``: the same server by another name)."""
        context = self.browser.new_context(viewport=viewport, base_url=base or self.base)
        context.set_default_timeout(TIMEOUT_MS)
        self.contexts.append(context)
        page = context.new_page()
        self.watch(page, who)
        page.goto(path)
        return page

    def watch(self, page: Any, who: str) -> None:
        page.on("console", lambda m: self.errors.append(f"{who}: console.{m.type}: {m.text}")
                if m.type == "error" and HOST_NETWORK_CHANGED not in m.text else None)
        page.on("pageerror", lambda e: self.errors.append(f"{who}: uncaught: {e}"))

    def shot(self, page: Any, label: str) -> Path:
        path = SCREENSHOTS / f"{self.test_name}-{label}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def pages(browser: Any, server: str, request: pytest.FixtureRequest) -> Iterator[Pages]:
    opened = Pages(browser, server, request.node.name.removeprefix("test_"))
    try:
        yield opened
    finally:
        opened.close()
    assert opened.errors == [], "JavaScript errors in the browser:\n" + "\n".join(opened.errors)


@pytest.fixture
def api(server: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server, timeout=10) as client:
        yield client


def no_horizontal_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    viewport = page.viewport_size["width"]
    assert width <= viewport, f"{page.url} scrolls sideways at {viewport} px: content is {width} px wide"

