"""The start app and campaign-bound apps in Chromium, on a real Voila with a temp database.

Two browser contexts (two devices) on one campaign see each other's moves within a second;
a reload keeps the state; the start app sets up a party that the sheet, combat and
spellcasting apps share; a lost connection shows a banner. Timings are printed (``-s``)
and bounded loosely (the machine is shared): first render of the start app, an app opened
in place, and the idle CPU of the server with six pages open.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import _WIDEST_JS, ROOT, _guarded_page
from tests.browser.procstat import cpu_share

pytestmark = pytest.mark.timeout(600)


@pytest.fixture(scope="module")
def table_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("table") / "campaigns.db"


@pytest.fixture(scope="module")
def table_server(table_db: Path) -> Iterator[Any]:
    from tests.browser.conftest import _running_voila

    with _running_voila(env={"COMPANION_DB": str(table_db)}) as server:
        yield server


def _page(browser: Any) -> Iterator[Any]:
    return _guarded_page(browser, viewport={"width": 1280, "height": 900})


@pytest.fixture
def laptop(browser: Any) -> Iterator[Any]:
    yield from _page(browser)


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    yield from _guarded_page(browser, viewport={"width": 390, "height": 844}, is_mobile=True,
                             has_touch=True)


def _open(page: Any, server: Any, notebook: str, query: str, ready: str) -> float:
    start = time.perf_counter()
    page.goto(f"{server.base_url}/voila/render/{notebook}.ipynb?{query}",
              wait_until="domcontentloaded")
    page.wait_for_selector(ready, state="visible", timeout=60_000)
    return time.perf_counter() - start


def _type(page: Any, selector: str, text: str) -> None:
    box = page.locator(f"{selector} input").first
    box.fill(text)
    box.press("Tab")  # the boxes send their value when they lose focus


def test_start_app_party_is_shared_live_and_kept(table_server: Any, table_db: Path,
                                                 laptop: Any, phone: Any) -> None:
    server = table_server
    # -- the start app: first render, title, who is who ------------------------------------
    first = _open(laptop, server, "table", "", ".tc-table")
    print(f"\nstart app first render: {first * 1000:.0f} ms")
    assert laptop.title() == "Table Companion"
    _fast_page_settings(laptop, server)
    # The database layer loads after the page shows.
    expect(laptop.locator(".tc-db code")).to_contain_text(str(table_db))
    # -- a campaign and its party ----------------------------------------------------------
    _type(laptop, ".tc-name-campaign", "Tuesday")
    _type(laptop, ".tc-name-who", "Mira")  # the creator is the campaign's GM
    laptop.locator(".tc-ruleset select").select_option(label="Cairn-derived SRD")
    laptop.locator(".tc-btn-create").click()
    laptop.wait_for_selector(".tc-campaign[data-campaign='Tuesday']")
    laptop.wait_for_function("() => location.search.includes('campaign=Tuesday')")
    laptop.wait_for_function("() => location.search.includes('seat=')")  # the GM's seat
    expect(laptop.locator(".tc-identity")).to_contain_text("You are Mira (GM)")
    for count, (name, guard) in enumerate((("Ash", "5"), ("Briar", "4")), 1):
        _type(laptop, ".tc-name-member-cairn_srd", name)
        _type(laptop, ".tc-int-cairn_srd-guard", guard)
        laptop.locator(".tc-btn-add-member-cairn_srd").click()
        laptop.wait_for_selector(f".tc-party[data-count='{count}']")
    # -- the fight, opened in place: the party joins, a goblin hits Ash --------------------
    start = time.perf_counter()
    laptop.locator(".tc-btn-app-cairn_combat").click()
    laptop.wait_for_selector(".tc-open-app .tc-btn-party-joins", state="visible")
    in_place = time.perf_counter() - start
    print(f"combat opened in place: {in_place * 1000:.0f} ms (click to visible)")
    fight = laptop.locator(".tc-open-app")
    fight.locator(".tc-btn-party-joins").click()
    _type(fight, ".tc-name-c-name", "Goblin")
    fight.locator(".tc-btn-add").click()
    expect(fight.locator(".tc-combat tr:has-text('Goblin')").first).to_be_visible()
    fight.locator(".tc-attacker select").select_option("Goblin")
    fight.locator(".tc-target-select select").select_option("Ash")
    fight.locator(".tc-btn-attack").click()
    expect(fight.locator(".tc-outcome:has-text('Goblin → Ash')").first).to_be_visible()
    # The table's row is its own widget message: wait until the hit shows on Ash's guard
    # (5/5 before). The dice are not seeded: a hit of exactly 5 leaves a scar, which can
    # raise the maximum (seen once: 1/6), so any change counts.
    ash_row = fight.locator(".tc-combat tr:has-text('Ash')").first
    guard_cell = ash_row.locator("td").nth(1)  # Name, GD, STR, AR, Die, Status
    expect(guard_cell).not_to_have_text("5/5")
    expect(guard_cell).to_have_text(re.compile(r"^\d+/\d+$"))
    guard = guard_cell.inner_text().split("/")[0]
    # -- the phone: Ash's sheet (its own page, its own kernel) shows the fight's damage ----
    # -- the GM invites Ash: the phone opens the seat's link ------------------------------
    _type(laptop, ".tc-name-seat-who", "Ash")
    laptop.locator(".tc-btn-invite").click()
    invite = laptop.locator(".tc-seat-link[data-who='Ash'] a").first
    expect(invite).to_have_attribute("href", re.compile(r"seat="))
    expect(laptop.locator(".tc-seat-link .tc-qr svg").first).to_be_visible()
    query = (invite.get_attribute("href") or "").split("?", 1)[1]
    _open(phone, server, "cairn_character", query, ".tc-stats")
    assert phone.title() == "Cairn character sheet"
    expect(phone.locator(".tc-stats").first).to_have_attribute("data-guard", guard)
    # ...and the same character is the caster in the spellcasting app.
    _open(phone, server, "spellcasting", query, ".tc-dice-choice")
    expect(phone.locator(".tc-stats").first).to_contain_text("Ash: free slots 10")
    # -- live: a move on the phone shows on the laptop (sheet opened in place) ------------
    laptop.locator(".tc-btn-app-cairn_character").click()
    expect(laptop.locator(".tc-open-app .tc-stats").first).to_have_attribute("data-guard",
                                                                             guard)
    _open(phone, server, "cairn_character", query, ".tc-stats")
    phone.locator(".tc-btn-fatigue").click()
    phone.wait_for_selector(".tc-stats:has-text('Fatigue 1')")
    moved = time.perf_counter()
    # Live, not on reload: the laptop's page is not touched. How fast (< 1 s) is measured
    # by `make bench` (benchmarks/table_bench.py), never asserted here: a loaded CI machine
    # took 1.3-1.9 s and failed a test that proved nothing about the code.
    laptop.wait_for_selector(".tc-open-app .tc-stats:has-text('Fatigue 1')", timeout=15_000)
    print(f"phone -> laptop: {(time.perf_counter() - moved) * 1000:.0f} ms")
    # ...and the other way: the laptop's move shows on the phone.
    laptop.locator(".tc-open-app .tc-btn-fatigue").click()
    moved = time.perf_counter()
    phone.wait_for_selector(".tc-stats:has-text('Fatigue 2')", timeout=15_000)
    print(f"laptop -> phone: {(time.perf_counter() - moved) * 1000:.0f} ms")
    # -- a reload keeps everything -----------------------------------------------------------
    phone.reload(wait_until="domcontentloaded")
    phone.wait_for_selector(".tc-stats:has-text('Fatigue 2')", timeout=60_000)
    laptop.reload(wait_until="domcontentloaded")
    laptop.wait_for_selector(".tc-campaign[data-campaign='Tuesday']", timeout=60_000)
    laptop.wait_for_selector(".tc-open-app .tc-stats:has-text('Fatigue 2')")
    expect(laptop.locator(".tc-party")).to_have_attribute("data-count", "2")
    # -- on a phone: the start app with the fight in place, no sideways scrolling ----------
    _open(phone, server, "table", query + "&app=cairn_combat", ".tc-open-app")
    assert phone.evaluate(_WIDEST_JS) <= 390
    # -- a lost connection shows ---------------------------------------------------------
    phone.context.set_offline(True)
    phone.wait_for_selector(".tc-offline:has-text('offline')", timeout=5_000)
    phone.context.set_offline(False)
    phone.wait_for_selector(".tc-offline:has-text('Connection back')", timeout=10_000)


_UNANNOUNCED_JS = """() => {
  const head = new Set([...document.querySelectorAll('head script[src]')].map(s => s.src));
  return performance.getEntriesByType('resource')
    .filter(r => r.initiatorType === 'script' && !head.has(r.name))
    .map(r => new URL(r.name).pathname + new URL(r.name).search);
}"""


def _fast_page_settings(page: Any, server: Any) -> None:
    """The settings that shorten the first render are in force (server/voila.py)."""
    # Every script the page loads was announced up front (<link rel="preload">): none was
    # fetched only when the page's own script asked for it.
    late = [p.removeprefix("/voila/") for p in page.evaluate(_UNANNOUNCED_JS)]
    assert not late, ("scripts loaded without a preload: after an upgrade of Voila or "
                      "ipywidgets, add these lines to server/jupyter/voila/templates/table/"
                      "preload.txt:\n" + "\n".join(late))
    assert page.locator("link[rel=preload][as=script]").count() > 50
    assert page.external_requests == []  # no Font Awesome from a CDN
    # The kernels run the server's launcher (ipykernel without debugpy or history file).
    launcher = str(ROOT / "server" / "jupyter" / "kernels" / "python3" / "ipykernel_launcher.py")
    commands = [Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
                for pid in server.kernels()]
    assert commands and all(launcher.encode() in cmd for cmd in commands), commands


def test_server_gone_shows_the_banner(start_voila: Any, laptop: Any,
                                      tmp_path: Path) -> None:
    with start_voila(env={"COMPANION_DB": str(tmp_path / "c.db")}) as server:
        _open(laptop, server, "table", "who=Ann&role=player", ".tc-table")
        assert laptop.locator(".tc-offline").is_hidden()
    # The server stopped: the kernel's websocket closes, the page says so.
    laptop.wait_for_selector(".tc-offline:has-text('Connection lost')", timeout=15_000)


def test_six_open_pages_idle_cheaply(table_server: Any, table_db: Path, browser: Any) -> None:
    server = table_server
    pages = []
    gens = []
    query = "campaign=Idle&who=Mira&role=gm"
    from companion.store import create_campaign, open_store

    with open_store(table_db) as store:
        if store.find_campaign("Idle") is None:
            create_campaign(store, "Idle", ["cairn_srd"])
    earlier = set(server.kernels())  # the closed pages of the test before: not these six
    try:
        for notebook in ("table", "cairn_character", "cairn_combat", "spellcasting", "duel",
                         "lockpicking"):
            gen = _page(browser)
            page = next(gen)
            gens.append(gen)
            ready = ".tc-table" if notebook == "table" else ".tc-page"
            _open(page, server, notebook, query, ready)
            pages.append(page)
        # Let the pages settle: the start app builds its campaign's apps once its page has
        # the widgets (binding.STATES_SENT), which on a busy machine runs into the
        # measurement. Settled: a quiet 2 s window (at most a minute of waiting).
        deadline = time.monotonic() + 60
        pids = [server.process.pid, *(set(server.kernels()) - earlier)]
        while cpu_share(pids, 2)[0] >= 0.02 and time.monotonic() < deadline:
            pids = [server.process.pid, *(set(server.kernels()) - earlier)]
        used, alive = cpu_share(pids, 10)
        print(f"\nidle CPU, server + {alive - 1} kernels, 6 pages: {used * 100:.2f}% "
              "of a core")
        assert used < 0.02
    finally:
        for gen in gens:
            for _ in gen:
                pass


def test_the_server_root_opens_the_start_app(table_server: Any) -> None:
    import urllib.error
    import urllib.request

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    opener = urllib.request.build_opener(NoRedirect)
    with pytest.raises(urllib.error.HTTPError) as answer:
        opener.open(f"{table_server.base_url}/?who=Ann&role=gm", timeout=10)
    assert answer.value.code == 302
    assert answer.value.headers["Location"] == "/voila/render/table.ipynb?who=Ann&role=gm"
    # The list of every notebook is still there.
    with urllib.request.urlopen(f"{table_server.base_url}/voila/tree", timeout=10) as tree:
        assert tree.status == 200 and "Voilà Home" in tree.read().decode()
