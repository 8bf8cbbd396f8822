"""The combat tracker with the party's sheets: Guard 0 from burden, cumbersome load or
panic; a panicking attacker impaired; scars, maneuver Fatigue and weapon mastery landing
on the sheet (linked: as the sheet's own moves; unlinked: due, marked written); morale
once for a lone foe at 0 Guard and for a lone ally NPC; maneuvers and escaping as moves."""

from __future__ import annotations

import pytest

from companion.errors import RuleError, StateError
from companion.rulesets.cairn_srd import combat
from companion.rulesets.cairn_srd.character import Character, new_character
from companion.rulesets.cairn_srd.combat import Attack, Encounter
from tests.cairn_srd.test_character import FixedRng


def sheet(name: str = "Ash", guard: int = 4, armor: int = 0) -> Character:
    return new_character(name, 12, 12, 10, guard, armor)


def fight(c: Character, foe_guard: int = 3, weapon_name: str = "Longsword",
          linked: bool = True) -> Encounter:
    e = Encounter()
    if linked:
        e.link({c.name.lower(): c})  # the fight's table: its trackers by id
    combat.join_character(e, c, weapon=8, weapon_name=weapon_name)
    e.add("Ogre", "Enemies", guard=foe_guard, strength=6, control=8, weapon=6)
    e.roll_initiative(rng=FixedRng(1))  # Ash acts first
    return e


@pytest.mark.parametrize("linked", [True, False])
@pytest.mark.parametrize("cause", ["full burden", "cumbersome load", "panic"])
def test_guard_counts_zero(cause: str, linked: bool) -> None:
    c = sheet()
    if cause == "full burden":
        for n in range(10):
            c.add_item(f"Stone {n}")
    elif cause == "cumbersome load":
        c.carry_cumbersome()
    else:
        c.panicking = True
    e = fight(c, linked=linked)
    ash = e.fighter("Ash")
    assert ash.no_guard == cause and ash.effective_guard == 0 and ash.guard == 4
    e.end_turn()
    e.end_turn()
    text = e.attack(Attack("Ogre", "Ash"), rng=FixedRng(3, 20))  # all 3 on STR
    ash = e.fighter("Ash")
    assert "Guard 0, STR 3" in text and ash.guard == 4 and ash.strength == 9
    assert f"Guard counts as 0: {cause}" in text
    # Linked, the hit was the sheet's own; unlinked, the sheet is untouched.
    assert c.strength == (9 if linked else 12)


def test_guard_returns_when_the_cause_goes() -> None:
    c = sheet()
    c.carry_cumbersome()
    e = fight(c, linked=False)
    c.carry_cumbersome(False)
    e.sync_sheet("Ash", **combat.sheet_conditions(c))
    assert e.find("Ash").effective_guard == 4
    linked = sheet()
    linked.carry_cumbersome()
    f = fight(linked)
    assert f.fighter("Ash").effective_guard == 0
    linked.carry_cumbersome(False)  # nothing to sync: the fight reads the sheet
    assert f.fighter("Ash").effective_guard == 4
    with pytest.raises(RuleError, match="reads Ash's own sheet"):
        f.sync_sheet("Ash", **combat.sheet_conditions(linked))
    with pytest.raises(RuleError, match="no player character"):
        e.sync_sheet("Ogre", 3, 10, 10, 0, False)
    with pytest.raises(RuleError, match="0-18"):
        e.sync_sheet("Ash", 19, 10, 10, 0, False)


def test_panicking_attacker_is_impaired() -> None:
    c = sheet()
    e = fight(c)
    c.panicking = True  # read off the linked sheet when the attack is made
    text = e.attack(Attack("Ash", "Ogre"), rng=FixedRng(4, 2))
    assert "d4 = 4" in text  # d8 longsword impaired to d4
    calm = fight(sheet())
    assert "d8 = 4" in calm.attack(Attack("Ash", "Ogre"), rng=FixedRng(4, 2))


def test_scar_lands_on_the_sheet_with_its_effect() -> None:
    c = sheet(guard=5)
    e = fight(c)
    e.end_turn()
    e.end_turn()
    text = e.attack(Attack("Ogre", "Ash"), rng=FixedRng(5))  # 5 to Guard: exactly 0 -> Rattled
    assert "scar Rattled" in text and e.sheet_due == []
    assert c.scars == ["Rattled"] and c.guard_max == 6 and c.guard == 1
    assert (e.fighter("Ash").guard, e.fighter("Ash").guard_max) == (1, 6)
    assert [ev.move for ev in c.log] == ["take_damage"]  # the sheet's own move


def test_unlinked_due_entries_are_marked_written_and_load_checked() -> None:
    c = sheet(guard=5)
    e = fight(c, linked=False)
    e.end_turn()
    e.end_turn()
    e.attack(Attack("Ogre", "Ash"), rng=FixedRng(5))
    assert [(d.name, d.kind, d.value) for d in e.sheet_due] == [("Ash", "scar", 5)]
    assert c.scars == [] and c.guard == 5  # no sheet is touched unlinked
    back = Encounter.from_json(e.to_json())
    assert back.sheet_due == e.sheet_due
    bad = e.to_json().replace('"kind": "scar"', '"kind": "hug"')
    with pytest.raises(StateError, match="kind"):
        Encounter.from_json(bad)
    with pytest.raises(RuleError, match="no sheet entry #2"):
        e.clear_due(1)
    assert e.clear_due(0).kind == "scar" and e.sheet_due == []


def test_lone_foe_owes_morale_once() -> None:
    e = fight(sheet(), foe_guard=4)
    text = e.attack(Attack("Ash", "Ogre"), rng=FixedRng(4))  # Guard 4 -> 0
    assert "lone foe at 0 Guard" in text and e.morale_due == ["Ogre"]
    e.morale_save("Ogre", rng=FixedRng(2))
    e.end_turn()  # the PCs' own turn of round 1
    text = e.attack(Attack("Ash", "Ogre"), rng=FixedRng(1, 2))  # 1 to STR, save passes
    assert "morale" not in text and e.morale_due == []


def test_lone_ally_npc_owes_morale() -> None:
    e = Encounter()
    combat.join_character(e, sheet())
    e.add("Hireling", "PCs", guard=2, strength=8, control=7)
    e.add("Ogre", "Enemies", guard=3, strength=6)
    e.roll_initiative(rng=FixedRng(20))  # the enemy acts first
    text = e.attack(Attack("Ogre", "Hireling"), rng=FixedRng(2))
    assert "lone ally at 0 Guard" in text and e.morale_due == ["Hireling"]
    e.morale_save("Hireling", rng=FixedRng(15))
    assert e.find("Hireling").status == "fled" and e.find("Ash").active


def test_maneuver_and_its_fatigue_on_the_sheet() -> None:
    c = sheet()
    e = fight(c)
    with pytest.raises(RuleError, match="same side"):
        e.maneuver("Ash", "Ash")
    with pytest.raises(RuleError, match="STR, DEX or CTRL"):
        e.maneuver("Ash", "Ogre", "LUCK")
    r = e.maneuver("Ash", "Ogre", "STR", "DEX", rng=FixedRng(10, 15))
    assert not r.target_save.success and not r.attacker_save.success  # 10 > STR 6; 15 > 12
    assert e.sheet_due == [] and c.fatigue == 1 and "maneuver" in c.log[-1].summary
    ok = e.maneuver("Ash", "Ogre", rng=FixedRng(2, 3))
    assert ok.target_save.success and ok.attacker_save.success and e.sheet_due == []
    e.end_turn()
    e.end_turn()  # round 2, the enemy's turn
    with pytest.raises(RuleError, match="Enemies' turn"):
        e.maneuver("Ash", "Ogre")


def test_escape_needs_a_safe_place_and_a_dex_save() -> None:
    e = fight(sheet())
    with pytest.raises(RuleError, match="somewhere safe"):
        e.escape("Ash", safe_place=False)
    assert not e.escape("Ash", rng=FixedRng(13)).success and e.find("Ash").active
    assert e.escape("Ash", rng=FixedRng(12)).success
    assert e.find("Ash").status == "fled" and e.phase == "over"
    with pytest.raises(RuleError, match="over"):
        e.escape("Ash", rng=FixedRng(1))


def test_weapon_mastery_counts_critical_kills_per_weapon() -> None:
    c = sheet()
    for _ in range(5):
        e = fight(c, foe_guard=0)
        text = e.attack(Attack("Ash", "Ogre"), rng=FixedRng(8))  # 8 on STR 6: dead
        assert "critical kill for weapon mastery" in text and e.sheet_due == []
    assert c.weapon_kills == {"Longsword": 5} and c.weapon_feats("Longsword") == 1
    assert "a new feat" in c.log[-1].summary
    e = fight(c, foe_guard=0, weapon_name="")
    e.attack(Attack("Ash", "Ogre"), rng=FixedRng(8))
    assert c.weapon_kills == {"Longsword": 5, "d8 weapon": 1}
    unlinked = fight(c, foe_guard=0, linked=False)
    unlinked.attack(Attack("Ash", "Ogre"), rng=FixedRng(8))
    assert [d.kind for d in unlinked.sheet_due] == ["kill"]
    assert c.weapon_kills == {"Longsword": 5, "d8 weapon": 1}
    miss = fight(c, foe_guard=5)
    miss.attack(Attack("Ash", "Ogre"), rng=FixedRng(3))
    assert miss.sheet_due == []
    with pytest.raises(RuleError, match="name the weapon"):
        c.record_critical_kill(" ")
