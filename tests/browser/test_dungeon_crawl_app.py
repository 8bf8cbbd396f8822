"""The dungeon crawl app in Chromium at phone size (390×844): a party member added, a
torch lit, a full exploration turn stepped through (the clock falls by the die shown with
its seed), the odds shown, the torch marked, a refused input under its box, an escape."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from companion import dice
from companion.rulesets.cairn_srd.exploration import encounter_odds
from companion.rulesets.cairn_srd.saves import save

PHONE_WIDTH = 390


def outcome(page: Any, n: int) -> Any:
    loc = page.locator(f'.tc-outcome[data-n="{n}"]')
    loc.wait_for()
    return loc


def test_dungeon_crawl_turn_on_a_phone(voila_app: Any, phone_page: Any, scroll_width: Any,
                                       screenshot: Any) -> None:
    page = voila_app("dungeon_crawl", page=phone_page)
    odds = page.locator(".tc-clock-odds")
    odds.wait_for()
    assert odds.get_attribute("data-within") == str(encounter_odds(20, 6, 6).within)
    expect(odds).to_contain_text("Expected turns until one: 6.69")

    # the party: one character, named by the user
    page.locator(".tc-name-pc-name input").fill("Ash")
    page.locator(".tc-int-pc-dex input").fill("14")
    page.locator(".tc-btn-add-pc").click()
    outcome(page, 1)
    page.locator('.tc-pc[data-name="Ash"]').wait_for()

    # a torch, carried by Ash, lit
    page.locator(".tc-select-light-bearer select").select_option("Ash")
    page.locator(".tc-btn-add-light").click()
    outcome(page, 2)
    page.locator(".tc-btn-light-0").click()
    outcome(page, 3)
    page.locator('.tc-slot[data-kind="torch"][data-lit="true"][data-turns="6"]').wait_for()

    # one exploration turn, step by step; only the current step's button is enabled
    expect(page.locator(".tc-btn-roll-die")).to_be_disabled()
    page.locator(".tc-btn-declare").click()
    outcome(page, 4)
    page.locator('.tc-clock[data-step="describe"]').wait_for()
    expect(page.locator(".tc-btn-declare")).to_be_disabled()
    page.locator(".tc-btn-describe").click()
    outcome(page, 5)
    page.locator(".tc-btn-roll-die").click()
    rolled = outcome(page, 6)
    seed = int(rolled.get_attribute("data-seed"))
    clock = 20 - dice.roll("1d6", seed=seed).total
    page.locator(f'.tc-clock[data-clock="{clock}"][data-step="mark"]').wait_for()
    expect(rolled).to_contain_text(f"seed {seed}")
    assert re.search(rf"d6 = {20 - clock}; site clock 20 - {20 - clock} = {clock}",
                     rolled.inner_text())
    page.locator(".tc-btn-mark").click()
    outcome(page, 7)
    page.locator('.tc-slot[data-kind="torch"][data-turns="5"]').wait_for()
    page.locator('.tc-clock[data-turn="2"][data-step="declare"]').wait_for()
    assert page.locator(".tc-clock-odds").get_attribute("data-within") == str(
        encounter_odds(clock, 6, 6).within)

    # a refused number stays under its box and the escape button waits for it
    page.locator(".tc-int-discard input").fill("-3")
    page.locator(".tc-int-discard input").press("Tab")
    refusal = page.locator(".tc-refusal-discard")
    refusal.wait_for()
    expect(refusal).to_contain_text("too low")
    page.locator(".tc-int-discard input").fill("0")
    page.locator(".tc-int-discard input").press("Tab")
    refusal.wait_for(state="hidden")
    page.locator(".tc-check-lost input").check()
    page.locator('.tc-dv[data-dv="4"]').wait_for()
    page.locator(".tc-btn-escape-0").click()
    escaped = outcome(page, 8)
    expect(escaped).to_contain_text("Ash escapes by DEX over DV 4")
    result = save(14, floor=4, seed=int(escaped.get_attribute("data-seed")))
    stage = "escaped" if result.success else "failed"
    page.locator(f'.tc-pc[data-name="Ash"][data-stage="{stage}"]').wait_for()
    expect(escaped).to_contain_text(f"d20 = {result.roll} vs 5-14")

    screenshot(page, "dungeon_crawl-phone")
    assert scroll_width(page) <= PHONE_WIDTH + 2
    buttons = page.locator(".tc-app button")
    heights = [b["height"] for b in (buttons.nth(i).bounding_box()
                                     for i in range(buttons.count())) if b]
    assert heights and min(heights) >= 40
