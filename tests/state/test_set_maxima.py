"""The moves that set a member's numbers (the start app's party editor): a changed maximum
moves the current value by as much (damage taken stays taken), a lowered one pulls it
down; illegal numbers are refused saying why and change nothing; each move undoes and
survives a JSON round trip."""

from __future__ import annotations

from typing import Any

import pytest

from companion.errors import RuleError
from companion.rulesets.cairn_srd.character import Character
from companion.rulesets.monsters_and_magic.adventurer import Adventurer
from companion.rulesets.variant5e.healing import HitDice
from companion.rulesets.variant5e.spell_points import SpellPoints, mentality_points
from companion.state import Tracker


def _round_trip(tracker: Tracker) -> None:
    again = type(tracker).from_json(tracker.to_json())
    assert again.to_dict() == tracker.to_dict()
    before = tracker.snapshot()
    again.undo()
    tracker.undo()
    assert again.snapshot() == tracker.snapshot() != before


def _refused(tracker: Tracker, call: Any, match: str) -> None:
    before = tracker.to_json()
    with pytest.raises(RuleError, match=match):
        call()
    assert tracker.to_json() == before


# --- Cairn ------------------------------------------------------------------------------


def _ash() -> Character:
    ash = Character(name="Ash", strength_max=12, strength=12, dexterity_max=14, dexterity=14,
                    control_max=8, control=8, guard_max=4, guard=4, armor=1)
    ash.damage_ability("STR", 5)  # STR 7/12
    ash.damage_ability("DEX", 2)  # DEX 12/14
    return ash


def test_cairn_maxima_move_the_current_scores_by_as_much() -> None:
    ash = _ash()
    ash.set_maxima(15, 10, 8, 6, 2)
    assert (ash.strength, ash.strength_max) == (10, 15)  # raised: the 5 lost stay lost
    assert (ash.dexterity, ash.dexterity_max) == (8, 10)  # lowered: pulled down by 4
    assert (ash.control, ash.guard, ash.guard_max, ash.armor) == (8, 6, 6, 2)
    assert ash.log[-1].move == "set_maxima"
    before_undo = ash.snapshot()
    _round_trip(ash)
    assert (ash.strength, ash.strength_max, ash.dexterity, ash.armor) == (7, 12, 12, 1)
    assert ash.snapshot() != before_undo


def test_cairn_maxima_refused_out_of_range_or_at_zero_str() -> None:
    ash = _ash()
    _refused(ash, lambda: ash.set_maxima(19, 10, 8, 4, 1),
             "Ability Scores: STR runs from 0 to 18, got 19")
    _refused(ash, lambda: ash.set_maxima(12, 10, 8, 4, -1),
             "Ability Scores: Armor runs from 0 to 18, got -1")
    # STR 7 of 12: a maximum of 5 would leave 0 STR, which is death.
    _refused(ash, lambda: ash.set_maxima(5, 14, 8, 4, 1), "0 STR, which is death")
    ash.set_maxima(6, 14, 8, 4, 1)
    assert (ash.strength, ash.strength_max) == (1, 6)
    assert ash.log[-1].move == "set_maxima"


def test_cairn_lowered_guard_and_control_stop_at_zero() -> None:
    ash = _ash()
    ash.set_maxima(12, 14, 0, 0, 1)
    assert (ash.control, ash.control_max, ash.guard, ash.guard_max) == (0, 0, 0, 0)
    ash.set_maxima(12, 14, 8, 4, 1)
    assert (ash.control, ash.guard) == (8, 4)  # nothing had been lost


# --- Monsters & Magic -------------------------------------------------------------------


def test_mm_maxima_keep_damage_taken_and_never_drop_to_zero() -> None:
    ash = Adventurer.new("Ash", focus=1, luck=2, max_hp=12)
    assert ash.take_damage(5) == 5  # 7/12
    ash.set_maxima(focus=2, power=1, cunning=-1, luck=3, max_hp=15, ac=2)
    assert (ash.hp, ash.max_hp, ash.focus, ash.power, ash.cunning, ash.luck, ash.ac) == (
        10, 15, 2, 1, -1, 3, 2)
    assert (ash.threads, ash.max_threads) == (Adventurer.new("x", luck=2).max_threads,) * 2
    ash.set_maxima(focus=2, power=1, cunning=-1, luck=3, max_hp=4, ac=2)
    assert (ash.hp, ash.max_hp) == (1, 4)  # pulled down, but an edit does not fell anyone
    _round_trip(ash)
    assert (ash.hp, ash.max_hp) == (10, 15)


def test_mm_maxima_at_zero_hp_stay_at_zero_and_bad_numbers_are_refused() -> None:
    ash = Adventurer.new("Ash", max_hp=6)
    ash.take_damage(6)
    assert ash.hp == 0 and ash.dying
    ash.set_maxima(focus=0, power=0, cunning=0, luck=0, max_hp=20, ac=0)
    assert (ash.hp, ash.max_hp, ash.dying) == (0, 20, True)
    _refused(ash, lambda: ash.set_maxima(focus=0, power=0, cunning=0, luck=0, max_hp=0,
                                         ac=0), "maximum HP is at least 1, not 0")
    _refused(ash, lambda: ash.set_maxima(focus=5000, power=0, cunning=0, luck=0, max_hp=9,
                                         ac=0), "Adventurer: .*focus")
    _refused(ash, lambda: ash.set_maxima(focus=0, power=0, cunning=0, luck=0, max_hp=9,
                                         ac=-1), "Adventurer: .*ac")


# --- 5e ---------------------------------------------------------------------------------


def test_spell_points_follow_the_class_level_and_spent_points_stay_spent() -> None:
    mage = SpellPoints.new(5, "full")
    mage.cast(3)
    spent = mage.maximum - mage.points
    mage.set_class_level(7)
    assert (mage.class_level, mage.maximum) == (7, mentality_points(7, "full"))
    assert mage.points == mage.maximum - spent
    mage.set_class_level(1)
    assert mage.points == max(0, mentality_points(1, "full") - spent) == 0
    _round_trip(mage)
    assert (mage.class_level, mage.maximum - mage.points) == (7, spent)
    _refused(mage, lambda: mage.set_class_level(21), "a class level is 1 to 20, not 21")
    _refused(mage, lambda: mage.set_class_level(0), "a class level is 1 to 20, not 0")


def test_hit_dice_maxima_move_hp_and_dice_left() -> None:
    hd = HitDice(level=5, die=8, con_modifier=2, max_hp=38, hp=38, hit_dice=5)
    hd.take_damage(20)  # 18/38
    hd.set_maxima(6, 45, 10, 3)
    assert (hd.hp, hd.max_hp, hd.hit_dice, hd.level, hd.die, hd.con_modifier) == (
        25, 45, 6, 6, 10, 3)
    hd.set_maxima(2, 10, 10, 3)
    assert (hd.hp, hd.hit_dice) == (0, 2)  # pulled down, never below 0
    _round_trip(hd)
    assert (hd.hp, hd.max_hp, hd.hit_dice) == (25, 45, 6)
    _refused(hd, lambda: hd.set_maxima(6, 45, 7, 3), "a Hit Die is a d6, d8, d10 or d12")
    _refused(hd, lambda: hd.set_maxima(21, 45, 8, 3), "a level runs from 1 to 20, not 21")
    _refused(hd, lambda: hd.set_maxima(6, 1000, 8, 3), "maximum HP runs from 1 to 999")
    _refused(hd, lambda: hd.set_maxima(6, 45, 8, 11), "a CON modifier runs from -5 to 10")
