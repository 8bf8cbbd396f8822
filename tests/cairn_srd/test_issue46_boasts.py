"""Issue 46: a refused raised boast is taken up by the challenger (``take_up_boast``),
move by move, refusals included, and from the character app."""

from __future__ import annotations

import json

import pytest

from companion.errors import RuleError
from companion.rulesets.cairn_srd.character import Character, new_character
from tests.widgets.app_page import AppPage


def pc(name: str = "Bryn") -> Character:
    return new_character(name, strength=12, dexterity=10, control=9, guard=5, armor=0)


def test_the_challenger_takes_up_the_refused_boast_with_all_three_bonuses() -> None:
    boaster, bryn = pc("Ash"), pc()
    boaster.make_boast("slay the wyrm", "STR")
    before = boaster.to_json()
    # Ash refuses Bryn's raise ("and bring back its tooth"): Ash's sheet is unchanged...
    bryn.take_up_boast("slay the wyrm", "bring back its tooth", "DEX", "Guard")
    assert boaster.to_json() == before
    # ...and Bryn boasts it: +1 DEX (the boast), +1 Guard (the boast), +1 Guard (the raise).
    assert bryn.boast == "slay the wyrm, with bring back its tooth"
    assert (bryn.dexterity, bryn.dexterity_max, bryn.guard_max, bryn.guard) == (11, 11, 7, 7)
    assert bryn.boasts_made == 1 and bryn.boast_bonuses == ["dexterity", "guard", "guard"]
    assert "takes up the refused boast" in bryn.log[-1].summary
    assert len(bryn.log) == 1  # one move, one event
    loaded = Character.from_json(bryn.to_json())
    assert loaded.boast == bryn.boast and loaded.boast_bonuses == bryn.boast_bonuses


def test_shirking_a_taken_up_boast_loses_all_three_bonuses() -> None:
    bryn = pc()
    bryn.take_up_boast("slay the wyrm", "alone", "STR", "CTRL")
    assert (bryn.strength_max, bryn.guard_max, bryn.control_max) == (13, 6, 10)
    bryn.shirk_boast()
    assert (bryn.strength_max, bryn.guard_max, bryn.control_max) == (12, 5, 9)
    assert bryn.boasting_barred


@pytest.mark.parametrize(("setup", "args", "reason"), [
    (lambda c: c.make_boast("own goal", "STR"), ("wyrm", "alone", "DEX", "Guard"),
     "^Boasts: only one boast may be pending"),
    (lambda c: (c.make_boast("own goal", "STR"), c.shirk_boast()),
     ("wyrm", "alone", "DEX", "Guard"), "^Boasts: a character who shirked a boast may never"),
    (lambda c: None, ("wyrm", " ", "DEX", "Guard"),
     "^Boasts: a raised boast names its complication$"),
    (lambda c: None, ("", "alone", "DEX", "Guard"), "^Boasts: a boast needs a goal$"),
    (lambda c: None, ("w" * 100, "a" * 30, "DEX", "Guard"),
     "^Boasts: a goal with its complication has at most 120 characters"),
    (lambda c: None, ("wyrm", "alone", "DEX", "Luck"), "Luck"),
    (lambda c: c.die("fell"), ("wyrm", "alone", "DEX", "Guard"), "^Boasts: "),
])
def test_refusals_change_nothing(setup: object, args: tuple[str, str, str, str],
                                 reason: str) -> None:
    bryn = pc()
    setup(bryn)  # type: ignore[operator]
    before, events = bryn.to_json(), len(bryn.log)
    with pytest.raises(RuleError, match=reason):
        bryn.take_up_boast(*args)
    assert bryn.to_json() == before and len(bryn.log) == events


def test_after_fifteen_boasts_a_taken_up_boast_adds_nothing() -> None:
    bryn = pc()
    bryn.boasts_made = 15
    bryn.take_up_boast("wyrm", "alone", "DEX", "Guard")
    assert (bryn.dexterity_max, bryn.guard_max, bryn.boast_bonuses) == (10, 5, [])


def test_an_old_sheet_loads_and_takes_one_up() -> None:
    old = json.loads(pc().to_json())
    bryn = Character.from_json(json.dumps(old))
    bryn.take_up_boast("wyrm", "alone", "STR", "Guard")
    assert bryn.boast


def test_the_character_app_takes_up_a_refused_boast() -> None:
    page = AppPage("cairn_character")
    page.box("boast").text = "slay the wyrm"
    page.box("complication").text = "bring back its tooth"
    page.one("tc-select-complication-bonus").value = "STR"
    page.tap("take-up-boast")
    assert "takes up the refused boast: slay the wyrm, with bring back its tooth" in \
        page.text()
    assert "Boast: slay the wyrm, with bring back its tooth" in page.text()
    assert page.button("take-up-boast").disabled  # one boast pending: no second
    page.tap("shirk")
    assert page.button("take-up-boast").disabled  # shirked: never again
