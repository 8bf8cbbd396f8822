"""Combat rules and the encounter tracker."""

from __future__ import annotations

import random

import pytest

from companion.errors import RuleError
from companion.rulesets.cairn_srd import combat
from companion.rulesets.cairn_srd.combat import Attack, Encounter
from companion.rulesets.cairn_srd.saves import save_chance
from tests.cairn_srd.test_character import FixedRng

REPEL = combat.GAMBITS[2]


def test_attack_die_rules() -> None:
    assert combat.attack_die(8) == 8
    assert combat.attack_die(8, impaired=True) == 4
    assert combat.attack_die(6, enhanced=True) == 12
    assert combat.attack_die(10, unarmed=True) == 4
    assert combat.attack_die(8, impaired=True, enhanced=True) == 8  # Interpretation
    with pytest.raises(RuleError, match="d4-d12"):
        combat.attack_die(7)


def test_keep_highest_and_gambits_and_mastery() -> None:
    assert combat.keep_highest([6, 8], FixedRng(5, 2)) == ([5, 2], 5)
    with pytest.raises(RuleError):
        combat.keep_highest([], random.Random(1))
    with pytest.raises(RuleError, match="4\\+"):
        combat.gambit(3)
    assert "saves" in combat.gambit(4) and "saves" in combat.gambit(7)
    assert combat.gambit(8) == "succeeds automatically"
    assert [combat.mastery_feats(k) for k in (0, 4, 5, 29, 30, 99)] == [0, 0, 1, 5, 6, 6]


def test_initiative_odds_seed_example() -> None:
    # 2 Armor, DEX 12: needs 3-12, each Armor point costs 5 %
    assert save_chance(12, floor=2) == save_chance(12) - 2 * save_chance(1)


def encounter() -> Encounter:
    e = Encounter()
    e.add("Ash", "PCs", guard=4, strength=12, dexterity=12, armor=2, weapon=8, pc=True)
    e.add("Goblin", "Enemies", guard=2, strength=6, control=7, weapon=6, leader=True)
    e.add("Goblin 2", "Enemies", guard=2, strength=6, control=7, weapon=6)
    return e


def test_encounter_flow_and_morale() -> None:
    e = encounter()
    with pytest.raises(RuleError, match="not started"):
        e.end_turn()
    res = e.roll_initiative(rng=FixedRng(3))
    assert res["Ash"].success and e.phase == "Enemies" and e.round == 1
    with pytest.raises(RuleError, match="before round 1"):
        e.roll_initiative()
    # Ash passed initiative: may attack during the enemies' first phase
    text = e.attack(Attack("Ash", "Goblin"), rng=FixedRng(8, 19))  # 8: Guard 2, STR 6 -> 0
    assert "dead" in text and e.find("Goblin").status == "dead"
    assert "first casualty" in text and "half lost" in text and "leader lost" in text
    assert e.morale_due == ["Goblin 2"]
    with pytest.raises(RuleError, match="morale"):
        e.end_turn()
    e.morale_save("Goblin 2", rng=FixedRng(15))  # CTRL 7: fails -> flees
    assert e.find("Goblin 2").status == "fled" and e.phase == "over"
    with pytest.raises(RuleError, match="over"):
        e.attack(Attack("Ash", "Goblin 2"))
    back = Encounter.from_json(e.to_json())
    assert back == e
    back.undo()
    assert back.morale_due == ["Goblin 2"]


def test_turn_order_and_illegal_attacks() -> None:
    e = encounter()
    e.roll_initiative(rng=FixedRng(20))  # Ash fails: the enemy acts first
    with pytest.raises(RuleError, match="Enemies' turn"):
        e.attack(Attack("Ash", "Goblin"))
    with pytest.raises(RuleError, match="same side"):
        e.attack(Attack("Goblin", "Goblin 2"))
    text = e.attack(Attack("Goblin", "Ash"), rng=FixedRng(6))  # 6 - 2 armor = 4 to Guard: exactly 0
    assert e.find("Ash").guard == 0
    assert "scar Rattled (damage 4): apply it on the character sheet" in text  # row 4-6
    assert e.end_turn() == "PCs"
    assert e.end_turn() == "Enemies" and e.round == 2
    with pytest.raises(RuleError, match="no combatant"):
        e.attack(Attack("Ash", "Dragon"))
    with pytest.raises(RuleError, match="already"):
        e.add("Ash", "PCs", 1, 1)
    with pytest.raises(RuleError, match="PCs' side"):
        e.add("Bob", "Enemies", 1, 1, pc=True)


def test_detachments_and_lone_foe() -> None:
    e = Encounter()
    e.add("Ash", "PCs", guard=3, strength=10, pc=True, weapon=10)
    e.add("Spears", "Enemies", guard=5, strength=10, control=10, detachment=True)
    e.roll_initiative(rng=FixedRng(1))
    text = e.attack(Attack("Ash", "Spears"), rng=FixedRng(4))  # impaired: d4
    assert "d4 = 4" in text
    e.end_turn()
    e.end_turn()
    text = e.attack(Attack("Spears", "Ash"), rng=FixedRng(12, 1))  # enhanced blast d12
    assert "d12 = 12" in text and "(blast)" in text
    e2 = Encounter()
    e2.add("Ash", "PCs", guard=3, strength=10, pc=True)
    e2.add("Ogre", "Enemies", guard=3, strength=14, control=8)
    e2.roll_initiative(rng=FixedRng(1))
    text = e2.attack(Attack("Ash", "Ogre"), rng=FixedRng(3))
    assert "lone foe at 0 Guard" in text and e2.morale_due == ["Ogre"]
    e2.morale_save("Ogre", rng=FixedRng(2))
    assert e2.find("Ogre").active and e2.morale_due == []


def test_apply_damage_and_set_status() -> None:
    e = encounter()
    e.roll_initiative(rng=FixedRng(3))
    text = e.apply_damage("Goblin 2", 3, rng=FixedRng(20))  # 2 Guard, 1 STR, save 20 fails
    assert "Critical Damage" in text and e.find("Goblin 2").status == "critical"
    assert e.morale_due == ["Goblin"]
    with pytest.raises(RuleError, match="already critical"):
        e.apply_damage("Goblin 2", 1)
    with pytest.raises(RuleError, match="negative"):
        e.apply_damage("Goblin", -1)
    e.morale_save("Goblin", rng=FixedRng(1))
    e.set_status("Goblin", "fled")
    assert e.phase == "over"
    with pytest.raises(RuleError, match="status is"):
        e.set_status("Goblin", "sleeping")
    with pytest.raises(RuleError, match="no morale save is due"):
        e.morale_save("Goblin")


def test_group_attack_and_dual_weapons_keep_highest() -> None:
    e = encounter()
    e.add("Bryn", "PCs", guard=3, strength=10, dexterity=10, weapon=6, pc=True)
    e.roll_initiative(rng=FixedRng(5, 5))  # both pass (Ash over 2 Armor)
    text = e.attack(Attack("Ash", "Goblin 2", joined=("Bryn",)), rng=FixedRng(2, 5, 1))
    assert "d8=2, d6=5, keep 5" in text
    assert e.find("Goblin 2").strength == 3  # 5: Guard 2, STR 3, save 1 passes
    text = e.attack(Attack("Ash", "Goblin", second_weapon=4), rng=FixedRng(1, 3, 1))
    assert "d8=1, d4=3, keep 3" in text
    with pytest.raises(RuleError, match="Dual Weapons"):
        e.attack(Attack("Ash", "Goblin", joined=("Bryn",), second_weapon=4))
    with pytest.raises(RuleError, match="choose an attacker"):
        e.attack(Attack("", "Goblin"))
    assert Attack("Ash", "Goblin", joined=("Ash", "Goblin", "Bryn", "Bryn")).attackers == [
        "Ash", "Bryn"]  # the attacker and target add nothing; each helper once


def test_roll_then_gambit_discards_a_die_and_the_highest_kept_deals_damage() -> None:
    e = encounter()
    e.add("Bryn", "PCs", guard=3, strength=10, dexterity=10, weapon=6, pc=True)
    e.roll_initiative(rng=FixedRng(5, 5))
    e.attack(Attack("Ash", "Goblin", second_weapon=6), hold_for_gambits=True, rng=FixedRng(8, 3))
    rolled = e.pending
    assert rolled is not None and rolled.rolls == [8, 3]
    assert e.find("Goblin").guard == 2  # nothing applied yet
    with pytest.raises(RuleError, match="resolve the rolled attack"):
        e.attack(Attack("Ash", "Goblin"))
    with pytest.raises(RuleError, match="resolve the rolled attack"):
        e.end_turn()
    with pytest.raises(RuleError, match="4\\+"):
        e.resolve_attack({1: REPEL})  # a 3 cannot be discarded
    with pytest.raises(RuleError, match="unknown gambit"):
        e.resolve_attack({0: "fly"})
    with pytest.raises(RuleError, match="no die number 3"):
        e.resolve_attack({2: REPEL})
    back = Encounter.from_json(e.to_json())
    assert back.pending == rolled
    # the 8 buys a repel that simply works; the 3 is kept: Guard 2 takes 2, STR 1, save 1 passes
    text = e.resolve_attack({0: REPEL}, rng=FixedRng(1))
    assert f"gambit d8=8 for “{REPEL}”: succeeds automatically" in text
    assert "keep 3" in text and e.pending is None
    assert e.find("Goblin").guard == 0 and e.find("Goblin").strength == 5


def test_bolster_gambit_and_a_lone_die_spent() -> None:
    e = encounter()
    e.add("Bryn", "PCs", guard=3, strength=10, dexterity=10, weapon=6, pc=True)
    e.roll_initiative(rng=FixedRng(5, 5))
    e.attack(Attack("Ash", "Goblin 2", joined=("Bryn",)), hold_for_gambits=True,
             rng=FixedRng(5, 2))
    text = e.resolve_attack({0: combat.BOLSTER}, rng=FixedRng(1))  # 5 spent: 2 kept, +1 = 3
    assert "target saves" in text and "keep 2 +1" in text
    assert e.find("Goblin 2").guard == 0 and e.find("Goblin 2").strength == 5
    e.attack(Attack("Ash", "Goblin"), hold_for_gambits=True, rng=FixedRng(6))
    with pytest.raises(RuleError, match="none is kept"):
        e.resolve_attack({0: combat.BOLSTER})
    text = e.resolve_attack({0: combat.GAMBITS[3]})
    assert "no die kept: no damage" in text and e.find("Goblin").guard == 2
    with pytest.raises(RuleError, match="roll an attack for gambits first"):
        e.resolve_attack()
    e.undo()
    assert e.pending is not None and e.pending.rolls == [6]


def test_roll_attack_flags_and_detachment_blast() -> None:
    e = Encounter()
    e.add("Ash", "PCs", guard=3, strength=10, pc=True, weapon=10)
    e.add("Spears", "Enemies", guard=5, strength=10, detachment=True)
    e.roll_initiative(rng=FixedRng(1))
    e.attack(Attack("Ash", "Spears"), hold_for_gambits=True, rng=FixedRng(4))
    assert e.pending is not None and e.pending.dice == [4]  # impaired
    e.resolve_attack()
    with pytest.raises(RuleError, match="unarmed attack has no second"):
        e.attack(Attack("Ash", "Spears", second_weapon=6, unarmed=True))
    e.attack(Attack("Ash", "Spears", blast=True), hold_for_gambits=True, rng=FixedRng(1))
    assert e.pending is not None and e.pending.dice == [10]
    assert "morale save due" in e.resolve_attack()  # a lone detachment at 0 Guard
    e.morale_save("Spears", rng=FixedRng(1))
    e.end_turn()
    e.end_turn()
    e.attack(Attack("Spears", "Ash"), hold_for_gambits=True, rng=FixedRng(12))
    rolled = e.pending
    # enhanced, blast: a detachment on one PC
    assert rolled is not None and rolled.dice == [12] and rolled.blast
    e.resolve_attack(rng=FixedRng(1))
    text = e.attack(Attack("Spears", "Ash", impaired=True), rng=FixedRng(4))
    assert "Spears → Ash: d6 = 4 (blast)" in text  # impaired and enhanced at once: the weapon's d6
    assert e.find("Ash").status == "dead"


def test_blast_rolls_separately_for_every_target() -> None:
    e = encounter()
    e.roll_initiative(rng=FixedRng(3))  # Ash acts first
    text = e.attack(Attack("Ash", "Goblin", blast_area=("Goblin 2",)), rng=FixedRng(1, 2))
    assert "Ash → Goblin: d8 = 1 (blast)" in text and "Ash → Goblin 2: d8 = 2 (blast)" in text
    assert [e.find(n).guard for n in ("Goblin", "Goblin 2")] == [1, 0]
    assert [ev.move for ev in e.log[-2:]] == ["roll_initiative", "attack"]  # one move
    area = Attack("Ash", "Goblin", blast_area=("Goblin", "Goblin 2", "Goblin 2"))
    assert area.targets == ["Goblin", "Goblin 2"]  # each target rolled for once
    for bad, why in ((Attack("Ash", "Goblin", blast_area=("Goblin 2",), joined=("Bryn",)),
                      "no joined attackers"),
                     (Attack("Ash", "Goblin", blast_area=("Goblin 2",), second_weapon=4),
                      "second weapon"),
                     (Attack("Ash", "Goblin", blast_area=("Goblin 2",), unarmed=True),
                      "unarmed")):
        with pytest.raises(RuleError, match=why):
            e.attack(bad)
    with pytest.raises(RuleError, match="one at a time"):
        e.attack(Attack("Ash", "Goblin", blast_area=("Goblin 2",)), hold_for_gambits=True)
    with pytest.raises(RuleError, match="same side"):
        e.attack(Attack("Ash", "Goblin", blast_area=("Ash",)), rng=FixedRng(8))
    assert e.find("Goblin").guard == 1  # refused: the first target's hit is taken back
    e.undo()
    assert [e.find(n).guard for n in ("Goblin", "Goblin 2")] == [2, 2]
