"""The sheet's conditions panel, headless: each button one Character move, disabled (with
its reason) while the rules refuse it."""

from __future__ import annotations

from companion import dice
from companion.rulesets.cairn_srd.character import new_character
from companion.widgets.cairn_srd.character import CairnCharacterApp
from tests.cairn_srd.widget_find import find_button, fixed_seeds


def app_for(**kw: int) -> CairnCharacterApp:
    stats = {"strength": 12, "dexterity": 10, "control": 9, "guard": 5, "armor": 0} | kw
    return CairnCharacterApp(new_character("Ash", **stats), seed_source=fixed_seeds(4))


def test_deprived_panic_and_scar_recovery_buttons() -> None:
    app = app_for()
    c = app.character
    for name in ("end-deprived", "calm", "recover-scar", "rejoin"):
        assert find_button(app, name).disabled, name
    assert find_button(app, "calm").tooltip == "not panicking"
    c.set_deprived(True)
    find_button(app, "end-deprived").click()
    assert not c.deprived and "no longer deprived" in app.outcome.value
    fail = next(s for s in range(50) if dice.roll("1d20", seed=s).total > 9)  # CTRL 9
    assert not c.panic_save(seed=fail).success and c.panicking
    assert not find_button(app, "calm").disabled
    find_button(app, "calm").click()
    assert not c.panicking
    app2 = app_for(guard=10)
    c2 = app2.character
    c2.take_damage(10)  # Guard 10 -> exactly 0: scar 10, Walloped
    assert c2.scar_recovery == "Walloped" and c2.deprived
    assert find_button(app2, "end-deprived").disabled
    assert find_button(app2, "end-deprived").tooltip == "Walloped: recover the scar"
    find_button(app2, "recover-scar").click()
    d6 = dice.roll("1d6", seed=4).total
    assert c2.guard_max == 10 + d6 and not c2.deprived and 'data-seed="4"' in app2.outcome.value


def test_hazard_damage_hits_the_ability_without_a_critical_save() -> None:
    app = app_for()
    c = app.character
    app.conditions.hazard.value = "4"
    app.conditions.hazard_ability.value = "DEX"
    find_button(app, "hazard-damage").click()
    assert c.dexterity == 6 and c.guard == 5 and "no Critical Damage save" in app.outcome.value
    app.conditions.hazard_ability.value = "CTRL"
    find_button(app, "hazard-damage").click()
    assert c.control == 5 and not c.critical
    app.conditions.hazard.value = "-2"
    assert find_button(app, "hazard-damage").disabled


def test_named_major_wound_and_its_minus_one_on_a_save() -> None:
    app = app_for()
    c = app.character
    app.conditions.wound_name.value = "Blight"
    app.conditions.major.value = True
    find_button(app, "named-wound").click()
    assert c.wounds[0].name == "Blight" and c.wounds[0].major
    assert app.conditions.save_wounds.options == (("#1 Blight", 1),)
    app.conditions.save_ability.value = "STR"
    app.conditions.save_wounds.value = (1,)
    find_button(app, "sheet-save").click()
    roll = dice.roll("1d20", seed=4).total
    assert "-1 for major Wounds" in app.outcome.value
    assert ("success" in app.outcome.value) == (roll <= 11)
    for n in range(9):
        c.add_item(f"Stone {n}")
    assert find_button(app, "named-wound").disabled


def test_leave_play_rejoin_and_die() -> None:
    app = app_for()
    c = app.character
    assert find_button(app, "leave-play").disabled and find_button(app, "die").disabled
    app.conditions.reason.value = "captured by goblins"
    find_button(app, "leave-play").click()
    assert c.fate == "captured by goblins" and find_button(app, "leave-play").disabled
    find_button(app, "rejoin").click()
    assert c.fate == ""
    find_button(app, "die").click()
    assert c.dead and find_button(app, "calm").disabled and find_button(app, "die").disabled


def test_deprivation_agony_enervation_cumbersome_and_stakes_have_faces() -> None:
    app = app_for(armor=2)
    c = app.character
    assert find_button(app, "deprived-day").disabled
    find_button(app, "become-deprived").click()
    assert c.deprived and find_button(app, "become-deprived").disabled
    find_button(app, "deprived-day").click()
    assert c.fatigue == 0  # the first day adds none
    find_button(app, "deprived-day").click()
    assert c.fatigue == 1 and "day 2 deprived, +1 Fatigue" in app.outcome.value
    find_button(app, "agony").click()  # seed 4: armor does not help
    d6 = dice.roll("1d6", seed=4).total
    assert c.guard == max(0, 5 - d6) and 'data-seed="4"' in app.outcome.value
    find_button(app, "enervation").click()
    assert c.guard_max == 4
    find_button(app, "cumbersome").click()
    assert c.cumbersome and find_button(app, "cumbersome").description == "Set down the load"
    find_button(app, "cumbersome").click()
    assert not c.cumbersome
    assert find_button(app, "raise-stakes").disabled
    c.make_boast("slay the wyrm", "STR")
    app.conditions.stakes.value = "DEX"
    dex = c.dexterity
    find_button(app, "raise-stakes").click()
    assert c.dexterity == dex + 1 and "stakes" in app.outcome.value
