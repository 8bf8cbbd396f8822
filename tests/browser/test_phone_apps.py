"""Issue 44: two phones and the GM's laptop play one campaign through ``companion app``.

The phones open the phone app (``/phone/cairn_character.html`` with their seat's link:
Pyodide on the page, no kernel), the GM the Voila page of the same app. A tap on Ash's
phone shows at once there, then on Bryn's phone and on the GM's page (pushed by the table
socket to the phones, seen by the GM's kernel through the store), and is stored once,
as Ash's. Chromium at 390x844; the phones' first visits are counted (bytes on the wire,
time until the app is shown) and printed, not judged (speed is the benchmark's).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

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
        yield {"base": base, "seats": seats, "store": store, "gm": gm}
    finally:
        app.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            app.wait(30)
        log.close()


def _counted(page: Any) -> dict[str, float]:
    """Bytes the server sends ``page`` from now on (bodies as sent, and headers)."""
    sent = {"bytes": 0.0, "requests": 0.0}

    def count(request: Any) -> None:
        sizes = request.sizes()
        sent["bytes"] += max(0, sizes["responseBodySize"]) + sizes["responseHeadersSize"]
        sent["requests"] += 1

    page.on("requestfinished", count)
    return sent


def _open_phone(browser: Any, url: str) -> tuple[Any, dict[str, float]]:
    context = browser.new_context(**PHONE)
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
    gm_page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
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
