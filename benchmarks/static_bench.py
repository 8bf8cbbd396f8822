"""Static site benchmark: the apps from ``site/apps/`` and the roller cells, in Chromium.

- app usable, cold: a new browser profile opens ``apps/dice_tray.html``; the time from the
  navigation to the Roll button on screen (Pyodide booted, the notebook ran);
- first roll: then a click on Roll until the history shows it;
- app usable, warm: the same profile, once the service worker is active and the page has
  kept its Pyodide snapshot, opens the app again (every file from the browser's copy,
  Pyodide resumed from the snapshot);
- the same for the start app (``apps/table.html``) and a character sheet, warm;
- roller first roll: the dice notation page opened (a warm profile), a click on its first
  Roll button right away, until the result shows: on the first docs page (Pyodide boots)
  and on a later one (it resumes the snapshot the first kept), and after 3 s of reading.

Figures go to standard output (and ``--json FILE``); ``benchmarks/RESULTS.md`` keeps them.
Usage: python benchmarks/static_bench.py [--site site] [--runs 3]
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
WAIT = 300_000


class _Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
        ".json": "application/json",
    }

    def log_message(self, format: str, *args: Any) -> None:
        pass


def serve(folder: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    handler = functools.partial(_Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def open_app(page: Any, url: str, ready: str) -> float:
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_selector(ready, state="visible", timeout=WAIT)
    return time.perf_counter() - start


def one_run(p: Any, base: str) -> dict[str, float]:
    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as profile:
        context = p.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, headless=True,
            viewport={"width": 390, "height": 844})
        # As a visitor's browser: the site skips its offline copy and the roller's snapshot
        # in automated browsers (each test page is a fresh profile).
        context.add_init_script(
            "Object.defineProperty(Navigator.prototype, 'webdriver', {get: () => false})")
        page = context.pages[0] if context.pages else context.new_page()
        out["dice_tray_cold_s"] = open_app(page, base + "apps/dice_tray.html", ".tc-btn-roll")
        start = time.perf_counter()
        page.locator(".tc-btn-roll").first.click()
        page.wait_for_selector(".tc-app:has-text('1 roll')", timeout=WAIT)
        out["dice_tray_first_roll_s"] = time.perf_counter() - start
        page.wait_for_function("navigator.serviceWorker.ready.then(() => true)", timeout=WAIT)
        page.wait_for_function("document.documentElement.dataset.tcSnapshot === 'kept'",
                               timeout=WAIT)
        for key, app, ready in (("dice_tray_warm_s", "dice_tray", ".tc-btn-roll"),
                                ("table_warm_s", "table", ".tc-table"),
                                ("cairn_character_warm_s", "cairn_character", ".tc-app")):
            warm = context.new_page()
            out[key] = open_app(warm, base + f"apps/{app}.html", ready)
            if not warm.evaluate("window.tcStaticSnapshot.used"):
                raise SystemExit(f"{app}: the warm page did not resume the snapshot")
            warm.close()
        # The reader's pages: the first one boots the engine and keeps its snapshot; the
        # next ones resume it.
        for key, pause, wait_kept in (("roller_first_roll_at_once_first_page_s", 0.0, True),
                                      ("roller_first_roll_at_once_later_page_s", 0.0, False),
                                      ("roller_first_roll_after_3s_later_page_s", 3.0, False)):
            doc = context.new_page()
            doc.goto(base + "dice-notation/")
            doc.wait_for_selector(".roller .roller-roll", timeout=WAIT)
            time.sleep(pause)
            start = time.perf_counter()
            doc.locator(".roller .roller-roll").first.click()
            doc.wait_for_selector(".roller .roller-result[data-n='1']", timeout=WAIT)
            out[key] = time.perf_counter() - start
            if wait_kept:
                doc.wait_for_function(
                    "document.documentElement.dataset.rollerSnapshot === 'kept'", timeout=WAIT)
            elif doc.evaluate("document.documentElement.dataset.rollerEngine") != "resumed":
                raise SystemExit("a later docs page did not resume the roller's snapshot")
            doc.close()
        context.close()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=ROOT / "site")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    server, base = serve(args.site)
    runs: list[dict[str, float]] = []
    try:
        with sync_playwright() as p:
            for i in range(args.runs):
                runs.append(one_run(p, base))
                print(f"run {i + 1}: " + ", ".join(f"{k} {v:.2f}" for k, v in runs[-1].items()),
                      flush=True)
    finally:
        server.shutdown()
    summary = {k: {"median": statistics.median(r[k] for r in runs),
                   "min": min(r[k] for r in runs), "max": max(r[k] for r in runs)}
               for k in runs[0]}
    for key, value in summary.items():
        print(f"{key:34} median {value['median']:.2f} s  ({value['min']:.2f}-{value['max']:.2f})")
    if args.json:
        args.json.write_text(json.dumps({"runs": runs, "summary": summary}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
