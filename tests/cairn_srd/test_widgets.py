"""Headless tests of the Cairn components: clicks call the core and errors show in the app."""

from __future__ import annotations

import random
from typing import Any

import ipywidgets as widgets

from companion.rulesets.cairn_srd.character import new_character
from companion.rulesets.cairn_srd.combat import GAMBITS, Attack
from companion.widgets.cairn_srd import (
    CairnCharacterSheet,
    CombatTracker,
    DuelPanel,
    LockpickingPanel,
    SpellcastingPanel,
    demo_encounter,
)


def find_button(root: widgets.Widget, name: str) -> widgets.Button:
    stack: list[Any] = [root]
    while stack:
        w = stack.pop()
        if isinstance(w, widgets.Button) and f"tc-btn-{name}" in w._dom_classes:
            return w
        stack.extend(getattr(w, "children", ()))
    raise AssertionError(f"no button {name}")


def test_sheet_fill_slot_damage_scar_and_undo() -> None:
    sheet = CairnCharacterSheet(seed=1)
    c = sheet.character
    sheet.item_name.value = "Rope"
    find_button(sheet, "add-item").click()
    assert [i.name for i in c.items] == ["Rope"] and c.free_slots == 9
    assert "Rope" in sheet.slots.children[0].children[0].value
    find_button(sheet, "drop-0").click()
    assert c.items == []
    sheet.damage_box.value = "7"  # 2 Armor, 5 Guard: the seed's example
    find_button(sheet, "take-damage").click()
    assert c.guard == 1 and 'data-scar="Rattled"' in sheet.outcome.value
    find_button(sheet, "undo").click()
    assert c.guard == 5 and c.scars == []
    sheet.damage_box.value = "lots"
    find_button(sheet, "take-damage").click()
    assert "expected a whole number" in sheet.error.message
    sheet.item_name.value = ""
    find_button(sheet, "add-item").click()
    assert "needs a name" in sheet.error.message


def test_sheet_rest_and_save_load() -> None:
    sheet = CairnCharacterSheet(seed=2)
    find_button(sheet, "fatigue").click()
    assert sheet.character.fatigue == 1
    find_button(sheet, "rest-night").click()
    assert sheet.character.fatigue == 0
    find_button(sheet, "save").click()
    other = CairnCharacterSheet(seed=3)
    area = next(w for w in other.children if isinstance(w, widgets.VBox)
                and any(isinstance(x, widgets.Textarea) for x in w.children))
    text_area = next(x for x in area.children if isinstance(x, widgets.Textarea))
    text_area.value = "{broken"
    find_button(other, "load").click()
    assert "not valid JSON" in other.error.message


def test_spellcasting_odds_and_cast() -> None:
    panel = SpellcastingPanel(seed=5)
    panel.dice.value = "3"
    assert "44.44%" in panel.odds.value and "2.78%" in panel.odds.value
    find_button(panel, "cast").click()
    assert panel.character.log[-1].move == "cast"
    assert "magic dice" in panel.outcome.value
    full = new_character("Full", 10, 10, 10, 3)
    for i in range(9):
        full.add_item(f"thing {i}")
    panel = SpellcastingPanel(full, seed=5)
    panel.dice.value = "2"
    find_button(panel, "cast").click()
    assert "invest 1-1" in panel.error.message


def test_duel_hidden_until_both_choose() -> None:
    panel = DuelPanel(seed=3)
    find_button(panel, "choose-0-attack").click()
    assert "stakes first" in panel.error.message
    panel.stakes.value = "first blood"
    find_button(panel, "start").click()
    find_button(panel, "choose-0-attack").click()
    assert "attack" not in panel.outcome.value.lower().replace("(hidden)", "")
    assert find_button(panel, "choose-0-defend").disabled
    find_button(panel, "choose-1-defend").click()
    assert panel.duel.rounds == 1
    assert "attack vs Osk defend" in panel.outcome.value


def test_lockpicking_panel() -> None:
    panel = LockpickingPanel(seed=4)
    lock = panel.lock
    assert lock.log == ()
    find_button(panel, f"pick-{lock.sequence[0]}").click()
    assert lock.progress == 1 or lock.complication == "Cracked"
    find_button(panel, "break").click()
    find_button(panel, "break").click()
    assert lock.broken
    assert "already open or broken" in panel.error.message or lock.complication == "Reinforced"
    find_button(panel, "new-lock").click()
    assert not lock.broken


def test_combat_tracker() -> None:
    panel = CombatTracker(demo_encounter(), seed=6)
    e = panel.encounter
    find_button(panel, "initiative").click()
    assert e.round == 1
    panel.attacker.value = "Goblin boss"
    panel.target.value = "Ash"
    find_button(panel, "attack").click()
    assert "Goblin boss → Ash" in panel.outcome.value
    panel.f_name.value = "Ash"
    find_button(panel, "add").click()
    assert "already a combatant" in panel.error.message


def test_sheet_new_character_replaces_and_checks() -> None:
    sheet = CairnCharacterSheet(seed=8)
    sheet.new_name.value = "Bryn"
    sheet.new_stats["STR"].value = "14"
    find_button(sheet, "new-character").click()
    assert sheet.character.name == "Bryn" and sheet.character.strength == 14
    assert "Bryn" in sheet.stats.value
    sheet.new_stats["GD"].value = "19"
    find_button(sheet, "new-character").click()
    assert "Ability Scores" in sheet.error.message and sheet.character.guard_max == 5


def test_sheet_boasts_and_inspiration() -> None:
    sheet = CairnCharacterSheet(seed=9)
    c = sheet.character
    find_button(sheet, "boast").click()
    assert "needs a goal" in sheet.error.message
    sheet.boast_goal.value = "topple the tyrant"
    sheet.boast_ability.value = "DEX"
    find_button(sheet, "boast").click()
    assert c.boast == "topple the tyrant" and c.dexterity == 11 and c.guard_max == 6
    assert "topple the tyrant" in sheet.stats.value
    find_button(sheet, "fulfil").click()
    assert c.boast == ""
    find_button(sheet, "roll-inspiration").click()
    assert "no inspiration dice" in sheet.error.message
    find_button(sheet, "inspire").click()
    find_button(sheet, "roll-inspiration").click()
    assert "Inspiration dice [" in sheet.outcome.value and c.inspiration == 0


def started_tracker(seed: int) -> CombatTracker:
    panel = CombatTracker(demo_encounter(), seed=seed)
    panel.encounter.add("Bryn", "PCs", guard=3, strength=10, weapon=6, pc=True)
    find_button(panel, "initiative").click()
    panel.encounter.end_turn()  # the PCs' turn, whatever initiative gave
    return panel


def test_combat_group_attack_keeps_the_highest() -> None:
    panel = started_tracker(11)
    e = panel.encounter
    panel.attacker.value = "Ash"
    panel.target.value = "Goblin boss"
    panel.joiners.value = ("Bryn", "Ash", "Goblin boss")  # attacker and target: dropped
    find_button(panel, "attack").click()
    assert panel.error.message == ""
    last = e.log[-1]
    assert last.move == "attack" and "Ash + Bryn → Goblin boss: d8=" in panel.outcome.value
    assert "keep" in last.summary
    rolls = [int(x.split("=")[1]) for x in last.summary.split(": ")[1].split(", keep")[0]
             .split(", ")]
    assert f"keep {max(rolls)}" in last.summary


def test_combat_dual_weapons_and_flags() -> None:
    panel = started_tracker(12)
    e = panel.encounter
    panel.attacker.value, panel.target.value = "Ash", "Goblin"
    panel.second_weapon.value = 4
    panel.flags["enhanced"].value = True
    find_button(panel, "attack").click()
    assert e.log[-1].move == "attack" and ": d12=" in e.log[-1].summary
    assert e.log[-1].summary.count("d12=") == 2  # enhanced: both weapons roll d12
    panel.flags["enhanced"].value = False
    panel.flags["unarmed"].value = True
    find_button(panel, "attack").click()
    assert "no second weapon" in panel.error.message
    panel.second_weapon.value = 0
    panel.flags["impaired"].value = True
    panel.target.value = "Goblin boss"
    find_button(panel, "attack").click()
    assert e.log[-1].move == "attack" and "Ash → Goblin boss: d4 = " in panel.outcome.value
    assert e.log[-1].args["description"]["unarmed"] is True
    assert e.log[-1].args["description"]["impaired"] is True


def _seed_for(after: int, faces: list[tuple[int, int]]) -> int:
    """A seed whose generator, after ``after`` dice, rolls ``faces`` ((face, sides) each)."""
    for seed in range(100_000):
        r = random.Random(seed)
        for _ in range(after):
            r.random()
        if all(1 + int(r.random() * sides) == face for face, sides in faces):
            return seed
    raise AssertionError("no such seed")


def test_combat_gambit_roll_choose_apply() -> None:
    # Initiative rolls two d20s (Ash, Bryn); then the d8 shows 3 and the d6 shows 6.
    panel = started_tracker(_seed_for(2, [(3, 8), (6, 6)]))
    e = panel.encounter
    panel.attacker.value, panel.target.value = "Ash", "Goblin boss"
    panel.joiners.value = ("Bryn",)
    find_button(panel, "roll-gambit").click()
    p = e.pending
    assert p is not None and "rolled d8=3, d6=6" in panel.outcome.value
    assert p.rolls == [3, 6]  # seed 13: the d6 may buy a gambit, the d8's 3 may not
    assert set(panel.gambit_choices) == {1}
    find_button(panel, "attack").click()
    assert "resolve the rolled attack" in panel.error.message
    panel.gambit_choices[1].value = GAMBITS[2]
    find_button(panel, "resolve").click()
    summary = e.log[-1].summary
    assert e.log[-1].move == "resolve_attack"
    assert f"gambit d6=6 for “{GAMBITS[2]}”: the target saves" in summary
    assert "keep 3" in summary and e.find("Goblin boss").guard == 0  # 3 Guard takes the 3
    assert e.pending is None and panel.gambit_box.children == ()


def test_combat_gambit_not_offered_under_four() -> None:
    panel = started_tracker(14)
    e = panel.encounter
    seed = next(n for n in range(100) if 1 + int(random.Random(n).random() * 8) < 4)
    # a move made elsewhere: the panel redraws
    e.attack(Attack("Ash", "Goblin"), hold_for_gambits=True, seed=seed)
    assert e.pending is not None and e.pending.rolls[0] < 4
    assert panel.gambit_choices == {} and "kept (under 4)" in str(
        [getattr(w, "value", "") for r in panel.gambit_box.children
         for w in getattr(r, "children", ())])
    find_button(panel, "resolve").click()
    assert e.pending is None and "keep" in e.log[-1].summary


def test_combat_blast_over_several_targets() -> None:
    panel = started_tracker(15)
    e = panel.encounter
    panel.attacker.value, panel.target.value = "Ash", "Goblin boss"
    panel.blast_targets.value = ("Goblin", "Goblin boss")
    panel.joiners.value = ("Bryn",)
    find_button(panel, "attack").click()
    assert "no joined attackers" in panel.error.message and len(e.log) == 3
    find_button(panel, "roll-gambit").click()
    assert "one at a time" in panel.error.message and e.pending is None
    panel.joiners.value = ()
    find_button(panel, "attack").click()
    assert panel.error.message == "" and e.log[-1].move == "attack"
    assert e.log[-1].args["description"]["blast_area"] == ["Goblin", "Goblin boss"]
    assert "Ash → Goblin boss: d8 = " in e.log[-1].summary
    assert e.log[-1].summary.count("(blast)") == 2
