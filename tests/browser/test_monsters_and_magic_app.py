"""The Monsters & Magic Voila app in Chromium on a phone (390 px): one journey for what only
a browser shows: one sheet on the page, in sections short enough for a phone, every button
issue 15 names drawn once its section opens, a refusal drawn under its box, the table's
roller answering a tap, no sideways scrolling and 40 px tap targets.

The rule flows (odds before a roll and a roll its seed replays, a turn's action points,
threads, fatigue and undo, Detonate, tending an ally as one of two rest activities, a check
from the player's own d20) are asserted in-process on the same page in
tests/widgets/test_monsters_and_magic_page.py."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.sizes import assert_16px

PHONE_WIDTH = 390
SCROLL_TOLERANCE = 2

SHEET_HEIGHT_BEFORE = 4080
"""The sheet at 390 px before its sections (measured here in Chromium, issue 15)."""


def test_the_table_on_a_phone(voila_app: Any, phone_page: Any, scroll_width: Any,
                              screenshot: Any) -> None:
    page = voila_app("monsters_and_magic", page=phone_page)
    # The base CSS (tests/browser/test_base_widgets.py): labels and buttons at least 16 px,
    # checkboxes 40 px tap targets.
    assert_16px(page, ".tc-app .widget-label", ".tc-app .tc-btn")
    labels = page.locator(".tc-app .widget-checkbox .widget-label-basic")
    labels.first.wait_for()
    heights = [labels.nth(i).bounding_box()["height"] for i in range(labels.count())
               if labels.nth(i).is_visible()]
    assert heights and min(heights) >= 40, heights
    assert page.locator(".tc-app .widget-checkbox input").first.bounding_box()["height"] >= 32

    page.locator(".tc-select-character select").select_option("Ash")
    sheet = page.locator(".tc-character-ash")
    sheet.wait_for()
    # One sheet on the page at a time (it was 4,223 px with both sheets on a laptop).
    expect(page.locator(".tc-character")).to_have_count(1)
    tall = page.eval_on_selector(".tc-character",
                                 "e => Math.round(e.getBoundingClientRect().height)")
    top = page.eval_on_selector(".tc-character", "e => Math.round(e.getBoundingClientRect()"
                                ".top - document.querySelector('.tc-app')"
                                ".getBoundingClientRect().top)")
    print(f"M&M sheet at 390 px: {SHEET_HEIGHT_BEFORE} px before the sections, {tall} px now, "
          f"starting {top} px from the app's top")
    assert tall < SHEET_HEIGHT_BEFORE / 2 and top < 120
    # On top without a tap: HP and its buttons, the check's roll, the thread moves.
    for name in ("damage", "heal", "fatigue", "roll", "feeling-lucky", "bend-luck",
                 "lucky-find", "undo"):
        expect(sheet.locator(f".tc-btn-{name}")).to_be_visible()
    # A refusal is drawn under its box, a line below it.
    amount = sheet.locator(".tc-int-amount input")
    amount.fill("-5")
    amount.press("Enter")
    error = sheet.locator(".tc-refusal-amount [role=alert]")
    expect(error).to_contain_text("-5 is too low")
    box, line = amount.bounding_box(), error.bounding_box()
    assert box and line and 0 < line["y"] - box["y"] < 120
    # Every button issue 15 names, drawn once its section opens.
    named = {"turn": ("break-free", "spend-ap-amount"),
             "body": ("accept-bargain", "refuse-bargain", "damage-affinity", "ally"),
             "states": ("detonate",),
             "rest": ("rest", "tend-ally"),
             "modifiers": ("ongoing", "forward", "hold", "spend-hold"),
             "bonds": ("bonds-of-fate", "bond", "reputation"),
             "gm": ("gm-reroll",)}
    for section, names in named.items():
        first = sheet.locator(f".tc-btn-{names[0]}")
        expect(first).to_be_hidden()
        sheet.locator(f".tc-btn-section-{section}").click()
        for name in names:
            expect(sheet.locator(f".tc-btn-{name}")).to_be_visible()
    page.locator(".tc-btn-section-table-gm").click()
    expect(page.locator(".tc-btn-gm-spend")).to_be_visible()
    assert scroll_width(page) <= PHONE_WIDTH + SCROLL_TOLERANCE  # every section open
    screenshot(page, "monsters_and_magic-phone-sections")
    # The table's roller: closed until tapped, then a roll's answer comes back.
    roller = page.locator(".tc-section-table-roller .tc-check")
    expect(roller).to_be_hidden()
    page.locator(".tc-btn-section-table-roller").click()
    expect(roller.locator(".tc-chance")).to_contain_text("55.00%")
    roller.locator(".tc-btn-roll").click()
    page.wait_for_selector('.tc-section-table-roller .tc-result[data-n="1"]')
    assert scroll_width(page) <= PHONE_WIDTH + SCROLL_TOLERANCE
    heights = page.eval_on_selector_all(  # closed sections' buttons are not drawn (0 px)
        ".tc-btn", "els => els.map(e => e.getBoundingClientRect().height).filter(h => h)")
    assert heights and min(heights) >= 40
    screenshot(page, "monsters_and_magic-phone")
