"""Fates and escape results land on the character sheet; the sheet's own moves for
scars, death, leaving play, lost gear and major Wounds, each with its illegal moves."""

from __future__ import annotations

import pytest

from companion.dice.physical import EnteredDice
from companion.errors import RuleError
from companion.rulesets.cairn_srd import exploration as ex
from companion.rulesets.cairn_srd.character import Character, new_character
from companion.rulesets.cairn_srd.exploration import Delve
from tests.cairn_srd.test_character import FixedRng


def hero(name: str = "Ash") -> Character:
    c = new_character(name, 12, 10, 9, 5)
    for item in ("Rope", "Torch", "Sword", "Lantern"):
        c.add_item(item)
    return c


def dark_fate(name: str, *faces: int) -> Delve:
    d = Delve()  # out of light; the fate table instead of a panic save
    d.darkness_fate(name, rng=FixedRng(*faces))
    return d


# -- the sheet's moves --------------------------------------------------------------------


@pytest.mark.parametrize(("roll", "scar"), [(1, "Distressed"), (3, "Distressed"),
                                            (4, "Rattled"), (9, "Disfigured"),
                                            (10, "Walloped"), (11, "Out of action"),
                                            (12, "Doomed")])
def test_suffer_scar_reads_the_row(roll: int, scar: str) -> None:
    c = hero()
    report = c.suffer_scar(roll, rng=FixedRng(2))
    assert report.scar == scar and c.scars == [scar]
    c.validate()


def test_suffer_scar_applies_its_effect() -> None:
    c = hero()
    c.suffer_scar(2, rng=FixedRng(4))
    assert c.control == 5 and c.scars == ["Distressed"]  # d6 = 4 CTRL damage
    c.suffer_scar(5)
    assert (c.guard, c.guard_max) == (6, 6)  # Rattled: +1 Guard
    c.suffer_scar(10)
    assert c.deprived and c.scar_recovery == "Walloped"
    c.suffer_scar(12)
    assert c.doomed_scar
    r = hero().suffer_scar(rng=FixedRng(11))  # rolled here: d12 = 11
    assert r.roll == 11 and r.scar == "Out of action"


def test_suffer_scar_refusals() -> None:
    c = hero()
    for bad in (0, 13, -1):
        with pytest.raises(RuleError, match="scar table reads 1 to 12"):
            c.suffer_scar(bad)
    assert c.scars == [] and len(c.log) == 4  # the four items only
    c.die("a trap")
    with pytest.raises(RuleError, match="Scars: Ash is dead"):
        c.suffer_scar(5)


def test_die_for_a_named_reason() -> None:
    c = hero()
    with pytest.raises(RuleError, match="say why"):
        c.die("  ")
    with pytest.raises(RuleError, match="say why"):
        c.die("x" * 201)
    c.die("swallowed by the dark")
    assert c.dead and c.fate == "swallowed by the dark"
    assert c.status == "dead (swallowed by the dark)"
    with pytest.raises(RuleError, match="Death: Ash is dead"):
        c.die("again")
    c.undo()
    assert not c.dead and c.fate == "" and c.status == "ready"
    c.validate()


def test_leave_play_and_rejoin() -> None:
    c = hero()
    with pytest.raises(RuleError, match="is in play"):
        c.rejoin()
    c.leave_play("captured by the goblin king")
    assert not c.dead and c.status == "out of play (captured by the goblin king)"
    with pytest.raises(RuleError, match="already out of play"):
        c.leave_play("lost")
    c.rejoin()
    assert c.fate == "" and c.status == "ready"
    assert Character.from_json(c.to_json()).to_json() == c.to_json()


def test_lose_gear_by_pieces_and_all() -> None:
    c = hero()
    c.add_fatigue()
    assert c.lose_gear([2, 2, 9]) == ["Torch"]  # twice counted, lost once; 9 is past the end
    assert [i.name for i in c.items] == ["Rope", "Sword", "Lantern", "Fatigue"]
    for bad in ([0], [-3]):
        with pytest.raises(RuleError, match="counted from 1"):
            c.lose_gear(bad)
    assert c.lose_gear() == ["Rope", "Sword", "Lantern"]
    assert [i.kind for i in c.items] == ["fatigue"]  # Fatigue is no gear


def test_major_wound_minus_one_on_a_named_save() -> None:
    c = hero()
    c.add_wound("Broken arm", major=True)
    c.add_wound("Bruise")
    # STR 12: a 12 passes, but with the major Wound named the score is 11
    assert c.ability_save("STR", rng=FixedRng(12)).success
    named = c.ability_save("str", wounds=[5], rng=FixedRng(12))
    assert named.ability == 11 and not named.success
    with pytest.raises(RuleError, match="not a major Wound"):
        c.ability_save("STR", wounds=[6])
    with pytest.raises(RuleError, match="not a major Wound"):
        c.ability_save("STR", wounds=[1])
    with pytest.raises(RuleError, match="no burden entry #9"):
        c.ability_save("STR", wounds=[9])
    with pytest.raises(RuleError, match="no ability"):
        c.ability_save("LUCK")
    floor = c.ability_save("DEX", floor=4, rng=FixedRng(4))
    assert not floor.success  # at the floor fails


def test_environment_damage_and_dex_ctrl() -> None:
    c = hero()
    r = c.take_damage(9, combat=False)  # 5 off Guard, 4 off STR: no Critical Damage save
    assert r.critical_save is None and not c.critical and c.strength == 8
    c.damage_ability("DEX", 4)
    c.damage_ability("ctrl", 2)
    assert (c.dexterity, c.control) == (6, 7)


# -- fates from the delve -----------------------------------------------------------------


def test_darkness_dead_marks_the_sheet_dead() -> None:
    d = dark_fate("Ash", 2)
    c = hero()
    line = ex.apply_fate(d, c)
    assert c.dead and c.fate.startswith("the darkness, fate 1 of the delve: Dead")
    assert "is dead" in line
    with pytest.raises(RuleError, match="is dead"):
        ex.apply_fate(d, c)


@pytest.mark.parametrize(("face", "word"), [(5, "Transformed"), (6, "Lost"), (7, "Captured"),
                                            (8, "Traumatized")])
def test_darkness_out_of_play(face: int, word: str) -> None:
    c = hero()
    ex.apply_fate(dark_fate("Ash", face), c)
    assert not c.dead and word in c.fate and c.status.startswith("out of play")


def test_darkness_stripped_and_scarred() -> None:
    c = hero()
    ex.apply_fate(dark_fate("Ash", 9), c)
    assert [i for i in c.items if i.kind == "item"] == []
    c = hero()
    d = dark_fate("Ash", 10, 5)  # scarred, the scar d12 = 5: Rattled
    ex.apply_fate(d, c)
    assert c.scars == ["Rattled"] and c.guard_max == 6
    with pytest.raises(RuleError, match="already applied"):
        ex.apply_fate(d, c)
    assert c.scars == ["Rattled"]
    c.undo()
    assert c.scars == [] and c.guard_max == 5
    ex.apply_fate(d, c)  # after undo it may be applied again
    assert c.scars == ["Rattled"]


def test_fate_refusals() -> None:
    d = Delve()
    with pytest.raises(RuleError, match="no fate rolled"):
        ex.apply_fate(d, hero())
    with pytest.raises(RuleError, match="has not tried to escape"):
        ex.apply_escape(d, hero())


# -- escapes from the delve -----------------------------------------------------------------


def test_escape_rows_on_the_sheet() -> None:
    d = Delve()
    d.escape_check("Ash", "DEX", 10, ["lost"], rng=FixedRng(8))  # above DV 4: escaped
    a = hero("Ash")
    assert "nothing changes" in ex.apply_escape(d, a)
    d.escape_check("Bryn", "DEX", 10, ["lost"], rng=FixedRng(2))
    b = hero("Bryn")
    with pytest.raises(RuleError, match="not settled"):
        ex.apply_escape(d, b)
    d.failed_escape("Bryn", rng=FixedRng(2, 2, 1, 3))  # equipment: 2 pieces, d12s 1 and 3
    ex.apply_escape(d, b)
    assert [i.name for i in b.items] == ["Torch", "Lantern"]
    with pytest.raises(RuleError, match="already applied"):
        ex.apply_escape(d, b)
    d.escape_check("Cole", "STR", 10, ["lost"], rng=FixedRng(1))
    d.failed_escape("Cole", rng=FixedRng(6))
    c = hero("Cole")
    with pytest.raises(RuleError, match="body check is due"):
        ex.apply_escape(d, c)
    d.body_check("Cole", rng=FixedRng(2))
    ex.apply_escape(d, c)
    assert c.dead and "body was destroyed" in c.fate
    d.escape_check("Dara", "STR", 10, ["lost"], rng=FixedRng(1))
    d.failed_escape("Dara", rng=FixedRng(8, 11))  # scarred: Out of action
    dara = hero("Dara")
    ex.apply_escape(d, dara)
    assert dara.scars == ["Out of action"] and dara.critical and dara.deprived
    d.escape_check("Eli", "STR", 10, ["lost"], rng=FixedRng(1))
    d.failed_escape("Eli", rng=FixedRng(3))
    eli = hero("Eli")
    ex.apply_escape(d, eli)
    assert "Captured" in eli.fate and not eli.dead


# -- the dungeon-crawl app puts them on the sheet --------------------------------------------


def test_dungeon_crawl_app_puts_fate_and_escape_on_the_sheet() -> None:
    from companion.widgets.cairn_srd.dungeon_crawl import DungeonCrawlApp
    from tests.cairn_srd.widget_find import find_button, fixed_seeds

    ash, bryn = hero("Ash"), hero("Bryn")
    delve = Delve()
    app = DungeonCrawlApp([ash, bryn], delve, seed_source=fixed_seeds(1))
    # The app acts through a table session (an unsaved one: it was opened without a
    # campaign), whose seam draws every seed: faces are set as real dice, entered.
    assert find_button(app, "fate-sheet-0").disabled
    delve.darkness_fate("Ash", rng=EnteredDice([10, 5]))  # scarred: Rattled
    assert not find_button(app, "fate-sheet-0").disabled
    find_button(app, "fate-sheet-0").click()
    assert ash.scars == ["Rattled"] and "Rattled" in app.outcome.value
    find_button(app, "fate-sheet-0").click()  # twice: refused, said, nothing doubled
    assert ash.scars == ["Rattled"] and "already applied" in app.escape_error.value
    delve.escape_check("Bryn", "STR", 10, ["lost"], rng=EnteredDice([1]))
    delve.failed_escape("Bryn", rng=EnteredDice([6]))
    delve.body_check("Bryn", rng=EnteredDice([2]))
    find_button(app, "escape-sheet-1").click()
    assert bryn.dead and find_button(app, "escape-sheet-1").disabled
