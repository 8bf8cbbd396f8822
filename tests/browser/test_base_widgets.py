"""What companion.widgets.base promises, seen in a real phone-sized Chromium.

- A number box refuses bad input under itself, visibly, and the refusal goes when fixed.
- Times in the roll history are in the viewer's own zone.
- Base-styled text is at least 16 px; checkbox tap targets at least 40 px tall.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import _guarded_page

pytestmark = pytest.mark.timeout(300)

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True}


@pytest.fixture
def tokyo_phone(browser: Any) -> Iterator[Any]:
    # A fixed locale (24-hour clock) makes the shown time one known string.
    yield from _guarded_page(browser, timezone_id="Asia/Tokyo", locale="en-GB", **PHONE)


def test_number_box_refuses_under_itself_until_fixed(voila_app: Any, phone_page: Any) -> None:
    page = voila_app("plot_points", page=phone_page)
    box = page.locator(".tc-int-difficulty input")
    refusal = page.locator(".tc-refusal-difficulty")
    expect(refusal).to_be_hidden()
    for typed, said in (("abc", "is not a whole number"), ("", "the box is empty"),
                        ("999999", "is too high")):
        box.fill(typed)
        box.press("Enter")
        # Each refusal replaces the one before: wait for this one's words.
        refusal.filter(has_text=said).wait_for(state="visible")
        expect(refusal).to_contain_text("Difficulty: ")
        assert refusal.bounding_box()["y"] > box.bounding_box()["y"]  # under the box
    box.fill("12")
    box.press("Enter")
    refusal.wait_for(state="hidden")
    page.wait_for_function(
        "() => document.querySelector('.tc-chance').innerText.includes('vs 12')")


def test_history_times_are_in_the_viewers_zone(voila_app: Any, tokyo_phone: Any) -> None:
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


_SIZES_JS = """(selector) => Array.from(document.querySelectorAll(selector))
  .filter(e => e.offsetParent !== null && e.innerText && e.innerText.trim())
  .map(e => [e.className.toString().slice(0, 40), parseFloat(getComputedStyle(e).fontSize)])"""


def _assert_16px(page: Any, *selectors: str) -> None:
    for selector in selectors:
        sizes = page.evaluate(_SIZES_JS, selector)
        assert sizes, selector
        small = [s for s in sizes if s[1] < 16]
        assert not small, (selector, small)


def test_base_text_is_16px_and_checkboxes_are_40px(voila_app: Any, phone_page: Any) -> None:
    page = voila_app("dice_tray", page=phone_page)
    page.locator(".tc-text-expr input").fill("2d6")
    page.locator(".tc-btn-roll").click()
    page.wait_for_selector('.tc-history[data-count="1"]')
    _assert_16px(page, ".tc-app .tc-btn", ".tc-app .tc-history li", ".tc-app .tc-h-meta",
                 ".tc-app .tc-link")
    assert page.evaluate(
        "() => parseFloat(getComputedStyle(document.querySelector('.tc-text-expr input'))"
        ".fontSize)") >= 16

    page = voila_app("monsters_and_magic", page=phone_page)
    _assert_16px(page, ".tc-app .widget-label", ".tc-app .tc-btn")
    labels = page.locator(".tc-app .widget-checkbox .widget-label-basic")
    labels.first.wait_for()
    heights = [labels.nth(i).bounding_box()["height"] for i in range(labels.count())
               if labels.nth(i).is_visible()]
    assert heights and min(heights) >= 40, heights
    boxes = page.locator(".tc-app .widget-checkbox input")
    assert boxes.first.bounding_box()["height"] >= 32


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
