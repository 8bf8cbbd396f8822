"""A phone's visits to the reference site: bytes on the wire and requests (issue 45).

The built site (``site/``) served two ways side by side in one run: Python's plain
``http.server`` (what ``make docs-serve`` was) and ``tools/serve_site.py`` (gzip, a year's
cache for digest-named files, ``no-cache`` and 304 for the rest). For each, Chromium at
390x844 in a fresh profile:

- *first page*: the home page opened, until the network is idle (the roller's engine
  warm-up included: it starts when the browser is idle);
- *a rules page*: then a rules page with a table, in the same profile;
- *second visit*: the home page again, the next day's visit (same profile, the browser's
  HTTP cache kept);
- *offline copy*: what the service worker copies once the site is opened (a real browser
  registers it; an automated one does not, so it is made to look like a real one here).

Bytes are Chromium's encoded lengths (headers and bodies as sent), by the DevTools
protocol's ``Network.loadingFinished``. Usage: ``python benchmarks/site_visit_bench.py
[--site site] [--json FILE]``.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import platform
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import serve_site  # noqa: E402  (the tool beside the site's build)

CHROMIUM = "/usr/bin/chromium"
RULES_PAGE = "rules/cairn_srd/tables/"
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True}
#: A real browser registers the site's service worker; Playwright's says it is automated.
REAL_BROWSER = "Object.defineProperty(Navigator.prototype, 'webdriver', {get: () => false})"


class _Plain(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def _serve(make: Callable[[], http.server.ThreadingHTTPServer]) -> tuple[Any, str]:
    running = make()
    threading.Thread(target=running.serve_forever, daemon=True).start()
    return running, f"http://127.0.0.1:{running.server_address[1]}/"


class Wire:
    """Requests and encoded bytes of one page, through the DevTools protocol."""

    def __init__(self, page: Any) -> None:
        self.cdp = page.context.new_cdp_session(page)
        self.cdp.send("Network.enable")
        self.requests = 0
        self.bytes = 0
        self.cdp.on("Network.requestWillBeSent", self._sent)
        self.cdp.on("Network.loadingFinished", self._done)

    def _sent(self, event: dict[str, Any]) -> None:
        if event.get("request", {}).get("url", "").startswith("http"):
            self.requests += 1

    def _done(self, event: dict[str, Any]) -> None:
        self.bytes += int(event.get("encodedDataLength", 0))

    def take(self) -> dict[str, int]:
        taken = {"requests": self.requests, "bytes": self.bytes}
        self.requests = self.bytes = 0
        return taken


def _settle(page: Any) -> None:
    page.wait_for_load_state("networkidle", timeout=300_000)
    time.sleep(1.5)  # the idle-time warm-up starts after load: let it start and finish
    page.wait_for_load_state("networkidle", timeout=300_000)


def visits(playwright: Any, url: str) -> dict[str, dict[str, int]]:
    found: dict[str, dict[str, int]] = {}
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
    try:
        context = browser.new_context(**PHONE)  # a fresh profile: nothing cached
        page = context.new_page()
        wire = Wire(page)
        page.goto(url)
        _settle(page)
        found["first page"] = wire.take()
        page.goto(url + RULES_PAGE)
        _settle(page)
        found["a rules page"] = wire.take()
        page.goto(url)
        _settle(page)
        found["second visit"] = wire.take()
        context.close()
        # The offline copy: a real browser's first visit registers the worker, which
        # copies the site; its requests are the worker's, counted on the context.
        context = browser.new_context(**PHONE)
        context.add_init_script(REAL_BROWSER)
        copied = {"requests": 0, "bytes": 0}

        def finished(request: Any) -> None:
            if request.service_worker is not None or request.frame is None:
                sizes = request.sizes()
                copied["requests"] += 1
                copied["bytes"] += sizes["responseHeadersSize"] + sizes["responseBodySize"]

        context.on("requestfinished", finished)
        page = context.new_page()
        page.goto(url)
        page.wait_for_function("navigator.serviceWorker.controller !== null || "
                               "navigator.serviceWorker.ready.then(() => true)",
                               timeout=600_000)
        deadline = time.monotonic() + 600
        last = -1
        while time.monotonic() < deadline:  # until the worker's copy stops growing
            time.sleep(3)
            if copied["requests"] == last:
                break
            last = copied["requests"]
        found["offline copy (service worker)"] = dict(copied)
        context.close()
    finally:
        browser.close()
    return found


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=ROOT / "site")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv[1:])
    site = args.site.resolve()
    if not (site / "index.html").is_file():
        print(f"{site} holds no built site: make docs", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    os.environ["SERVE_SITE_QUIET"] = "1"

    servers = {
        "http.server (plain)": lambda: http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(_Plain, directory=str(site))),
        "serve_site (gzip, cache)": lambda: serve_site.server(site),
    }
    results: dict[str, dict[str, dict[str, int]]] = {}
    with sync_playwright() as playwright:
        for name, make in servers.items():
            running, url = _serve(make)
            try:
                results[name] = visits(playwright, url)
            finally:
                running.shutdown()
                running.server_close()
    print(f"# {platform.machine()}, Python {platform.python_version()}")
    for name, found in results.items():
        for what, figures in found.items():
            print(f"{name:28} {what:32} {figures['requests']:5} requests "
                  f"{figures['bytes']:>12,} bytes")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
