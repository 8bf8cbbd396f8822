"""The death-and-returning and combat-options Voila apps in Chromium, at phone width: one
journey per app (layout, tap targets, the compact roll controls, the round trip). The
death-and-returning rules (a Fragile Soul return, a death save from the player's own d20)
are asserted in-process on the same page in tests/widgets/test_variant5e_pages.py."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.browser.taps import tap

PHONE_WIDTH = 390


def test_death_and_returning_on_a_phone(voila_app: Any, phone_page: Any, scroll_width: Any,
                                        screenshot: Any) -> None:
    """Issue 13 on a 390 px phone: a death save from a d20 rolled at the table, through the
    app's one roll row (compact while the own-dice switch is off); then death and a Fragile
    Soul return that always works."""
    page = voila_app("death_and_returning", page=phone_page)
    page.wait_for_selector('.tc-condition[data-condition="alive"]')
    controls = page.locator(".tc-roll-controls-death")
    controls.wait_for()
    closed = controls.bounding_box()
    assert closed is not None and closed["height"] <= 90  # compact while the switch is off
    page.locator(".tc-btn-drop").click()
    expect(page.locator(".tc-condition")).to_contain_text("failures 0/3")
    page.locator(".tc-roll-controls-death .tc-rule-own input[type=checkbox]").check()
    faces = page.locator(".tc-faces-death-faces input")
    faces.wait_for()
    faces.fill("21")
    faces.press("Enter")
    page.locator(".tc-btn-save").click()
    expect(page.locator(".tc-refusal-death-faces")).to_contain_text(
        "a d20 shows 1 to 20, not 21")
    faces.fill("1")
    faces.press("Enter")
    page.locator(".tc-btn-save").click()
    saved = page.locator('.tc-save-roll[data-n="1"][data-face="1"]')
    expect(saved).to_contain_text("own dice")
    expect(page.locator(".tc-condition")).to_contain_text("failures 2/3")
    assert scroll_width(page) <= PHONE_WIDTH + 2
    screenshot(page, "variant5e-death-own-dice-phone")
    page.locator(".tc-btn-die").click()
    page.wait_for_selector('.tc-condition[data-condition="dead"]')
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
    # Each tap waits for its answer: a second tap on a button before its first is answered
    # counts for nothing (the page's double-tap guard), as a player's would.
    for x, y, shown in ((2, 2, "A"), (2, 2, "E"), (1, 1, "A"), (3, 3, "A")):
        tap(page.locator(f".tc-btn-cell-{x}-{y}"))
        expect(page.locator(f".tc-btn-cell-{x}-{y}")).to_have_text(shown)
    expect(page.locator('.tc-flanked[data-n="1"]')).to_contain_text(
        "enemy (2,2) is flanked by ally (1,1) and ally (3,3)")
    tap(page.locator(".tc-btn-step-ne"))
    page.wait_for_selector('.tc-feet[data-feet="5"]')
    tap(page.locator(".tc-btn-step-ne"))
    page.wait_for_selector('.tc-feet[data-feet="15"]')
    assert scroll_width(page) <= PHONE_WIDTH + 2
    for name in ("roll", "cell-0-0", "step-n", "dash"):
        box = page.locator(f".tc-btn-{name}").bounding_box()
        assert box is not None and box["height"] >= 40
    screenshot(page, "variant5e-combat_options-phone")
