"""The spell points Voila app in Chromium on a phone: one journey (layout, tap targets, a
disabled button saying why in its tooltip, a cast and its undo round trip). Spending until
refused, the long rest and its undo are asserted in-process on the same page in
tests/widgets/test_variant5e_pages.py."""

from __future__ import annotations

from typing import Any

PHONE_WIDTH = 390


def points(page: Any, value: int) -> None:
    page.wait_for_selector(f'.tc-points[data-points="{value}"]')


def test_spell_points_on_a_phone(voila_app: Any, phone_page: Any, scroll_width: Any,
                                 screenshot: Any) -> None:
    page = voila_app("spell_points", page=phone_page)
    points(page, 27)  # a level 5 full caster: spells up to 3rd level (the DMG cap)
    page.wait_for_function("() => document.querySelector('.tc-btn-cast-5').disabled")
    assert page.locator(".tc-btn-cast-5").get_attribute("title") == (
        "Spell Points: a level 5 full caster can cast spells up to level 3, not 5")
    page.locator(".tc-btn-cast-3").click()
    points(page, 22)  # 3rd-level spells cost 5
    page.wait_for_selector('.tc-log[data-count="1"]')
    assert scroll_width(page) <= PHONE_WIDTH + 2
    for name in ("cast-1", "long-rest", "undo", "new"):
        box = page.locator(f".tc-btn-{name}").bounding_box()
        assert box is not None and box["height"] >= 40
    screenshot(page, "variant5e-spell_points-phone")
    page.locator(".tc-btn-undo").click()
    points(page, 27)
