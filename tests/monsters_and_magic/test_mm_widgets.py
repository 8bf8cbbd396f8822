"""The Monsters & Magic components, headless: they call the core and show its state."""

from __future__ import annotations

import json
from pathlib import Path

from companion.rulesets.monsters_and_magic import AbilityCheck, Tier
from companion.widgets.base import press_enter
from companion.widgets.monsters_and_magic import MonstersAndMagicApp

ROOT = Path(__file__).resolve().parents[2]


def fraction(p: object) -> str:
    from companion.cli import fraction_text

    return fraction_text(p)  # type: ignore[arg-type]


def test_odds_shown_before_rolling_follow_the_controls() -> None:
    app = MonstersAndMagicApp(["Ash"])
    roller = app.roller
    assert "55.00%" in roller.odds.value
    roller.modifier.value = 4
    roller.dc.value = 13
    roller.edge.value = "advantage"
    odds = AbilityCheck(4, 13, advantage=True).tier_odds()
    for tier in Tier:
        assert fraction(odds[tier]) in roller.odds.value
    assert "2d20kh1 + 4 vs DC 13" in roller.odds.value
    roller.roll()
    roller.roll()
    assert 'data-n="2"' in roller.result.value


def test_sheet_buttons_call_the_tracker_and_show_refusals() -> None:
    app = MonstersAndMagicApp(["Ash", "Briar"])
    sheet = app.sheets["Ash"]
    a = sheet.adventurer
    buttons = {b.description: b for r in sheet.children if hasattr(r, "children")
               for b in r.children if hasattr(b, "on_click")}
    buttons["Spend AP"].click()
    assert "own turn" in sheet.section_errors["turn"].message
    buttons["Start turn"].click()
    assert a.ap == 3 and 'data-ap="3"' in sheet.view.value and sheet.message == ""
    buttons["Spend AP"].click()  # Strike, 1 AP
    assert a.ap == 2
    buttons["Lucky Find"].click()
    buttons["Lucky Find"].click()
    assert a.threads == 0 and 'data-threads="0"' in sheet.view.value
    buttons["Lucky Find"].click()
    assert "Threads of Fate" in sheet.section_errors["threads"].message
    sheet.amount.value = 7
    buttons["Mark fatigue"].click()
    assert (a.fatigue, a.exhaustion) == (5, 2) and 'data-exhaustion="2"' in sheet.view.value
    buttons["Undo"].click()
    assert (a.fatigue, a.exhaustion) == (0, 0)
    sheet.state.value = "Weakened"
    buttons["Add"].click()
    buttons["Add"].click()
    assert "already Weakened" in sheet.section_errors["body"].message
    assert "Weakened" in sheet.view.value
    assert app.sheets["Briar"].adventurer.ap == 0  # the other sheet is untouched


def test_sheet_check_uses_the_character() -> None:
    app = MonstersAndMagicApp(["Ash"])
    sheet = app.sheets["Ash"]
    sheet.adventurer.take_forward(3)
    assert "1d20 + 5" in sheet.checks.odds.value  # luck +2 and forward +3
    sheet.checks.roll()
    assert sheet.adventurer.forward == 0
    assert "1d20 + 2" in sheet.checks.odds.value  # re-rendered from the tracker
    assert 'data-count="2"' in sheet.history.value


def test_add_character_and_duplicates() -> None:
    app = MonstersAndMagicApp(["Ash"])
    app.new_name.value = "Cole"
    press_enter(app.new_name)
    assert "Cole" in app.sheets and len(app.characters.children) == 2
    app.new_name.value = "Ash"
    press_enter(app.new_name)
    assert "already at the table" in app.error.message


def test_notebook_is_a_few_lines_of_valid_nbformat() -> None:
    nb = json.loads((ROOT / "widgets" / "monsters_and_magic.ipynb").read_text())
    assert nb["nbformat"] == 4 and nb["metadata"]["kernelspec"]["name"] == "python3"
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert len(code) == 1 and len(code[0]["source"]) <= 4


def test_group_roller_and_gm_threads() -> None:
    from companion.rulesets.monsters_and_magic import group_odds

    app = MonstersAndMagicApp(["Ash"])
    group = app.group
    expected = group_odds([AbilityCheck(2), AbilityCheck(0), AbilityCheck(-1)])
    assert all(fraction(p) in group.odds.value for p in expected.values())
    group.modifiers.value = "5, 5"
    press_enter(group.modifiers)
    assert "Group of 2" in group.odds.value
    group.roll()
    assert 'data-n="1"' in group.result.value
    group.modifiers.value = "five"
    press_enter(group.modifiers)
    assert "whole numbers" in group.error.message
    buttons = {b.description: b for b in app.gm_view.children[1].children
               if hasattr(b, "on_click")}
    buttons["Spend"].click()
    assert "no thread" in app.gm_view.error.message
    buttons["+1 thread"].click()
    buttons["Spend"].click()
    assert app.gm.threads == 0 and len(app.gm.log) == 2


def test_a_sheets_critical_miss_feeds_the_gm() -> None:
    app = MonstersAndMagicApp(["Ash"])
    checks = app.sheets["Ash"].checks
    for _ in range(200):  # seeds are drawn fresh; roll until a natural 1 shows up
        result = checks.roll()
        if result.tier == Tier.CRITICAL_MISS:
            break
    misses = sum(1 for e in app.sheets["Ash"].adventurer.log
                 if "Critical Miss" in e.summary)
    assert app.gm.threads == misses


def test_errors_show_under_the_section_that_was_tapped() -> None:
    app = MonstersAndMagicApp(["Ash"])
    sheet = app.sheets["Ash"]
    kids = list(sheet.children)
    turn_line = sheet.section_errors["turn"]
    spend = next(b for r in kids if hasattr(r, "children") for b in r.children
                 if getattr(b, "description", "") == "Spend AP")
    spend_row = next(i for i, r in enumerate(kids) if spend in getattr(r, "children", ()))
    # The turn section's line comes after its two rows, before the next heading.
    assert kids.index(turn_line) in (spend_row + 1, spend_row + 2)
    spend.click()
    assert "own turn" in turn_line.message and sheet.message == turn_line.message
    assert all(not line.message for k, line in sheet.section_errors.items() if k != "turn")
    assert app.error.message == ""  # the app's line is for adding characters only
    # A move in another section goes through: the stale refusal is cleared.
    sheet.amount.value = 1
    next(b for r in kids if hasattr(r, "children") for b in r.children
         if getattr(b, "description", "") == "Mark fatigue").click()
    assert sheet.adventurer.fatigue == 1 and sheet.message == ""
    # Each top-level part holds its own line, under its buttons.
    for part in (app.roller, app.group, app.gm_view):
        assert part.error in part.children
    assert list(app.children)[-1] is app.error


def test_rest_buttons_name_their_benefit_and_take_it() -> None:
    app = MonstersAndMagicApp(["Ash"])
    sheet = app.sheets["Ash"]
    buttons = {b.description: b for r in sheet.children if hasattr(r, "children")
               for b in r.children if hasattr(b, "on_click")}
    sheet.amount.value = 2
    buttons["Mark fatigue"].click()
    buttons["Short rest: clear fatigue"].click()
    assert sheet.adventurer.fatigue < 2 and sheet.message == ""
    assert {"Long rest: clear fatigue", "Extended rest: recuperate"} <= set(buttons)
