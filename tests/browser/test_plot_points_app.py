"""The plot-points Voila app in a real Chromium on a phone (390 px): one journey for what only
a browser shows: a number box's refusal drawn under the box until it is fixed, a roll's
round trip, no sideways scrolling, 40 px tap targets.

The rule flow (odds before a roll, a sure failure, a lucky point spent on a retry, the
pool's tokens, strain to a wound and healing, a refused difficulty rolling nothing) and the
box's refusal words are asserted in-process on the same page in
tests/widgets/test_plot_points_page.py."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

PHONE_WIDTH = 390
SCROLL_TOLERANCE = 2


def test_the_table_on_a_phone(voila_app: Any, phone_page: Any, scroll_width: Any,
                              screenshot: Any) -> None:
    page = voila_app("plot_points", page=phone_page)
    # A number box refuses bad input under itself, visibly, and the refusal goes when fixed
    # (companion.widgets.base's promise, once tests/browser/test_base_widgets.py's).
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
    expect(page.locator(".tc-chance")).to_contain_text("vs 12")

    page.locator(".tc-btn-roll").click()
    page.wait_for_selector('.tc-result[data-n="1"]')
    page.wait_for_selector('.tc-log[data-count="1"]')
    assert scroll_width(page) <= PHONE_WIDTH + SCROLL_TOLERANCE
    heights = page.eval_on_selector_all(
        ".tc-btn", "els => els.filter(e => e.getClientRects().length)"  # shown ones only
        ".map(e => e.getBoundingClientRect().height)")
    assert heights and min(heights) >= 40
    screenshot(page, "plot_points-phone")
