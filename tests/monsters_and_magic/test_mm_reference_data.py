"""Travel, harm, perception, conditions and rests: the data read as the seed gives it."""

from __future__ import annotations

from fractions import Fraction

import pytest

from companion.errors import RuleError
from companion.rulesets.monsters_and_magic import harm_and_healing, perception, travel
from companion.rulesets.monsters_and_magic.action_points import (
    AP_PER_TURN,
    BASIC_TECHNIQUES,
    technique_cost,
)
from companion.rulesets.monsters_and_magic.conditions_and_statuses import (
    CONDITIONS,
    STATUSES,
    condition_name,
    implied,
)
from companion.rulesets.monsters_and_magic.rest_and_recovery import (
    activities,
    heal_per_supply,
    rest_rules,
)
from companion.rulesets.monsters_and_magic.threads_of_fate import bend_luck, max_threads_for


def test_overland_travel_reads_the_printed_cells_literally() -> None:
    paces = {p.speed: p for p in travel.overland_paces("literal")}
    assert [(p.hexes, p.group_check_modifier, p.exhaustion) for p in paces.values()] == [
        (3, 2, 0), (2, 0, 1), (1, 0, 0)]
    assert paces["Normal"].printed == ("2", "-", "1")
    assert travel.overland_hexes("fast") == 3
    assert travel.overland_hexes("Slow", mounted=True) == 3
    assert travel.can_forage("Slow") and not travel.can_forage("Slow", mounted=True)
    assert not travel.can_forage("Normal")
    with pytest.raises(RuleError, match="no speed called"):
        travel.overland_hexes("warp")


def test_sea_and_air_travel_table() -> None:
    assert [(v.name, v.hexes, v.duration) for v in travel.vehicles()] == [
        ("Rowboat", 2, "8 hours"), ("Keelboat", 4, "8 hours"), ("Galley", 8, "24 hours"),
        ("Sailing Ship", 10, "24 hours"), ("Airship", 16, "24 hours")]
    with pytest.raises(RuleError, match="no vehicle"):
        travel.vehicle("Submarine")


@pytest.mark.parametrize(("amount", "ac", "affinity", "taken"), [
    (10, 3, "normal", 7), (10, 3, "resistant", 3), (10, 3, "vulnerable", 14),
    (10, 3, "immune", 0), (2, 5, "vulnerable", 0)])
def test_damage_after_armor(amount: int, ac: int, affinity: harm_and_healing.Affinity,
                            taken: int) -> None:
    assert harm_and_healing.damage_after_armor(amount, ac=ac, affinity=affinity) == taken


def test_falling() -> None:
    assert harm_and_healing.falling_damage_dice(9) == "0"
    assert harm_and_healing.falling_damage_dice(60) == "6d6"
    assert [harm_and_healing.falling_distance(t) for t in (1, 2, 3)] == [580, 2315, 5280]
    with pytest.raises(RuleError, match="turns 1-3"):
        harm_and_healing.falling_distance(4)


def test_printed_fall_distances_against_physics() -> None:
    # d = g t^2 / 2 with g = 32.174 ft/s^2 and t = 6 s per turn, worked by hand.
    assert harm_and_healing.falling_distance_computed(1) == Fraction(32174, 1000) * 18
    assert [harm_and_healing.falling_distance_differs(t) for t in (1, 2, 3)] == [
        False, False, True]  # a mile is 1.3% more than 5,212 feet


def test_perception() -> None:
    assert perception.visibility("darkness") == "hidden"
    assert perception.concealment_modifier("Concealed") == -2
    assert perception.cover("Partial Cover")["ac_bonus"] == 2
    assert "Tremorsense" in perception.SENSES
    with pytest.raises(RuleError, match="no light level"):
        perception.visibility("twilight")


def test_conditions_and_statuses() -> None:
    assert len(CONDITIONS) == 11 and len(STATUSES) == 8
    assert condition_name("prone") == "Prone"
    assert implied(["Unconscious"]) == ["Stunned", "Slowed", "Prone", "Unconscious"]
    with pytest.raises(RuleError):
        condition_name("Hasty")


def test_action_points_and_techniques() -> None:
    assert AP_PER_TURN == 3
    assert len(BASIC_TECHNIQUES) == 17
    assert technique_cost("Regroup") == (3, "AP")
    assert technique_cost("Retaliate") == (1, "R")


def test_rest_rules() -> None:
    assert rest_rules("short")["max_in_a_row"] == 3
    assert (rest_rules("long")["hours"], rest_rules("extended")["choose"]) == (8, 1)
    assert "Take Watch" in activities("long") and "Take Watch" not in activities("short")
    assert heal_per_supply(10) == 2 and heal_per_supply(2) == 1
    with pytest.raises(RuleError, match="no 'nap' rest"):
        rest_rules("nap")


def test_threads_helpers() -> None:
    assert [max_threads_for(luck) for luck in (-2, 0, 1, 4)] == [1, 1, 1, 4]
    # Bend Luck never touches the natural face: a natural 1 stays a critical miss.
    assert bend_luck(natural=1, total=30, luck=5, dc=None)[1].label == "Critical Miss"
    assert bend_luck(natural=9, total=9, luck=-2, dc=None, against_you=True)[0] == 11
