"""Fixtures for the reference-site tests.

``built_site`` (session)
    ``site/``, built with ``make docs`` first when it is missing or older than any of its
    sources (the package, ``docs/``, ``tools/``, ``mkdocs.yml``). A failed build fails the
    tests that need it; nothing is skipped.
``site_url`` (session)
    ``site/`` served by ``http.server`` on a free port of 127.0.0.1, in a thread.
``site_page`` (function)
    A Playwright page on Debian's Chromium (installed with apt-get when missing). Every
    request to a host other than the local server is aborted and recorded; the test fails
    at teardown if one was attempted: the site must work with no internet.
"""

from __future__ import annotations

import functools
import http.server
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "site"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TOOLS = ROOT / "tools"
if str(TOOLS) not in sys.path:  # the site's build helpers, tested directly
    sys.path.insert(0, str(TOOLS))


def _newest_source() -> float:
    sources: list[Path] = [ROOT / "mkdocs.yml", ROOT / "pyproject.toml"]
    for folder in ("companion", "docs", "tools"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and "assets" not in path.parts:
                sources.append(path)
    return max(p.stat().st_mtime for p in sources if p.exists())


def site_is_fresh() -> bool:
    index = SITE / "index.html"
    return index.exists() and index.stat().st_mtime >= _newest_source()


@pytest.fixture(scope="session")
def built_site() -> Path:
    if not site_is_fresh():
        done = subprocess.run(
            ["make", "docs"], cwd=ROOT, capture_output=True, text=True, timeout=1200
        )
        if done.returncode != 0:
            pytest.fail(f"make docs failed ({done.returncode}):\n{done.stdout[-3000:]}"
                        f"\n{done.stderr[-3000:]}")
    assert (SITE / "index.html").exists()
    return SITE


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
        ".zip": "application/zip",
    }

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="session")
def site_url(built_site: Path) -> Iterator[str]:
    handler = functools.partial(_QuietHandler, directory=str(built_site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def chromium() -> str:
    """Debian's Chromium; installed with apt-get if missing (Playwright's download fails)."""
    if not CHROMIUM.exists():
        apt = ["apt-get"] if os.geteuid() == 0 else ["sudo", "-n", "apt-get"]
        for args in (["update"], ["install", "-y", "chromium"]):
            done = subprocess.run([*apt, *args], capture_output=True, text=True, timeout=900)
            if done.returncode != 0:
                pytest.fail(f"could not install chromium: {done.stderr.strip()[-500:]}")
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing after apt-get install chromium")
    return str(CHROMIUM)


@pytest.fixture(scope="session")
def site_browser(chromium: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def site_page(site_browser: Any, site_url: str) -> Iterator[Any]:
    local_host = urlsplit(site_url).netloc
    context = site_browser.new_context(viewport={"width": 390, "height": 844})
    foreign: list[str] = []

    def guard(route: Any) -> None:
        url = route.request.url
        parts = urlsplit(url)
        if parts.scheme in ("data", "blob") or parts.netloc == local_host:
            route.continue_()
        else:
            foreign.append(url)
            route.abort()

    context.route("**/*", guard)
    page = context.new_page()
    page.foreign_requests = foreign
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.page_errors = errors
    yield page
    context.close()
    if foreign:
        pytest.fail(f"the site tried to reach other hosts (blocked): {foreign}")
