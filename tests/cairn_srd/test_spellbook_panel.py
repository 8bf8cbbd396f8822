"""Spellcasting by a party member's sheet: dice limited by that sheet's burden and Fatigue,
Fatigue on that sheet; scrolls, a grimoire and lifting a doom in the app (headless)."""

from __future__ import annotations

from companion.rulesets.cairn_srd.character import Character, new_character
from companion.widgets.cairn_srd.spellcasting import SpellcastingApp
from tests.cairn_srd.widget_find import find_button, fixed_seeds


def test_dice_follow_the_sheets_burden_and_fatigue() -> None:
    def loaded() -> Character:
        c = new_character("Mira", 9, 10, 14, 3)
        for n in range(8):
            c.add_item(f"Book {n}")
        return c

    mage = loaded()
    app = SpellcastingApp(mage, seed_source=fixed_seeds(2))
    assert find_button(app, "dice-3").disabled and not find_button(app, "dice-2").disabled
    mage.add_fatigue(2)  # Fatigue fills the last free slots: no magic dice at all
    assert find_button(app, "dice-1").disabled and find_button(app, "cast").disabled
    mage.rest_night()
    find_button(app, "dice-2").click()
    find_button(app, "cast").click()
    twin = loaded()
    report = twin.cast(2, seed=2)
    assert mage.log[-1].move == "cast" and mage.log[-1].args["dice"] == 2
    assert report.reading.fatigue <= mage.fatigue == twin.fatigue  # on this sheet
    assert mage.items == twin.items and mage.dooms == twin.dooms


def test_scrolls_grimoire_named_spell_and_doom() -> None:
    mage = new_character("Mira", 9, 10, 14, 3)
    app = SpellcastingApp(mage, seed_source=fixed_seeds(5))
    sb = app.spellbook
    for name in ("gain-scroll", "bind-grimoire", "copy-scroll", "cast-spell", "lift-doom"):
        assert find_button(app, name).disabled, name
    assert find_button(app, "lift-doom").tooltip == "no doom to lift"
    sb.scroll_name.value = "Light"
    find_button(app, "gain-scroll").click()
    sb.scroll_name.value = "Sleep"
    find_button(app, "gain-scroll").click()
    assert mage.scrolls == ["Light", "Sleep"] and find_button(app, "copy-scroll").disabled
    sb.scroll.value = 0
    find_button(app, "bind-grimoire").click()
    assert mage.grimoire == ["Light"] and mage.deprived
    assert find_button(app, "bind-grimoire").tooltip == "already has a grimoire"
    find_button(app, "copy-scroll").click()
    assert mage.grimoire == ["Light", "Sleep"] and mage.scrolls == []
    sb.spell.value = "Sleep"
    find_button(app, "cast-spell").click()
    assert mage.log[-1].move == "cast" and mage.log[-1].args["spell"] == "Sleep"
    assert "Sleep: " in app.outcome.value and 'data-seed="5"' in app.outcome.value
    mage.load(mage.to_json().replace('"dooms": 0', '"dooms": 1'))
    assert not find_button(app, "lift-doom").disabled
    find_button(app, "lift-doom").click()
    assert mage.dooms == 0
