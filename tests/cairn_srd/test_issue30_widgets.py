"""Issue 30 (Cairn): the moves no app reached, driven in-process through the apps' buttons."""

from __future__ import annotations

from companion.rulesets.cairn_srd.character import Character
from companion.rulesets.cairn_srd.combat import Encounter
from companion.rulesets.cairn_srd.lockpicking import LockPicking
from companion.widgets.cairn_srd import (
    CairnCharacterApp,
    CombatApp,
    LockpickingApp,
    demo_encounter,
)
from tests.cairn_srd.widget_find import find_button, fixed_seeds
from tests.conftest import find_widget


def combat_app() -> CombatApp:
    app = CombatApp(demo_encounter(), seed_source=fixed_seeds(*range(1, 50)))
    app.encounter.add("Bryn", "PCs", guard=3, strength=10, weapon=6, pc=True)
    return app


def test_the_fiction_starts_the_fight_with_the_pcs_and_a_surprised_pc() -> None:
    app = combat_app()
    e = app.encounter
    assert set(app.surprised.options) == {"Ash", "Bryn"}
    app.surprised.value = ("Bryn",)
    find_button(app, "begin-pcs").click()
    assert app.error.message == "" and e.log[-1].move == "begin"
    assert e.log[-1].args["surprised"] == ["Bryn"]
    assert "PCs act first: Ash" in app.outcome.value and "surprised: Bryn" in app.outcome.value
    assert [c.name for c in e.combatants if c.acted_first] == ["Ash"]
    for name in ("begin-pcs", "begin-enemies", "initiative"):
        assert find_button(app, name).disabled
    assert "acting first: Ash" in app.board.value


def test_the_enemy_acts_first_and_surprise_is_refused_there() -> None:
    app = combat_app()
    app.surprised.value = ("Ash",)
    find_button(app, "begin-enemies").click()
    assert "no PC acts before it" in app.error.message and app.encounter.phase == "setup"
    app.surprised.value = ()
    find_button(app, "begin-enemies").click()
    assert app.error.message == "" and app.encounter.phase == "Enemies"
    assert not any(c.acted_first for c in app.encounter.combatants)


def test_initiative_passes_the_surprised_pcs() -> None:
    app = combat_app()
    app.surprised.value = ("Ash",)
    find_button(app, "initiative").click()
    last = app.encounter.log[-1]
    assert last.move == "roll_initiative" and last.args["surprised"] == ["Ash"]
    assert "Ash" not in last.summary.split(" — ")[0] and "Bryn" in last.summary


def test_mark_a_status_and_apply_typed_damage() -> None:
    app = combat_app()
    e = app.encounter
    find_button(app, "begin-pcs").click()
    panel = app.moves
    assert list(panel.anyone.options) == ["Ash", "Goblin boss", "Goblin", "Bryn"]
    panel.anyone.value, panel.status.value = "Goblin", "fled"
    find_button(app, "mark-status").click()
    assert app.error.message == "" and e.find("Goblin").status == "fled"
    assert "Goblin is now fled" in app.outcome.value
    # direct damage skips Guard and Armor: 4 straight off the boss's STR of 8
    panel.anyone.value = "Goblin boss"
    panel.amount.value = "4"
    find_button(app, "fight-damage").click()
    assert app.error.message == "" and e.log[-1].move == "apply_damage"
    boss = e.find("Goblin boss")
    assert (boss.guard, boss.strength) == (3, 4) and e.log[-1].args["direct"] is True
    # not direct: Guard first
    panel.direct.value = False
    panel.anyone.value, panel.amount.value = "Bryn", "2"
    find_button(app, "fight-damage").click()
    assert e.find("Bryn").guard == 1
    # a bad amount disables the button; a refused mark says why under the buttons
    panel.amount.value = "lots"
    assert find_button(app, "fight-damage").disabled
    panel.anyone.value, panel.status.value = "Goblin", "active"
    find_button(app, "mark-status").click()
    assert e.find("Goblin").status == "active"


def test_the_mark_stabilises_a_critically_damaged_foe_and_takes_a_surrender() -> None:
    app = combat_app()
    e, panel = app.encounter, app.moves
    find_button(app, "begin-pcs").click()
    assert {"stable", "surrendered"} <= set(panel.status.options)
    panel.anyone.value, panel.status.value = "Goblin", "stable"
    find_button(app, "mark-status").click()  # not critically damaged: nothing to stabilise
    assert "only a combatant with Critical Damage is stabilised" in app.error.message
    assert e.find("Goblin").status == "active"
    for status in ("critical", "stable"):
        panel.status.value = status
        find_button(app, "mark-status").click()
    assert app.error.message == "" and e.find("Goblin").status == "stable"
    assert '<tr class="tc-c-stable">' in app.board.value
    assert "Goblin" not in app.target.options  # out of the action: no longer a target
    panel.anyone.value, panel.status.value = "Goblin boss", "surrendered"
    find_button(app, "mark-status").click()
    assert e.phase == "over" and "Goblin boss is now surrendered" in app.outcome.value


def test_an_empty_fight_offers_no_mark() -> None:
    app = CombatApp(Encounter())
    assert find_button(app, "mark-status").disabled
    assert find_button(app, "fight-damage").disabled


def test_the_lock_app_says_a_failed_study_jammed_the_stiff_lock() -> None:
    lock = LockPicking(lock_type="Pin", dv=1, sequence="TPR")
    app = LockpickingApp(lock, seed_source=fixed_seeds(*range(100)))
    find_button(app, "pick-R").click()
    assert lock.stiff
    for _ in range(20):  # studies until one fails (2-in-6 to succeed)
        find_button(app, "study").click()
        if lock.jammed:
            break
    assert lock.jammed and "the stiff lock jams" in app.outcome.value
    assert find_button(app, "study").disabled and find_button(app, "pick-T").disabled


def test_the_sheet_refuses_a_rest_while_its_fight_goes_on() -> None:
    ash = Character(name="Ash", guard_max=5, guard=1)
    fight = Encounter()
    fight.add("Ash", "PCs", guard=1, strength=10, pc=True)
    fight.add("Goblin", "Enemies", guard=2, strength=6)
    ash.link({"fight": fight})
    app = CairnCharacterApp(ash)
    fight.begin("Enemies")
    find_button(app, "rest-turn").click()
    assert "out of danger; Ash is in the fight (round 1)" in app.error.message
    assert ash.guard == 1
    fight.set_status("Ash", "fled")
    find_button(app, "rest-turn").click()
    assert ash.guard == 5
    assert find_widget(app, "rest-turn", "btn") is not None


def test_the_ship_stows_and_unloads_cargo_in_hold_and_decks() -> None:
    from companion.rulesets.cairn_srd import mass_combat
    from companion.rulesets.cairn_srd.mass_combat import Vessel
    from companion.widgets.cairn_srd.vessels import MassCombatApp

    ship = Vessel(name="Gull")
    app = MassCombatApp(ship, seed_source=fixed_seeds(1))
    panel = app.panel
    assert find_button(app, "cargo-stow").disabled  # no cargo named yet
    for i in range(mass_combat.HOLD_SLOTS):
        panel.cargo.value = f"crate {i}"
        find_button(app, "cargo-stow").click()
    assert app.error.message == "" and ship.hold == [f"crate {i}" for i in range(4)]
    assert "Gull stows crate 3 (hold)" in app.outcome.value and panel.cargo.value == ""
    panel.cargo.value = "crate 4"
    stow = find_button(app, "cargo-stow")
    assert stow.disabled and stow.tooltip == "the hold is full"
    panel.place.value = "decks"
    assert not find_button(app, "cargo-stow").disabled
    find_button(app, "cargo-stow").click()
    assert ship.decks == ["crate 4"] and "hold 4/4 · decks 1/6" in panel.stats.value
    find_button(app, "unload-hold-1").click()
    assert ship.hold == ["crate 0", "crate 2", "crate 3"]
    assert "unloads crate 1 (hold)" in app.outcome.value
    find_button(app, "unload-decks-0").click()
    assert ship.decks == []
    find_button(app, "undo").click()
    assert ship.decks == ["crate 4"]


def test_a_fleet_s_direct_damage_skips_the_ship_s_guard_and_armor() -> None:
    from companion.rulesets.cairn_srd.mass_combat import Vessel
    from companion.widgets.cairn_srd.vessels import MassCombatApp

    ship = Vessel(name="Gull", armor=1)
    app = MassCombatApp(ship, seed_source=fixed_seeds(*range(1, 9)))
    panel = app.panel
    panel.amount.value, panel.part.value, panel.direct.value = "3", "DEX", True
    find_button(app, "ship-hit").click()
    assert app.error.message == "" and ship.log[-1].args["direct"] is True
    assert (ship.guard, ship.armor, ship.sails) == (6, 1, 7)  # all 3 off the sails
    assert "armor 0, Guard 0, DEX 3" in app.outcome.value
    panel.direct.value = False  # an ordinary hit: armor, then Guard
    find_button(app, "ship-hit").click()
    assert (ship.guard, ship.sails) == (4, 7) and ship.log[-1].args["direct"] is False


def test_downtime_repays_debt_marks_recovery_and_leaves_the_settlement() -> None:
    from companion.rulesets.cairn_srd.downtime import Downtime
    from companion.widgets.cairn_srd.downtime import DowntimeApp

    d = Downtime()
    d.add_member("Ash", 50)
    d.members[0].debt = 30  # owed from an earlier cycle (set up directly)
    app = DowntimeApp(downtime=d, seed_source=fixed_seeds(1))
    app.member.value = "Ash"
    app.amount.value = "40"
    find_button(app, "repay").click()
    assert "owes 30 and holds 50" in app.error.message and d.members[0].debt == 30
    app.amount.value = "20"
    find_button(app, "repay").click()
    assert app.error.message == "" and (d.members[0].purse, d.members[0].debt) == (30, 10)
    assert "repays 20 silver of debt (10 owed)" in app.outcome.value
    find_button(app, "recovering").click()
    assert d.members[0].recovering and "recovering" in app.members.value
    assert find_button(app, "recovering").description == "Mark recovered"
    find_button(app, "recovering").click()
    assert not d.members[0].recovering
    leave = find_button(app, "leave-settlement")
    assert leave.disabled and leave.tooltip == "not in a settlement"
    app.town.value = "Hoppland"
    find_button(app, "enter-settlement").click()
    assert d.in_settlement and not find_button(app, "leave-settlement").disabled
    find_button(app, "leave-settlement").click()
    assert not d.in_settlement and "leaves the settlement" in app.outcome.value
    app.amount.value = "10"
    find_button(app, "repay").click()
    assert d.members[0].debt == 0 and find_button(app, "repay").disabled


def test_the_crew_size_says_the_vessels_scale() -> None:
    from companion.widgets.cairn_srd.vessels import MassCombatApp

    app = MassCombatApp(seed_source=fixed_seeds(1))
    assert "fights as a <b>Ship</b>" in app.scale.value
    app.crew_size.value = "24"
    assert "fights as a <b>Detachment</b>" in app.scale.value
    app.crew_size.value = "0"
    assert app.scale.value == ""


def test_the_dungeon_crawl_rolls_each_encounter_detail_by_its_move() -> None:
    from companion.rulesets.cairn_srd.exploration import Delve
    from companion.widgets.cairn_srd import dungeon_crawl

    for detail, name in dungeon_crawl.DETAIL_MOVES.items():
        assert callable(getattr(Delve, name)) and name == f"roll_{detail}"


def test_the_attack_form_shows_the_exact_damage_odds_of_dual_weapons() -> None:
    from fractions import Fraction

    from companion.rulesets.cairn_srd.combat import damage_odds

    app = combat_app()
    app.encounter.add("Spears", "Enemies", guard=5, strength=10, detachment=True)
    app.attacker.value, app.target.value = "Ash", "Spears"
    app.second_weapon.value = 10
    assert "Damage dice d4, d4, the highest kept" in app.odds.value
    assert damage_odds([4, 4]).at_least(4) == Fraction(7, 16)
    assert "43.75%" in app.odds.value and "7/16" in app.odds.value
    app.target.value = "Goblin"
    assert "Damage dice d8, d10" in app.odds.value
    app.flags["unarmed"].value = True  # refused with a second weapon: no odds shown
    assert app.odds.value == ""
