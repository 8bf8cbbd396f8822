"""The 5e death-and-returning and spell-points apps' flows, in-process, on the pages their
notebooks build (the demos).

These were Chromium tests in tests/browser/test_variant5e_death_and_combat.py and
test_variant5e_spell_points.py: a Fragile Soul return that always works (d20 + 15 vs DC
15), a death save from the player's own d20 (21 refused, 1 is two failures), spending
mentality until a spell is refused with the reason, a long rest and its undo. The browser
keeps one phone journey per app (layout, tap targets, the round trip); every rule assertion
is made here on the same widgets.
"""

from __future__ import annotations

import re

from tests.widgets.app_page import AppPage, tag


def test_fragile_soul_return() -> None:
    page = AppPage("death_and_returning")
    assert page.has("tc-condition", data_condition="alive")
    page.tap("drop")
    assert page.has("tc-condition", data_condition="dying")
    page.tap("die")
    assert page.has("tc-condition", data_condition="dead")
    assert "works" in page.find_text("tc-odds")
    page.fill("modifier", "15")  # d20 + 15 always reaches DC 15
    assert "100.00%" in page.find_text("tc-odds")
    page.tap("return")
    assert page.has("tc-attempt", data_n="1", data_outcome="works")
    assert page.has("tc-condition", data_condition="alive")


def test_death_save_from_real_dice() -> None:
    """Issue 13: a death save from a d20 rolled at the table. 21 is refused under the faces
    box and nothing changes; 1 is two failures (the rule's natural 1), marked as own dice,
    with no seed."""
    page = AppPage("death_and_returning")
    page.tap("drop")
    assert "failures 0/3" in page.find_text("tc-condition")
    controls = page.within("tc-roll-controls-death")
    controls.one("tc-rule-own").value = True
    page.fill("death-faces", "21")
    page.button("save").click()
    assert "a d20 shows 1 to 20, not 21" in page.refusal("death-faces")
    assert "failures 0/3" in page.find_text("tc-condition")  # nothing changed
    page.fill("death-faces", "1")
    page.tap("save")
    saved = page.find_text("tc-save-roll", data_n="1", data_face="1")
    assert "d20 shows 1" in saved and "own dice" in saved and "seed" not in saved
    assert "failures 2/3" in page.find_text("tc-condition")


def points(page: AppPage) -> int:
    found = re.search(tag("tc-points") + r'[^>]*data-points="(\d+)"', page.html())
    assert found
    return int(found.group(1))


def test_spend_until_refused_then_long_rest() -> None:
    page = AppPage("spell_points")
    assert points(page) == 27  # a level 5 full caster: spells up to 3rd level (the DMG cap)
    assert page.button("cast-5").disabled
    assert page.button("cast-5").tooltip == (
        "Spell Points: a level 5 full caster can cast spells up to level 3, not 5")
    for left in (22, 17, 12, 7, 2):  # 3rd-level spells cost 5
        page.tap("cast-3")
        assert points(page) == left
    # No mentality left for a 3rd-level spell: its button is disabled and says why.
    assert page.button("cast-3").disabled
    assert page.button("cast-3").tooltip == (
        "Spell Points: a level 3 spell costs 5 mentality, only 2 left")
    assert not page.button("cast-1").disabled
    page.tap("long-rest")
    assert points(page) == 16  # regains 14 (half of 27, rounded up)
    assert not page.button("cast-3").disabled
    assert page.has("tc-log", data_count="6")
    first = re.search(r"<li[^>]*>(.*?)</li>", page.find("tc-log"), flags=re.S)
    assert first and "long rest: +14" in first.group(1)
    page.tap("undo")
    assert points(page) == 2
