"""The plot-points Voila app in a real Chromium: a check, a plot point spent, strain to a wound."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

PHONE_WIDTH = 390
SCROLL_TOLERANCE = 2


def test_check_spend_and_strain(voila_app: Any, screenshot: Any) -> None:
    page = voila_app("plot_points")
    chance = page.locator(".tc-chance")
    chance.wait_for()
    expect(chance).to_contain_text("55.00%")  # 1d20 vs 10, shown before any roll

    difficulty = page.locator(".tc-int-difficulty input")
    difficulty.fill("30")
    difficulty.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('.tc-chance').innerText.includes('vs 30')")
    expect(chance).to_contain_text("0.00%")  # nobody reaches 30: a sure failure

    page.locator(".tc-btn-roll").click()
    page.wait_for_selector('.tc-result[data-n="1"]')
    expect(page.locator(".tc-result")).to_contain_text("failure")
    assert page.locator(".tc-log").get_attribute("data-count") == "1"

    page.locator(".tc-btn-retry").click()
    page.wait_for_selector('.tc-result[data-n="2"]')
    expect(page.locator(".tc-result")).to_contain_text("spends a lucky point to retry")
    page.wait_for_selector('.tc-log[data-count="2"]')
    expect(page.locator(".tc-log li").first).to_contain_text("spends a lucky point")
    lucky = int(page.locator(".tc-lucky-count").inner_text())
    unlucky = int(page.locator(".tc-unlucky-count").inner_text())
    assert lucky + unlucky == 4  # three players and the GM
    expect(page.locator(".tc-token")).to_have_count(4)

    sheet = page.locator(".tc-character-ash")
    for strain in (1, 2, 3):
        sheet.locator(".tc-btn-strain").click()
        page.wait_for_selector(f'.tc-character-ash .tc-sheet[data-strain="{strain}"]')
    expect(sheet.locator(".tc-wounds")).to_have_text("0", use_inner_text=True)
    sheet.locator(".tc-btn-strain").click()
    page.wait_for_selector('.tc-character-ash .tc-sheet[data-wounds="1"]')
    expect(sheet.locator(".tc-strain")).to_have_text("0", use_inner_text=True)
    expect(sheet.locator(".tc-condition")).to_have_text("Exhausted", use_inner_text=True)

    sheet.locator(".tc-btn-heal").click()
    page.wait_for_selector('.tc-character-ash .tc-sheet[data-wounds="0"]')
    # No wound left: the button that cannot work is disabled.
    page.wait_for_selector(".tc-character-ash .tc-btn-heal:disabled")

    # A difficulty that is not a number is refused under its box; nothing is rolled.
    difficulty.fill("ten")
    difficulty.press("Enter")
    refusal = page.locator(".tc-refusal-difficulty [role=alert]")
    refusal.wait_for()
    expect(refusal).to_contain_text("is not a whole number")
    page.locator(".tc-btn-roll").click()
    page.wait_for_selector(".tc-app > .tc-error [role=alert], .tc-error [role=alert]")
    expect(page.locator('.tc-result[data-n="3"]')).to_have_count(0)
    difficulty.fill("12")
    difficulty.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('.tc-chance').innerText.includes('vs 12')")
    expect(page.locator(".tc-refusal-difficulty [role=alert]")).to_have_count(0)
    screenshot(page, "plot_points")


def test_phone_width(voila_app: Any, phone_page: Any, scroll_width: Any,
                     screenshot: Any) -> None:
    page = voila_app("plot_points", page=phone_page)
    page.locator(".tc-btn-roll").click()
    page.wait_for_selector('.tc-result[data-n="1"]')
    assert scroll_width(page) <= PHONE_WIDTH + SCROLL_TOLERANCE
    heights = page.eval_on_selector_all(
        ".tc-btn", "els => els.filter(e => e.getClientRects().length)"  # shown ones only
        ".map(e => e.getBoundingClientRect().height)")
    assert heights and min(heights) >= 40
    screenshot(page, "plot_points-phone")
