"""Issue 15's new apps in Chromium at phone size (390 × 844): each opens, takes a tap and
shows the rule's answer, without sideways scrolling."""

from __future__ import annotations

from typing import Any

PHONE_WIDTH = 390


def test_new_apps_at_phone_size(voila_app: Any, phone_page: Any, scroll_width: Any,
                                screenshot: Any) -> None:
    page = voila_app("combat_turn", page=phone_page)
    page.locator(".tc-btn-action").click()
    page.wait_for_selector(".tc-turn")
    page.wait_for_function("() => document.querySelector('.tc-turn').textContent"
                           ".includes('action: attack')")
    assert scroll_width(page) <= PHONE_WIDTH + 2
    screenshot(page, "issue15-combat_turn-phone")

    page = voila_app("facing", page=phone_page)
    page.wait_for_selector('.tc-facing-report[data-flanked="true"]')
    assert scroll_width(page) <= PHONE_WIDTH + 2

    page = voila_app("hit_dice", page=phone_page)
    page.locator(".tc-btn-damage").click()
    page.wait_for_selector('.tc-hp[data-hp="34"]')
    page.locator(".tc-btn-short").click()
    page.locator(".tc-btn-roll").click()
    page.wait_for_selector(".tc-hit-die")
    assert scroll_width(page) <= PHONE_WIDTH + 2

    page = voila_app("magic_items", page=phone_page)
    page.locator(".tc-btn-activate").click()
    page.wait_for_selector('.tc-item[data-charges="6"]')
    assert scroll_width(page) <= PHONE_WIDTH + 2

    page = voila_app("mm_travel", page=phone_page)
    page.wait_for_selector('.tc-plan[data-periods="3"]')  # 6 hexes at normal pace
    page.locator(".tc-btn-fall").click()
    page.wait_for_selector(".tc-fall")
    assert scroll_width(page) <= PHONE_WIDTH + 2
    screenshot(page, "issue15-mm_travel-phone")
