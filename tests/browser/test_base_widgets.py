"""What companion.widgets.base promises, seen in a real phone-sized Chromium.

- Times in the roll history are in the viewer's own zone; base-styled text is at least
  16 px (one dice tray page).
- List options, radio buttons and toggles are 40 px tap targets (no kernel: the base CSS on
  ipywidgets' own markup).

Checked on the app journeys that open those apps anyway (issue 27: one kernel per app):
a number box refusing bad input under itself until fixed (tests/browser/
test_plot_points_app.py; its words in-process in tests/widgets/test_plot_points_page.py),
checkbox tap targets of 40 px and 16 px labels (tests/browser/test_monsters_and_magic_app.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import _guarded_page
from tests.browser.sizes import assert_16px

pytestmark = pytest.mark.timeout(300)

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True}


@pytest.fixture
def tokyo_phone(browser: Any) -> Iterator[Any]:
    # A fixed locale (24-hour clock) makes the shown time one known string.
    yield from _guarded_page(browser, timezone_id="Asia/Tokyo", locale="en-GB", **PHONE)


def test_history_times_are_in_the_viewers_zone_and_text_is_16px(voila_app: Any,
                                                                tokyo_phone: Any) -> None:
    page = voila_app("dice_tray", page=tokyo_phone)
    page.locator(".tc-text-expr input").fill("1d6")
    page.locator(".tc-btn-roll").click()
    page.wait_for_selector('.tc-history[data-count="1"]')
    stamp = page.locator(".tc-history time.tc-local").first
    page.wait_for_function(
        "() => !document.querySelector('.tc-history time.tc-local').innerText.includes('UTC')")
    shown = stamp.inner_text()
    from datetime import datetime
    from zoneinfo import ZoneInfo

    utc = datetime.fromisoformat(stamp.get_attribute("datetime").replace("Z", "+00:00"))
    tokyo = utc.astimezone(ZoneInfo("Asia/Tokyo")).strftime("%H:%M:%S")
    assert shown == f"{tokyo} GMT+9", (shown, utc)
    # Base-styled text on the same phone page: at least 16 px (the CSV and JSON links
    # sit in the closed "details" fold: opened first, as a curious player would).
    page.locator(".tc-app .tc-details-downloads summary").first.click()
    expect(page.locator(".tc-app .tc-details-downloads .tc-link").first).to_be_visible()
    assert_16px(page, ".tc-app .tc-btn", ".tc-app .tc-history li", ".tc-app .tc-h-meta",
                ".tc-app .tc-link")
    assert page.evaluate(
        "() => parseFloat(getComputedStyle(document.querySelector('.tc-text-expr input'))"
        ".fontSize)") >= 16


def test_list_options_radio_and_toggle_targets_are_40px(page: Any) -> None:
    # The base CSS in Chromium on ipywidgets' own markup for these controls.
    from companion.widgets.base import CSS

    page.set_content(f"""<style>{CSS}</style><div class="tc-app">
      <div class="widget-select widget-select-multiple"><select multiple size="3">
        <option>Ash</option><option>Bo</option><option>Cy</option></select></div>
      <div class="widget-radio-box"><label><input type="radio" name="r">North</label>
        <label><input type="radio" name="r">South</label></div>
      <button class="widget-toggle-button jupyter-button">Left</button></div>""")
    heights = page.evaluate("""() => Array.from(document.querySelectorAll(
        '.tc-app option, .tc-app .widget-radio-box label, .tc-app .widget-toggle-button'))
        .map(e => [e.tagName, e.getBoundingClientRect().height,
                   parseFloat(getComputedStyle(e).fontSize)])""")
    assert len(heights) == 6
    assert all(h >= 40 and size >= 16 for _tag, h, size in heights), heights
