"""The tasks app (skill, social, knowledge) and the mass-combat app (attack matrix and a
ship), driven headless: buttons call the rules, disabled when the rules refuse."""

from __future__ import annotations

from companion import dice
from companion.rulesets.cairn_srd import mass_combat, skills, social
from companion.rulesets.cairn_srd.mass_combat import Vessel
from companion.widgets.cairn_srd.skills import TasksApp
from companion.widgets.cairn_srd.vessels import MassCombatApp
from tests.cairn_srd.widget_find import find_button, fixed_seeds


def test_skill_panel_rolls_the_seeded_task() -> None:
    app = TasksApp(seed_source=fixed_seeds(5))
    p = app.skill
    assert "1/3" in p.chance.value and p.steps.disabled
    p.produces.value = True
    p.steps.value = "2"
    assert "yield d8" in p.chance.value and not p.steps.disabled
    find_button(app, "skill-roll").click()
    expected = skills.task(2, produces=True, steps_up=2, seed=5)
    assert str(expected) in app.outcome.value and 'data-seed="5"' in app.outcome.value
    p.have.value = "4"  # refused under the box: the roll is disabled
    assert find_button(app, "skill-roll").disabled
    p.have.value = "3"
    assert "100.00%" in p.chance.value and not find_button(app, "skill-roll").disabled


def test_social_panel_moves_the_disposition_on_success() -> None:
    seeds = [s for s in range(40) if dice.roll("1d6", seed=s).total >= 5]
    fails = [s for s in range(40) if dice.roll("1d6", seed=s).total < 5]
    app = TasksApp(seed_source=fixed_seeds(seeds[0]))
    levels = social.dispositions()
    app.social.disposition.value = levels[1]
    find_button(app, "social-roll").click()
    assert app.social.disposition.value == levels[2] and "success" in app.outcome.value
    app = TasksApp(seed_source=fixed_seeds(fails[0]))
    app.social.disposition.value = levels[1]
    find_button(app, "social-roll").click()
    assert app.social.disposition.value == levels[1] and "never works" in app.outcome.value
    app.social.modifier.value = "9"
    assert find_button(app, "social-roll").disabled


def test_knowledge_panel() -> None:
    app = TasksApp(seed_source=fixed_seeds(3))
    find_button(app, "know-common").click()
    assert "common knowledge" in app.outcome.value
    find_button(app, "know-specialized").click()
    d6 = dice.roll("1d6", seed=3).total
    assert f"d6 = {d6}" in app.outcome.value
    assert ("not known" in app.outcome.value) == (d6 < 4)
    find_button(app, "know-esoteric").click()
    assert "research" in app.outcome.value


def test_mass_combat_app_matrix_and_ship_moves() -> None:
    ship = Vessel(name="Gull", guard=2, guard_max=2)
    app = MassCombatApp(ship, seed_source=fixed_seeds(7))
    assert mass_combat.attack_effect("Fleet", "Individual") in app.matrix.table.value
    for name in ("ship-board", "ship-repair-str", "ship-repair-dex", "ship-repair-ctrl",
                 "ship-port", "undo"):
        assert find_button(app, name).disabled, name
    app.panel.amount.value = "6"
    app.panel.part.value = "DEX"
    find_button(app, "ship-hit").click()
    twin = Vessel(name="Gull", guard=2, guard_max=2)
    twin.take_damage(6, "DEX", seed=7)
    assert ship.to_json() != Vessel().to_json() and ship.sails == twin.sails == 6
    assert ship.boardable == twin.boardable
    assert find_button(app, "ship-board").disabled == (not ship.boardable)
    assert not find_button(app, "ship-repair-dex").disabled
    assert find_button(app, "ship-repair-str").disabled
    assert not find_button(app, "ship-port").disabled
    find_button(app, "ship-repair-dex").click()
    assert ship.sails == 7 and "50 silver" in app.outcome.value and not ship.boardable
    find_button(app, "ship-port").click()
    assert ship.guard == 2 and find_button(app, "ship-port").disabled
    app.panel.cost.value = "-1"
    assert find_button(app, "ship-repair-dex").disabled
    find_button(app, "undo").click()
    assert ship.guard == 0


def test_boarding_only_after_critical_damage() -> None:
    ship = Vessel(name="Gull", guard=0, guard_max=0, crew=3)
    app = MassCombatApp(ship, seed_source=fixed_seeds(1))
    # find a seed whose d20 fails the crew's save (above CTRL 1 after 2 damage)
    seed = next(s for s in range(50) if dice.roll("1d20", seed=s).total > 1)
    app.seed_box.value = str(seed)
    app.panel.amount.value = "2"
    app.panel.part.value = "CTRL"
    find_button(app, "ship-hit").click()
    assert ship.crew == 1 and ship.boardable
    assert not find_button(app, "ship-board").disabled
    find_button(app, "ship-board").click()
    assert "Boarders board Gull" in app.outcome.value
    app.panel.boarders.value = ""
    assert find_button(app, "ship-board").disabled


def test_perception_buttons_say_what_is_noticed() -> None:
    app = TasksApp(seed_source=fixed_seeds(5))
    for kind in ("obvious", "obscured", "hidden"):
        find_button(app, f"perceive-{kind}").click()
        assert social.perceive(kind) in app.outcome.value


def test_the_ship_with_the_higher_dex_moves_first() -> None:
    # Interpretation: equal DEX moves together, DEX 0 cannot move; checked by hand here.
    sailing_order = mass_combat.sailing_order
    assert sailing_order({"A": 3, "B": 9, "C": 3}) == [["B"], ["A", "C"]]
    assert sailing_order({"A": 0}) == []
    app = MassCombatApp(Vessel(name="Gull", sails=8, sails_max=10),
                        seed_source=fixed_seeds(1))
    app.rival.value, app.rival_dex.value = "Wasp", 9
    assert "Moves first: Wasp then Gull" in app.order.value
    app.rival_dex.value = 8
    assert "Gull and Wasp together" in app.order.value
    app.rival_dex.value = 0
    assert "Moves first: Gull" in app.order.value and "Wasp: DEX 0, immobile" in app.order.value
