"""Items, cleaving, identify a spell, healing variants, mark and the turn's actions."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest

from companion.errors import RuleError, StateError
from companion.rulesets.variant5e.actions import Turn
from companion.rulesets.variant5e.activating_items import (
    MagicItem,
    activation_cost,
    fast_hands_can_activate,
    item_spell_attack_bonus,
)
from companion.rulesets.variant5e.cleaving import Foe, cleave
from companion.rulesets.variant5e.contests import Edge
from companion.rulesets.variant5e.healing import HitDice
from companion.rulesets.variant5e.identify_a_spell import (
    identify_a_spell,
    identify_dc,
    identify_timing,
)
from companion.rulesets.variant5e.mark import Reactions
from companion.rulesets.variant5e.opportunity_attack import provokes_opportunity_attack

# -- activating items ----------------------------------------------------------------------

def test_item_activation_rules() -> None:
    assert activation_cost(needs_action=True, potion=True) == "bonus action"
    assert activation_cost(needs_action=True) == "action"
    assert not fast_hands_can_activate(needs_action=True)
    assert item_spell_attack_bonus(3, None) == 3 and item_spell_attack_bonus(3, 4) == 7
    wand = MagicItem(name="wand", charges=3, max_charges=7, command_word=True)
    with pytest.raises(RuleError, match="Command Word"):
        wand.activate(1, in_silence=True)
    wand.activate(2)
    with pytest.raises(RuleError, match="has 1 charges, 2 needed"):
        wand.activate(2)
    wand.regain_charges(10)
    assert wand.charges == 7
    potion = MagicItem(name="potion", consumable=True)
    potion.activate()
    with pytest.raises(RuleError, match="Consumables: potion was used"):
        potion.activate()
    data = json.loads(wand.to_json())
    data["state"]["charges"] = 9
    with pytest.raises(StateError, match="charges"):
        MagicItem.from_json(json.dumps(data))


# -- cleaving ------------------------------------------------------------------------------

def test_cleaving_carries_excess_damage() -> None:
    hits = cleave(20, 15, Foe("a", 7, 7, 12),
                  [Foe("b", 5, 5, 16), Foe("c", 5, 5, 13), Foe("d", 9, 9, 10)])
    # b's AC is too high and is skipped; c drops (undamaged), the rest goes to d.
    assert [(h.name, h.damage, h.dropped) for h in hits] == [
        ("a", 7, True), ("c", 5, True), ("d", 8, False)]


def test_cleaving_stops_at_damaged_or_surviving_creatures() -> None:
    assert [h.name for h in cleave(20, 20, Foe("a", 5, 7, 10), [Foe("b", 5, 5, 10)])] == ["a"]
    hits = cleave(20, 20, Foe("a", 5, 5, 10), [Foe("b", 3, 9, 10), Foe("c", 5, 5, 10)])
    assert [(h.name, h.damage) for h in hits] == [("a", 5), ("b", 3)]  # b was hurt: stop
    assert [h.name for h in cleave(5, 20, Foe("a", 5, 5, 10), [Foe("b", 5, 5, 10)])] == ["a"]
    with pytest.raises(RuleError, match="Cleaving"):
        Foe("x", 9, 5, 10)


# -- identify a spell ----------------------------------------------------------------------

@pytest.mark.parametrize(("modifier", "level", "same"), [(5, 3, False), (2, 0, True),
                                                          (-1, 9, True), (7, 1, False)])
def test_identify_odds_match_brute_force(modifier: int, level: int, same: bool) -> None:
    check = identify_a_spell(modifier, level, same_class=same)
    dice = itertools.product(range(1, 21), repeat=2 if same else 1)
    outcomes = [max(d) + modifier >= 15 + level for d in dice]
    assert check.chance() == Fraction(sum(outcomes), len(outcomes))


def test_identify_rules() -> None:
    assert identify_dc(4) == 19
    assert identify_timing(being_cast=True) == "reaction"
    assert identify_timing(being_cast=False) == "action"
    with pytest.raises(RuleError, match="perceived the casting"):
        identify_a_spell(3, 1, perceived_casting=False)
    with pytest.raises(RuleError, match="0 to 9"):
        identify_dc(10)


# -- healing -------------------------------------------------------------------------------

def test_standard_rests_and_healers_kit_dependency() -> None:
    hero = HitDice(level=4, die=10, con_modifier=2, max_hp=36, hp=36, hit_dice=4,
                   healers_kit_dependency=True)
    hero.take_damage(20)
    hero.short_rest()
    with pytest.raises(RuleError, match="Healer's Kit Dependency: treat the wounds"):
        hero.spend_hit_die(6)
    hero.treat_with_healers_kit()
    hero.spend_hit_die(6)
    assert hero.hp == 24 and hero.hit_dice == 3
    hero.take_damage(1)
    with pytest.raises(RuleError, match="end of a rest or in a healing surge"):
        hero.spend_hit_die(6)
    hero.long_rest()
    assert hero.hp == 36 and hero.hit_dice == 4


def test_healing_surges() -> None:
    hero = HitDice(level=8, die=8, con_modifier=1, max_hp=60, hp=10, hit_dice=8,
                   healing_surges=True)
    hero.healing_surge()
    assert hero.surge_dice_left == 4
    for face in (3, 5, 8, 1):
        hero.spend_hit_die(face)
    assert hero.hp == 10 + 4 + 6 + 9 + 2 and hero.hit_dice == 4
    with pytest.raises(RuleError, match="end of a rest or in a healing surge"):
        hero.spend_hit_die(4)
    with pytest.raises(RuleError, match="already used"):
        hero.healing_surge()
    hero.short_rest()  # regains 8 // 4 = 2 Hit Dice
    assert hero.hit_dice == 6 and not hero.surge_used
    hero.long_rest()  # all Hit Dice back
    assert hero.hit_dice == 8
    plain = HitDice()
    with pytest.raises(RuleError, match="not in use"):
        plain.healing_surge()


def test_slow_natural_healing() -> None:
    hero = HitDice(level=2, die=6, con_modifier=0, max_hp=12, hp=3, hit_dice=1,
                   slow_natural_healing=True)
    hero.long_rest()
    assert hero.hp == 3 and hero.hit_dice == 2
    hero.spend_hit_die(6)
    assert hero.hp == 9
    with pytest.raises(RuleError, match="a d6 shows 1 to 6, got 7"):
        hero.spend_hit_die(7)
    assert HitDice.from_json(hero.to_json()) == hero


# -- mark and opportunity attacks ----------------------------------------------------------

def test_mark_gives_advantage_without_the_reaction_for_a_turn() -> None:
    fighter = Reactions()
    fighter.melee_attack("orc")
    fighter.end_own_turn()
    fighter.next_turn()
    assert fighter.opportunity_attack("orc") is Edge.ADVANTAGE
    assert fighter.reaction_available
    with pytest.raises(RuleError, match="only one opportunity attack per turn"):
        fighter.opportunity_attack("goblin")
    fighter.next_turn()
    assert fighter.opportunity_attack("goblin") is Edge.NORMAL
    assert not fighter.reaction_available
    fighter.next_turn()
    with pytest.raises(RuleError, match="reaction is already spent"):
        fighter.opportunity_attack("goblin")
    fighter.start_own_turn()
    fighter.end_own_turn()  # end of the attacker's next turn: the mark expires
    assert fighter.marked == ""
    fighter.set_can_take_reactions(False)
    with pytest.raises(RuleError, match="prevents this creature from taking reactions"):
        fighter.opportunity_attack("orc")


def test_what_provokes() -> None:
    assert provokes_opportunity_attack(leaves_reach=True)
    assert not provokes_opportunity_attack(leaves_reach=True, disengaged=True)
    assert not provokes_opportunity_attack(leaves_reach=True, teleported=True)
    assert not provokes_opportunity_attack(leaves_reach=True, moved_by_other=True)
    assert not provokes_opportunity_attack(leaves_reach=True, can_see_mover=False)
    assert not provokes_opportunity_attack(leaves_reach=False)


# -- the turn ------------------------------------------------------------------------------

def test_turn_action_economy() -> None:
    turn = Turn()
    turn.interact_with_object("draw a sword")
    turn.take_action("dodge")
    assert turn.dodging
    with pytest.raises(RuleError, match="already used this turn \\(dodge\\)"):
        turn.interact_with_object("open a door")
    with pytest.raises(RuleError, match="unknown action 'fly'"):
        turn.take_action("fly")
    turn.use_reaction("opportunity attack")
    with pytest.raises(RuleError, match="only one reaction per round"):
        turn.use_reaction()
    turn.start_turn()
    assert not turn.dodging and not turn.reaction_used
    turn.interact_with_object()
    turn.interact_with_object()  # the second one takes the action
    assert turn.action == "use an object"


def test_ready_a_spell_holds_concentration() -> None:
    turn = Turn(concentrating="web")
    turn.ready("the goblin steps next to me", spell="magic missile")
    assert turn.concentrating == "magic missile" and "ends concentration on web" in str(
        turn.log[-1])
    turn.release_readied()
    with pytest.raises(RuleError, match="nothing is readied"):
        turn.release_readied()
    turn.end_concentration()
    with pytest.raises(RuleError, match="not concentrating"):
        turn.end_concentration()


@pytest.mark.parametrize(("field", "value", "message"), [
    ("hp", 99, "exceeds 'max_hp'"), ("die", 7, "die"), ("hit_dice", 3, "exceeds 'level'"),
    ("con_modifier", "2", "con_modifier")])
def test_hit_dice_corrupt_state(field: str, value: object, message: str) -> None:
    data = json.loads(HitDice(level=2, max_hp=15, hp=15, hit_dice=2).to_json())
    data["state"][field] = value
    with pytest.raises(StateError, match=message):
        HitDice.from_json(json.dumps(data))


def test_hit_dice_rolled_with_the_engine_are_seeded() -> None:
    faces = []
    for _ in range(2):
        hero = HitDice(level=3, die=10, max_hp=30, hp=1, hit_dice=3)
        hero.short_rest()
        faces.append([hero.roll_hit_die(seed=s) for s in (1, 2, 3)])
    assert faces[0] == faces[1] and all(1 <= f <= 10 for f in faces[0])
    from companion import dice

    # The engine's d10 for each seed; other seeds, other faces.
    assert faces[0] == [dice.roll("1d10", seed=s).total for s in (1, 2, 3)]
    assert len(set(faces[0])) > 1


def test_readied_spell_dissipates_when_concentration_ends() -> None:
    """Issue 30: "If your concentration is broken, the spell dissipates without taking
    effect" — nothing is left to release."""
    turn = Turn()
    turn.ready("the goblin steps next to me", spell="magic missile")
    assert turn.readied_spell == "magic missile"
    turn.end_concentration()
    assert (turn.readied, turn.readied_spell, turn.concentrating) == ("", "", "")
    assert "magic missile dissipates without taking effect" in turn.log[-1].summary
    with pytest.raises(RuleError, match="magic missile dissipated without taking effect"):
        turn.release_readied()
    assert not turn.reaction_used  # the refused release spent nothing
    assert Turn.from_json(turn.to_json()) == turn
    turn.undo()
    turn.release_readied()  # before the end of concentration it could be released
    assert turn.reaction_used and turn.readied == ""


def test_broken_concentration_clears_the_readied_spell() -> None:
    turn = Turn()
    turn.ready("the orc charges", spell="hold person")
    turn.break_concentration("took 12 damage, failed the save")
    assert (turn.readied, turn.readied_spell, turn.concentrating) == ("", "", "")
    assert "broken (took 12 damage, failed the save)" in turn.log[-1].summary
    with pytest.raises(RuleError, match="hold person dissipated"):
        turn.release_readied()
    with pytest.raises(RuleError, match="nothing to break"):
        turn.break_concentration()
    turn.start_turn()  # a new turn forgets the lost spell
    with pytest.raises(RuleError, match="nothing is readied"):
        turn.release_readied()


def test_readied_action_without_a_spell_survives_concentration() -> None:
    turn = Turn(concentrating="web")
    turn.ready("the cultist steps on the trapdoor")  # pull the lever: no spell held
    turn.end_concentration()
    assert turn.readied == "the cultist steps on the trapdoor"
    turn.release_readied()
    assert turn.reaction_used


def test_unreleased_readied_spell_is_lost_at_the_next_turn() -> None:
    turn = Turn()
    turn.ready("the door opens", spell="hold person")
    turn.start_turn()
    assert (turn.readied, turn.readied_spell, turn.concentrating) == ("", "", "")
    assert "never released" in turn.log[-1].summary


def test_old_turn_saves_load_without_the_readied_spell() -> None:
    data = json.loads(Turn(action="ready", readied="x", concentrating="web").to_json())
    for key in ("readied_spell", "dissipated"):
        del data["state"][key]  # a save made before these fields
    turn = Turn.from_json(json.dumps(data))
    assert turn.readied_spell == "" and turn.concentrating == "web"
    data["state"]["readied_spell"] = "magic missile"  # not the spell concentrated on
    with pytest.raises(StateError, match="readied_spell"):
        Turn.from_json(json.dumps(data))
