"""Headless tests of the 5e components: click buttons in-process, read what they show."""

from __future__ import annotations

from companion.widgets.variant5e import (
    CombatOptionsApp,
    DeathAndReturningApp,
    SpellPointsApp,
    buttons_by_name,
)


def test_spell_points_until_refused_then_long_rest() -> None:
    app = SpellPointsApp()
    buttons = buttons_by_name(app)
    assert app.model.points == 27  # level 5 full caster
    app.level.value = 2
    buttons["new"].click()
    assert app.model.points == 6 and 'data-points="6"' in app.status.value
    buttons["cast-3"].click()  # 3rd level costs 5
    assert app.model.points == 1 and app.error.message == ""
    buttons["cast-1"].click()
    assert app.model.points == 1
    assert app.error.message == "Spell Points: a level 1 spell costs 2 mentality, only 1 left"
    assert buttons["cast-1"].button_style == "warning"
    buttons["cast-0"].click()  # cantrip: free, and clears the error
    assert app.error.message == ""
    buttons["long-rest"].click()
    assert app.model.points == 4 and "long rest: +3" in app.history.value
    buttons["undo"].click()
    assert app.model.points == 1
    for button in buttons.values():
        assert button.layout.min_height == "40px"


def test_death_app_saves_and_returns() -> None:
    app = DeathAndReturningApp(seed=5)
    buttons = buttons_by_name(app)
    buttons["save"].click()
    assert app.error.message.startswith("death saving throws: only a dying creature")
    buttons["drop"].click()
    assert app.model.condition == "dying" and app.error.message == ""
    buttons["save"].click()
    assert len(app.model.log) == 2
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
    app = CombatOptionsApp(seed=1)
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
    app.level.value = 3
    new.click()  # nothing spent yet: one tap is enough
    assert app.model.class_level == 3 and new.description == "New caster"
    buttons["cast-1"].click()
    spent = app.model.points
    app.level.value = 9
    new.click()  # a stray tap loses nothing
    assert app.model.points == spent and app.model.class_level == 3
    assert new.description.startswith("Tap again") and new.button_style == "danger"
    buttons["cast-0"].click()  # any other move puts the button back
    assert new.description == "New caster" and new.button_style == ""
    new.click()
    new.click()
    assert app.model.class_level == 9 and app.model.log == () and app.error.message == ""
