"""One character, one state: a fight linked to the party's sheets reads each party member
off its own sheet and changes it only through the sheet's own moves (issue 18), so the
sheet's scars hold in the fight (issue 21): a doomed scar makes the fight's Critical
Damage save deadly, and an "out of action" character cannot act. Tested move by move,
with the illegal moves refused without a half-change."""

from __future__ import annotations

import pytest

from companion.errors import RuleError
from companion.rulesets.cairn_srd import combat
from companion.rulesets.cairn_srd.character import Character, new_character
from companion.rulesets.cairn_srd.combat import Attack, Encounter
from tests.cairn_srd.test_character import FixedRng


def party_fight(*sheets: Character, foes: int = 1) -> Encounter:
    """The party joins a linked fight against ``foes`` ogres; the PCs act first."""
    e = Encounter()
    e.link({c.name.lower(): c for c in sheets})  # its table: the sheets by id
    for c in sheets:
        combat.join_character(e, c, weapon=8, weapon_name="Longsword")
    for n in range(foes):
        e.add(f"Ogre {n + 1}" if foes > 1 else "Ogre", "Enemies", guard=3, strength=6,
              control=8, weapon=6)
    e.roll_initiative(rng=FixedRng(*[1] * len(sheets)))
    return e


def enemy_turn(e: Encounter) -> None:
    e.end_turn()
    e.end_turn()


def test_hit_rest_on_the_sheet_hit_again_agree() -> None:
    # The sequence: the fight and the sheet never disagree.
    ash = new_character("Ash", 12, 12, 10, 4)
    e = party_fight(ash)
    enemy_turn(e)
    e.attack(Attack("Ogre", "Ash"), rng=FixedRng(1))
    assert (ash.guard, e.fighter("Ash").guard) == (3, 3)
    ash.rest_turn()
    assert (ash.guard, e.fighter("Ash").guard) == (4, 4)
    e.end_turn()
    e.end_turn()
    e.attack(Attack("Ogre", "Ash"), rng=FixedRng(1))
    assert (ash.guard, e.fighter("Ash").guard) == (3, 3)
    assert [ev.move for ev in ash.log] == ["take_damage", "rest_turn", "take_damage"]
    # The saved fight keeps who Ash is, not a second Guard to drift.
    back = Encounter.from_json(e.to_json())
    back.link({"ash": ash})
    assert back.fighter("Ash").guard == 3


def test_doomed_scar_makes_the_fights_critical_save_deadly() -> None:
    ash = new_character("Ash", 12, 12, 10, 2)
    ash.suffer_scar(12)  # Doomed: the next failed Critical Damage save kills
    e = party_fight(ash)
    enemy_turn(e)
    text = e.attack(Attack("Ogre", "Ash"), rng=FixedRng(5, 20))  # 3 to STR, save 20 fails
    assert "dies horribly" in text
    assert ash.dead and e.fighter("Ash").status == "dead" and not e.fighter("Ash").active
    with pytest.raises(RuleError, match="Ash is already dead"):
        e.attack(Attack("Ogre", "Ash"), rng=FixedRng(1))
    # The same hit without the scar only puts Ash out of the action.
    bo = new_character("Bo", 12, 12, 10, 2)
    f = party_fight(bo)
    enemy_turn(f)
    f.attack(Attack("Ogre", "Bo"), rng=FixedRng(5, 20))
    assert bo.critical and not bo.dead and f.fighter("Bo").status == "critical"


def test_out_of_action_sheet_cannot_act_in_the_fight() -> None:
    ash = new_character("Ash", 12, 12, 10, 4)
    bo = new_character("Bo", 12, 12, 10, 4)
    e = party_fight(ash, bo)
    ash.suffer_scar(11)  # Out of action, on the sheet, after the fight began
    assert e.fighter("Ash").status == "critical"
    with pytest.raises(RuleError, match="Ash is critical and cannot attack"):
        e.attack(Attack("Ash", "Ogre"), rng=FixedRng(8))
    with pytest.raises(RuleError, match="Ash is critical and cannot act"):
        e.maneuver("Ash", "Ogre", rng=FixedRng(1, 1))
    with pytest.raises(RuleError, match="Ash is critical and cannot act"):
        e.escape("Ash", rng=FixedRng(1))
    with pytest.raises(RuleError, match="critical and cannot attack"):
        e.attack(Attack("Bo", "Ogre", joined=("Ash",)), rng=FixedRng(8, 8))
    assert ash.log[-1].move == "suffer_scar" and e.log[-1].move == "roll_initiative"
    # Recovery on the sheet brings Ash back into the fight.
    ash.recover_scar(rng=FixedRng(6, 6))
    assert e.fighter("Ash").active
    e.attack(Attack("Ash", "Ogre"), rng=FixedRng(2))
    assert e.find("Ogre").guard == 1


def test_a_refused_move_changes_no_sheet() -> None:
    ash = new_character("Ash", 12, 12, 10, 4)
    bo = new_character("Bo", 12, 12, 10, 4)
    e = party_fight(ash, bo, foes=2)
    e.end_turn()
    e.end_turn()  # round 2: the enemy's turn
    before = (ash.to_json(), bo.to_json(), e.to_json())
    # A blast whose second target is not a foe: refused before any sheet is hit.
    with pytest.raises(RuleError, match="same side"):
        e.attack(Attack("Ogre 1", "Ash", blast_area=("Bo", "Ogre 2"), blast=True),
                 rng=FixedRng(6, 6, 6))
    with pytest.raises(RuleError, match="Enemies' turn"):
        e.attack(Attack("Ash", "Ogre 1"), rng=FixedRng(6))
    with pytest.raises(RuleError, match="Ash's sheet decides"):
        e.set_status("Ash", "critical")
    assert (ash.to_json(), bo.to_json(), e.to_json()) == before
    # The legal blast hits both sheets, each by its own move.
    e.attack(Attack("Ogre 1", "Ash", blast_area=("Bo",), blast=True), rng=FixedRng(2, 3))
    assert (ash.guard, bo.guard) == (2, 1)
    assert ash.log[-1].move == bo.log[-1].move == "take_damage"


def test_set_status_of_a_linked_character() -> None:
    ash = new_character("Ash", 12, 12, 10, 4)
    e = party_fight(ash)
    e.set_status("Ash", "fled")  # the fight's own: the sheet is untouched
    assert e.fighter("Ash").status == "fled" and not ash.log and e.phase == "over"
    e.set_status("Ash", "active")
    assert e.fighter("Ash").active
    e.set_status("Ash", "dead")  # the sheet's death, with the fight as its reason
    assert ash.dead and "fell in the fight" in ash.fate
    with pytest.raises(RuleError, match="dead on the sheet"):
        e.set_status("Ash", "active")
    bo = new_character("Bo", 12, 12, 10, 4)
    f = party_fight(bo)
    bo.leave_play("captured")
    assert f.fighter("Bo").status == "fled"
    with pytest.raises(RuleError, match="out of play on the sheet"):
        f.set_status("Bo", "active")


def test_fighter_is_a_reading_copy_and_unlinked_fights_keep_their_numbers() -> None:
    ash = new_character("Ash", 12, 12, 10, 4)
    e = party_fight(ash)
    seen = e.fighter("Ash")
    seen.guard = 0  # a copy: neither the sheet nor the fight changes
    assert ash.guard == 4 and e.fighter("Ash").guard == 4
    assert e.sheet("Ash") is ash and e.sheet("Ogre") is None
    e.link(None)  # a file opened without the party: the numbers Ash joined with
    ash.damage_ability("STR", 2)
    assert e.sheet("Ash") is None and e.fighter("Ash").strength == 12
    e.attack(Attack("Ash", "Ogre"), rng=FixedRng(2))
    assert [ev.move for ev in ash.log] == ["damage_ability"]


def test_acting_for_names_the_player_characters_who_act() -> None:
    ash = new_character("Ash", 12, 12, 10, 4)
    bo = new_character("Bo", 12, 12, 10, 4)
    e = party_fight(ash, bo)
    e.add("Hireling", "PCs", guard=2, strength=8)
    assert e.acting_for("attack", {"description": Attack("Ash", "Ogre")}) == ("Ash",)
    both = Attack("Ash", "Ogre", joined=("Bo", "Ash"))
    assert e.acting_for("attack", {"description": both}) == ("Ash", "Bo")
    as_json = {"description": {"attacker": "Bo", "target": "Ogre", "joined": ["Ash"]}}
    assert e.acting_for("attack", as_json) == ("Bo", "Ash")
    assert e.acting_for("attack", {"description": Attack("Ogre", "Ash")}) is None
    with_npc = Attack("Ash", "Ogre", joined=("Hireling",))
    assert e.acting_for("attack", {"description": with_npc}) is None
    assert e.acting_for("maneuver", {"attacker": "Bo", "target": "Ogre"}) == ("Bo",)
    assert e.acting_for("escape", {"name": "Ash"}) == ("Ash",)
    assert e.acting_for("escape", {"name": "Ogre"}) is None
    for table_move in ("add", "roll_initiative", "end_turn", "apply_damage",
                       "morale_save", "set_status", "resolve_attack"):
        assert e.acting_for(table_move, {"name": "Ash", "target": "Ash"}) is None
    # A player character joining is that character's; a foe or an ally NPC is the table's.
    assert e.acting_for("add", {"name": " Cy ", "side": "PCs", "pc": True}) == ("Cy",)
    assert e.acting_for("add", {"name": "Orc", "side": "Enemies", "pc": False}) is None
    assert e.acting_for("add", {"name": "Hob", "side": "PCs"}) is None
    e.attack(Attack("Ash", "Ogre", joined=("Bo",)), hold_for_gambits=True,
             rng=FixedRng(2, 3))
    assert e.acting_for("resolve_attack", {}) == ("Ash", "Bo")
