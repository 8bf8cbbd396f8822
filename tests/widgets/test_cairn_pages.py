"""The Cairn apps' flows, in-process, on the page each notebook builds (its demo).

These were Chromium tests in tests/browser/test_cairn_apps.py (each one a Voila kernel and
3-10 s); the browser keeps one journey per app for what only a browser shows (phone width,
tap targets, the widget round trip). Every rule assertion they made is made here, on the
same widgets, with the same words; dice are unseeded as in the browser, so each assertion
is one every outcome shares.
"""

from __future__ import annotations

import re

from tests.widgets.app_page import AppPage, tag, text_of


def test_character_fill_slot_then_damage_to_exactly_zero_guard() -> None:
    page = AppPage("cairn_character")
    page.box("item-name").text = "Rope"
    page.tap("add-item")
    page.outcome(1)
    filled = page.all("tc-slot-item")
    assert filled and "Rope" in text_of(filled[0].children[0].value)
    assert page.html().count('class="tc-slot-empty"') == 9
    # The seed's example: 2 Armor, 5 Guard, 7 damage -> Guard 0 exactly -> scar 4-6 Rattled
    page.box("damage").text = "7"
    page.tap("take-damage")
    assert 'data-scar="Rattled"' in page.find("tc-outcome", data_n="2")
    assert page.inner("tc-scars") == "Rattled"
    assert page.inner("tc-guard") == "1"  # Rattled: +1 Guard
    page.box("damage").text = "x"
    page.tap("take-damage")
    # Said once, under the box (the app's error line only carries it, unseen).
    assert "whole number" in page.refusal("damage")
    assert page.alerts() == []
    assert page.inner("tc-guard") == "1"  # and nothing was applied
    page.outcome(2)


def test_spellcasting_three_dice() -> None:
    page = AppPage("spellcasting")
    page.tap("dice-3")
    odds = page.find("tc-odds", data_dice="3")
    assert "44.44%" in text_of(odds) and "2.78%" in text_of(odds)
    page.tap("cast")
    # The sheet's own line for the cast (who casts, then the dice), as the log holds it.
    whole = page.outcome(1)
    who, _, text = whole.partition(" casts: ")
    assert who and text.startswith("magic dice ") and "seed " in text
    dice = [int(d) for d in text.removeprefix("magic dice ").split(":")[0].split(", ")]
    assert len(dice) == 3 and all(1 <= d <= 6 for d in dice)
    assert page.has("tc-mishap") == (len(set(dice)) < 3)


def test_duel_choices_hidden_until_both() -> None:
    page = AppPage("duel")
    page.box("stakes").text = "first blood"
    page.tap("start")
    page.outcome(1)
    page.tap("choose-0-flourish")
    hidden = page.outcome(2)
    assert "hidden" in hidden and "flourish" not in hidden
    assert "chosen ✓ (hidden)" in text_of(page.find("tc-choice-0"))
    page.tap("choose-1-defend")
    result = page.outcome(3)
    assert "Vera flourish vs Osk defend" in result and "d8" in result and "d4" in result
    assert page.has("tc-duel", data_rounds="1")


def test_lockpicking_new_lock_and_break() -> None:
    page = AppPage("lockpicking")
    page.tap("new-lock")
    page.outcome(1)
    page.tap("break")
    page.outcome(2)


def lock_state(page: AppPage) -> str:
    found = re.search(tag("tc-lock") + r'[^>]*data-state="([^"]*)"', page.html())
    assert found
    return found.group(1)


def test_lockpicking_disables_picks_once_jammed() -> None:
    page = AppPage("lockpicking")
    for n in range(1, 30):  # wrong actions until the lock jams (or opens by luck: new lock)
        state = lock_state(page)
        if state == "jammed":
            break
        if state in ("open", "broken off"):
            page.tap("new-lock")
        else:
            enabled = [k for k in "TPR" if not page.button(f"pick-{k}").disabled]
            page.tap(f"pick-{enabled[-1]}")
        page.outcome(n)
    assert lock_state(page) == "jammed"
    assert all(page.button(f"pick-{k}").disabled for k in "TPR")


def test_combat_initiative_then_the_enemy_attacks() -> None:
    page = AppPage("cairn_combat")
    page.tap("initiative")
    page.outcome(1)
    assert page.has("tc-combat", data_round="1")
    # the enemy acts in round 1 whatever the initiative save gave
    page.one("tc-attacker").value = "Goblin boss"
    page.one("tc-target-select").value = "Ash"
    page.tap("attack")
    assert "Goblin boss → Ash: d8 = " in page.outcome(2)


def test_combat_group_attack_and_gambit() -> None:
    page = AppPage("cairn_combat")
    # a PC no goblin die can drop (18 Guard), so both attacks below always land on her
    page.box("c-name").text = "Tank"
    page.one("tc-c-side").value = "PCs"
    page.box("c-gd").text = "18"
    page.one("tc-c-flag-pc").value = True
    page.tap("add")
    page.outcome(1)
    page.tap("initiative")
    page.outcome(2)
    assert page.has("tc-combat", data_round="1")
    # round 1: the enemy acts; both goblins on Tank, only the highest die lands
    page.one("tc-attacker").value = "Goblin boss"
    page.one("tc-target-select").value = "Tank"
    page.one("tc-joiners").value = ("Goblin",)
    page.tap("attack")
    text = page.outcome(3)
    assert text.startswith("Goblin boss + Goblin → Tank: d8=")
    rolls = [int(x.split("=")[1]) for x in text.split(": ")[1].split(", keep")[0].split(", ")]
    assert len(rolls) == 2 and f"keep {max(rolls)}" in text
    # roll first, then choose gambits: the pending dice show with an Apply button
    page.one("tc-joiners").value = ()
    page.one("tc-second").value = 4
    page.tap("roll-gambit")
    assert "rolled d8=" in page.outcome(4)
    assert page.has("tc-pending")
    for i in range(2):
        choice = page.all(f"tc-gambit-{i}")
        if choice:
            choice[0].value = "Repel an enemy away from you"
            break
    page.tap("resolve")
    applied = page.outcome(5)
    assert applied.startswith("Goblin boss → Tank: d8=") and "d4=" in applied
    assert not page.has("tc-pending")


def free_slots(page: AppPage) -> str:
    found = re.search(tag("tc-stats") + r'[^>]*data-free="(\d+)"', page.html())
    assert found
    return found.group(1)


def test_character_burden_damage_and_rests() -> None:
    page = AppPage("cairn_character")
    page.box("item-name").text = "Rope"
    page.tap("add-item")
    page.outcome(1)
    assert free_slots(page) == "9"
    page.tap("fatigue")
    page.outcome(2)
    assert free_slots(page) == "8" and len(page.all("tc-slot-fatigue")) == 1
    page.tap("drop-0")
    page.outcome(3)
    assert free_slots(page) == "9"
    page.box("damage").text = "7"
    page.tap("take-damage")
    assert 'data-scar="Rattled"' in page.find("tc-outcome", data_n="4")
    page.tap("rest-night")
    page.outcome(5)
    assert free_slots(page) == "10"  # the night's rest lifts Fatigue
    page.tap("rest-turn")
    page.outcome(6)
    page.tap("rest-day")
    page.outcome(7)


def test_combat_refuses_a_huge_name() -> None:
    page = AppPage("cairn_combat")
    page.box("c-name").text = "W" * 5000
    page.button("add").click()
    assert "too long" in page.refusal("c-name")
    table = page.find("tc-combat")
    assert table.count("<tr") == 4  # header + the three: nobody added


def test_mass_combat_ship_hit_repair_and_port() -> None:
    page = AppPage("cairn_mass_combat")
    assert page.button("ship-repair-dex").disabled  # nothing damaged yet
    assert page.button("ship-board").disabled
    page.box("ship-damage").text = "9"
    page.one("tc-ship-part").value = "DEX"
    page.tap("ship-hit")
    assert "Gull: armor 0, Guard 6, DEX 3" in page.outcome(1)
    page.tap("ship-repair-dex")
    assert "50 silver" in page.outcome(2)
    page.tap("ship-port")
    assert "rests at port" in page.outcome(3)
    assert page.button("ship-port").disabled  # Guard full again


def test_tasks_skill_and_knowledge() -> None:
    page = AppPage("cairn_tasks")
    page.box("skill-have").text = "3"
    page.tap("skill-roll")
    assert "automatic success" in page.outcome(1)
    page.box("skill-have").text = "7"
    assert page.refusal("skill-have")
    assert page.button("skill-roll").disabled
    page.tap("know-common")
    assert "common knowledge" in page.outcome(2)


def test_sheet_conditions_hazard_and_named_wound() -> None:
    page = AppPage("cairn_character")
    assert page.button("calm").disabled
    page.box("hazard").text = "3"
    page.one("tc-hazard-ability").value = "DEX"
    page.tap("hazard-damage")
    assert "3 DEX damage" in page.outcome(1)
    page.box("wound-name").text = "Blight"
    page.one("tc-wound-major").value = True
    page.tap("named-wound")
    assert "Blight (major)" in page.outcome(2)
    wounds = page.all("tc-slot-wound")
    assert wounds and "Blight" in text_of(wounds[0].children[0].value)


def test_combat_maneuver_only_once_the_fight_has_started() -> None:
    page = AppPage("cairn_combat")
    assert page.button("maneuver").disabled  # the fight has not started
    page.tap("initiative")
    page.outcome(1)
    assert page.has("tc-combat", data_round="1")
    page.one("tc-move-who").value = "Goblin boss"
    page.tap("maneuver")
    assert "Goblin boss maneuvers against" in page.outcome(2)


def test_character_save_from_real_dice() -> None:
    """Issue 13: the sheet's STR save from a d20 rolled at the table. An impossible face is
    refused under the faces box and nothing is rolled; 4 against the demo's STR 12 is the
    rule's success, marked as own dice (no seed)."""
    page = AppPage("cairn_character")
    assert not page.all("tc-rule-own")[0].value
    page.one("tc-rule-own").value = True
    faces = page.box("roll-faces")
    faces.text = "21"
    page.tap("sheet-save")
    assert "a d20 shows 1 to 20, not 21" in page.refusal("roll-faces")
    assert page.outcome(0) == "Ready."  # nothing was rolled
    faces.text = "4"
    page.tap("sheet-save")
    result = page.outcome(1)
    assert "d20 = 4 vs ≤ 12: success" in result and "(own dice)" in result
    assert "seed" not in result
