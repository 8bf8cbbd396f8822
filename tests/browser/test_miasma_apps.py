"""The earthmotes and Miasma tracker Voila apps in Chromium."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

PHONE_WIDTH = 390
SCROLL_TOLERANCE = 2


def test_earthmotes_generate_keep_and_undo(voila_app: Any, screenshot: Any) -> None:
    page = voila_app("earthmotes")
    page.locator(".tc-btn-generate").click()
    page.wait_for_selector('.tc-earthmote-list ol[data-count="1"]')
    page.locator(".tc-btn-generate").click()
    page.wait_for_selector('.tc-earthmote-list ol[data-count="2"]')
    items = page.locator(".tc-earthmote-list li")
    expect(items).to_have_count(2)
    for part in ("earthmote", "2d12", "d6", "seed "):
        expect(items.nth(0)).to_contain_text(part)
    expect(page.locator('.tc-earthmote-roll .tc-outcome[data-n="2"]')).to_contain_text("seed ")
    page.locator(".tc-btn-region-1").click()
    page.wait_for_selector('.tc-earthmote-list ol[data-count="3"]')
    page.locator(".tc-int-index input").fill("7")
    page.locator(".tc-btn-remove").click()
    refusal = page.locator(".tc-refusal-index [role=alert]")
    refusal.wait_for()
    expect(refusal).to_contain_text("7 is too high: enter a whole number from 1 to 3")
    expect(page.locator(".tc-earthmote-list li")).to_have_count(3)  # nothing removed
    page.locator(".tc-btn-undo").click()
    page.wait_for_selector('.tc-earthmote-list ol[data-count="2"]')
    screenshot(page, "earthmotes")


def test_miasma_tracker_over_a_day(voila_app: Any, phone_page: Any, scroll_width: Any,
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
    card.wait_for()
    expect(card).to_contain_text("speed is halved")
    expect(card).to_contain_text("poisoned")
    page.locator(".tc-btn-restoration").click()
    page.wait_for_selector('.tc-miasma-sheet [data-name="Vel"][data-level="1"]')
    expect(page.locator(".tc-btn-enter")).to_be_disabled()  # already inside the Miasma
    page.locator(".tc-btn-leave").click()
    page.wait_for_selector(".tc-btn-leave:disabled")
    page.locator(".tc-btn-rest").click()
    page.wait_for_selector(".tc-log li:has-text('without food and drink')")
    screenshot(page, "miasma_tracker-phone")
    assert scroll_width(page) <= PHONE_WIDTH + SCROLL_TOLERANCE
    buttons = page.locator(".tc-app button:visible")
    for i in range(buttons.count()):
        box = buttons.nth(i).bounding_box()
        assert box is not None and box["height"] >= 40, buttons.nth(i).inner_text()
    for select in page.locator(".tc-app select").all():
        box = select.bounding_box()
        assert box is not None and box["height"] >= 40
