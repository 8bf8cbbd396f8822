"""Issue 15: a party of casters in one app (headless)."""

from __future__ import annotations

from companion.rulesets.variant5e.spell_points import SpellPoints
from companion.widgets.variant5e_casters import CastersApp
from tests.conftest import widgets_by_name


def test_party_of_casters_summary_follows_each_pool() -> None:
    wizard, paladin = SpellPoints.new(11), SpellPoints.new(6, "half")
    app = CastersApp({"Mira": wizard, "Bran": paladin})
    assert 'data-caster="Mira" data-points="73"' in app.summary.value
    wizard.cast(6)
    assert 'data-caster="Mira" data-points="64"' in app.summary.value
    assert 'data-high="6"' in app.summary.value  # 6th level used until the long rest
    assert "6th+ cast: 6" in app.summary.value
    b = widgets_by_name(app, kind="btn")
    app.new_name.value, app.new_class.value, app.new_level.value = "Vex", "warlock", 3
    b["add-caster"].click()
    assert app.casters["Vex"].caster == "full" and app.picker.value == "Vex"
    assert 'data-caster="Vex" data-points="14"' in app.summary.value
    app.new_name.value, app.new_class.value = "Odo", "monk"
    b["add-caster"].click()
    assert app.error.message == ("Spell Points: the seed names no caster kind for 'monk'; "
                                 "choose full, half or third")
    app.picker.value = "Bran"
    assert app.body.children[0].model is paladin
