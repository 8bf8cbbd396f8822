"""Issue 15 fixes to Monsters & Magic, move by move, with the illegal moves."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from companion.errors import RuleError
from companion.rulesets.monsters_and_magic.ability_checks import AbilityCheck, Tier
from companion.rulesets.monsters_and_magic.adventurer import Adventurer, GameMaster
from companion.rulesets.monsters_and_magic.party import Party
from companion.rulesets.monsters_and_magic.reference import travel_page
from companion.rulesets.monsters_and_magic.travel import overland_paces, plan_journey


def knocked_out() -> Adventurer:
    a = Adventurer.new("Ash", max_hp=10)
    a.mark_exhaustion(a.max_exhaustion + 1)
    assert a.out_until_long_rest and "Unconscious" in a.conditions
    return a


def test_ally_action_wakes_a_pc_knocked_out_by_exhaustion() -> None:
    a = knocked_out()
    with pytest.raises(RuleError, match="until a long rest or an ally's action"):
        a.end_condition("Unconscious")
    a.ally_helps_recover("Bea")
    assert not a.out_until_long_rest and "Unconscious" not in a.conditions
    with pytest.raises(RuleError, match="not knocked out by exhaustion"):
        a.ally_helps_recover("Bea")


def test_ally_action_on_a_dying_pc_clears_the_knock_out_but_not_dying() -> None:
    a = Adventurer.new("Ash", max_hp=5)
    a.take_damage(5)
    a.mark_exhaustion(a.max_exhaustion)  # fills the boxes while dying
    assert a.dying
    with pytest.raises(RuleError, match="not knocked out"):
        a.ally_helps_recover("Bea")
    with pytest.raises(RuleError, match="until healed"):
        a.end_condition("Unconscious")


def test_prepared_gives_two_forward_status_or_hold() -> None:
    a = Adventurer.new("Ash")
    with pytest.raises(RuleError, match="not Prepared"):
        a.use_prepared()
    a.short_rest(["Prepare"])
    a.use_prepared()
    assert a.forward == 2 and "Prepared" not in a.statuses
    a.long_rest(["Prepare"], prepare_with_party=True)
    a.use_prepared(from_hold=True)
    assert a.forward == 4 and a.holds == {"prepared": 1}
    a.use_prepared(from_hold=True)
    with pytest.raises(RuleError, match="holds no prepared"):
        a.use_prepared(from_hold=True)
    result = a.roll_check("luck", seed=3)
    assert result.total == result.natural + 6 and a.forward == 0


def test_bonds_one_resolved_per_session() -> None:
    a = Adventurer.new("Ash")
    a.add_bond("Gemma", "Gemma saved my skin. I owe her one.")
    assert (a.bonds[0].value, a.bonds[0].statement) == (0, "Gemma saved my skin. I owe her one.")
    with pytest.raises(RuleError, match="already has a bond"):
        a.add_bond("Gemma", "again")
    with pytest.raises(RuleError, match="statement"):
        a.add_bond("Urdan", "  ")
    with pytest.raises(RuleError, match=r"\+1 or -1"):
        a.resolve_bond("Gemma", 2)
    a.resolve_bond("Gemma", 1, "We are square.")
    assert (a.bonds[0].value, a.bonds[0].statement) == (1, "We are square.")
    a.add_bond("Urdan", "Urdan ran from battle.")
    with pytest.raises(RuleError, match="one bond can be resolved each session"):
        a.resolve_bond("Urdan", -1)
    a.end_session()
    a.resolve_bond("Urdan", -1)
    assert a.bonds[1].value == -1
    with pytest.raises(RuleError, match="no bond with 'Xavier'"):
        a.resolve_bond("Xavier", 1)
    back = Adventurer.from_json(a.to_json())
    assert back.bonds == a.bonds and back.bond_resolved


def test_reputation_per_faction() -> None:
    a = Adventurer.new("Ash")
    a.change_reputation("Guild", 1)
    a.change_reputation("Guild", 1)
    a.change_reputation("Orcs", -1)
    assert a.reputation == {"Guild": 2, "Orcs": -1}
    with pytest.raises(RuleError, match="one point"):
        a.change_reputation("Guild", 3)
    assert Adventurer.from_json(a.to_json()).reputation == {"Guild": 2, "Orcs": -1}


def test_temporary_hp_absorb_damage_after_ac_and_do_not_stack() -> None:
    a = Adventurer.new("Ash", max_hp=10, ac=1)
    a.gain_temp_hp(4)
    a.gain_temp_hp(3)
    assert a.temp_hp == 4
    assert a.take_damage(7) == 2  # 7 - AC 1 = 6; 4 absorbed
    assert (a.temp_hp, a.hp) == (0, 8)
    with pytest.raises(RuleError, match="amount"):
        a.gain_temp_hp(0)


def dying(**kw: int) -> Adventurer:
    a = Adventurer.new("Ash", max_hp=5, luck=kw.get("luck", 0))
    a.take_damage(5)
    return a


@pytest.mark.parametrize("seed", range(12))
def test_death_roll_takes_the_sheet_modifiers_and_gives_xp_on_a_miss(seed: int) -> None:
    a = dying(luck=1)
    a.add_ongoing("blessing", 1)
    a.take_forward(2)
    a.inflict("Weakened")
    modifier = 1 + 1 + 2 - 2
    expected = AbilityCheck(modifier).roll(seed=seed)
    result = a.death_roll(seed=seed)
    assert (result.natural, result.total) == (expected.natural, expected.total)
    assert a.forward == 0
    xp = {Tier.MISS: 1, Tier.CRITICAL_MISS: 2}.get(expected.tier, 0)
    assert a.xp == xp


@pytest.mark.parametrize("seed", range(6))
def test_bare_death_roll_reading_kept_as_an_option(seed: int) -> None:
    a = dying(luck=1)
    a.death_roll_reading = "bare"
    a.take_forward(2)
    expected = AbilityCheck(1).roll(seed=seed)
    assert a.death_roll(seed=seed).total == expected.total
    assert a.xp == 0 and a.forward == 2


def test_gm_gains_a_thread_when_a_player_spends_one() -> None:
    party = Party()
    ash = party.new_character("Ash", luck=2)
    party.spend_thread(ash, "lucky_find", "a key", 2)
    assert (ash.threads, party.gm.threads) == (0, 2)
    with pytest.raises(RuleError, match="not a way to spend"):
        party.spend_thread(ash, "heal", 1)
    gm = GameMaster(reading="uses only")
    assert gm.player_spent(1) == 0 and gm.threads == 0
    gm2 = GameMaster()
    assert gm2.player_spent(2) == 2 and gm2.threads == 2


def test_overland_readings_fast_not_strictly_better_by_default() -> None:
    fast, normal, _slow = overland_paces()
    assert (fast.hexes, fast.exhaustion) == (3, 2) and (normal.hexes, normal.exhaustion) == (2, 1)
    assert fast.exhaustion > normal.exhaustion
    lit_fast, lit_normal, _ = overland_paces("literal")
    assert (lit_fast.group_check_modifier, lit_fast.exhaustion) == (2, 0)
    assert lit_normal.exhaustion == 1
    with pytest.raises(RuleError, match="no reading"):
        overland_paces("sideways")
    page = travel_page()
    assert "Exhaustion (last cell)" in page and "Exhaustion (literal)" in page


def test_travel_plan() -> None:
    plan = plan_journey(7, speed="Slow", mounted=True)
    assert (plan.per_period, plan.periods, plan.hours, plan.can_forage) == (3, 3, 24, False)
    assert plan_journey(3, speed="slow").can_forage
    assert plan_journey(33, by_vehicle="Airship").periods == 3
    for bad in (0, 10_001):
        with pytest.raises(RuleError, match="1-10,000 hexes"):
            plan_journey(bad)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", "mm", *args],
                          capture_output=True, text=True, timeout=60)


def test_cli_travel_and_fall() -> None:
    out = run("travel", "7", "--speed", "fast", "--json")
    data = json.loads(out.stdout)
    assert (data["periods"], data["exhaustion_per_period"]) == (3, 2)
    bad = run("travel", "7", "--speed", "zoom")
    assert bad.returncode != 0 and bad.stderr.strip().count("\n") == 0
    assert "no speed called 'zoom'" in bad.stderr
    fall = json.loads(run("fall", "35", "--json").stdout)
    assert fall == {"feet": 35, "dice": "3d6"}
    assert "a fall must be" in run("fall", "-3").stderr


def test_cli_odd_die_and_sight() -> None:
    from companion.rulesets.monsters_and_magic.dice_notation import roll_odd_die

    data = json.loads(run("odd-die", "3", "--roll", "--seed", "4", "--json").stdout)
    assert data["odds"] == {"1": "1/3", "2": "1/3", "3": "1/3"}
    assert (data["even_face"], data["value"]) == roll_odd_die(3, seed=4)
    assert "not an odd die" in run("odd-die", "4").stderr
    sight = json.loads(run("sight", "dim light", "--json").stdout)
    assert sight == {"light": "dim light", "counts_as": "concealed", "modifier": -2,
                     "fails": ""}
    # Issue 30: a sight-based check against something in darkness fails, with no roll.
    dark = json.loads(run("sight", "darkness", "--json").stdout)
    assert (dark["counts_as"], dark["fails"]) == ("hidden", (
        "Concealment: against something hidden you count as blinded, and a check that "
        "relies on sight fails"))
    assert "fails (automatically: no roll)" in run("sight", "Magical Darkness").stdout
    assert "fails" not in run("sight", "bright light").stdout
    bad = run("sight", "fog")
    assert bad.returncode != 0 and "no light level called 'fog'" in bad.stderr


def test_set_numbers_caps_current_values_and_refuses_bad_ones() -> None:
    a = Adventurer.new("Ash", max_hp=12, luck=2)
    a.take_damage(2)
    a.set_numbers(1, 2, -1, 3, 8, 1, 3, 4, 5, 6)
    assert (a.focus, a.power, a.cunning, a.luck) == (1, 2, -1, 3)
    assert (a.hp, a.max_hp, a.ac, a.threads, a.max_threads, a.supplies) == (8, 8, 1, 2, 3, 6)
    with pytest.raises(RuleError, match="max HP must be a whole number from 1"):
        a.set_numbers(1, 2, -1, 3, 0, 1, 3, 4, 5, 6)
    assert a.max_hp == 8
    assert Adventurer.from_json(a.to_json()) == a


def test_tend_an_allys_wounds() -> None:
    party = Party()
    ash = party.new_character("Ash", supplies=3)
    bea = party.new_character("Bea", max_hp=16)
    bea.take_damage(10)
    assert party.tend_ally(ash, bea, 2) == 8  # 2 × a quarter of 16
    assert (ash.supplies, bea.hp) == (1, 14)
    cole = party.new_character("Cole", supplies=1)
    with pytest.raises(RuleError, match="spend 0-2 supply on a short rest"):
        party.tend_ally(cole, bea, 3)
    with pytest.raises(RuleError, match="has only 1 supply"):
        party.tend_ally(cole, bea, 2, rest="long")
    assert (bea.hp, cole.supplies, cole.rest_done) == (14, 1, [])
    with pytest.raises(RuleError, match="part of your own rest"):
        party.tend_ally(ash, ash, 1)
