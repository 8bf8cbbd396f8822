"""Issue 30's new controls on the Monsters & Magic page its notebook builds (in-process,
the demo table of Ash and Briar): Take Watch against the GM's DC from the rest section,
and a hold paid by the restrainer's own sheet when it sits at the table."""

from __future__ import annotations

import re

from tests.widgets.app_page import AppPage, Scope


def sheet_of(page: AppPage, name: str) -> Scope:
    page.one("tc-select-character").value = name
    return page.within(f"tc-character-{name.lower()}")


def xp(sheet: Scope) -> int:
    found = re.search(r"XP (\d+)", sheet.find_text("tc-sheet"))
    assert found
    return int(found.group(1))


def fatigue(sheet: Scope) -> int:
    found = re.search(r'data-fatigue="(\d+)"', sheet.html())
    assert found
    return int(found.group(1))


def test_take_watch_against_the_gms_dc_gives_the_miss_its_xp() -> None:
    page = AppPage("monsters_and_magic")
    ash = sheet_of(page, "Ash")
    before = xp(ash)
    ash.tap("section-rest")
    ash.one("tc-pick-rest-kind").value = "long"
    ash.one("tc-pick-activity-1").value = "Take Watch"
    ash.one("tc-pick-activity-2").value = "(none)"
    ash.one("tc-check-watch-dc-given").value = True
    ash.fill("watch-dc", "40")  # beyond any total of a d20 that is not a 20
    check = ash.within("tc-check")
    check.one("tc-rule-own").value = True  # the player's own d20: a 12
    check.fill("sheet-faces", "12")
    ash.tap("rest")
    assert "vs DC 40: Miss" in ash.find_text("tc-rest-result")
    assert xp(ash) == before + 1


def test_a_hold_from_the_page_marks_the_restrainers_sheet_too() -> None:
    page = AppPage("monsters_and_magic")
    briar = sheet_of(page, "Briar")
    assert fatigue(briar) == 0
    ash = sheet_of(page, "Ash")
    ash.tap("section-turn")
    ash.fill("holder", "Briar")
    ash.tap("restrained-by")
    ash.tap("start-turn")
    ash.one("tc-check-held").value = True
    ash.tap("break-free")
    assert "Restrained" in ash.find_text("tc-sheet") and fatigue(ash) == 3
    assert fatigue(sheet_of(page, "Briar")) == 3  # Briar marked the same, on her sheet
