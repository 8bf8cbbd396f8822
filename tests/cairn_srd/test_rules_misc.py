"""Saves, die of fate, skills, yield, social, mass combat and vessels."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.errors import RuleError
from companion.rulesets.cairn_srd import mass_combat, saves, skills, social
from companion.rulesets.cairn_srd.mass_combat import Vessel
from tests.cairn_srd.test_character import FixedRng


@given(st.integers(0, 18), st.integers(0, 20))
def test_save_chance_is_brute_force(ability: int, floor: int) -> None:
    wins = sum(1 for r in range(1, 21) if floor < r <= ability)
    assert saves.save_chance(ability, floor) == Fraction(wins, 20)


def test_save_roll_and_errors() -> None:
    assert saves.save(12, floor=2, rng=FixedRng(3)).success
    assert not saves.save(12, floor=2, rng=FixedRng(2)).success
    assert not saves.save(12, rng=FixedRng(13)).success
    from companion import dice

    assert saves.save(10, seed=7) == saves.save(10, seed=7)
    rolls = set()
    for seed in range(20):  # the seed is the engine's: 1d20 with that seed
        rolls.add(saves.save(10, seed=seed).roll)
        assert saves.save(10, seed=seed).roll == dice.roll("1d20", seed=seed).total, seed
    assert len(rolls) > 3  # other seeds, other rolls
    with pytest.raises(RuleError, match="0 to 18"):
        saves.save(19)
    with pytest.raises(RuleError, match="floor"):
        saves.save_chance(10, -1)


def test_die_of_fate_and_inspiration() -> None:
    assert not saves.die_of_fate(rng=FixedRng(3)).favourable
    assert saves.die_of_fate(rng=FixedRng(4)).favourable
    assert saves.roll_inspiration(3, rng=FixedRng(1, 6, 2)) == [1, 6, 2]
    with pytest.raises(RuleError):
        saves.roll_inspiration(0)


def test_skill_tests() -> None:
    assert [skills.skill_chance(h) for h in range(4)] == [0, 0, Fraction(1, 3), 1]
    brute = Fraction(sum(1 for r in range(1, 7) if r >= 4), 6)
    assert skills.skill_chance(2, modifier=1) == brute
    assert not skills.skill_test(1).success and skills.skill_test(3).success
    assert skills.skill_test(2, rng=FixedRng(5)).success
    assert not skills.skill_test(2, rng=FixedRng(4)).success
    with pytest.raises(RuleError, match="0-3"):
        skills.skill_test(4)


def test_yield_die() -> None:
    assert skills.yield_die(2) == 4 and skills.yield_die(3) == 6
    assert skills.yield_die(3, 2) == 10 and skills.yield_die(2, 9) == 12
    with pytest.raises(RuleError, match="Yield"):
        skills.yield_die(1)
    assert 1 <= skills.roll_yield(3, seed=1) <= 6


def test_social() -> None:
    npc = social.roll_npc(rng=FixedRng(6, 3, 3))
    assert npc.want == "Trade" and npc.disposition_roll == 6 and npc.level == 2
    assert social.shift_disposition(npc.disposition, 1).startswith("Indifferent")
    assert social.shift_disposition(npc.disposition, 9).startswith("Friendly")
    assert social.shift_disposition(npc.disposition, -9) == "Attacks"
    with pytest.raises(RuleError):
        social.shift_disposition("Grumpy", 1)
    assert social.knowledge_check("common").startswith("known")  # type: ignore[union-attr]
    fate = social.knowledge_check("specialized", rng=FixedRng(5))
    assert isinstance(fate, saves.FateResult) and fate.favourable
    with pytest.raises(RuleError, match="Knowledge"):
        social.knowledge_check("secret")
    assert "vague" in social.perceive("obscured")
    assert social.social_check(rng=FixedRng(5)).success


def test_attack_matrix() -> None:
    scales = mass_combat.scales()
    assert scales == ["Individual", "Detachment", "Ship", "Fleet"]
    assert mass_combat.attack_effect("Individual", "Detachment") == "Impaired"
    assert mass_combat.attack_effect("Fleet", "Individual") == "Critical damage"
    assert mass_combat.attack_effect("Ship", "Individual") == "Direct damage"
    for a, d in itertools.product(scales, scales):
        effect = mass_combat.attack_effect(a, d)
        gap = scales.index(a) - scales.index(d)
        assert (effect == "Normal") == (gap == 0)
        if gap == 1:
            assert effect == "Enhanced"
        if gap == -1:
            assert effect == "Impaired"
    with pytest.raises(RuleError, match="unknown scale"):
        mass_combat.attack_effect("Army", "Ship")


def test_vessels() -> None:
    assert mass_combat.vessel_scale(24) == "Detachment"
    assert mass_combat.vessel_scale(25) == "Ship"
    assert mass_combat.repair_cost(1000, 2) == 100
    v = Vessel(name="Gull", guard=3, guard_max=3)
    for i in range(4):
        v.load_cargo(f"crate {i}")
    with pytest.raises(RuleError, match="hold holds 4"):
        v.load_cargo("crate 5")
    for i in range(6):
        v.load_cargo(f"barrel {i}", "decks")
    with pytest.raises(RuleError, match="decks holds 6"):
        v.load_cargo("barrel", "decks")
    text = v.take_damage(5, "DEX", rng=FixedRng(20))
    assert v.sails == 8 and v.boardable and "boarded" in text
    v.repair("DEX")
    assert v.sails == 9
    v.rest_at_port()
    assert v.guard == 3
    assert Vessel.from_json(v.to_json()) == v
    with pytest.raises(RuleError, match="STR, DEX or CTRL"):
        v.take_damage(1, "hull")


def test_skill_modifier_clamps_to_the_die() -> None:
    # Interpretation: a natural 1 always fails and a 6 always succeeds
    assert skills.skill_chance(2, modifier=10) == Fraction(5, 6)
    assert skills.skill_chance(2, modifier=-10) == Fraction(1, 6)
    assert skills.skill_target(-1) == 6 and skills.skill_target(3) == 2
