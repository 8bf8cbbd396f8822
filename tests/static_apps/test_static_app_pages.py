"""The static apps (``site/apps/``) as a table uses them, in Chromium at phone size.

- One device, any number of players: a Dice Monarchs hand played hot-seat (each player
  uncovers only their own hole dice; a refused move shows the rule) and a duel whose first
  pick stays hidden until the second is made.
- A campaign kept in the browser: the GM's "GM only" roll is committed, revealed later and
  checked against its commitment, and the log is kept across a reload; a Plot points check
  made in the campaign's app is kept across a reload too.
- A second tab does not open the campaigns while the first keeps them (each page writes
  its whole copy back: two writers would overwrite moves); it says why, and opens them
  once the first tab is closed.
- Bad input in the dice tray gets its one-line refusal, not a traceback.
- Every page fits 390 px without sideways scrolling and has no serious or critical axe-core
  (WCAG 2.1 A/AA) finding.

Only the local static server is reachable: a request to another host fails the test.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.axe import serious_violations
from tests.browser.failures import note_open_pages, record, recording_playwright
from tests.static_apps.test_static_apps import (
    APP_WAIT,
    StaticServer,
    create_campaign,
    in_thread,
    settled_head,
    snapshot_made,
    static_site,  # noqa: F401  (the fixture)
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True}
WIDEST_JS = "() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"


@pytest.fixture(scope="module")
def server(static_site: Path) -> Iterator[StaticServer]:  # noqa: F811
    running = StaticServer(static_site)
    yield running
    running.stop()


class Phone:
    """A phone-sized page in a fresh browser context; other hosts are recorded."""

    def __init__(self, playwright: Any, launch: dict[str, Any]) -> None:
        self.browser = playwright.chromium.launch(**launch)
        self.context = record(playwright, self.browser.new_context(**PHONE))
        self.context.set_default_timeout(APP_WAIT)
        self.outside: list[str] = []
        self.errors: list[str] = []
        self.context.on("request", self._seen)
        # A missing file of our own (a font, a script) is a failure too: the first visit
        # pays for the miss, and offline the page lacks it.
        self.context.on("response", lambda r: self.errors.append(f"{r.status} {r.url}")
                        if r.status >= 400 and r.url.startswith("http://127.0.0.1") else None)
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _seen(self, request: Any) -> None:
        if not request.url.startswith(("http://127.0.0.1", "data:", "blob:")):
            self.outside.append(request.url)

    def open(self, url: str, ready: str) -> Any:
        self.page.goto(url)
        self.page.wait_for_selector(ready, state="visible")
        return self.page

    def close(self) -> None:
        self.browser.close()


def checked_page(page: Any, name: str, found: dict[str, Any]) -> None:
    """Record the page's width and its axe-core findings under ``name``."""
    found[name] = {"width": int(page.evaluate(WIDEST_JS)),
                   "axe": serious_violations(page)}


def test_hot_seat_hidden_roll_bad_input_phone_width_and_axe(
        server: StaticServer, chromium_launch: dict[str, Any]) -> None:
    from playwright.sync_api import expect

    apps = server.url + "apps/"

    def play() -> dict[str, Any]:
        found: dict[str, Any] = {}
        with recording_playwright() as p:
            phone = Phone(p, chromium_launch)
            snapshot = ""
            try:
                # -- Dice Monarchs, hot seat on one phone ------------------------------------
                page = phone.open(apps + "dice_monarchs.html", ".tc-btn-new-table")
                page.locator(".tc-name-players input").fill("Ann, Bo")
                page.locator(".tc-int-chips input").fill("20")
                page.locator(".tc-int-seed input").fill("11")
                page.locator(".tc-btn-new-table").click()
                page.wait_for_selector('.tc-monarchs .tc-log[data-count="2"]')
                page.wait_for_selector('.tc-cover[data-player="Bo"]')
                page.locator(".tc-btn-reveal").click()
                expect(page.locator(".tc-monarchs-private .tc-card")).to_have_count(1)
                expect(page.locator('.tc-monarchs-private .tc-card[data-player="Bo"]')
                       .locator(".tc-die")).to_have_count(5)
                # The opening player must bet: a check is not offered.
                expect(page.locator(".tc-btn-check")).to_be_disabled()
                page.locator(".tc-int-amount input").fill("3")
                page.locator(".tc-btn-bet").click()
                page.wait_for_selector('.tc-monarchs .tc-log[data-count="3"]')
                expect(page.locator(".tc-monarchs-private .tc-card")).to_have_count(0)
                page.wait_for_selector('.tc-cover[data-player="Ann"]')
                page.locator(".tc-btn-reveal").click()
                expect(page.locator('.tc-monarchs-private .tc-card[data-player="Ann"]')
                       ).to_have_count(1)
                page.locator(".tc-btn-call").click()
                page.wait_for_selector('.tc-monarchs .tc-log[data-count="4"]')
                expect(page.locator(".tc-monarchs-community .tc-die:not(.tc-die-hidden)")
                       ).to_have_count(3)  # the flop
                expect(page.locator(".tc-monarchs-status .tc-pot")).to_have_text("6")
                expect(page.locator(".tc-error [role=alert]")).to_have_count(0)
                checked_page(page, "dice_monarchs", found)
                # The next pages resume from the snapshot this one makes, as a
                # player's do (a page of its own each).
                snapshot = snapshot_made(page)

                # -- the duel, hot seat: a pick stays hidden until both have chosen -----------
                page = phone.open(apps + "duel.html", ".tc-btn-start")
                page.locator(".tc-name-stakes input").fill("first blood")
                page.locator(".tc-btn-start").click()
                page.locator(".tc-btn-choose-0-flourish").click()
                expect(page.locator(".tc-choice-0")).to_contain_text("chosen ✓ (hidden)")
                expect(page.locator(".tc-app").first).not_to_contain_text("Vera flourish")
                page.locator(".tc-btn-choose-1-defend").click()
                expect(page.locator(".tc-app").first).to_contain_text(
                    "Vera flourish vs Osk defend")
                page.locator('.tc-duel[data-rounds="1"]').wait_for()
                checked_page(page, "duel", found)

                # -- the dice tray refuses bad input in one line -----------------------------
                page = phone.open(apps + "dice_tray.html", ".tc-btn-roll")
                expr = page.locator(".tc-text-expr input")
                for text, says in (("2d", "write dice like 2d6+1"),
                                   ("1000000d6", "more than 10,000 dice"),
                                   ("((((((((((1d6", "1d6")):
                    expr.fill(text)
                    page.locator(".tc-btn-roll").click()
                    error = page.locator(".tc-error [role=alert]")
                    expect(error).to_contain_text(says)
                    line = error.inner_text()
                    assert "\n" not in line.strip() and "Traceback" not in line, line
                expr.fill("3d6+2")
                expr.press("Enter")
                expect(page.locator(".tc-history li")).to_have_count(1)
                expect(page.locator(".tc-error [role=alert]")).to_have_count(0)
                checked_page(page, "dice_tray", found)

                # -- a campaign in this browser; the GM's hidden roll ------------------------
                page = phone.open(apps + "table.html", ".tc-table")
                create_campaign(page, "Gail", "Night", "Plot")
                page.wait_for_function("() => location.search.includes('campaign=Night')")
                checked_page(page, "table", found)
                table = page.url
                tray = table.replace("/table.html", "/dice_tray.html")
                page = phone.open(tray, ".tc-roll-log-panel")
                page.locator(".tc-roll-mode button", has_text="GM only").click()
                page.locator(".tc-text-expr input").fill("2d10")
                page.locator(".tc-btn-roll").click()
                # Committed: the GM may reveal it later (nothing to check yet).
                expect(page.locator(".tc-btn-reveal")).to_be_enabled()
                expect(page.locator(".tc-btn-check")).to_be_disabled()
                expect(page.locator(".tc-roll-log")).to_contain_text("2d10")
                page.locator(".tc-btn-reveal").click()
                page.locator(".tc-btn-check").click()
                holds = re.compile(r"Entry \d+ holds")
                expect(page.locator(".tc-check-result")).to_contain_text(holds)
                # Kept in the browser: the reloaded page has the roll and checks it again.
                settled_head(page, "Night")
                page.reload()
                page.wait_for_selector(".tc-roll-log-panel", state="visible")
                expect(page.locator(".tc-roll-log")).to_contain_text("2d10")
                page.locator(".tc-btn-check").click()
                expect(page.locator(".tc-check-result")).to_contain_text(holds)
                checked_page(page, "dice_tray_campaign", found)

                # -- the campaign's Plot points app, opened in place: a check, kept ----------
                page = phone.open(table, ".tc-table")
                page.locator(".tc-btn-app-plot_points").click()
                app = page.locator(".tc-open-app")
                app.locator(".tc-btn-roll").click()
                app.locator('.tc-log[data-count="1"]').wait_for()
                head = settled_head(page, "Night")
                page.reload()
                page.wait_for_selector(".tc-table", state="visible")
                page.locator(".tc-btn-app-plot_points").click()
                page.locator('.tc-open-app .tc-log[data-count="1"]').wait_for()
                assert settled_head(page, "Night") == head
                checked_page(page, "plot_points_campaign", found)

                # -- a second tab: the campaigns stay with the first (no move overwritten) ---
                second = phone.context.new_page()
                second.on("pageerror", lambda e: phone.errors.append(str(e)))
                second.goto(apps + "table.html")
                second.wait_for_selector(".tc-table", state="visible")
                expect(second.locator(".tc-error [role=alert]")).to_contain_text(
                    "open in another tab")
                page.close()  # the first tab goes: the second may keep them now
                second.reload()
                second.wait_for_selector(".tc-table", state="visible")
                night = second.locator(".tc-pick-campaign option", has_text="Night")
                expect(night).to_have_count(1)
                expect(second.locator(".tc-error [role=alert]")).to_have_count(0)
                phone.page = second

                page = phone.open(apps + "campaigns.html", ".tc-campaigns")
                checked_page(page, "campaigns", found)
            except BaseException as failure:
                note_open_pages(p, failure)  # before the browser closes, below
                raise
            finally:
                found["outside"], found["errors"] = phone.outside, phone.errors
                found["snapshot"] = snapshot
                phone.close()
        return found

    found = in_thread(play)
    assert found.pop("outside") == []
    assert found.pop("errors") == []
    assert found.pop("snapshot") == "kept"
    for name, seen in found.items():
        assert seen["width"] <= 392, (name, seen["width"])
        assert seen["axe"] == [], (name, seen["axe"])
