"""Fixtures for real-browser tests of the Voila apps (Playwright sync API, Debian's Chromium).

Every test in ``tests/browser/`` is marked ``browser`` automatically. Fixtures, all stable:

``browser`` (session)
    A headless Playwright ``Browser`` on Debian's Chromium, launched with
    ``chromium_launch`` from ``tests/conftest.py`` (which installs Chromium with apt-get
    when it is missing; a failed install errors out, never skips).
``page`` (function)
    A fresh ``Page`` (own context, 1280×900). Requests to any host other than
    127.0.0.1/localhost are aborted and recorded; the test fails at teardown if one was
    attempted (apps must work at a table with no internet), except the two Font Awesome
    stylesheets that Voila's stock ``lab`` template itself links from a CDN
    (:data:`VOILA_TEMPLATE_CDN`). ``page.external_requests`` lists what was blocked.
``phone_page`` (function)
    The same, at 390×844 with touch and a phone user agent.
``voila_server`` (session)
    One Voila serving ``widgets/`` on a free port of 127.0.0.1 (``.base_url``,
    ``.port``, ``.log_path``) with the real settings of ``make app`` (``server/voila.py``:
    allowed host names, kernel culling, kernel cap). Readiness is polled on a static file,
    never on a notebook (each notebook GET starts a kernel). Stopped with SIGTERM so
    kernels shut down. ``.kernels()`` lists the kernel processes it runs (from ``/proc``).
``start_voila`` (function -> context manager)
    ``with start_voila("--MappingKernelManager.cull_idle_timeout=5", env={...}) as server:``
    another Voila like ``voila_server`` with extra command-line options (they override
    ``server/voila.py``) and environment (``APP_MAX_KERNELS``, ``APP_HOSTS``...).
    No ``--preheat_kernel``: measured here it did not shorten the first render of the
    dice tray (about 2 s either way) and it runs every notebook ahead, on 2 shared cores.
``voila_url`` (function -> callable)
    ``voila_url("dice_tray")`` -> ``http://127.0.0.1:<port>/voila/render/dice_tray.ipynb``.
``voila_app`` (function -> callable)
    ``voila_app("dice_tray", page=None, ready=".tc-app")`` opens the app in ``page``
    (default: the ``page`` fixture), waits until the selector ``ready`` is visible (every
    component built with ``companion.widgets.base.app_box`` carries ``.tc-app``) and returns
    the page. Kernel errors shown by Voila fail the wait with the server log attached.
``screenshot`` (function -> callable)
    ``screenshot(page, "dice_tray-phone")`` saves ``test-artifacts/<name>.png`` (gitignored)
    when ``TC_SCREENSHOTS=1`` (``make test SCREENSHOTS=1``): 43 full-page shots at twice the
    pixels cost the suite about a minute that no assertion needs, so they are taken for a
    person to look at, on request
    and returns the path. The whole app is captured: Voila scrolls inside
    ``#rendered_cells``, so the window is grown to the content height for the shot.
``scroll_width`` (function -> callable)
    ``scroll_width(page)`` is the widest scroll width of the document or Voila's cell
    container; ``<= 390`` at a 390 px viewport means no sideways scrolling.

Typical test::

    def test_rolls(voila_app):
        page = voila_app("dice_tray")
        page.locator(".tc-text-expr input").fill("2d6")
        page.locator(".tc-btn-roll").click()
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest

from tests.browser.failures import describe, listen

ROOT = Path(__file__).resolve().parents[2]
SERVER_CONFIG = ROOT / "server"
"""Where ``voila.py`` (the server settings ``make app`` uses) lives."""
ARTIFACTS = ROOT / "test-artifacts"
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1", "[::1]"}
VOILA_TEMPLATE_CDN = (
    "https://cdn.jsdelivr.net/npm/@fortawesome/fontawesome-free@^5/css/all.min.css",
    "https://cdn.jsdelivr.net/npm/@fortawesome/fontawesome-free@^5/css/v4-shims.min.css",
)
"""Hard-coded in Voila's own page template; aborted like the rest but not held against the
app (the apps use text labels, never icon names, so nothing is lost offline). The server's
own template (server/jupyter/voila/templates/table) no longer links them; a test of it
asserts that its pages ask no other host at all."""

VOILA_START_TIMEOUT = 60.0
APP_READY_TIMEOUT_MS = 60_000


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


# --- Chromium ---------------------------------------------------------------------------


# ``playwright_instance`` and ``browser`` live in tests/conftest.py: one Playwright per
# test process, shared by every folder (a second sync instance on the same thread fails).


def _is_local(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme in ("data", "blob", "about"):
        return True
    return (parts.hostname or "") in LOCAL_HOSTS


def _guarded_page(browser: Any, **context_options: Any) -> Iterator[Any]:
    context = browser.new_context(**context_options)
    blocked: list[str] = []

    def guard(route: Any) -> None:
        url = route.request.url
        if _is_local(url):
            route.continue_()
        else:
            blocked.append(url)
            route.abort()

    context.route("**/*", guard)
    # The page's own complaints (a widget manager's "model not found", a script error)
    # for the record of a failure.
    listen(context)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.external_requests = blocked
    _OPEN_CONTEXTS.append(context)
    yield page
    _OPEN_CONTEXTS.remove(context)
    context.close()
    offending = [u for u in blocked if unquote(u) not in VOILA_TEMPLATE_CDN]
    if offending:
        pytest.fail(f"page tried to reach other hosts (blocked): {offending}")


_OPEN_CONTEXTS: list[Any] = []
"""The browser contexts of the test running now, for the record of a failure."""


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Iterator[None]:
    """A failed browser test leaves what every open page showed: its address, its text and
    a screenshot in ``test-artifacts/failures/`` (a flaky failure seen once in CI is only
    found from what the page showed at that moment, not from the assertion alone)."""
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed or not _OPEN_CONTEXTS:
        return
    report.sections.append(("open pages at the failure",
                            describe(list(_OPEN_CONTEXTS), item.nodeid)))


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    yield from _guarded_page(browser, viewport={"width": 1280, "height": 900})


@pytest.fixture
def phone_page(browser: Any) -> Iterator[Any]:
    yield from _guarded_page(
        browser,
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        user_agent=(
            "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 "
            "(KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36"
        ),
    )


# --- Voila ------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class VoilaServer:
    port: int
    process: subprocess.Popen[bytes]
    log_path: Path

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, app: str) -> str:
        name = app if app.endswith(".ipynb") else f"{app}.ipynb"
        if not (ROOT / "widgets" / name).exists():
            raise FileNotFoundError(f"no app widgets/{name}")
        return f"{self.base_url}/voila/render/{name}"

    def kernels(self) -> list[int]:
        """Process ids of the kernels this Voila runs (its ipykernel children)."""
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            if parent == self.process.pid and b"ipykernel" in cmdline:
                found.append(int(entry.name))
        return found

    def log_tail(self, chars: int = 3000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return ""


def _voila_command(port: int, *extra: str) -> list[str]:
    exe = Path(sys.executable).with_name("voila")
    head = [str(exe)] if exe.exists() else [sys.executable, "-m", "voila"]
    return [
        *head,
        str(ROOT / "widgets"),
        "--no-browser",
        f"--port={port}",
        "--Voila.ip=127.0.0.1",
        # The settings `make app` uses (host names, culling, kernel cap).
        f"--Voila.config_file_paths={SERVER_CONFIG}",
        # Tracebacks in the page make a failing app's test say why (bound to 127.0.0.1 only).
        "--show_tracebacks=True",
        *extra,
    ]


@contextmanager
def _running_voila(*extra: str, env: dict[str, str] | None = None) -> Iterator[VoilaServer]:
    if shutil.which("voila") is None and not Path(sys.executable).with_name("voila").exists():
        pytest.fail("voila is not installed (pip install -e '.[widgets]')")
    ARTIFACTS.mkdir(exist_ok=True)
    port = _free_port()
    log_path = ARTIFACTS / f"voila-{port}.log"
    log = log_path.open("wb")
    # The kernel must import this checkout's companion even if it is not pip-installed.
    paths = [str(ROOT), os.environ.get("PYTHONPATH", "")]
    # Like `make app` on 127.0.0.1: no LAN names unless a test asks for them.
    full_env = {**os.environ, "APP_IP": "127.0.0.1", "APP_HOSTS": "", "APP_MAX_KERNELS": "",
                **(env or {}), "PYTHONPATH": os.pathsep.join(p for p in paths if p)}
    proc = subprocess.Popen(
        _voila_command(port, *extra), cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
        env=full_env,
    )
    server = VoilaServer(port=port, process=proc, log_path=log_path)
    try:
        _wait_ready(server)
        yield server
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)
        log.close()


@pytest.fixture(scope="session")
def voila_server() -> Iterator[VoilaServer]:
    with _running_voila() as server:
        yield server


@pytest.fixture
def start_voila() -> Callable[..., Any]:
    """``with start_voila(*options, env={...}) as server:`` a separate Voila (see above)."""
    return _running_voila


def _wait_ready(server: VoilaServer) -> None:
    # A static file: asking for a notebook would start a kernel just to check readiness.
    probe = f"{server.base_url}/voila/static/voila.js"
    deadline = time.monotonic() + VOILA_START_TIMEOUT
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            pytest.fail(f"voila exited with {server.process.returncode}:\n{server.log_tail()}")
        try:
            with urllib.request.urlopen(probe, timeout=2) as resp:
                if resp.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    pytest.fail(f"voila not ready after {VOILA_START_TIMEOUT:.0f}s:\n{server.log_tail()}")


@pytest.fixture
def voila_url(voila_server: VoilaServer) -> Callable[[str], str]:
    return voila_server.url


# How Voila shows a cell that raised (or wrote to stderr) in the rendered app.
CELL_ERROR = (
    ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr'], "
    ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.error']"
)


@pytest.fixture
def voila_app(voila_server: VoilaServer, request: pytest.FixtureRequest) -> Callable[..., Any]:
    def open_app(app: str, page: Any = None, ready: str = ".tc-app") -> Any:
        target = page if page is not None else request.getfixturevalue("page")
        target.goto(voila_server.url(app), wait_until="domcontentloaded")

        def failed(why: str) -> None:
            shown = target.locator(CELL_ERROR).all_inner_texts()
            pytest.fail(
                f"app {app!r} did not render {ready!r}: {why}\n"
                f"cell errors on the page: {shown}\nvoila log:\n{voila_server.log_tail()}"
            )

        problem = ""
        try:
            # Stop waiting early when a cell fails instead of sitting out the whole timeout.
            target.wait_for_selector(f"{ready}, {CELL_ERROR}", timeout=APP_READY_TIMEOUT_MS)
        except Exception as exc:
            problem = str(exc).splitlines()[0]
        if not problem:
            try:
                # A warning on stderr may come before the app: give the app a moment more.
                target.wait_for_selector(ready, state="visible", timeout=10_000)
            except Exception:
                problem = "a cell failed"
        if problem:
            failed(problem)
        return target

    return open_app


# Voila's lab template scrolls inside #rendered_cells, not the document: measure both.
_WIDEST_JS = """() => {
  const els = [document.documentElement, document.body,
               document.getElementById('rendered_cells')].filter(Boolean);
  return Math.max(...els.map(e => e.scrollWidth));
}"""
_CONTENT_HEIGHT_JS = """() => {
  const cells = document.getElementById('rendered_cells');
  const inner = cells ? cells.scrollHeight + cells.getBoundingClientRect().top : 0;
  return Math.max(inner, document.documentElement.scrollHeight);
}"""


@pytest.fixture
def scroll_width() -> Callable[[Any], int]:
    """``scroll_width(page)``: the widest scrollable width on the page (document or the
    Voila cell container), to compare with the viewport width."""

    def widest(page: Any) -> int:
        return int(page.evaluate(_WIDEST_JS))

    return widest


@pytest.fixture
def screenshot() -> Callable[..., Path]:
    def save(page: Any, name: str, *, full_page: bool = True) -> Path:
        path = ARTIFACTS / f"{name}.png"
        if os.environ.get("TC_SCREENSHOTS") != "1":
            return path
        ARTIFACTS.mkdir(exist_ok=True)
        viewport = page.viewport_size
        height = int(page.evaluate(_CONTENT_HEIGHT_JS)) if full_page else 0
        if full_page and viewport and height > viewport["height"]:
            # Grow the window so the inner scroll container shows everything, then restore.
            page.set_viewport_size({"width": viewport["width"], "height": min(height, 8000)})
            try:
                page.screenshot(path=str(path), full_page=True)
            finally:
                page.set_viewport_size(viewport)
        else:
            page.screenshot(path=str(path), full_page=full_page)
        return path

    return save
