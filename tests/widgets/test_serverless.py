"""The serverless apps (Pyodide in the page) say only what is true of them."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.store import create_campaign, open_store
from companion.widgets.table import TableApp, binding, campaign_page
from companion.widgets.table.binding import PageContext
from tests.conftest import campaign_of


def test_the_server_apps_watch_their_connection() -> None:
    banner = binding.connection_banner()
    assert "voila.js" in banner.value and "Connection lost" in banner.value


def test_no_connection_banner_where_there_is_no_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """The static site has no Voila: its liveness check would find no ``voila.js`` and
    say "Connection lost" while every move is in fact kept."""
    monkeypatch.setattr(sys, "platform", "emscripten")
    assert binding.serverless()
    banner = binding.connection_banner()
    assert "voila.js" not in banner.value and "Connection" not in banner.value


@pytest.fixture
def browser_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh campaign store, and this Python taken for the page's own (Pyodide)."""
    pytest.importorskip("sqlalchemy")
    path = tmp_path / "table.db"
    monkeypatch.setenv("COMPANION_DB", str(path))
    monkeypatch.setattr(sys, "platform", "emscripten")
    yield path


def _table(query: str) -> TableApp:
    app = TableApp(PageContext.from_query(query), background=False)
    assert app.ready.is_set()
    return app


def test_whoever_holds_the_device_is_the_gm_with_no_seat_links(browser_db: Path) -> None:
    app = TableApp(PageContext(who="Mira", role="gm"), background=False)
    app.new_name.value, app.ruleset.value = "Tuesday", "cairn_srd"
    app.create_button.click()
    assert app.error.message == ""
    assert app.context.role == "gm" and app.context.who == "Mira"
    # No secret in the address, no seats panel (links, QR codes, the server's address).
    assert app.context.seat == "" and "seat=" not in app.url.value
    assert app.seats.layout.display == "none" and app.seats.gm_link.value == ""
    assert binding.DEVICE_LINE in app.identity.value
    opened = app.open_app("cairn_character")
    assert opened is not None and "another device" not in str(
        [getattr(c, "value", "") for c in app.app_area.children])
    # Reopened from the site's own pages (Apps -> Table Companion -> pick -> Open; or an
    # app's page with ?campaign=): the same GM, not a spectator.
    again = _table("")
    again.pick.value = "Tuesday"
    again.open_button.click()
    assert again.error.message == ""
    assert (again.context.who, again.context.role) == ("Mira", "gm")
    assert again.seats.layout.display == "none"
    page = campaign_page("cairn_character", PageContext.from_query("campaign=Tuesday"))
    assert "Mira" in page.children[2].value and "(GM)" in page.children[2].value


def test_an_imported_campaign_is_played_by_whoever_imported_it(browser_db: Path) -> None:
    # A server's export brings no seats (secrets never leave its database).
    with open_store() as store:
        create_campaign(store, "Imported", ["cairn_srd"])
    app = _table("campaign=Imported")
    assert (app.context.who, app.context.role) == (binding.DEVICE_GM, "gm")
    form = app.forms["cairn_srd"]
    form["name"].value = "Ash"
    form["add"].click()
    assert app.error.message == ""
    assert app.party.value.count("Ash") >= 1


def test_the_browser_store_plugged_in_plays_with_no_thread_and_no_sql(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As in the static apps: the browser's store plugged into the port, a Python that
    cannot start a thread (Pyodide's ``Thread.start`` raises). The table creates, opens
    and plays a campaign, keeps it in the folder the browser keeps, and starts no watcher
    (nobody else writes this store)."""
    import threading

    from companion.store import port
    from companion.store.browser import BrowserStore
    from companion.store.campaign import Campaign

    def no_threads(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    kept: list[int] = []
    store = BrowserStore(tmp_path / "idb", persist=lambda: kept.append(1))
    monkeypatch.setattr(sys, "platform", "emscripten")
    monkeypatch.setattr(threading.Thread, "start", no_threads)
    monkeypatch.delenv("COMPANION_DB", raising=False)
    port.use(store)
    try:
        app = TableApp(PageContext(who="Mira", role="gm"))  # its loading runs inline here
        assert app.ready.is_set() and binding.page_store() is store
        app.new_name.value, app.ruleset.value = "Tuesday", "cairn_srd"
        app.create_button.click()
        assert app.error.message == ""
        assert campaign_of(app.session) is not None and campaign_of(app.session).store is store
        assert binding.live(app.session) is None  # no watcher for a store only we write
        form = app.forms["cairn_srd"]
        form["name"].value = "Ash"
        form["add"].click()
        assert app.error.message == "" and app.party.value.count("Ash") >= 1
        assert app.open_app("cairn_character") is not None and app.error.message == ""
    finally:
        port.use(None)
    again = BrowserStore(tmp_path / "idb", persist=None)  # what the next page reads
    assert [c.name for c in again.list_campaigns()] == ["Tuesday"]
    assert {m.name for m in Campaign.open(again, "Tuesday").party} == {"Ash"}
    assert kept  # every change handed to the page to copy into IndexedDB


def test_the_campaign_bars_link_names_the_sites_own_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """On the site each app is ``<app>.html``: its campaign bar links there, so the link
    opened in a new tab (a long-press, which the page's click handler never sees) is no
    404 (issue 45); under Voila the notebook as before."""
    from companion.widgets.table.pages import app_heading

    context = PageContext(campaign="Tuesday", who="Mira", role="gm")
    served = app_heading("Dice tray", context, demo=False).value
    assert 'href="table.ipynb?campaign=Tuesday"' in served
    assert context.app_url("dice_tray") == "dice_tray.ipynb?campaign=Tuesday"
    monkeypatch.setattr(sys, "platform", "emscripten")
    for demo in (False, True):
        shown = app_heading("Dice tray", context, demo=demo).value
        assert ".ipynb" not in shown and 'href="table.html' in shown, shown
    assert 'href="table.html?campaign=Tuesday"' in app_heading("Dice tray", context,
                                                               demo=False).value
    assert context.app_url("dice_tray") == "dice_tray.html?campaign=Tuesday"


def test_a_gms_link_opened_on_another_phone_says_where_the_campaign_lives(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A second phone opening the GM's link on the site finds no campaign in its own
    browser: it is told why and what shares a table (issue 45), in the page's one line."""
    import threading

    from companion.store import port
    from companion.store.browser import ELSEWHERE, BrowserStore

    def no_threads(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    store = BrowserStore(tmp_path / "idb", persist=None)  # this phone's: empty
    monkeypatch.setattr(sys, "platform", "emscripten")
    monkeypatch.setattr(threading.Thread, "start", no_threads)
    monkeypatch.delenv("COMPANION_DB", raising=False)
    port.use(store)
    try:
        app = TableApp(PageContext.from_query("campaign=Tuesday"))
        said = app.error.message
    finally:
        port.use(None)
    assert said.startswith("no campaign named 'Tuesday' in this browser"), said
    assert f"{ELSEWHERE} (campaigns here: none yet)" in said and "\n" not in said, said
    assert "'companion app'" in ELSEWHERE
