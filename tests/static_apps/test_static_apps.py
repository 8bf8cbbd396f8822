"""The apps from the built static site (``site/apps/``), in Chromium.

One browser profile plays a campaign through the static apps: made in the start app, a
move on a character sheet, kept across a reload and a restart of the browser; then, with
the static server stopped (no network at all), the site's copy in the service worker serves
every page and the dice tray rolls, resumed from the Pyodide snapshot the browser kept; the
campaign is exported from the "Campaigns in this browser" page, imported with the CLI,
exported by the CLI and imported back into the browser. While the server runs, only it is
reachable (requests to other hosts fail the test).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

import pytest

from tests.browser.failures import record, recording_playwright
from tests.served import FolderServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
SITE = Path(os.environ.get("STATIC_SITE", ROOT / "site"))
APP_WAIT = 120_000  # ms: Pyodide boots per page (seconds; more under a loaded CI)
T = TypeVar("T")


@pytest.fixture(scope="module")
def static_site(built_site: Path) -> Path:
    # STATIC_SITE points the tests at a site built elsewhere (e.g. by a release job).
    if "STATIC_SITE" not in os.environ:
        assert (built_site / "apps" / "table.html").exists(), "make docs built no apps"
    return SITE


#: ``site/`` served on a free port of 127.0.0.1 (the name the tests know it by).
StaticServer = FolderServer


@pytest.fixture
def static_server(static_site: Path) -> Iterator[StaticServer]:
    server = StaticServer(static_site)
    yield server
    server.stop()


def in_thread(fn: Callable[[], T]) -> T:
    """Run ``fn`` in a thread of its own: Playwright's sync API allows one instance per
    thread, and the Voila tests keep theirs on the main thread."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(fn).result(timeout=1800)


class Profile:
    """A Chromium profile on disk (so IndexedDB and the service worker's cache survive a
    restart of the browser), with every request to another host aborted and recorded."""

    def __init__(self, playwright: Any, folder: Path, launch: dict[str, Any]) -> None:
        self.playwright, self.folder, self.launch = playwright, folder, launch
        self.outside: list[str] = []
        self.errors: list[str] = []
        self.context: Any = None

    def start(self) -> Any:
        self.context = record(self.playwright, self.playwright.chromium.launch_persistent_context(
            str(self.folder), viewport={"width": 390, "height": 844}, **self.launch))
        self.context.set_default_timeout(APP_WAIT)

        # Requests to other hosts are recorded (and fail the test), not routed: with a
        # route on the context, a page the service worker controls lost its kernel on
        # reload here.
        def seen(request: Any) -> None:
            if not request.url.startswith(("http://127.0.0.1", "data:", "blob:")):
                self.outside.append(request.url)

        self.context.on("request", seen)
        # A missing file of our own (a font, a script) is a failure too: the first visit
        # pays for the miss, and offline the page lacks it.
        self.context.on("response", lambda r: self.errors.append(f"{r.status} {r.url}")
                        if r.status >= 400 and r.url.startswith("http://127.0.0.1") else None)
        page = self.context.pages[0] if self.context.pages else self.context.new_page()
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        return page

    def stop(self) -> None:
        self.context.close()


#: The campaign's head as kept in IndexedDB (Emscripten's IDBFS database "/campaigns"),
#: or -1. A move is flushed there asynchronously (milliseconds) after it is made: a page
#: left at once could still lose it, so the test waits for it to be kept.
#: Each look closes its connection: polled every 200 ms, an unclosed one per poll piled up
#: in the browser (a renderer crashed under load, run 6 of 20). And it never creates the
#: database: an empty one at version 1, held open, would block the page's own opening of it
#: at IDBFS's version (an upgrade waits for every other connection to close).
KEPT_HEAD = """([name]) => new Promise((ok) => {
  const r = indexedDB.open("/campaigns");
  r.onupgradeneeded = () => r.transaction.abort();  // not there yet: create nothing
  r.onerror = () => ok(-1);
  r.onsuccess = () => {
    const db = r.result;
    const done = (head) => { db.close(); ok(head); };
    try {
      const get = db.transaction("FILE_DATA").objectStore("FILE_DATA")
        .get("/campaigns/campaigns.json");
      get.onsuccess = () => {
        try {
          if (!get.result) return done(-1);
          const doc = JSON.parse(new TextDecoder().decode(get.result.contents));
          const c = doc.campaigns.find((c) => c.name === name);
          done(c ? c.head : -1);
        } catch (e) { done(-1); }  // a half-written file: not kept yet
      };
      get.onerror = () => done(-1);
    } catch (e) { done(-1); }
  };
})"""


def kept_head(page: Any, name: str) -> int:
    return int(page.evaluate(KEPT_HEAD, [name]))


def wait_kept(page: Any, name: str, above: int) -> int:
    """Wait until the campaign's head kept in IndexedDB passes ``above``; return it."""
    page.wait_for_function(f"async () => ({KEPT_HEAD})([{json.dumps(name)}]) > {above}",
                           timeout=APP_WAIT, polling=200)
    return kept_head(page, name)


def settled_head(page: Any, name: str, above: int = 0) -> int:
    """Wait until the kept head passes ``above`` and stays the same for a second (a move
    can store more than one event, each flushed on its own); return it."""
    wait_kept(page, name, above)
    last, same = kept_head(page, name), 0
    while same < 5:
        page.wait_for_timeout(200)
        now = kept_head(page, name)
        same = same + 1 if now == last else 0
        last = now
    return last


def snapshot_made(page: Any) -> str:
    """Wait until the first page shown has made its Pyodide snapshot; its outcome
    (``kept`` or ``failed``). Until it is kept, every page boots Pyodide afresh, and a
    page left sooner also loses the snapshot half made in its worker: the hot-seat test
    booted Pyodide nine times over and lost seven snapshots half made on the way. A test
    of two or three pages gains nothing by waiting (measured: the snapshot costs about as
    much as the boots it saves)."""
    page.wait_for_function("['kept', 'failed'].includes("
                           "document.documentElement.dataset.tcSnapshot)", timeout=APP_WAIT)
    return str(page.evaluate("document.documentElement.dataset.tcSnapshot"))


def _type(page: Any, selector: str, text: str) -> None:
    box = page.locator(f"{selector} input").first
    box.fill(text)
    box.press("Tab")


def create_campaign(page: Any, who: str, name: str, ruleset: str) -> None:
    """In the open start app: ``who`` creates ``name`` playing the ruleset whose label
    holds ``ruleset``, and the page shows it."""
    _type(page, ".tc-name-who", who)
    _type(page, ".tc-name-campaign", name)
    page.wait_for_function(
        "([word]) => [...document.querySelectorAll('.tc-ruleset option')]"
        ".some(o => o.textContent.includes(word))", arg=[ruleset])
    label = next(t for t in page.locator(".tc-ruleset option").all_inner_texts()
                 if ruleset in t)
    page.locator(".tc-ruleset select").select_option(label=label.strip())
    page.locator(".tc-btn-create").click()
    page.wait_for_selector(f".tc-campaign[data-campaign={json.dumps(name)}]")


def test_campaign_kept_exported_and_imported(
        static_server: StaticServer, tmp_path: Path, chromium_launch: dict[str, Any]) -> None:
    from playwright.sync_api import expect

    launch = {k: v for k, v in chromium_launch.items() if k != "headless"}
    launch["headless"] = True
    apps = static_server.url + "apps/"

    def play() -> dict[str, Any]:
        with recording_playwright() as p:
            profile = Profile(p, tmp_path / "profile", launch)
            page = profile.start()
            # -- online, first visit: the start app makes a campaign and its party ----------
            page.goto(apps + "table.html")
            page.wait_for_selector(".tc-table", timeout=APP_WAIT)
            # Once the first page is shown, the browser keeps a snapshot for the next ones.
            page.wait_for_function("document.documentElement.dataset.tcSnapshot === 'kept'",
                                   timeout=APP_WAIT)
            create_campaign(page, "Mira", "Tuesday", "Cairn")
            made = settled_head(page, "Tuesday")
            _type(page, ".tc-name-member-cairn_srd", "Ash")
            _type(page, ".tc-int-cairn_srd-guard", "5")
            page.locator(".tc-btn-add-member-cairn_srd").click()
            page.wait_for_selector(".tc-party[data-count='1']")
            page.wait_for_function("() => location.search.includes('campaign=Tuesday')")
            table = page.url  # the campaign and the creator's seat: a bookmark
            head = settled_head(page, "Tuesday", made)
            # -- the campaign is there; a sheet's move; a reload ------------------------------
            page.goto(table)
            page.wait_for_selector(".tc-party[data-count='1']", timeout=APP_WAIT)
            page.locator(".tc-btn-app-cairn_character").click()
            sheet = page.locator(".tc-open-app")
            sheet.locator(".tc-btn-fatigue").first.click()
            expect(sheet.locator(".tc-stats").first).to_contain_text("Fatigue 1")
            settled_head(page, "Tuesday", head)
            page.reload()
            page.wait_for_selector(".tc-party[data-count='1']", timeout=APP_WAIT)
            page.locator(".tc-btn-app-cairn_character").click()
            expect(page.locator(".tc-open-app .tc-stats").first).to_contain_text("Fatigue 1")
            # The dice tray (no campaign) rolls.
            page.goto(apps + "dice_tray.html")
            page.wait_for_selector(".tc-btn-roll", timeout=APP_WAIT)
            page.locator(".tc-btn-roll").first.click()
            expect(page.locator(".tc-app").first).to_contain_text("1 roll")
            profile.stop()
            # -- a restart of the browser -----------------------------------------------------
            page = profile.start()
            page.goto(table)
            page.wait_for_selector(".tc-party[data-count='1']", timeout=APP_WAIT)
            page.locator(".tc-btn-app-cairn_character").click()
            expect(page.locator(".tc-open-app .tc-stats").first).to_contain_text("Fatigue 1")
            # -- no network: the static server stops; the browser's copy serves the site ----
            page.wait_for_function("navigator.serviceWorker.ready.then((r) => !!r.active)")
            static_server.stop()
            page.goto(apps + "dice_tray.html")
            page.wait_for_selector(".tc-btn-roll", timeout=APP_WAIT)
            snapshot_used = page.evaluate("window.tcStaticSnapshot.used")
            page.locator(".tc-btn-roll").first.click()
            expect(page.locator(".tc-app").first).to_contain_text("1 roll")
            page.goto(table)
            page.wait_for_selector(".tc-party[data-count='1']", timeout=APP_WAIT)
            page.locator(".tc-btn-app-cairn_character").click()
            expect(page.locator(".tc-open-app .tc-stats").first).to_contain_text("Fatigue 1")
            # -- export (still offline) -------------------------------------------------------
            page.goto(apps + "campaigns.html")
            page.wait_for_selector(".tc-campaigns", timeout=APP_WAIT)
            page.locator(".tc-btn-export").click()
            exported = page.locator(".tc-export-text").input_value()
            result: dict[str, Any] = {"exported": exported, "snapshot_used": snapshot_used}
            # -- the server's export comes back under a new name ----------------------------
            server_text = server_round_trip(exported)
            result["server"] = server_text
            page.locator(".tc-import-text textarea").fill(server_text)
            page.locator(".tc-import-name input").fill("Tuesday again")
            page.locator(".tc-btn-import").click()
            page.wait_for_selector(".tc-imported[data-campaign='Tuesday again']")
            settled_head(page, "Tuesday again")
            expect(page.locator(".tc-campaigns .tc-error [role=alert]")).to_have_count(0)
            page.goto(apps + "table.html?campaign=" + quote("Tuesday again"))
            page.wait_for_selector(".tc-party[data-count='1']", timeout=APP_WAIT)
            profile.stop()
            result["outside"], result["errors"] = profile.outside, profile.errors
            return result

    def server_round_trip(text: str) -> str:
        path = tmp_path / "tuesday.json"
        path.write_text(text)
        env = {**os.environ, "COMPANION_DB": str(tmp_path / "server.db")}
        for args in (["campaign", "import", str(path)], ["campaign", "export", "Tuesday"]):
            done = subprocess.run([sys.executable, "-m", "companion", *args], env=env,
                                  capture_output=True, text=True, cwd=ROOT, timeout=120)
            assert done.returncode == 0, done.stderr
        return done.stdout

    result = in_thread(play)
    assert json.loads(result["server"]) == json.loads(result["exported"])
    doc = json.loads(result["exported"])
    assert doc["name"] == "Tuesday"
    assert result["outside"] == []
    assert result["snapshot_used"] is True
    assert result["errors"] == []


def test_the_device_holder_is_the_gm_and_no_false_banner(
        static_server: StaticServer, tmp_path: Path, chromium_launch: dict[str, Any]) -> None:
    """Issue 31 on the static site: no "Connection lost" banner (there is no server to
    lose), no seat links or QR codes, and the GM restored when the campaign is reopened
    from the site's own pages."""
    from playwright.sync_api import expect

    launch = {k: v for k, v in chromium_launch.items() if k != "headless"}
    launch["headless"] = True
    apps = static_server.url + "apps/"

    def play() -> list[str]:
        with recording_playwright() as p:
            profile = Profile(p, tmp_path / "profile", launch)
            page = profile.start()
            page.goto(apps + "table.html")
            page.wait_for_selector(".tc-table", timeout=APP_WAIT)
            create_campaign(page, "Mira", "Thursday", "Cairn")
            identity = page.locator(".tc-identity-line")
            expect(identity).to_contain_text("whoever holds it is its GM")
            expect(identity).to_contain_text("Mira")
            assert "seat=" not in page.url
            expect(page.locator(".tc-seats")).to_be_hidden()
            expect(page.locator(".tc-gm-link-line")).to_have_count(0)
            # The server apps' watcher is not on this page at all (it polled Voila's
            # files every 5 s and found none): nothing to wait for.
            assert page.evaluate("window.tcConnection === undefined")
            expect(page.locator(".tc-offline")).to_have_count(0)
            settled_head(page, "Thursday")
            # Back through the site's own page: Apps -> Table Companion -> pick -> Open.
            page.goto(apps + "table.html")
            page.wait_for_selector(".tc-pick-campaign select", timeout=APP_WAIT)
            page.wait_for_function(
                "[...document.querySelectorAll('.tc-pick-campaign option')]"
                ".some(o => o.textContent === 'Thursday')")
            page.locator(".tc-pick-campaign select").select_option(label="Thursday")
            page.locator(".tc-btn-open-campaign").click()
            expect(page.locator(".tc-identity-line[data-role='gm']")).to_contain_text("Mira")
            page.locator(".tc-btn-app-cairn_character").click()
            expect(page.locator(".tc-open-app .tc-where")).to_contain_text("(GM)")
            text = page.locator("body").inner_text()
            profile.stop()
            return [*profile.outside, *profile.errors,
                    *[w for w in ("Connection lost", "ModuleNotFoundError", "/voila/",
                                  "watching") if w in text]]

    assert in_thread(play) == []
