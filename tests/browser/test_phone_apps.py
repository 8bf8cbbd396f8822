"""Issue 44: two phones and the GM's laptop play one campaign through ``companion app``;
a phone loses the network and gets it back.

The phones open the phone app (``/phone/cairn_character.html`` with their seat's link:
Pyodide on the page, no kernel), the GM the Voila page of the same app. A tap on Ash's
phone shows at once there, then on Bryn's phone and on the GM's page (pushed by the table
socket to the phones, seen by the GM's kernel through the store), and is stored once,
as Ash's. Chromium at 390x844; the phones' first visits are counted (bytes on the wire,
time until the app is shown) and printed, not judged (speed is the benchmark's). Any
uncaught error of a page (a phone's or the GM's) fails its journey: a reconnect once
threw "Cannot read properties of null (reading 'widgets')" on every re-render while the
sheet still looked right.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.rulesets.cairn_srd.character import Character
from tests.conftest import session_of

ROOT = Path(__file__).resolve().parents[2]
PHONE = dict(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
             has_touch=True)

pytestmark = pytest.mark.timeout(600)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def phone_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The phone apps of this checkout as it is (``make phone-apps``'s build, made afresh:
    an older build would test older code; its caches make it a matter of seconds)."""
    out = tmp_path_factory.mktemp("phone") / "phone"
    subprocess.run([sys.executable, str(ROOT / "tools" / "build_phone_apps.py"), str(out)],
                   check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    return out


@pytest.fixture
def table(tmp_path: Path, phone_build: Path) -> Iterator[dict[str, Any]]:
    """Campaign T (Cairn: Ash and Bryn, GM Mira) served by ``companion app``."""
    from companion.rulesets.cairn_srd.character import Character
    from companion.store import open_store
    from companion.store.campaign import create
    from companion.store.seats import creator_secret, make_seat

    db = str(tmp_path / "campaigns.db")
    store = open_store(db)
    campaign = create(store, "T", ["cairn_srd"], who="Mira", role="gm")
    gm = session_of(campaign)
    gm.add("Ash", Character("Ash"))
    gm.add("Bryn", Character("Bryn"))
    seats = {"Mira": creator_secret(campaign) or "",
             "Ash": make_seat(store, "T", "Ash", "player"),
             "Bryn": make_seat(store, "T", "Bryn", "player")}
    port = _free_port()
    paths = [str(ROOT), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "COMPANION_DB": db, "COMPANION_PHONE_DIR": str(phone_build),
           "PYTHONPATH": os.pathsep.join(p for p in paths if p)}
    log = (tmp_path / "app.log").open("wb")
    app = subprocess.Popen([sys.executable, "-m", "companion", "app", "--port", str(port),
                            "--db", db], cwd=tmp_path, env=env, stdout=log,
                           stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        try:
            with urllib.request.urlopen(f"{base}/phone/cairn_character.html", timeout=2):
                break
        except OSError:
            if app.poll() is not None or time.monotonic() > deadline:
                pytest.fail((tmp_path / "app.log").read_text()[-3000:])
            time.sleep(0.2)
    try:
        yield {"base": base, "port": port, "seats": seats, "store": store, "gm": gm}
    finally:
        app.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            app.wait(30)
        log.close()


class Cable:
    """A TCP relay between the browser and ``companion app`` (127.0.0.1:<free port>), so
    a test can take the phone's network away: Chromium's own offline switch
    (``set_offline``) leaves an open websocket alone, so the cable is cut here.

    ``cut()`` closes every connection and refuses new ones until ``mend()``;
    ``mute()`` keeps the connections but throws away what the server sends (an answer
    lost on the way), until they are cut."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.down = False
        self.muted = False
        self.links: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _accept(self) -> None:
        while True:
            try:
                near, _ = self.listener.accept()
            except OSError:
                return
            if self.down:
                near.close()
                continue
            try:
                far = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                near.close()
                continue
            with self.lock:
                self.links += [near, far]
            threading.Thread(target=self._pump, args=(near, far, False), daemon=True).start()
            threading.Thread(target=self._pump, args=(far, near, True), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket, downstream: bool) -> None:
        try:
            while data := src.recv(65536):
                if not (downstream and self.muted):
                    dst.sendall(data)
        except OSError:
            pass
        for end in (src, dst):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        self.down = True
        with self.lock:
            links, self.links = self.links, []
        for end in links:
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            end.close()
        self.muted = False

    def mute(self) -> None:
        self.muted = True

    def mend(self) -> None:
        self.down = False

    def close(self) -> None:
        self.cut()
        self.listener.close()


def _counted(page: Any) -> dict[str, float]:
    """Bytes the server sends ``page`` from now on (bodies as sent, and headers)."""
    sent = {"bytes": 0.0, "requests": 0.0}

    def count(request: Any) -> None:
        sizes = request.sizes()
        sent["bytes"] += max(0, sizes["responseBodySize"]) + sizes["responseHeadersSize"]
        sent["requests"] += 1

    page.on("requestfinished", count)
    return sent


#: The page errors (uncaught exceptions) of every page a test opened: any fails it.
PAGE_ERRORS: list[str] = []


@pytest.fixture(autouse=True)
def no_page_error() -> Iterator[None]:
    """Fail the journey on any page error a page of it met (an exception a phone's page
    did not catch is a broken page even when what the test looks at still shows)."""
    PAGE_ERRORS.clear()
    yield
    if PAGE_ERRORS:
        pytest.fail("page errors: " + " | ".join(PAGE_ERRORS[:10]))


def _watched(context: Any, name: str) -> Any:
    """``context`` with its pages' uncaught errors kept in PAGE_ERRORS."""
    def heard(error: Any) -> None:
        # Where it was thrown: the first lines of its stack name the script and line.
        stack = " / ".join(str(getattr(error.error, "stack", "")).splitlines()[1:4])
        PAGE_ERRORS.append(f"{name} page: {str(error.error)[:300]} ({stack[:400]})")

    context.on("weberror", heard)
    return context


def _open_phone(browser: Any, url: str) -> tuple[Any, dict[str, float]]:
    context = _watched(browser.new_context(**PHONE), "phone")
    page = context.new_page()
    page.set_default_timeout(90_000)
    sent = _counted(page)
    started = time.monotonic()
    page.goto(url)
    page.wait_for_function("document.documentElement.dataset.tcStatic === 'ready'")
    sent["seconds"] = time.monotonic() - started
    return page, sent


def _fatigue(page: Any, n: int) -> Any:
    return page.get_by_text(re.compile(rf"Fatigue {n} · Dooms")).first


def test_a_tap_on_one_phone_shows_on_the_other_and_on_the_gm_s_page(
        browser: Any, table: dict[str, Any]) -> None:
    base, seats = table["base"], table["seats"]
    gm_page = _watched(browser.new_context(viewport={"width": 1280, "height": 900}),
                       "GM").new_page()
    gm_page.set_default_timeout(90_000)
    gm_page.goto(f"{base}/voila/render/cairn_character.ipynb?campaign=T&seat={seats['Mira']}")
    expect(gm_page.get_by_text("Ash — ready")).to_be_visible()

    ash, first = _open_phone(browser, f"{base}/phone/cairn_character.html?campaign=T"
                                      f"&seat={seats['Ash']}")
    bryn, _ = _open_phone(browser, f"{base}/phone/cairn_character.html?campaign=T"
                                   f"&seat={seats['Bryn']}")
    expect(ash.get_by_text("Ash (player)")).to_be_visible()
    expect(bryn.get_by_text("Bryn (player)")).to_be_visible()
    expect(ash.get_by_text("Ash — ready")).to_be_visible()
    bryn.locator(".tc-page select").first.select_option(label="Ash")  # Ash's sheet
    expect(_fatigue(bryn, 0)).to_be_visible()
    assert ash.evaluate("document.documentElement.scrollWidth") <= 390

    ash.get_by_role("button", name="+ Fatigue").click()
    expect(_fatigue(ash, 1)).to_be_visible()
    expect(_fatigue(bryn, 1)).to_be_visible()
    expect(_fatigue(gm_page, 1)).to_be_visible()
    info = table["store"].get_campaign("T")
    moves = [(e.who, e.role, e.move) for e in table["store"].events_since(info.id, 0)
             if e.kind == "move"]
    assert moves == [("Ash", "player", "add_fatigue")]

    # A second visit: the page only (everything else is cached, immutable).
    again = _counted(ash)
    started = time.monotonic()
    ash.reload()
    ash.wait_for_function("document.documentElement.dataset.tcStatic === 'ready'")
    again["seconds"] = time.monotonic() - started
    expect(_fatigue(ash, 1)).to_be_visible()
    print("phone first visit:", json.dumps(first), "second:", json.dumps(again))
    assert first["bytes"] <= 12_000_000
    assert 0 < again["bytes"] <= 200_000


#: How many acts the page has not had answered, as its storage keeps them (for a wait).
QUEUED = ("Object.keys(localStorage).filter(k => k.startsWith('tc-phone:'))"
          ".map(k => JSON.parse(localStorage.getItem(k)).queue.length).join()")


def _ash_moves(table: dict[str, Any]) -> list[tuple[str, str | None]]:
    store = table["store"]
    info = store.get_campaign("T")
    return [(e.who, e.move) for e in store.events_since(info.id, 0) if e.kind == "move"]


def test_a_phone_offline_keeps_its_taps_and_the_table_makes_each_once(
        browser: Any, table: dict[str, Any]) -> None:
    """Ash's phone loses the network, taps twice (shown at once, said to wait), gets it
    back: the Socket reconnects by itself, the two acts are judged then and stored once
    each. Then an answer is lost on the way (the table judged the act, the phone never
    heard): after the next reconnect the act is resent and answered again, not made
    twice."""
    cable = Cable(table["port"])
    try:
        url = f"{cable.base}/phone/cairn_character.html?campaign=T&seat={table['seats']['Ash']}"
        ash, _ = _open_phone(browser, url)
        root = ash.locator("html")
        bar = ash.locator(".tc-phone-bar")
        expect(ash.get_by_text("Ash — ready")).to_be_visible()
        expect(_fatigue(ash, 0)).to_be_visible()
        expect(root).to_have_attribute("data-tc-phone", "online")
        add = ash.get_by_role("button", name="+ Fatigue")

        def tap(button: Any) -> None:
            """A tap once the page's double-tap guard (issue 31) takes one again: a tap
            within its wait for the last one's answer counts as that one."""
            expect(button).to_be_visible()
            ash.wait_for_function("b => !b.tcWaiting", arg=button.element_handle())
            button.click()
        fatigue_slots = ash.get_by_text("Fatigue (1 slot)")

        # The network goes: the page says so; two taps wait in the browser's storage.
        ash.context.set_offline(True)
        cable.cut()
        expect(bar).to_have_text("Not connected to the table")
        tap(add)
        expect(_fatigue(ash, 1)).to_be_visible()  # the tap shows at once...
        expect(fatigue_slots).to_have_count(1)
        expect(bar).to_have_text("1 move waiting for the table")
        # The bar is fixed at the foot: the page ends above it, so the last controls can
        # be scrolled out from under it.
        expect(ash.locator("body")).not_to_have_css("padding-bottom", "0px")
        tap(add)
        expect(_fatigue(ash, 2)).to_be_visible()
        expect(bar).to_have_text("2 moves waiting for the table")  # ...said to wait
        expect(root).to_have_attribute("data-tc-phone", "waiting")
        ash.wait_for_function(f"{QUEUED} === '2'")
        assert _ash_moves(table) == []  # nothing reached the table

        # It comes back: reconnected by itself, the queue sent and judged, once each.
        cable.mend()
        ash.context.set_offline(False)
        expect(root).to_have_attribute("data-tc-phone", "online")
        ash.wait_for_function(f"{QUEUED} === '0'")
        expect(bar).to_be_hidden()
        expect(_fatigue(ash, 2)).to_be_visible()
        expect(fatigue_slots).to_have_count(2)
        assert _ash_moves(table) == [("Ash", "add_fatigue")] * 2

        # An answer lost: the table judges the tap, its answer never arrives.
        cable.mute()
        tap(add)
        expect(_fatigue(ash, 3)).to_be_visible()  # the phone's guess
        deadline = time.monotonic() + 60
        while len(_ash_moves(table)) < 3 and time.monotonic() < deadline:
            time.sleep(0.1)  # the store is the server's: polled, not the page
        assert _ash_moves(table) == [("Ash", "add_fatigue")] * 3
        ash.wait_for_function(f"{QUEUED} === '1'")  # still pending here
        cable.cut()
        cable.mend()  # the next reconnect resends it; the table answers it again
        ash.wait_for_function(f"{QUEUED} === '0'")
        expect(root).to_have_attribute("data-tc-phone", "online")
        expect(_fatigue(ash, 3)).to_be_visible()
        expect(_fatigue(ash, 4)).to_have_count(0)
        expect(fatigue_slots).to_have_count(3)
        assert _ash_moves(table) == [("Ash", "add_fatigue")] * 3
        gm = table["gm"]
        gm.refresh()
        assert gm.tracker("Ash", Character).fatigue == 3
        expect(bar).to_be_hidden()
        expect(ash.locator("body")).to_have_css("padding-bottom", "0px")
        ash.context.close()
    finally:
        cable.close()


def test_the_plot_points_table_on_a_phone_rolls_at_the_table(
        browser: Any, table: dict[str, Any]) -> None:
    """The plot-points app as a phone app (Ash's seat of campaign P): Ash's strain is
    made at once and stored as Ash's; Ash's check is sent as an act and rolled by the
    table (the phone shows the table's result), stored once."""
    from companion.rulesets.plot_points.session import PlotPointSession
    from companion.store.campaign import create
    from companion.store.seats import make_seat
    from companion.widgets.table.members import PLOT_TABLE

    store = table["store"]
    gm = session_of(create(store, "P", ["plot_points"], who="Mira", role="gm"))
    # As the app seats it (companion.widgets.table.members.ensure): the table's, no owner.
    gm.add(PLOT_TABLE, PlotPointSession.new(["Ash", "Bryn"], "Mira"), role="minigame")
    secret = make_seat(store, "P", "Ash", "player")
    ash, _ = _open_phone(browser, f"{table['base']}/phone/plot_points.html?campaign=P"
                                  f"&seat={secret}")
    expect(ash.get_by_text("Ash (player)")).to_be_visible()
    sheet = ash.locator(".tc-character-ash")
    expect(sheet.locator(".tc-sheet")).to_have_attribute("data-strain", "0")
    sheet.locator(".tc-btn-strain").click()
    expect(sheet.locator(".tc-sheet")).to_have_attribute("data-strain", "1")
    expect(ash.locator("html")).to_have_attribute("data-tc-phone", "online")
    ash.wait_for_function(f"{QUEUED} === '0'")
    info = store.get_campaign("P")
    made = [(e.who, e.kind, e.move) for e in store.events_since(info.id, 0)
            if e.kind in ("move", "roll") and e.who == "Ash"]
    assert made == [("Ash", "move", "gain_strain")]

    ash.wait_for_function("b => !b.tcWaiting",
                          arg=ash.locator(".tc-btn-roll").element_handle())
    ash.locator(".tc-btn-roll").click()
    # The table's answer is the check's result (the panel waited for it, data-n 0).
    shown = ash.locator('.tc-result[data-n="1"]')
    expect(shown.locator(".tc-total")).to_be_visible()
    expect(shown.locator(".tc-verdict")).to_have_text(re.compile("success|failure"))
    ash.wait_for_function(f"{QUEUED} === '0'")
    made = [(e.who, e.kind, e.move) for e in store.events_since(info.id, 0)
            if e.kind in ("move", "roll") and e.who == "Ash"]
    # Rolled at the table, once: the check's move and its entry in the roll log.
    assert made[0] == ("Ash", "move", "gain_strain")
    assert sorted(made[1:]) == [("Ash", "move", "roll_check"), ("Ash", "roll", None)]
    assert ash.evaluate("document.documentElement.scrollWidth") <= 390
    ash.context.close()


def test_the_dice_tray_on_a_phone_rolls_at_the_table(
        browser: Any, table: dict[str, Any]) -> None:
    """The dice tray as a phone app (Ash's seat of campaign T): a roll is sent as an act
    and rolled by the table; the tray shows the table's total (the one its seed makes),
    and the roll is stored once, as Ash's."""
    from companion import dice

    store = table["store"]
    ash, _ = _open_phone(browser, f"{table['base']}/phone/dice_tray.html?campaign=T"
                                  f"&seat={table['seats']['Ash']}")
    expect(ash.get_by_text("Ash (player)")).to_be_visible()
    expect(ash.locator("html")).to_have_attribute("data-tc-phone", "online")
    roll = ash.locator(".tc-btn-quick-2d20kh1")  # Advantage: one tap, one expression
    ash.wait_for_function("b => !b.tcWaiting", arg=roll.element_handle())
    roll.click()
    # The table's answer is the roll's result (the tray waited for it, data-n 0).
    shown = ash.locator('.tc-result[data-n="1"]')
    expect(shown.locator(".tc-total")).to_be_visible()
    ash.wait_for_function(f"{QUEUED} === '0'")
    info = store.get_campaign("T")
    (event,) = [e for e in store.events_since(info.id, 0) if e.kind == "roll"]
    assert (event.who, event.role, event.data["expr"]) == ("Ash", "player", "2d20kh1")
    made = dice.roll("2d20kh1", seed=event.seed)
    expect(shown.locator(".tc-total")).to_have_text(str(made.total))
    # Made again from the table's seed: in the result and the replay history.
    expect(shown.get_by_text(f"seed {event.seed}")).to_have_count(1)
    expect(ash.locator('.tc-history[data-count="1"]')).to_have_count(1)


def test_a_death_save_on_a_phone_shows_the_table_s_roll(
        browser: Any, table: dict[str, Any]) -> None:
    """The 5e death-and-returning app as a phone app (Ash's seat of campaign F, Ash
    dying): the death save is sent as an act, the phone says it waits for the table's
    dice, then shows the d20 the table rolled; stored once, as Ash's."""
    from companion.rulesets.variant5e.death_and_returning import DeathRecord
    from companion.rulesets.variant5e.healing import HitDice
    from companion.store.campaign import create
    from companion.store.seats import make_seat
    from companion.widgets.table.members import HIT_DICE

    store = table["store"]
    gm = session_of(create(store, "F", ["variant5e"], who="Mira", role="gm"))
    gm.add(HIT_DICE.format("Ash"), HitDice.new(3), role="record", owner="Ash")
    gm.add("Ash", DeathRecord())
    gm.act("Ash", "drop_to_zero")
    secret = make_seat(store, "F", "Ash", "player")
    ash, _ = _open_phone(browser, f"{table['base']}/phone/death_and_returning.html"
                                  f"?campaign=F&seat={secret}")
    expect(ash.get_by_text("Ash (player)")).to_be_visible()
    expect(ash.locator(".tc-condition")).to_have_attribute("data-condition", "dying")
    expect(ash.locator("html")).to_have_attribute("data-tc-phone", "online")
    save = ash.locator(".tc-btn-save")
    ash.wait_for_function("b => !b.tcWaiting", arg=save.element_handle())
    save.click()
    # The table's answer: the d20 it rolled (the line waited for it, data-n 0).
    shown = ash.locator('.tc-save-roll[data-n="1"]')
    expect(shown).to_have_attribute("data-face", re.compile(r"^([1-9]|1\d|20)$"))
    expect(shown).to_contain_text("death save: d20 shows")
    ash.wait_for_function(f"{QUEUED} === '0'")
    info = store.get_campaign("F")
    made = sorted((e.who, e.kind, e.move) for e in store.events_since(info.id, 0)
                  if e.kind in ("move", "roll") and e.who == "Ash")
    assert made == [("Ash", "move", "roll_death_save"), ("Ash", "roll", None)]
    gm.refresh()
    record = gm.tracker("Ash", DeathRecord)
    face = int(shown.get_attribute("data-face") or 0)
    if face == 20:  # back on its feet
        assert record.condition != "dying"
    else:  # the face shown is the one the table counted
        assert (record.successes, record.failures) == (
            (1, 0) if face >= 10 else (0, 2) if face == 1 else (0, 1))
    assert ash.evaluate("document.documentElement.scrollWidth") <= 390
    ash.context.close()
