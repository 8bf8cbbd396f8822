"""Headless tests of the 5e components: click buttons in-process, read what they show."""

from __future__ import annotations

import itertools
import json
import re

import pytest

from companion.rulesets.variant5e.contests import Combatant, Size
from companion.rulesets.variant5e.death_and_returning import DeathRecord
from companion.rulesets.variant5e.maneuvers import maneuver
from companion.widgets.variant5e import CombatOptionsApp, DeathAndReturningApp, SpellPointsApp
from tests.conftest import widgets_by_name


def buttons_by_name(root: object) -> dict[str, object]:
    return widgets_by_name(root, kind="btn")


def test_spell_points_until_refused_then_long_rest() -> None:
    app = SpellPointsApp()
    buttons = buttons_by_name(app)
    assert app.model.points == 27  # level 5 full caster
    app.level.value = 2
    buttons["new"].click()
    assert app.model.points == 6 and 'data-points="6"' in app.status.value
    assert buttons["cast-3"].disabled  # a 2nd-level caster casts up to 1st level (DMG)
    assert "spells up to level 1" in app.status.value
    app.limits.value = False  # the earlier reading: any level the points pay for
    assert not app.model.dmg_limits and "DMG spell-point limits off" in app.history.value
    buttons["cast-3"].click()  # 3rd level costs 5
    assert app.model.points == 1 and app.error.message == ""
    buttons["cast-1"].click()
    assert app.model.points == 1
    assert app.error.message == "Spell Points: a level 1 spell costs 2 mentality, only 1 left"
    assert buttons["cast-1"].button_style == "warning" and buttons["cast-1"].disabled
    assert "only 1 left" in buttons["cast-1"].tooltip and not buttons["cast-0"].disabled
    buttons["cast-0"].click()  # cantrip: free, and clears the error
    assert app.error.message == ""
    buttons["long-rest"].click()
    assert app.model.points == 4 and "long rest: +3" in app.history.value
    buttons["undo"].click()
    assert app.model.points == 1
    for button in buttons.values():
        assert button.layout.min_height == "44px"


def test_death_app_saves_and_returns() -> None:
    app = DeathAndReturningApp(seed_source=itertools.count(5).__next__)
    buttons = buttons_by_name(app)
    buttons["save"].click()
    assert app.error.message.startswith("death saving throws: only a dying creature")
    buttons["drop"].click()
    assert app.model.condition == "dying" and app.error.message == ""
    assert buttons["save"].disabled is False and buttons["drop"].disabled
    buttons["save"].click()
    assert len(app.model.log) == 2
    shown = re.search(r'data-face="(\d+)".*seed (\d+)', app.save_roll.value)
    assert shown is not None
    twin = DeathRecord()
    twin.drop_to_zero()
    assert twin.roll_death_save(seed=int(shown[2])) == int(shown[1])  # replayable
    buttons["die"].click()
    assert 'data-condition="dead"' in app.status.value
    assert "<table" in app.odds.value and "works" in app.odds.value
    app.modifier.value = 15  # a sure check
    buttons["return"].click()
    assert app.model.condition == "alive" and 'data-outcome="works"' in app.attempt.value
    buttons["undo"].click()
    assert app.model.condition == "dead"
    app.spell.value = "wish"
    assert "No Fragile Soul check" in app.odds.value


def test_death_app_new_creature_takes_the_options() -> None:
    app = DeathAndReturningApp()
    app.model.die()
    app.module.value = "escalation_strikes"
    app.permanent.value = True
    new = buttons_by_name(app)["new"]
    new.click()  # there is a record to lose: the first tap only asks
    assert app.model.condition == "dead" and new.description.startswith("Tap again")
    new.click()
    assert new.description == "New creature"
    assert app.model.module == "escalation_strikes" and app.model.permanent_death_failures
    assert app.model.log == () and app.model.condition == "alive"


def test_combat_options_contest_flanking_and_counter() -> None:
    app = CombatOptionsApp(seed_source=itertools.count(1).__next__)
    buttons = buttons_by_name(app)
    assert "47.50%" in app.contest_odds.value  # equal plain rolls: initiator 19/40
    app.first.athletics.value = 5
    assert "70.00%" in app.contest_odds.value
    app.option.value = "disarm"
    assert app.flag.layout.display == "" and "two or more hands" in app.flag.description
    app.second.size.value = "huge"
    app.option.value = "grapple"
    assert "no more than one size larger" in app.error.message
    app.second.size.value = "medium"
    assert app.error.message == ""
    buttons["roll"].click()
    buttons["roll"].click()
    assert 'data-n="2"' in app.contest_result.value
    for square in ((2, 2), (2, 2), (1, 2), (3, 2)):  # enemy in the middle, allies either side
        buttons[f"cell-{square[0]}-{square[1]}"].click()
    assert app.cells[(2, 2)].button_style == "danger"
    assert app.cells[(1, 2)].button_style == "success"
    assert 'data-n="1"' in app.flank_text.value
    for direction in ("ne", "e", "e", "e", "se"):
        buttons[f"step-{direction}"].click()
    assert 'data-feet="30"' in app.move_text.value
    buttons["step-n"].click()
    # Refused under the direction pad, not beside the contest three screens up.
    assert "only 0 ft of movement left" in app.move_error.message and app.error.message == ""
    kids = list(app.children)
    assert kids.index(app.move_error) == kids.index(app.move_text) - 1
    buttons["dash"].click()
    buttons["step-n"].click()
    assert 'data-feet="35"' in app.move_text.value and app.move_error.message == ""
    app.speed.value = 40
    buttons["set-speed"].click()
    assert "/ 80 ft" in app.move_text.value
    buttons["new-turn"].click()
    assert 'data-feet="0"' in app.move_text.value


def test_new_caster_needs_a_second_tap_once_something_is_spent() -> None:
    app = SpellPointsApp()
    buttons = buttons_by_name(app)
    new = buttons["new"]
    new.click()  # nothing done yet: one tap is enough
    assert new.description == "New caster" and app.model.log == ()
    app.level.value = 3
    assert app.model.class_level == 3 and app.model.points == app.model.maximum == 14
    buttons["cast-1"].click()
    spent = app.model.maximum - app.model.points
    app.level.value = 9  # the dropdown is a move at once: points spent stay spent
    assert app.model.class_level == 9 and app.model.maximum - app.model.points == spent
    assert app.model.log[-1].move == "set_class_level"
    points = app.model.points
    new.click()  # a stray tap loses nothing
    assert app.model.points == points and app.model.class_level == 9
    assert new.description.startswith("Tap again") and new.button_style == "danger"
    buttons["cast-0"].click()  # any other move puts the button back
    assert new.description == "New caster" and new.button_style == ""
    new.click()
    new.click()
    assert app.model.class_level == 9 and app.model.log == () and app.error.message == ""


# -- bad input: refused under the box, the action does not run, fixed input clears it -----

@pytest.mark.parametrize(("typed", "says"), [
    ("-50", "-50 is too low"), ("99", "99 is too high"), ("", "the box is empty"),
    ("three", "is not a whole number"), ("1.5", "is not a whole number")])
def test_death_app_refuses_a_bad_caster_modifier(typed: str, says: str) -> None:
    app = DeathAndReturningApp(seed_source=lambda: 3)
    app.model.die()
    buttons = buttons_by_name(app)
    assert not buttons["return"].disabled
    app.modifier.text = typed
    assert says in app.modifier.refusal.message and app.modifier.text == typed
    assert buttons["return"].disabled and "Fix the caster modifier" in app.odds.value
    buttons["return"].click()  # a click already on its way changes nothing
    assert app.model.condition == "dead" and app.attempts == 0
    app.modifier.text = "20"
    assert app.modifier.refusal.message == "" and not buttons["return"].disabled
    buttons["return"].click()  # d20 + 20 always makes DC 15
    assert app.model.condition == "alive"


def test_death_app_buttons_follow_the_condition() -> None:
    app = DeathAndReturningApp()
    b = buttons_by_name(app)
    enabled = {name for name in ("drop", "save", "hit", "crit", "heal", "die", "return",
                                 "evict", "undo") if not b[name].disabled}
    assert enabled == {"drop", "die"}
    b["drop"].click()
    enabled = {name for name in ("drop", "save", "hit", "crit", "heal", "die", "return",
                                 "evict", "undo") if not b[name].disabled}
    assert enabled == {"save", "hit", "crit", "heal", "die", "undo"}
    b["die"].click()
    assert not b["return"].disabled and b["save"].disabled and b["evict"].disabled


def test_death_app_saves_and_loads_and_refuses_a_corrupt_record() -> None:
    app = DeathAndReturningApp()
    app.model.drop_to_zero()
    saved = app.model.to_json()
    app.model.heal()
    app.file.load_box.value = saved
    buttons_by_name(app.file)["load"].click()
    assert app.model.condition == "dying" and app.error.message == ""
    bad = json.loads(saved)
    bad["state"].update(condition="alive", successes=3, failures=3)
    app.file.load_box.value = json.dumps(bad)
    buttons_by_name(app.file)["load"].click()
    assert "successes" in app.error.message and app.model.condition == "dying"


@pytest.mark.parametrize("box", ["athletics", "acrobatics", "attack"])
def test_contest_refuses_bad_numbers_without_capping(box: str) -> None:
    app = CombatOptionsApp(seed_source=lambda: 1)
    target = getattr(app.first, box)
    target.text = "45"
    assert "45 is too high" in target.refusal.message and target.text == "45"
    assert app.roll_button.disabled and "Fix the numbers" in app.contest_odds.value
    app.roll_button.click()
    assert app.rolls == 0
    target.text = "7"
    assert target.refusal.message == "" and not app.roll_button.disabled
    app.roll_button.click()
    assert app.rolls == 1 and "seed 1" in app.contest_result.value


def test_contest_roll_replays_from_its_seed() -> None:
    app = CombatOptionsApp(seed_source=lambda: 42)
    app.first.athletics.value = 3
    buttons_by_name(app)["roll"].click()
    option = maneuver("grapple")
    again = option.build(Combatant(option.initiator, Size.MEDIUM, 3, 0, 0),
                         Combatant(option.resister, Size.MEDIUM, 0, 0, 0), False).roll(seed=42)
    assert str(again) in app.contest_result.value.replace("&#x27;", "'")


def test_speed_refused_not_clamped_and_steps_disabled_when_out_of_movement() -> None:
    app = CombatOptionsApp()
    b = buttons_by_name(app)
    app.speed.text = "-5"
    assert "-5 is too low" in app.speed.refusal.message and b["set-speed"].disabled
    b["set-speed"].click()
    assert app.counter.speed == 30 and app.counter.log == ()
    app.speed.text = "10"
    assert not b["set-speed"].disabled
    b["set-speed"].click()
    assert app.counter.speed == 10
    b["step-n"].click()
    b["step-ne"].click()  # 5 + 5 = 10 ft: all used
    assert all(b[f"step-{d}"].disabled for d in ("n", "ne", "e", "s"))
    assert not b["dash"].disabled
    b["dash"].click()
    assert b["dash"].disabled and not b["step-n"].disabled
    assert "10 ft" in app.move_text.value  # the second diagonal costs 10: just fits
    b["step-ne"].click()
    assert app.counter.feet == 20 and all(b[f"step-{d}"].disabled for d in app.steps)


def test_death_app_module_switches_apply_at_once() -> None:
    from companion.rulesets.variant5e.death_and_returning import DeathRecord
    from companion.widgets.variant5e import DeathAndReturningApp

    app = DeathAndReturningApp()
    app.permanent.value = True
    assert app.model.permanent_death_failures
    assert app.model.log[-1].summary == "modules: permanent death failures on"
    app.module.value = "escalation_strikes"
    assert app.model.module == "escalation_strikes" and app.model.max_returns == 3
    app.model.drop_to_zero()
    app.permanent.value = False  # refused while dying: the box goes back, the error says why
    assert app.model.permanent_death_failures and app.permanent.value
    assert app.error.message == ("Permanent Death Failures: switch it when the creature is "
                                 "not dying")
    saved = DeathRecord(module="three_strikes", fragile_soul=False, escalation_wish=True)
    app.model.load(saved.to_json())  # loading shows the record's switches, changes nothing
    assert (app.module.value, app.permanent.value, app.fragile.value, app.wish.value) == (
        "three_strikes", False, False, True)
    assert app.model == saved


def test_death_app_takes_physical_dice() -> None:
    """Own dice go through the one roll row (RollControls): the faces typed are the dice."""
    from companion.rulesets.variant5e.death_and_returning import DeathRecord
    from companion.widgets.variant5e import DeathAndReturningApp

    record = DeathRecord()
    app = DeathAndReturningApp(record)
    b = buttons_by_name(app)
    assert b["save"].disabled  # alive: no death saves
    assert not any(name.endswith("-dice") for name in b)  # one way to enter dice
    record.drop_to_zero()
    app.controls.own.value = True
    app.controls.faces.control.value = "1"
    b["save"].click()
    assert record.failures == 2 and 'data-face="1"' in app.save_roll.value
    assert "own dice" in app.save_roll.value
    app.controls.faces.control.value = "21"  # a d20 cannot show 21: refused under the box
    b["save"].click()
    assert record.failures == 2 and len(record.log) == 2
    assert app.controls.faces.refusal.message == "die 1: a d20 shows 1 to 20, not 21"
    app.controls.faces.control.value = "4"
    b["save"].click()
    assert record.condition == "dead"
    app.spell.value, app.modifier.value = "raise dead", 2
    app.controls.faces.control.value = "5 50"  # 5+2 fails DC 15; d100 50: not returned
    b["return"].click()
    assert 'data-outcome="not_returned"' in app.attempt.value and record.condition == "dead"
    assert "check d20 5+2 = 7 fails DC 15; d100 50" in app.attempt.value
    app.controls.faces.control.value = "13 50"  # 13+2 passes: the d100 is not read
    b["return"].click()
    assert app.controls.faces.refusal.message == "2 dice entered, the roll used 1"
    assert record.condition == "dead"  # a refused entry changes nothing
    app.controls.faces.control.value = "13"
    b["return"].click()
    assert 'data-outcome="works"' in app.attempt.value and record.condition == "alive"
    assert b["return"].disabled


def test_spell_points_dropdowns_change_the_caster_as_moves() -> None:
    app = SpellPointsApp()  # level 5 full caster: 27
    buttons = buttons_by_name(app)
    buttons["cast-1"].click()  # 2 spent
    app.caster.value = "half"
    assert (app.model.caster, app.model.maximum, app.model.points) == ("half", 6, 4)
    assert "half caster: 4/6 mentality" in app.history.value
    app.level.value = 9
    assert (app.model.class_level, app.model.maximum, app.model.points) == (9, 17, 15)
    buttons["undo"].click()  # the dropdown follows the model back
    assert app.model.class_level == 5 and app.level.value == 5
    buttons["undo"].click()
    assert app.caster.value == "full" and app.model.points == 25
    assert len(app.model.log) == 1 and app.error.message == ""


def test_identify_a_spell_has_a_face_with_exact_odds() -> None:
    from companion.rulesets.variant5e.identify_a_spell import identify_a_spell

    app = SpellPointsApp()
    assert "vs DC 16" in app.identify.value and "(uses your reaction)" in app.identify.value
    app.arcana.value, app.spell_level.value = 5, 3
    app.same_class.value = True
    app.being_cast.value = False
    chance = identify_a_spell(5, 3, same_class=True).chance()
    assert "vs DC 18" in app.identify.value and "(uses your action)" in app.identify.value
    assert f"{chance.numerator}/{chance.denominator}" in app.identify.value
    assert "2d20kh1" in app.identify.value


def test_a_grapple_shows_the_speed_while_moving_the_target() -> None:
    app = CombatOptionsApp(seed_source=lambda: 1)
    app.option.value = "grapple"
    assert 'data-feet="15"' in app.contest_odds.value  # medium drags medium: half of 30
    app.first.size.value = "huge"
    assert 'data-feet="30"' in app.contest_odds.value  # two sizes larger: full speed
    app.speed.value = 25
    assert 'data-feet="25"' in app.contest_odds.value
    app.first.size.value = "medium"
    assert 'data-feet="12"' in app.contest_odds.value  # halving rounds down
    app.option.value = "shove"
    assert "tc-drag-speed" not in app.contest_odds.value
