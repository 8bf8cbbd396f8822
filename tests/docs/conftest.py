"""Fixtures for the reference-site tests.

``built_site`` (session, from ``tests/conftest.py``)
    ``site/``, built with ``make docs`` first when it is missing or stale.
``site_url`` (session)
    ``site/`` served by ``http.server`` on a free port of 127.0.0.1, in a thread.
``in_browser`` (function -> callable)
    ``in_browser(body)`` runs ``body(page)`` on a fresh Playwright page of Debian's
    Chromium (installed with apt-get when missing), in a thread of its own (see
    :class:`BrowserThread`). Every request to a host other than the local server is
    aborted and fails the test: the site must work with no internet. The search's index
    is answered empty unless the test asks for it (``in_browser(body, search=True)``):
    each page's search worker otherwise reads and indexes all 2.9 MB of it while the test
    runs (44% of the CPU time of a sweep of pages), and until a visitor types, the search
    shows the same with either index (the header's markup compared once in Chromium).
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

import pytest

from tests.served import FolderServer

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "site"
TOOLS = ROOT / "tools"
if str(TOOLS) not in sys.path:  # the site's build helpers, tested directly
    sys.path.insert(0, str(TOOLS))


@pytest.fixture(scope="session")
def site_url(built_site: Path) -> Iterator[str]:
    with FolderServer(built_site) as served:
        yield served.url


@functools.cache
def empty_search_index(site: Path) -> str:
    """The site's search index with its settings and no page in it (see ``in_browser``)."""
    config = json.loads((site / "search" / "search_index.json").read_text("utf-8"))["config"]
    return json.dumps({"config": config, "docs": []})


class BrowserThread:
    """One Playwright + Chromium living in a worker thread of its own.

    Playwright's sync API allows one instance per thread, and the app tests in
    ``tests/browser`` keep theirs open on the main thread for the whole session; running
    ours in a separate thread lets both suites run in one pytest session, in any order.
    Everything touching the browser is submitted to that thread with :meth:`run`.
    """

    def __init__(self, launch: dict[str, Any]) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="site-browser")
        self._pool.submit(self._start, launch).result(timeout=120)

    def _start(self, launch: dict[str, Any]) -> None:
        from playwright.sync_api import sync_playwright

        self._playwright = sync_playwright().start()
        self.browser = self._playwright.chromium.launch(**launch)

    def run(self, fn: Callable[..., T], *args: Any) -> T:
        return self._pool.submit(fn, *args).result(timeout=600)

    def close(self) -> None:
        def stop() -> None:
            self.browser.close()
            self._playwright.stop()

        self._pool.submit(stop).result(timeout=60)
        self._pool.shutdown()


@pytest.fixture(scope="session")
def site_browser(chromium_launch: dict[str, Any]) -> Iterator[BrowserThread]:
    thread = BrowserThread(chromium_launch)
    yield thread
    thread.close()


@pytest.fixture
def in_browser(site_browser: BrowserThread, site_url: str,
               built_site: Path) -> Callable[..., Any]:
    """``in_browser(body, search=False, **context_options)`` runs ``body(page)`` on a fresh
    page (390 px wide unless told otherwise) in the browser thread and returns what it
    returns. Requests to other hosts are aborted; the test fails if one was attempted, and
    on any uncaught page error. The search's index is empty unless ``search``."""
    local_host = urlsplit(site_url).netloc
    no_pages = empty_search_index(built_site)

    def run_body(
        body: Callable[[Any], T], search: bool, options: dict[str, Any]
    ) -> tuple[T, list[str], list[str]]:
        context = site_browser.browser.new_context(
            **{"viewport": {"width": 390, "height": 844}, **options}
        )
        foreign: list[str] = []
        errors: list[str] = []

        def guard(route: Any) -> None:
            parts = urlsplit(route.request.url)
            if parts.scheme in ("data", "blob") or parts.netloc == local_host:
                route.continue_()
            else:
                foreign.append(route.request.url)
                route.abort()

        context.route("**/*", guard)
        if not search:
            context.route("**/search/search_index.json", lambda route: route.fulfill(
                status=200, content_type="application/json", body=no_pages))
        try:
            page = context.new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            result = body(page)
        finally:
            context.close()
        return result, foreign, errors

    def in_browser(body: Callable[[Any], T], search: bool = False, **options: Any) -> T:
        result, foreign, errors = site_browser.run(run_body, body, search, options)
        assert not foreign, f"the site tried to reach other hosts (blocked): {foreign}"
        assert not errors, f"uncaught errors in the page: {errors}"
        return result

    return in_browser
