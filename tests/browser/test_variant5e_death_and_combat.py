"""The death-and-returning and combat-options Voila apps in Chromium, at phone width."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

PHONE_WIDTH = 390


def test_fragile_soul_roll(voila_app: Any, phone_page: Any, scroll_width: Any,
                           screenshot: Any) -> None:
    page = voila_app("death_and_returning", page=phone_page)
    page.wait_for_selector('.tc-condition[data-condition="alive"]')
    page.locator(".tc-btn-drop").click()
    page.wait_for_selector('.tc-condition[data-condition="dying"]')
    page.locator(".tc-btn-die").click()
    page.wait_for_selector('.tc-condition[data-condition="dead"]')
    expect(page.locator(".tc-odds")).to_contain_text("works")
    box = page.locator(".tc-int-modifier input")
    box.fill("15")  # d20 + 15 always reaches DC 15
    box.press("Tab")
    page.wait_for_selector('.tc-odds:has-text("100.00%")')
    page.locator(".tc-btn-return").click()
    page.wait_for_selector('.tc-attempt[data-n="1"][data-outcome="works"]')
    page.wait_for_selector('.tc-condition[data-condition="alive"]')
    assert scroll_width(page) <= PHONE_WIDTH + 2
    screenshot(page, "variant5e-death_and_returning-phone")


def test_flanking_grid_and_contest(voila_app: Any, phone_page: Any, scroll_width: Any,
                                   screenshot: Any) -> None:
    page = voila_app("combat_options", page=phone_page)
    page.wait_for_selector('.tc-contest-odds:has-text("47.50%")')
    page.locator(".tc-btn-roll").click()
    page.wait_for_selector('.tc-contest-roll[data-n="1"]')
    for x, y in ((2, 2), (2, 2), (1, 1), (3, 3)):
        page.locator(f".tc-btn-cell-{x}-{y}").click()
    page.wait_for_selector('.tc-flanked[data-n="1"]')
    assert "enemy (2,2) is flanked by ally (1,1) and ally (3,3)" in page.locator(
        ".tc-flanked").inner_text()
    page.locator(".tc-btn-step-ne").click()
    page.wait_for_selector('.tc-feet[data-feet="5"]')
    page.locator(".tc-btn-step-ne").click()
    page.wait_for_selector('.tc-feet[data-feet="15"]')
    assert scroll_width(page) <= PHONE_WIDTH + 2
    for name in ("roll", "cell-0-0", "step-n", "dash"):
        box = page.locator(f".tc-btn-{name}").bounding_box()
        assert box is not None and box["height"] >= 40
    screenshot(page, "variant5e-combat_options-phone")
