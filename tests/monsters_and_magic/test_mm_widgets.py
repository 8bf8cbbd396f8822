"""The Monsters & Magic components, headless: they call the core and show its state."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import pytest

from companion.rulesets.monsters_and_magic import AbilityCheck, Adventurer, Tier
from companion.widgets.base import press_enter
from companion.widgets.monsters_and_magic import MonstersAndMagicApp
from tests.conftest import widgets_by_name

ROOT = Path(__file__).resolve().parents[2]


def find_buttons(root: widgets.Widget) -> dict[str, widgets.Button]:
    """Every button under ``root`` by its ``tc-btn-<name>`` class."""
    return widgets_by_name(root, kind="btn")


def fraction(p: object) -> str:
    from companion.dice.render import fraction_text

    return fraction_text(p)  # type: ignore[arg-type]


def _all(root: Any) -> list[Any]:
    out, stack = [], [root]
    while stack:
        widget = stack.pop()
        out.append(widget)
        stack.extend(getattr(widget, "children", ()))
    return out


def counting_seeds(start: int = 0) -> Any:
    return itertools.count(start).__next__


def test_odds_shown_before_rolling_follow_the_controls() -> None:
    app = MonstersAndMagicApp(["Ash"], seed_source=counting_seeds(7))
    roller = app.roller
    assert "55.00%" in roller.odds.value
    roller.modifier.value = 4
    roller.dc.value = 13
    roller.edge.value = "advantage"
    odds = AbilityCheck(4, 13, advantage=True).tier_odds()
    for tier in Tier:
        assert fraction(odds[tier]) in roller.odds.value
    assert "2d20kh1 + 4 vs DC 13" in roller.odds.value
    first = roller.roll()
    assert first.total == AbilityCheck(4, 13, advantage=True).roll(seed=7).total
    assert "seed 7" in roller.result.value and roller.last_seed == 7
    roller.roll()
    assert 'data-n="2"' in roller.result.value and roller.last_seed == 8


def test_sheet_buttons_call_the_tracker_and_show_refusals() -> None:
    app = MonstersAndMagicApp(["Ash", "Briar"])
    sheet = app.sheets["Ash"]
    a = sheet.adventurer
    buttons = find_buttons(sheet)
    assert buttons["spend-ap"].disabled and "own turn" in buttons["spend-ap"].tooltip
    buttons["spend-ap"].click()  # a stale page may still send the click: refused with the rule
    assert "own turn" in sheet.section_errors["turn"].message
    buttons["start-turn"].click()
    assert a.ap == 3 and 'data-ap="3"' in sheet.view.value and sheet.message == ""
    assert buttons["start-turn"].disabled and not buttons["spend-ap"].disabled
    buttons["spend-ap"].click()  # Strike, 1 AP
    assert a.ap == 2
    buttons["lucky-find"].click()
    buttons["lucky-find"].click()
    assert a.threads == 0 and 'data-threads="0"' in sheet.view.value
    assert buttons["lucky-find"].disabled
    buttons["lucky-find"].click()
    assert "Threads of Fate" in sheet.section_errors["threads"].message
    sheet.amount.value = 7
    buttons["fatigue"].click()
    assert (a.fatigue, a.exhaustion) == (5, 2) and 'data-exhaustion="2"' in sheet.view.value
    buttons["undo"].click()
    assert (a.fatigue, a.exhaustion) == (0, 0)
    sheet.state.value = "Weakened"
    buttons["add-state"].click()
    assert buttons["add-state"].disabled and not buttons["remove-state"].disabled
    buttons["add-state"].click()
    assert "already Weakened" in sheet.section_errors["body"].message
    assert "Weakened" in sheet.view.value
    assert app.sheets["Briar"].adventurer.ap == 0  # the other sheet is untouched


def test_one_character_shown_at_a_time_with_a_picker() -> None:
    app = MonstersAndMagicApp(["Ash", "Briar"])
    assert list(app.picker.options) == ["Ash", "Briar"]
    assert app.characters.children == (app.sheets["Briar"],)  # the last one added
    app.picker.value = "Ash"
    assert app.characters.children == (app.sheets["Ash"],)
    # Every control of a sheet is on the page once, however many characters there are.
    spend = [w for w in _all(app) if "tc-btn-spend-ap" in getattr(w, "_dom_classes", ())]
    assert len(spend) == 1


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
    press_enter(app.new_name.control)
    assert "Cole" in app.sheets and app.party.names == ("Ash", "Cole")
    assert app.picker.value == "Cole" and app.characters.children == (app.sheets["Cole"],)
    app.new_name.value = " ash "
    press_enter(app.new_name.control)
    assert app.error.message == "Characters: Ash is already at the table"
    assert app.party.names == ("Ash", "Cole")


def test_a_long_name_is_refused_under_the_box_and_add_is_disabled() -> None:
    app = MonstersAndMagicApp(["Ash"])
    app.new_name.text = "x" * 5000
    assert "too long (5,000 characters): at most 60" in app.new_name.refusal.message
    assert app.add_button.disabled
    press_enter(app.new_name.control)
    assert app.party.names == ("Ash",)
    app.new_name.text = "Dara"
    assert app.new_name.refusal.message == "" and not app.add_button.disabled
    app.add_button.click()
    assert app.party.names == ("Ash", "Dara")


def test_notebook_is_a_few_lines_of_valid_nbformat() -> None:
    nb = json.loads((ROOT / "widgets" / "monsters_and_magic.ipynb").read_text())
    assert nb["nbformat"] == 4 and nb["metadata"]["kernelspec"]["name"] == "python3"
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert len(code) == 1 and len(code[0]["source"]) <= 4


def test_group_roller_and_gm_threads() -> None:
    from companion.rulesets.monsters_and_magic import group_odds, roll_group

    app = MonstersAndMagicApp(["Ash"], seed_source=counting_seeds(3))
    group = app.group
    expected = group_odds([AbilityCheck(2), AbilityCheck(0), AbilityCheck(-1)])
    assert all(fraction(p) in group.odds.value for p in expected.values())
    group.modifiers.value = "5, 5"
    press_enter(group.modifiers)
    assert "Group of 2" in group.odds.value
    result = group.roll()
    assert result.tier == roll_group([AbilityCheck(5), AbilityCheck(5)], seed=3).tier
    assert 'data-n="1"' in group.result.value and "seed 3" in group.result.value
    group.modifiers.value = "five"
    assert "whole numbers" in group.modifiers_error.message
    assert group.roll_button.disabled
    group.modifiers.value = "1, 2"
    assert group.modifiers_error.message == "" and not group.roll_button.disabled
    buttons = find_buttons(app.gm_view)
    assert buttons["gm-spend"].disabled
    buttons["gm-spend"].click()
    assert "no thread" in app.gm_view.error.message
    buttons["gm-gain"].click()
    assert not buttons["gm-spend"].disabled
    buttons["gm-spend"].click()
    assert app.gm.threads == 0 and len(app.gm.log) == 2


def test_a_sheets_critical_miss_feeds_the_gm() -> None:
    # Find a seed whose d20 shows 1, then make the sheet's check use it.
    seed = next(s for s in range(1000) if AbilityCheck(0).roll(seed=s).natural == 1)
    app = MonstersAndMagicApp(["Ash"], seed_source=lambda: seed)
    result = app.sheets["Ash"].checks.roll()
    assert result.tier == Tier.CRITICAL_MISS and app.gm.threads == 1
    other = next(s for s in range(1000) if AbilityCheck(2).roll(seed=s).natural == 15)
    app.sheets["Ash"].seed_source = lambda: other  # the sheet draws every roll's seed
    assert app.sheets["Ash"].checks.roll().tier != Tier.CRITICAL_MISS
    assert app.gm.threads == 1


def test_errors_show_under_the_section_that_was_tapped() -> None:
    app = MonstersAndMagicApp(["Ash"])
    sheet = app.sheets["Ash"]
    kids = list(sheet.sheet_moves.sections["turn"].body.children)
    turn_line = sheet.section_errors["turn"]
    spend = find_buttons(sheet)["spend-ap"]
    spend_row = next(i for i, r in enumerate(kids) if spend in getattr(r, "children", ()))
    # The turn section's line comes right after its rows, inside the section.
    assert kids.index(turn_line) == spend_row + 2
    spend.click()
    assert "own turn" in turn_line.message and sheet.message == turn_line.message
    assert all(not line.message for k, line in sheet.section_errors.items() if k != "turn")
    assert app.error.message == ""  # the app's line is for adding characters only
    # A move in another section goes through: the stale refusal is cleared.
    sheet.amount.value = 1
    find_buttons(sheet)["fatigue"].click()
    assert sheet.adventurer.fatigue == 1 and sheet.message == ""
    # Each top-level part holds its own line, under its buttons.
    for part in (app.roller, app.group, app.gm_view):
        assert part.error in part.children
    assert list(app.children)[-1] is app.error


def test_rest_buttons_name_their_benefit_and_take_it() -> None:
    app = MonstersAndMagicApp(["Ash"])
    sheet = app.sheets["Ash"]
    buttons = {b.description: b for b in find_buttons(sheet).values()}
    sheet.amount.value = 2
    buttons["Mark fatigue"].click()
    buttons["Short rest: clear fatigue"].click()
    assert sheet.adventurer.fatigue < 2 and sheet.message == ""
    assert {"Long rest: clear fatigue", "Extended rest: recuperate"} <= set(buttons)


# -- bad input: refused under the box, the action does not run, fixed input clears it -----

@pytest.mark.parametrize(("typed", "says"), [
    ("-5", "Amount: -5 is too low: enter a whole number from 1 to 1000"),
    ("0", "Amount: 0 is too low"),
    ("", "Amount: the box is empty"),
    ("abc", "is not a whole number"),
    ("2.5", "is not a whole number"),
    ("1001", "Amount: 1001 is too high"),
    ("٣", "is not a whole number"),
])
def test_a_bad_amount_is_refused_under_the_box_and_nothing_happens(typed: str,
                                                                   says: str) -> None:
    app = MonstersAndMagicApp(["Ash"])
    sheet = app.sheets["Ash"]
    a = sheet.adventurer
    buttons = find_buttons(sheet)
    sheet.amount.text = typed
    assert says in sheet.amount.refusal.message
    assert sheet.amount.text == typed  # kept as typed, not reverted or clamped
    for name in ("damage", "heal", "fatigue", "clear-fatigue", "exhaustion"):
        assert buttons[name].disabled
    buttons["damage"].click()  # a click already on its way does nothing either
    assert a.hp == 12 and len(a.log) == 0
    sheet.amount.text = "5"
    assert sheet.amount.refusal.message == "" and not buttons["damage"].disabled
    assert sheet.message == ""  # the echo under the buttons went with the fix
    buttons["damage"].click()
    assert a.hp == 7


@pytest.mark.parametrize(("box", "typed", "says"), [
    ("modifier", "1001", "Modifier: 1001 is too high: enter a whole number from -1000 to 1000"),
    ("modifier", "x", "is not a whole number"),
    ("dc", "", "DC: the box is empty"),
    ("steps", "5", "Steps: 5 is too high: enter a whole number from -4 to 4"),
])
def test_the_roller_refuses_bad_numbers_without_capping(box: str, typed: str,
                                                        says: str) -> None:
    app = MonstersAndMagicApp(["Ash"])
    roller = app.roller
    target = getattr(roller, box)
    target.text = typed
    assert says in target.refusal.message and target.text == typed
    assert roller.roll_button.disabled and "Fix the number" in roller.odds.value
    roller.roll_button.click()
    assert roller.rolls == 0
    target.text = "3"
    assert target.refusal.message == "" and not roller.roll_button.disabled
    assert roller.roll() is not None and roller.rolls == 1


def test_a_group_modifier_past_the_limit_is_refused() -> None:
    app = MonstersAndMagicApp(["Ash"])
    app.group.modifiers.value = "2, 5000"
    assert app.group.modifiers_error.message == ("Group Checks: a modifier must be within "
                                                 "±1000, not 5000")
    assert app.group.roll_button.disabled


def test_the_sheet_buttons_follow_the_rules_of_the_moment() -> None:
    app = MonstersAndMagicApp(["Ash"])
    sheet = app.sheets["Ash"]
    buttons = find_buttons(sheet)
    assert buttons["death-roll"].disabled and buttons["bend-luck"].disabled
    assert not buttons["damage"].disabled
    sheet.amount.value = 100
    buttons["damage"].click()  # 12 HP, AC 0: down and dying
    a = sheet.adventurer
    assert a.dying and not buttons["death-roll"].disabled
    assert not buttons["start-turn"].disabled  # the rules let a dying adventurer take turns
    buttons["start-turn"].click()
    assert a.in_turn and a.dying
    sheet.checks.roll()
    assert not buttons["bend-luck"].disabled  # a check of its own to bend now


def test_a_sheet_saves_and_loads_and_a_taken_name_is_refused() -> None:
    app = MonstersAndMagicApp(["Ash", "Briar"])
    ash, briar = app.sheets["Ash"], app.sheets["Briar"]
    ash.adventurer.mark_fatigue(2)
    saved = ash.adventurer.to_json()
    assert "ash.json" in ash.file.save.value
    briar.file.load_box.value = saved  # Ash's sheet into Briar's seat: a second Ash
    find_buttons(briar.file)["load"].click()
    assert briar.error.message == "Characters: Ash is already at the table"
    assert briar.adventurer.name == "Briar"
    ash.adventurer.clear_fatigue(2)
    ash.file.load_box.value = saved
    find_buttons(ash.file)["load"].click()
    assert ash.adventurer.fatigue == 2 and ash.error.message == ""
    ash.file.load_box.value = saved.replace('"hp": 12', '"hp": 0')
    find_buttons(ash.file)["load"].click()
    assert "hp" in ash.error.message and ash.adventurer.hp == 12
    assert isinstance(ash.adventurer, Adventurer)


def test_a_loaded_sheet_under_a_new_name_renames_its_picker_entry() -> None:
    app = MonstersAndMagicApp(["Ash", "Briar"])
    other = Adventurer.new("Cole", luck=1)
    briar = app.sheets["Briar"]
    briar.file.load_box.value = other.to_json()
    find_buttons(briar.file)["load"].click()
    assert briar.error.message == "" and briar.adventurer.name == "Cole"
    assert list(app.picker.options) == ["Ash", "Cole"] and app.picker.value == "Cole"
    assert app.characters.children == (briar,) and app.sheets["Cole"] is briar


def test_add_character_takes_its_own_numbers() -> None:
    app = MonstersAndMagicApp(["Ash"])
    app.new_name.value = "Bryn"
    for key, value in {"focus": 1, "power": 3, "cunning": -1, "luck": 0, "max_hp": 9,
                       "ac": 2}.items():
        app.new_stats[key].value = value
    app.add_button.click()
    bryn = app.party.characters[-1]
    assert (bryn.name, bryn.focus, bryn.power, bryn.cunning, bryn.luck) == ("Bryn", 1, 3, -1, 0)
    assert (bryn.max_hp, bryn.hp, bryn.ac) == (9, 9, 2)
    app.new_name.value = "Cole"
    app.new_stats["max_hp"].text = "0"  # refused under its box: nobody is added
    assert app.add_button.disabled
    app.add_button.click()
    assert app.party.names == ("Ash", "Bryn")


def test_sheet_cover_and_a_check_against_concealment() -> None:
    app = MonstersAndMagicApp(["Ash", "Briar"])
    sheet = app.sheets["Ash"]
    a = sheet.adventurer
    ac = a.effective_ac
    sheet.sheet_moves.cover_kind.value = "Partial Cover"
    find_buttons(sheet)["take-cover"].click()
    assert a.cover == "Partial Cover" and a.effective_ac == ac + 2
    checks = sheet.checks
    plain = checks.check().modifier
    checks.against.value = "Dim Light"
    assert checks.check().modifier == plain - 2
    checks.against.value = "Hidden"  # not an attack: fails without a roll, said so
    assert "Automatic failure" in checks.odds.value and "blinded" in checks.odds.value
    assert not checks.roll_button.disabled and checks.error.message == ""
    checks.attack.value = True
    assert checks.check().disadvantage and not checks.roll_button.disabled
    checks.against.value = "—"
    checks.target_cover.value = "Partial Cover"
    result = checks.roll()
    assert result.check.modifier == checks.check().modifier
    assert a.log[-1].args["target_cover"] == "Partial Cover"
