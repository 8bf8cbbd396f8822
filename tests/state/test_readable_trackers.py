"""A character prints as a person reads it (issue 18, "Readable objects"): one line, the
name first, the tracks against their maximum, what holds the character back; it follows
the moves and survives a save."""

from __future__ import annotations

from companion.rulesets.cairn_srd.character import Character
from companion.rulesets.monsters_and_magic.adventurer import Adventurer
from companion.rulesets.plot_points.session import PlotPointSession
from companion.rulesets.variant5e.healing import HitDice
from companion.rulesets.variant5e.spell_points import SpellPoints


def test_the_cairn_sheet_reads_as_the_issue_writes_it() -> None:
    ash = Character(name="Ash", guard_max=4, guard=4, dexterity_max=12, dexterity=12,
                    control_max=8, control=8)
    assert str(ash) == "Ash — Guard 4/4, STR 10/10, DEX 12, CTRL 8"
    ash.take_damage(1)
    ash.deprived = True
    assert str(ash) == "Ash — Guard 3/4, STR 10/10, DEX 12, CTRL 8 · deprived"
    ash.add_fatigue()
    assert str(ash).endswith("· deprived, 1 fatigue")
    assert str(Character.from_json(ash.to_json())) == str(ash)
    assert repr(ash).startswith("Character(")  # the repr stays the full record


def test_a_lowered_ability_shows_its_maximum() -> None:
    ash = Character(name="Ash", dexterity=0)
    assert "DEX 0/10" in str(ash) and str(ash).endswith("· paralysed")


def test_an_adventurer_sheet_follows_its_moves() -> None:
    bryn = Adventurer.new("Bryn", max_hp=12, supplies=2)
    assert str(bryn) == ("Bryn — HP 12/12, fatigue 0/5, exhaustion 0/6, threads 1/1, "
                         "supplies 2")
    bryn.mark_fatigue()
    assert "fatigue 1/5" in str(bryn)
    assert str(Adventurer.from_json(bryn.to_json())) == str(bryn)


def test_hit_dice_and_the_mentality_pool_read_off_the_sheet() -> None:
    record = HitDice(level=2, die=8, max_hp=15, hp=15, hit_dice=2)
    record.take_damage(6)
    assert str(record) == "HP 9/15, Hit Dice 2/2 (d8+0), level 2"
    pool = SpellPoints.new(class_level=3)
    pool.cast(2)
    assert str(pool) == "mentality 11/14 · level 3 full caster"


def test_a_plot_points_character_names_its_wound_tier() -> None:
    session = PlotPointSession.new(["Ann", "Bo"])
    ann = session.character("Ann")
    assert str(ann) == "Ann — strain 0/3, wounds 0 · Unhurt"
    ann.add_wounds(9)
    assert str(ann) == "Ann — strain 0/3, wounds 9 · Severely Injured"
