"""Issue 31 on the static site, in Chromium at 390 px: a serverless app follows the
device's dark theme with sufficient contrast (axe-core, light and dark; the apps were light
only), its links back into the site (the Apps page, its ruleset's rules) are on screen and
tall enough, and they work with no network, the API reference included (it was kept only
when visited)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.axe import serious_violations
from tests.browser.failures import recording_playwright
from tests.static_apps.test_static_apps import (
    APP_WAIT,
    Profile,
    StaticServer,
    in_thread,
    static_server,  # noqa: F401  (the fixture)
    static_site,  # noqa: F401  (the fixture)
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WIDEST_JS = "() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
WHITE = "rgb(255, 255, 255)"


def test_an_app_in_the_dark_and_its_way_back_offline(
        static_server: StaticServer, tmp_path: Path,  # noqa: F811
        chromium_launch: dict[str, Any]) -> None:
    from playwright.sync_api import expect

    launch = {k: v for k, v in chromium_launch.items() if k != "headless"}
    launch["headless"] = True
    site = static_server.url

    def play() -> dict[str, Any]:
        found: dict[str, Any] = {}
        with recording_playwright() as p:
            profile = Profile(p, tmp_path / "profile", launch)
            page = profile.start()
            page.goto(site + "apps/dice_monarchs.html")
            page.wait_for_selector(".tc-monarchs .tc-btn-new-table", timeout=APP_WAIT)
            nav = page.locator(".tc-static-nav a")
            found["links"] = nav.evaluate_all(
                "as => as.map(a => [a.textContent, a.getAttribute('href'),"
                " a.getBoundingClientRect().height, a.getBoundingClientRect().right])")
            found["light"] = serious_violations(page)
            page.emulate_media(color_scheme="dark")
            expect(page.locator("body")).not_to_have_css("background-color", WHITE)
            # The app itself is dark too (its boxes and buttons, not only the page).
            found["input_bg"] = page.locator(".tc-monarchs input").first.evaluate(
                "e => getComputedStyle(e).backgroundColor")
            found["dark"] = serious_violations(page)
            found["width"] = page.evaluate(WIDEST_JS)
            # -- no network: the way back still leads somewhere ----------------------------
            page.wait_for_function("navigator.serviceWorker.ready.then((r) => !!r.active)",
                                   timeout=APP_WAIT)
            static_server.stop()
            page.locator(".tc-static-nav .tc-way-rules").click()
            page.wait_for_url("**/rules/miasma/")
            found["rules"] = page.locator("h1").first.inner_text()
            # The ruleset's apps near the top, by their names.
            found["rules_apps"] = page.locator(".tc-ruleset-apps a").all_inner_texts()
            page.go_back()
            page.locator(".tc-static-nav .tc-way-apps").click()
            page.wait_for_url("**/play/")
            found["apps"] = page.locator("article").inner_text()
            page.goto(site + "api/companion/rulesets/miasma/dice_monarchs/")
            found["api"] = page.locator("h1").first.inner_text()
            profile.stop()
            found["outside"] = profile.outside
            found["errors"] = profile.errors
        return found

    found = in_thread(play)
    assert [(t, h) for t, h, _, _ in found["links"]] == [
        ("All apps", "../play/"),
        ("Rules: Miasma: Earthmotes, Psychosis, Dice Monarchs", "../rules/miasma/"),
        ("Table Companion", "table.html")]
    assert all(height >= 44 and right <= 390 for _, _, height, right in found["links"])
    assert found["light"] == [] and found["dark"] == [], (found["light"], found["dark"])
    assert found["input_bg"] != WHITE
    assert found["width"] <= 390
    assert found["rules"].startswith("Miasma") and "Dice Monarchs" in found["rules_apps"]
    assert "Cairn-derived SRD" in found["apps"] and "cairn_srd" not in found["apps"]
    assert "dice_monarchs" in found["api"]
    assert found["outside"] == [] and found["errors"] == []
