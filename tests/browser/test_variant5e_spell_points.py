"""The spell points Voila app in Chromium: spend until refused, long rest, undo; phone width."""

from __future__ import annotations

from typing import Any

PHONE_WIDTH = 390


def points(page: Any, value: int) -> None:
    page.wait_for_selector(f'.tc-points[data-points="{value}"]')


def test_spend_until_refused_then_long_rest(voila_app: Any, screenshot: Any) -> None:
    page = voila_app("spell_points")
    points(page, 27)  # a level 5 full caster
    for left in (20, 13, 6):  # 5th-level spells cost 7
        page.locator(".tc-btn-cast-5").click()
        points(page, left)
    # No mentality left for a 5th-level spell: its button is disabled and says why.
    cast5 = page.locator(".tc-btn-cast-5")
    page.wait_for_function("() => document.querySelector('.tc-btn-cast-5').disabled")
    assert cast5.get_attribute("title") == (
        "Spell Points: a level 5 spell costs 7 mentality, only 6 left")
    assert page.locator(".tc-btn-cast-1").is_enabled()
    points(page, 6)
    screenshot(page, "variant5e-spell_points-refused")

    page.locator(".tc-btn-long-rest").click()
    points(page, 20)  # regains 14 (half of 27, rounded up)
    page.wait_for_function("() => !document.querySelector('.tc-btn-cast-5').disabled")
    page.wait_for_selector('.tc-log[data-count="4"]')
    assert "long rest: +14" in page.locator(".tc-log li").first.inner_text()

    page.locator(".tc-btn-undo").click()
    points(page, 6)


def test_phone_width(voila_app: Any, phone_page: Any, scroll_width: Any,
                     screenshot: Any) -> None:
    page = voila_app("spell_points", page=phone_page)
    points(page, 27)
    assert scroll_width(page) <= PHONE_WIDTH + 2
    for name in ("cast-1", "long-rest", "undo", "new"):
        box = page.locator(f".tc-btn-{name}").bounding_box()
        assert box is not None and box["height"] >= 40
    screenshot(page, "variant5e-spell_points-phone")
