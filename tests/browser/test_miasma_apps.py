"""The earthmotes and Miasma tracker Voila apps in Chromium on a phone (390 px): one journey
per app for what only a browser shows (no sideways scrolling, 40 px tap targets, a refusal
drawn under its box, the round trip). Their rule flows are asserted in-process on the same
pages in tests/widgets/test_miasma_pages.py."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

PHONE_WIDTH = 390
SCROLL_TOLERANCE = 2


def fits_a_phone(page: Any, scroll_width: Any) -> None:
    assert scroll_width(page) <= PHONE_WIDTH + SCROLL_TOLERANCE
    buttons = page.locator(".tc-app button:visible")
    assert buttons.count()
    for i in range(buttons.count()):
        box = buttons.nth(i).bounding_box()
        assert box is not None and box["height"] >= 40, buttons.nth(i).inner_text()
    for select in page.locator(".tc-app select:visible").all():
        box = select.bounding_box()
        assert box is not None and box["height"] >= 40


def test_earthmotes_on_a_phone(voila_app: Any, phone_page: Any, scroll_width: Any,
                               screenshot: Any) -> None:
    page = voila_app("earthmotes", page=phone_page)
    page.locator(".tc-btn-generate").click()
    page.wait_for_selector('.tc-earthmote-list ol[data-count="1"]')
    expect(page.locator(".tc-earthmote-list li")).to_contain_text("seed ")
    page.locator(".tc-int-index input").fill("7")
    page.locator(".tc-btn-remove").click()
    refusal = page.locator(".tc-refusal-index [role=alert]")
    expect(refusal).to_contain_text("7 is too high: enter a whole number from 1 to 1")
    page.locator(".tc-btn-undo").click()
    # An empty list is not drawn: wait for it in the page, not on screen.
    page.wait_for_selector('.tc-earthmote-list ol[data-count="0"]', state="attached")
    fits_a_phone(page, scroll_width)
    screenshot(page, "earthmotes-phone")


def test_miasma_tracker_on_a_phone(voila_app: Any, phone_page: Any, scroll_width: Any,
                                   screenshot: Any) -> None:
    page = voila_app("miasma_tracker", page=phone_page)
    page.locator(".tc-name-name input").fill("Vel")
    page.locator(".tc-btn-add").click()
    page.wait_for_selector('.tc-miasma-sheet [data-name="Vel"][data-level="0"]')
    page.locator(".tc-int-stress input").fill("4")
    page.locator(".tc-btn-stress").click()
    page.locator(".tc-btn-enter").click()
    page.wait_for_selector(".tc-miasma-sheet:has-text('inside the Miasma')")
    page.locator(".tc-btn-time-24").click()
    card = page.locator('.tc-miasma-sheet [data-name="Vel"][data-level="2"]')
    expect(card).to_contain_text("speed is halved")
    screenshot(page, "miasma_tracker-phone")
    fits_a_phone(page, scroll_width)
