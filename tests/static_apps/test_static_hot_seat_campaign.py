"""Issue 31 on the static site: Dice Monarchs inside a campaign kept in this browser. A new
table for Gail, Ash and Briar showed "Waiting for Ash to act." with only Undo (the device
holder is the GM, and no player had a screen of their own); now the phone is passed round
(hot seat) and every move is kept across a reload."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.failures import recording_playwright
from tests.static_apps.test_static_apps import (
    APP_WAIT,
    Profile,
    StaticServer,
    create_campaign,
    in_thread,
    settled_head,
    static_server,  # noqa: F401  (the fixture)
    static_site,  # noqa: F401  (the fixture)
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_monarchs_in_a_campaign_is_played_hot_seat_and_kept(
        static_server: StaticServer, tmp_path: Path,  # noqa: F811
        chromium_launch: dict[str, Any]) -> None:
    from playwright.sync_api import expect

    launch = {k: v for k, v in chromium_launch.items() if k != "headless"}
    launch["headless"] = True
    apps = static_server.url + "apps/"

    def play() -> dict[str, Any]:
        found: dict[str, Any] = {}
        with recording_playwright() as p:
            profile = Profile(p, tmp_path / "profile", launch)
            page = profile.start()
            page.goto(apps + "table.html")
            page.wait_for_selector(".tc-table", timeout=APP_WAIT)
            create_campaign(page, "Gail", "Fog", "Miasma")
            head = settled_head(page, "Fog")
            page.goto(apps + "dice_monarchs.html?campaign=Fog")
            page.wait_for_selector(".tc-btn-new-table", timeout=APP_WAIT)
            page.locator(".tc-name-players input").fill("Gail, Ash, Briar")
            page.locator(".tc-int-chips input").fill("20")
            page.locator(".tc-btn-new-table").click()
            cover = page.locator(".tc-monarchs-cover .tc-cover")
            expect(cover).to_contain_text("Pass the device to")
            first = cover.get_attribute("data-player")
            page.locator(".tc-btn-reveal").click()
            expect(page.locator(".tc-monarchs-private .tc-card")).to_have_count(1)
            expect(page.locator(f'.tc-monarchs-private .tc-card[data-player="{first}"]')
                   ).to_have_count(1)
            page.locator(".tc-int-amount input").fill("3")
            page.locator(".tc-btn-bet").click()
            expect(page.locator(".tc-monarchs-status .tc-pot")).to_have_text("3")
            expect(page.locator(".tc-monarchs-private .tc-card")).to_have_count(0)
            second = cover.get_attribute("data-player")
            settled_head(page, "Fog", head)
            # -- a reload: the hand goes on where it was, covered --------------------------
            page.reload()
            page.wait_for_selector(".tc-monarchs-status .tc-pot", timeout=APP_WAIT)
            expect(page.locator(".tc-monarchs-status .tc-pot")).to_have_text("3")
            expect(cover).to_contain_text("Pass the device to")
            found["after_reload"] = cover.get_attribute("data-player")
            found["players"] = [first, second]
            found["text"] = page.locator("body").inner_text()
            profile.stop()
            found["outside"] = profile.outside
            found["errors"] = profile.errors
        return found

    found = in_thread(play)
    first, second = found["players"]
    assert first in ("Gail", "Ash", "Briar") and second not in (None, first)
    assert found["after_reload"] == second
    assert "Waiting for" not in found["text"] and "Demo" not in found["text"]
    assert found["outside"] == [] and found["errors"] == []
