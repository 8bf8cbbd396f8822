"""Issue 15: the combat-turn tracker app, driven headless (the rules are the package's)."""

from __future__ import annotations

from companion.rulesets.variant5e.actions import Turn
from companion.rulesets.variant5e.mark import Reactions
from companion.widgets.variant5e_turn import CombatTurnApp
from tests.conftest import widgets_by_name


def test_turn_app_action_economy_and_refusals() -> None:
    turn, reactions = Turn(), Reactions()
    app = CombatTurnApp(turn, reactions)
    b = widgets_by_name(app, kind="btn")
    app.action.value = "dodge"
    b["action"].click()
    assert turn.action == "dodge" and turn.dodging and "dodging" in app.status.value
    b["object"].click()
    assert turn.object_interactions == 1
    b["object"].click()  # a second object needs the action, already used
    assert app.error.message == "actions: the action is already used this turn (dodge)"
    b["lose-dodge"].click()
    assert not turn.dodging and app.error.message == ""
    b["start"].click()
    app.trigger.value, app.spell.value = "the orc steps out", "hold person"
    b["ready"].click()
    assert (turn.readied, turn.concentrating) == ("the orc steps out", "hold person")
    b["release"].click()
    b["reaction"].click()
    assert app.error.message == "reactions: only one reaction per round"
    b["end-conc"].click()
    assert turn.concentrating == ""


def test_turn_app_readied_spell_dissipates() -> None:
    """Issue 30: concentration broken before the release loses the readied spell."""
    turn = Turn()
    app = CombatTurnApp(turn, Reactions())
    b = widgets_by_name(app, kind="btn")
    app.trigger.value, app.spell.value = "the orc steps out", "magic missile"
    b["ready"].click()
    assert "magic missile held" in app.status.value
    b["break-conc"].click()
    assert turn.readied == "" and "magic missile dissipated" in app.status.value
    b["release"].click()
    assert "dissipated without taking effect" in app.error.message
    assert not turn.reaction_used


def test_turn_app_mark_and_opportunity_attacks() -> None:
    reactions = Reactions()
    app = CombatTurnApp(reactions=reactions)
    b = widgets_by_name(app, kind="btn")
    app.target.value = "orc"
    b["melee"].click()
    b["own-end"].click()
    b["next"].click()
    b["oa"].click()
    assert 'data-edge="advantage"' in app.oa_result.value and reactions.reaction_available
    b["oa"].click()
    assert app.error.message == "Mark: only one opportunity attack per turn"
    app.can_react.value = False
    assert not reactions.can_take_reactions
    b["next"].click()
    b["oa"].click()
    assert "prevents this creature from taking reactions" in app.error.message


def test_turn_app_provoking_two_weapons_and_cleave() -> None:
    app = CombatTurnApp()
    b = widgets_by_name(app, kind="btn")
    assert 'data-provokes="false"' in app.provokes.value
    app.leaves.value = True
    assert 'data-provokes="true"' in app.provokes.value
    app.disengaged.value = True
    assert 'data-provokes="false"' in app.provokes.value
    app.ability.value = -1
    b["twf"].click()
    assert 'data-bonus="-1"' in app.twf_result.value
    app.off_light.value = False
    b["twf"].click()
    assert app.error.message == ("Two-Weapon Fighting: off-hand weapon is not a light melee "
                                 "weapon")
    app.damage.value, app.attack_roll.value = 12, 14
    app.foes.value = "goblin 7 13; orc 15 15; wolf 11 13"
    b["cleave"].click()
    assert 'data-name="goblin" data-left="0"' in app.cleave_result.value
    assert 'data-name="wolf" data-left="6"' in app.cleave_result.value  # orc AC 15 missed
    assert 'data-name="orc"' not in app.cleave_result.value
    app.foes.value = "goblin seven"
    b["cleave"].click()
    assert app.error.message == "Cleaving: foe 1 must be written 'name HP AC', like 'orc 15 13'"
