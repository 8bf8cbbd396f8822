"""The Cairn Voila apps in Chromium at phone width (390 px): one journey per app.

Each journey checks what only a browser shows: the page does not scroll sideways, every
button is a 40 px tap target, a tap reaches the kernel and its answer comes back on the page
(the widget round trip), a refusal is seen under its box and in view. The rule flows these
tests once drove (burden, scars, casting odds, duel secrecy, lock jamming, group attacks and
gambits, ship repairs, skill checks, conditions, own dice) are asserted in-process on the
same pages in tests/widgets/test_cairn_pages.py.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

PHONE_WIDTH = 390


def outcome(page: Any, n: int) -> Any:
    # data-n counts moves, so each click is seen even when the text repeats.
    loc = page.locator(f'.tc-outcome[data-n="{n}"]')
    loc.wait_for()
    return loc


def fits_a_phone(page: Any, scroll_width: Any) -> None:
    assert scroll_width(page) <= PHONE_WIDTH + 2
    buttons = page.locator(".tc-app button")
    heights = [b["height"] for b in (buttons.nth(i).bounding_box()
                                     for i in range(buttons.count())) if b]
    assert heights and min(heights) >= 40


def test_character_sheet_on_a_phone(voila_app: Any, phone_page: Any, scroll_width: Any,
                                    screenshot: Any) -> None:
    page = voila_app("cairn_character", page=phone_page)
    fits_a_phone(page, scroll_width)
    screenshot(page, "cairn_character-phone")
    page.locator(".tc-name-item-name input").fill("Rope")
    page.locator(".tc-btn-add-item").click()
    outcome(page, 1)
    expect(page.locator(".tc-slot-item").first).to_contain_text("Rope")
    page.locator('.tc-stats[data-free="9"]').wait_for()
    page.locator(".tc-int-damage input").fill("7")
    page.locator(".tc-btn-take-damage").click()
    scar = outcome(page, 2).locator(".tc-scar")
    assert scar.get_attribute("data-scar") == "Rattled"
    expect(scar).to_be_visible()
    screenshot(page, "cairn_character-scar-phone")
    page.locator(".tc-int-damage input").fill("x")
    page.locator(".tc-btn-take-damage").click()
    # Said once, under the box and in view (the app's error line only carries it, unseen).
    expect(page.locator(".tc-refusal-damage")).to_contain_text("whole number")
    expect(page.locator(".tc-refusal-damage")).to_be_in_viewport()
    expect(page.locator(".tc-error:not(.tc-refusal) [role=alert]")).to_have_count(0)
    assert page.locator(".tc-guard").inner_text() == "1"  # and nothing was applied
    # Issue 13: the roll controls are compact until the own-dice switch opens the faces box.
    controls = page.locator(".tc-cairn-roll-controls")
    closed = controls.bounding_box()
    assert closed is not None and closed["height"] <= 90
    page.locator(".tc-rule-own input[type=checkbox]").check()
    faces = page.locator(".tc-faces-roll-faces input")
    faces.wait_for()
    box = faces.bounding_box()
    assert box is not None and box["width"] >= 100  # room to type the faces
    faces.fill("4")
    faces.press("Enter")
    page.locator(".tc-btn-sheet-save").click()
    result = outcome(page, 3)
    expect(result).to_contain_text("d20 = 4 vs ≤ 12: success")
    expect(result).to_contain_text("(own dice)")
    fits_a_phone(page, scroll_width)
    screenshot(page, "cairn_character-own-dice-phone")


def test_spellcasting_on_a_phone(voila_app: Any, phone_page: Any, scroll_width: Any,
                                 screenshot: Any) -> None:
    page = voila_app("spellcasting", page=phone_page)
    fits_a_phone(page, scroll_width)
    page.locator(".tc-dice-choice button", has_text="3").click()
    odds = page.locator('.tc-odds[data-dice="3"]')
    expect(odds.locator(".tc-mishap-p")).to_contain_text("44.44%")
    page.locator(".tc-btn-cast").click()
    expect(outcome(page, 1)).to_contain_text("magic dice ")
    fits_a_phone(page, scroll_width)
    screenshot(page, "spellcasting-phone")


def test_duel_on_a_phone(voila_app: Any, phone_page: Any, scroll_width: Any,
                         screenshot: Any) -> None:
    page = voila_app("duel", page=phone_page)
    fits_a_phone(page, scroll_width)
    page.locator(".tc-name-stakes input").fill("first blood")
    page.locator(".tc-btn-start").click()
    outcome(page, 1)
    page.locator(".tc-btn-choose-0-flourish").click()
    expect(page.locator(".tc-choice-0")).to_contain_text("chosen ✓ (hidden)")
    page.locator(".tc-btn-choose-1-defend").click()
    expect(outcome(page, 3)).to_contain_text("Vera flourish vs Osk defend")
    page.locator('.tc-duel[data-rounds="1"]').wait_for()
    fits_a_phone(page, scroll_width)
    screenshot(page, "duel-phone")


def test_lockpicking_on_a_phone(voila_app: Any, phone_page: Any, scroll_width: Any,
                                screenshot: Any) -> None:
    page = voila_app("lockpicking", page=phone_page)
    fits_a_phone(page, scroll_width)
    page.locator(".tc-btn-new-lock").click()
    outcome(page, 1)
    page.locator(".tc-btn-break").click()
    outcome(page, 2)
    fits_a_phone(page, scroll_width)
    screenshot(page, "lockpicking-phone")


def test_combat_on_a_phone(voila_app: Any, phone_page: Any, scroll_width: Any,
                           screenshot: Any) -> None:
    page = voila_app("cairn_combat", page=phone_page)
    fits_a_phone(page, scroll_width)
    screenshot(page, "cairn_combat-phone")
    # A huge name is refused under its box and does not widen the page.
    page.locator(".tc-name-c-name input").fill("W" * 5000)
    page.locator(".tc-btn-add").click()
    refusal = page.locator(".tc-refusal-c-name [role=alert]")
    expect(refusal).to_contain_text("too long")
    expect(page.locator(".tc-combat tr")).to_have_count(4)  # header + the three: nobody added
    assert scroll_width(page) <= PHONE_WIDTH + 2
    # a PC no goblin die can drop (18 Guard), so both attacks below always land on her
    page.locator(".tc-name-c-name input").fill("Tank")
    page.locator(".tc-c-side select").select_option("PCs")
    page.locator(".tc-int-c-gd input").fill("18")
    page.locator(".tc-c-flag-pc input").check()
    page.locator(".tc-btn-add").click()
    outcome(page, 1)
    page.locator(".tc-btn-initiative").click()
    outcome(page, 2)
    page.locator('.tc-combat[data-round="1"]').wait_for()
    # round 1: the enemy acts; a multiple select picks the joining goblin
    page.locator(".tc-attacker select").select_option("Goblin boss")
    page.locator(".tc-target-select select").select_option("Tank")
    page.locator(".tc-joiners select").select_option(["Goblin"])
    page.locator(".tc-btn-attack").click()
    expect(outcome(page, 3)).to_contain_text("Goblin boss + Goblin → Tank: d8=")
    screenshot(page, "cairn_combat-group-phone")
    # roll first, then choose gambits: the pending dice show with an Apply button
    page.locator(".tc-joiners select").select_option([])
    page.locator(".tc-second select").select_option("d4")
    page.locator(".tc-btn-roll-gambit").click()
    expect(outcome(page, 4)).to_contain_text("rolled d8=")
    page.locator(".tc-pending").wait_for()
    screenshot(page, "cairn_combat-gambit-phone")
    for i in range(2):
        choice = page.locator(f".tc-gambit-{i} select")
        if choice.count():
            choice.select_option("Repel an enemy away from you")
            break
    page.locator(".tc-btn-resolve").click()
    expect(outcome(page, 5)).to_contain_text("d4=")
    expect(page.locator(".tc-pending")).to_have_count(0)
    fits_a_phone(page, scroll_width)


def test_mass_combat_on_a_phone(voila_app: Any, phone_page: Any, scroll_width: Any,
                                screenshot: Any) -> None:
    page = voila_app("cairn_mass_combat", page=phone_page)
    expect(page.locator(".tc-btn-ship-repair-dex")).to_be_disabled()  # nothing damaged yet
    page.locator(".tc-int-ship-damage input").fill("9")
    page.locator(".tc-ship-part select").select_option(label="DEX (sails)")
    page.locator(".tc-btn-ship-hit").click()
    expect(outcome(page, 1)).to_contain_text("Gull: armor 0, Guard 6, DEX 3")
    expect(page.locator(".tc-btn-ship-repair-dex")).to_be_enabled()
    fits_a_phone(page, scroll_width)
    screenshot(page, "cairn_mass_combat-phone")


def test_tasks_on_a_phone(voila_app: Any, phone_page: Any, scroll_width: Any,
                          screenshot: Any) -> None:
    page = voila_app("cairn_tasks", page=phone_page)
    page.locator(".tc-int-skill-have input").fill("3")
    page.locator(".tc-int-skill-have input").press("Tab")  # the box sends on leaving it
    page.locator(".tc-btn-skill-roll").click()
    expect(outcome(page, 1)).to_contain_text("automatic success")
    page.locator(".tc-int-skill-have input").fill("7")
    page.locator(".tc-int-skill-have input").press("Tab")
    page.locator(".tc-refusal-skill-have [role=alert]").wait_for()
    expect(page.locator(".tc-btn-skill-roll")).to_be_disabled()
    fits_a_phone(page, scroll_width)
    screenshot(page, "cairn_tasks-phone")
