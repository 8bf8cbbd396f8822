"""Apps opened in place at 390 px come into view (issue 22), in Chromium.

A campaign playing every ruleset, its GM's page on a phone: each app opened from the start
app shows its title within the first screen at once (not below every set-up form); its bar
switches to another app and goes back to the table; a refusal after a tap is in view.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import _guarded_page

pytestmark = pytest.mark.timeout(900)

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def everything(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, list[str]]:
    from companion import rulesets
    from companion.store import create_campaign, open_store
    from companion.store.seats import creator_secret
    from companion.widgets.table.apps import apps_for

    names = [r.name for r in rulesets.all_rulesets()]
    path = tmp_path_factory.mktemp("in_place") / "campaigns.db"
    with open_store(path) as store:
        campaign = create_campaign(store, "Everything", names, who="Mira", role="gm")
        secret = creator_secret(campaign)
    assert secret
    return path, secret, [a.key for a in apps_for(names)]


@pytest.fixture(scope="module")
def server(everything: tuple[Path, str, list[str]]) -> Iterator[Any]:
    from tests.browser.conftest import _running_voila

    with _running_voila(env={"COMPANION_DB": str(everything[0])}) as running:
        yield running


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    yield from _guarded_page(browser, viewport=PHONE, is_mobile=True, has_touch=True)


def _title_on_first_screen(page: Any, title: str) -> None:
    shown = page.locator(".tc-open-app .tc-title")
    expect(shown).to_have_text(title, timeout=60_000)
    expect(shown).to_be_in_viewport()
    # At the top, or as near as the page can scroll (a short app ends the page).
    box = shown.bounding_box()
    assert box is not None and 0 <= box["y"] <= PHONE["height"] / 2, (title, box)


def test_every_app_opened_in_place_shows_its_title_on_the_first_screen(
        server: Any, everything: tuple[Path, str, list[str]], phone: Any,
        screenshot: Any) -> None:
    from companion.widgets.table.apps import spec

    _path, secret, keys = everything
    phone.goto(f"{server.base_url}/voila/render/table.ipynb?campaign=Everything&seat={secret}",
               wait_until="domcontentloaded")
    phone.wait_for_selector(".tc-app-buttons .tc-btn", state="visible", timeout=180_000)
    for key in keys:
        back = phone.locator(".tc-open-app .tc-btn-back-to-table")
        if back.count():
            back.click()  # back to the table: the app hides, the campaign comes into view
            expect(phone.locator(".tc-open-app")).to_have_count(0)
        phone.locator(f".tc-btn-app-{key}").click()
        _title_on_first_screen(phone, spec(key).title)
    screenshot(phone, "open-in-place-last")
    # The bar's picker switches app without going back; the new app is at the top too.
    for title in (spec(keys[0]).title, "Dice tray"):
        phone.locator(".tc-open-app .tc-switch-app select").select_option(label=title)
        _title_on_first_screen(phone, title)
    # A refusal after a tap is in view, and said once.
    phone.locator(".tc-open-app .tc-text-expr input").fill("2d")
    phone.locator(".tc-open-app .tc-btn-roll").click()
    error = phone.locator(".tc-open-app .tc-error [role=alert]")
    expect(error).to_contain_text("write dice like")
    expect(error).to_be_in_viewport()
    expect(error).to_have_count(1)


def test_roll_log_times_are_the_viewer_s_own(server: Any,
                                              everything: tuple[Path, str, list[str]],
                                              browser: Any) -> None:
    _path, secret, _keys = everything
    pages = _guarded_page(browser, viewport=PHONE, is_mobile=True, has_touch=True,
                          timezone_id="Europe/Paris", locale="en-GB")
    page = next(pages)
    page.goto(f"{server.base_url}/voila/render/dice_tray.ipynb?campaign=Everything"
              f"&seat={secret}", wait_until="domcontentloaded")
    page.wait_for_selector(".tc-btn-roll", state="visible", timeout=180_000)
    page.locator(".tc-btn-roll").click()
    stamp = page.locator(".tc-roll-log time.tc-local").first
    # Paris in winter: the page shows the viewer's clock and zone, not the server's UTC.
    expect(stamp).to_contain_text(re.compile(r"CET|GMT\+1|UTC\+1"), timeout=60_000)
    expect(stamp).not_to_contain_text("UTC ")
    next(pages, None)  # closes the context (and checks no other host was asked)
