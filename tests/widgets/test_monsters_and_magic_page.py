"""The Monsters & Magic table's flows, in-process, on the page its notebook builds (the demo).

These were Chromium tests in tests/browser/test_monsters_and_magic_app.py: the table's odds
before a roll and a roll the shown seed replays, a sheet's turn, threads, fatigue and undo,
the sheet's sections and the buttons in each, Detonate, tending an ally as one of two rest
activities, a check from the player's own d20. The browser keeps one phone journey (layout,
the sheet's height in sections, a refusal drawn under its box); every rule assertion is
made here on the same widgets.
"""

from __future__ import annotations

import re

from companion.rulesets.monsters_and_magic import AbilityCheck
from tests.widgets.app_page import AppPage, Scope, tag


def ash(page: AppPage) -> Scope:
    page.one("tc-select-character").value = "Ash"
    assert len(page.all("tc-character")) == 1  # one sheet on the page at a time
    return page.within("tc-character-ash")


def sheet_data(sheet: Scope, name: str) -> str:
    found = re.search(tag("tc-sheet") + rf'[^>]*data-{name}="([^"]*)"', sheet.html())
    assert found, name
    return found.group(1)


def test_check_odds_roll_and_sheet() -> None:
    page = AppPage("monsters_and_magic")
    section = page.within("tc-section-table-roller")
    roller = section.within("tc-check")
    assert not page.visible(roller.root)  # the sheet first; the table's tools open with a tap
    section.tap("section-table-roller")
    assert page.visible(roller.root)
    assert "55.00%" in roller.text()  # 1d20 vs DC 10: any hit, before any roll
    roller.fill("modifier", "8")
    assert "1d20 + 8" in roller.text()
    weak = roller.inner("tc-tier", data_tier="weak_hit")
    assert "40.00%" in weak and "2/5" in weak  # naturals 2-9 → totals 10-17
    roller.tap("roll")
    assert roller.has("tc-result", data_n="1")
    # The shown seed replays the roll: the verdict and total are the library's for it.
    # (Folded under "details": the words are "details", then the seed.)
    seed = int(re.fullmatch(r"details\s*seed (\d+)", roller.inner("tc-seed")).group(1))
    expected = AbilityCheck(8).roll(seed=seed)
    assert roller.inner("tc-verdict") == expected.tier.label
    assert roller.inner("tc-total") == str(expected.total)

    sheet = ash(page)
    spend = sheet.button("spend-ap")
    assert not page.visible(spend)  # the turn's section starts closed
    sheet.tap("section-turn")
    assert page.visible(spend)
    assert spend.disabled and "own turn" in spend.tooltip  # not Ash's turn: says why
    sheet.fill("amount", "-5")  # refused under the box, Damage disabled, nothing applied
    assert "-5 is too low" in sheet.refusal("amount")
    assert sheet.button("damage").disabled
    sheet.fill("amount", "1")
    assert not sheet.button("damage").disabled
    sheet.tap("start-turn")
    assert sheet_data(sheet, "ap") == "3"
    sheet.tap("spend-ap")
    assert sheet_data(sheet, "ap") == "2"
    sheet.tap("lucky-find")
    assert sheet_data(sheet, "threads") == "1"
    sheet.tap("fatigue")
    assert sheet_data(sheet, "fatigue") == "1"
    sheet.tap("undo")
    assert sheet_data(sheet, "fatigue") == "0"
    assert sheet.has("tc-log", data_count="3")


def test_the_sheet_in_sections_and_every_named_button() -> None:
    page = AppPage("monsters_and_magic")
    sheet = ash(page)
    # On top without a tap: HP and its buttons, the check's roll, the thread moves.
    for name in ("damage", "heal", "fatigue", "roll", "feeling-lucky", "bend-luck",
                 "lucky-find", "undo"):
        assert page.visible(sheet.button(name)), name
    assert page.visible(sheet.one("tc-check-inspired"))  # pays any thread move
    # Every button issue 15 names, in its section.
    named = {"turn": ("break-free", "spend-ap-amount"),
             "body": ("accept-bargain", "refuse-bargain", "damage-affinity", "ally"),
             "states": ("detonate",),
             "rest": ("rest", "tend-ally"),
             "modifiers": ("ongoing", "forward", "hold", "spend-hold"),
             "bonds": ("bonds-of-fate", "bond", "reputation"),
             "gm": ("gm-reroll",)}
    for section, names in named.items():
        assert not page.visible(sheet.button(names[0])), section
        sheet.tap(f"section-{section}")
        for name in names:
            assert page.visible(sheet.button(name)), name
    assert page.visible(sheet.one("tc-pick-affinity"))
    page.tap("section-table-gm")
    assert page.visible(page.button("gm-spend"))
    assert "GM's threads of fate: 0" in page.button("section-table-gm").description
    # Detonate works: Ash becomes Weakened, then the condition goes off for 1d10.
    sheet.one("tc-pick-state").value = "Weakened"
    sheet.tap("add-state")
    assert "Weakened" in sheet.find_text("tc-sheet")
    sheet.one("tc-pick-condition").value = "Weakened"
    sheet.tap("detonate")
    assert "States: none" in sheet.find_text("tc-sheet")


def test_tending_an_ally_is_one_of_the_tenders_two_activities() -> None:
    page = AppPage("monsters_and_magic")
    sheet = ash(page)
    sheet.tap("section-rest")
    sheet.one("tc-pick-ally").value = "Briar"
    sheet.fill("supplies", "1")
    sheet.tap("tend-ally")
    assert ("Ash tended Briar's wounds (Tend to Wounds). 1 activity left"
            in sheet.inner("tc-rest-state"))
    sheet.one("tc-pick-activity-1").value = "Clear Fatigue"
    sheet.one("tc-pick-activity-2").value = "Prepare"
    sheet.tap("rest")
    assert any("a short rest allows 2 activities, not 3: Ash tended Briar's wounds in this "
               "rest" in a for a in sheet.within("tc-section-rest").alerts())
    sheet.one("tc-pick-activity-2").value = "(none)"
    sheet.tap("rest")
    assert "tended Briar's wounds; clears 0 fatigue" in sheet.find_text("tc-rest-result")
    assert sheet.has("tc-sheet", data_resting="")
    # The sheet's check with the player's own d20 (issue 13's controls on every roll).
    check = sheet.within("tc-check")
    check.one("tc-rule-own").value = True
    check.fill("sheet-faces", "20")
    check.tap("roll")
    result = check.find_text("tc-result")
    assert "Critical Hit" in result and "your dice" in result
    assert "Inspired" in sheet.find_text("tc-sheet")
