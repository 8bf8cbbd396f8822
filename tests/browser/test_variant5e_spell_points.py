"""The spell points Voila app in Chromium: spend until refused, long rest, undo; phone width."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

PHONE_WIDTH = 390


def points(page: Any, value: int) -> None:
    page.wait_for_selector(f'.tc-points[data-points="{value}"]')


def test_spend_until_refused_then_long_rest(voila_app: Any, screenshot: Any) -> None:
    page = voila_app("spell_points")
    points(page, 27)  # a level 5 full caster: spells up to 3rd level (the DMG cap)
    page.wait_for_function("() => document.querySelector('.tc-btn-cast-5').disabled")
    assert page.locator(".tc-btn-cast-5").get_attribute("title") == (
        "Spell Points: a level 5 full caster can cast spells up to level 3, not 5")
    for left in (22, 17, 12, 7, 2):  # 3rd-level spells cost 5
        page.locator(".tc-btn-cast-3").click()
        points(page, left)
    # No mentality left for a 3rd-level spell: its button is disabled and says why.
    cast3 = page.locator(".tc-btn-cast-3")
    page.wait_for_function("() => document.querySelector('.tc-btn-cast-3').disabled")
    page.wait_for_function("() => document.querySelector('.tc-btn-cast-3').title"
                           ".startsWith('Spell Points')")
    assert cast3.get_attribute("title") == (
        "Spell Points: a level 3 spell costs 5 mentality, only 2 left")
    expect(page.locator(".tc-btn-cast-1")).to_be_enabled()
    points(page, 2)
    screenshot(page, "variant5e-spell_points-refused")

    page.locator(".tc-btn-long-rest").click()
    points(page, 16)  # regains 14 (half of 27, rounded up)
    page.wait_for_function("() => !document.querySelector('.tc-btn-cast-3').disabled")
    page.wait_for_selector('.tc-log[data-count="6"]')
    expect(page.locator(".tc-log li").first).to_contain_text("long rest: +14")

    page.locator(".tc-btn-undo").click()
    points(page, 2)


def test_phone_width(voila_app: Any, phone_page: Any, scroll_width: Any,
                     screenshot: Any) -> None:
    page = voila_app("spell_points", page=phone_page)
    points(page, 27)
    assert scroll_width(page) <= PHONE_WIDTH + 2
    for name in ("cast-1", "long-rest", "undo", "new"):
        box = page.locator(f".tc-btn-{name}").bounding_box()
        assert box is not None and box["height"] >= 40
    screenshot(page, "variant5e-spell_points-phone")
