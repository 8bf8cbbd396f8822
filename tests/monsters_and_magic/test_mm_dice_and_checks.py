"""Dice notation, ability checks and group checks: exact odds against brute force."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion import tables
from companion.dice import roll
from companion.errors import RuleError
from companion.rulesets.monsters_and_magic import (
    DIE_SCALE,
    AbilityCheck,
    Tier,
    group_odds,
    group_result,
    odd_die_distribution,
    percent_chance,
    percentile_distribution,
    roll_group,
    step_die,
    step_result,
    thresholds,
)
from companion.rulesets.monsters_and_magic.dice_notation import (
    roll_odd_die,
    roll_percentile,
    step_distribution,
)
from companion.rulesets.monsters_and_magic.group_checks import group_counts

D20 = range(1, 21)


# -- dice notation ---------------------------------------------------------------------

def test_scale_is_the_seeds_eight_sizes() -> None:
    assert DIE_SCALE == ("1d2", "1d4", "1d6", "1d8", "1d10", "1d12", "2d6", "3d4")
    assert "".join(DIE_SCALE) == "1d21d41d61d81d101d122d63d4"  # as the seed prints it


def test_stepping_up_and_down() -> None:
    assert step_die("1d12", 1) == "2d6"
    assert step_die("1d6", -1) == "1d4"
    assert step_die("d8", 0) == "1d8"
    assert step_die("1d8+2", 2) == "1d12+2"
    assert step_die("2d6-1", -3) == "1d8-1"
    assert step_die("1d2", 7) == "3d4"


@pytest.mark.parametrize(("expr", "steps", "words"), [
    ("3d4", 1, "largest"), ("1d2", -1, "smallest"), ("1d20", 1, "not on the die size"),
    ("1d3", 1, "not on the die size"), ("banana", 1, "not a die"), ("1d8", 500, "steps"),
])
def test_stepping_refusals(expr: str, steps: int, words: str) -> None:
    with pytest.raises(RuleError, match=words):
        step_die(expr, steps)


def test_each_step_changes_the_average_by_about_one() -> None:
    means = [step_distribution("1d2", i).mean for i in range(len(DIE_SCALE))]
    gaps = [b - a for a, b in itertools.pairwise(means)]
    assert all(Fraction(1, 2) <= g <= 1 for g in gaps)


def test_percentile_against_brute_force() -> None:
    counts: dict[int, int] = {}
    for tens, ones in itertools.product(range(1, 11), repeat=2):
        value = (tens % 10) * 10 + ones % 10 or 100
        counts[value] = counts.get(value, 0) + 1
    expected = {v: Fraction(c, 100) for v, c in counts.items()}
    assert dict(percentile_distribution()) == expected
    assert set(expected) == set(range(1, 101))


def test_percentile_roll_is_seeded_and_reads_double_zero_as_100() -> None:
    # The seed is the dice engine's: 2d10, the first die the tens (10 reads as 0).
    results = set()
    for seed in range(20):
        first, second = (d.value for d in roll("2d10", seed=seed).dice)
        assert roll_percentile(seed=seed)[:2] == (first % 10, second % 10), seed
        results.add(roll_percentile(seed=seed))
    assert len(results) > 2  # other seeds, other dice: the seed is not ignored
    assert roll_percentile(seed=5) == roll_percentile(seed=5)
    rng = random.Random(1)
    for _ in range(500):
        tens, ones, value = roll_percentile(rng=rng)
        assert value == (tens * 10 + ones or 100)


@pytest.mark.parametrize("chance", [0, 1, 5, 37, 99, 100])
def test_percent_chance(chance: int) -> None:
    assert percent_chance(chance) == Fraction(chance, 100)


def test_percent_chance_refuses_out_of_range() -> None:
    with pytest.raises(RuleError, match="0-100"):
        percent_chance(101)


@pytest.mark.parametrize("sides", [1, 3, 5, 7])
def test_odd_die_against_brute_force(sides: int) -> None:
    expected: dict[int, Fraction] = {}
    for face in range(1, 2 * sides + 1):
        half = -(-face // 2)
        expected[half] = expected.get(half, Fraction(0)) + Fraction(1, 2 * sides)
    assert dict(odd_die_distribution(sides)) == expected
    faces = set()
    for seed in range(20):
        face, value = roll_odd_die(sides, seed=seed)
        assert face == roll(f"1d{2 * sides}", seed=seed).total, seed  # the engine's even die
        assert value == -(-face // 2)
        faces.add(face)
    assert len(faces) >= 2  # other seeds, other faces: the seed is not ignored


def test_odd_die_refuses_even() -> None:
    with pytest.raises(RuleError, match="not an odd die"):
        odd_die_distribution(4)


# -- the results table and ability checks --------------------------------------------------

def test_results_table_rows_vs_brute_force() -> None:
    table = tables.get("mm_ability_check_results")
    assert table.die == "1d20"
    for row, p in table.odds():
        assert p == Fraction(sum(1 for f in D20 if f in row.covers), 20)
    t = thresholds()
    assert (t.critical_hit_face, t.critical_miss_face, t.weak_hit_at, t.strong_hit_at) == (
        20, 1, 10, 18)


def brute_tiers(modifier: int, dc: int, dice: int, keep: str, steps: int = 0,
                allow: bool = False) -> dict[Tier, Fraction]:
    out = {tier: Fraction(0) for tier in Tier}
    for faces in itertools.product(D20, repeat=dice):
        natural = max(faces) if keep == "high" else min(faces)
        total = natural + modifier
        if natural == 20:
            tier = Tier.CRITICAL_HIT
        elif natural == 1:
            tier = Tier.CRITICAL_MISS
        elif total >= dc + 8:
            tier = Tier.STRONG_HIT
        elif total >= dc:
            tier = Tier.WEAK_HIT
        else:
            tier = Tier.MISS
        value = int(tier)
        for _ in range(abs(steps)):
            nxt = value + (1 if steps > 0 else -1)
            if not allow and (nxt == 4 or nxt == 0) and value not in (0, 4):
                break
            value = max(0, min(4, nxt))
        out[Tier(value)] += Fraction(1, 20**dice)
    return out


@pytest.mark.parametrize("modifier", [-12, -3, 0, 2, 5, 9, 20])
@pytest.mark.parametrize("dc", [None, 5, 14])
def test_tier_odds_against_brute_force(modifier: int, dc: int | None) -> None:
    check = AbilityCheck(modifier, dc)
    assert check.tier_odds() == brute_tiers(modifier, dc or 10, 1, "high")


@pytest.mark.parametrize(("adv", "dis", "dice", "keep"), [
    (True, False, 2, "high"), (False, True, 2, "low"), (True, True, 1, "high")])
def test_advantage_and_disadvantage(adv: bool, dis: bool, dice: int, keep: str) -> None:
    check = AbilityCheck(3, 12, advantage=adv, disadvantage=dis)
    assert check.tier_odds() == brute_tiers(3, 12, dice, keep)


@pytest.mark.parametrize("steps", [-3, -1, 1, 2, 4])
def test_effect_steps_odds(steps: int) -> None:
    assert AbilityCheck(1, steps=steps).tier_odds() == brute_tiers(1, 10, 1, "high", steps)
    assert AbilityCheck(1, steps=steps, allow_critical=True).tier_odds() == brute_tiers(
        1, 10, 1, "high", steps, allow=True)


def test_step_result_never_makes_a_critical_unless_allowed() -> None:
    assert step_result(Tier.WEAK_HIT, 1) == Tier.STRONG_HIT
    assert step_result(Tier.STRONG_HIT, 1) == Tier.STRONG_HIT
    assert step_result(Tier.MISS, -1) == Tier.MISS
    assert step_result(Tier.STRONG_HIT, 1, allow_critical=True) == Tier.CRITICAL_HIT
    # Interpretation: criticals can step away, and stay when stepped outward.
    assert step_result(Tier.CRITICAL_HIT, -1) == Tier.STRONG_HIT
    assert step_result(Tier.CRITICAL_MISS, 1) == Tier.MISS
    assert step_result(Tier.CRITICAL_HIT, 2) == Tier.CRITICAL_HIT
    assert step_result(Tier.CRITICAL_MISS, -2) == Tier.CRITICAL_MISS


@given(st.integers(-30, 30), st.integers(-10, 30), st.booleans(), st.booleans(),
       st.integers(-4, 4))
def test_tier_odds_sum_to_one(modifier: int, dc: int, adv: bool, dis: bool,
                              steps: int) -> None:
    odds = AbilityCheck(modifier, dc, adv, dis, steps).tier_odds()
    assert sum(odds.values()) == 1
    # Naturals decide criticals whatever the modifier (when no steps move them).
    if steps == 0 and not (adv or dis):
        assert odds[Tier.CRITICAL_HIT] == odds[Tier.CRITICAL_MISS] == Fraction(1, 20)


@given(st.integers(-10, 15), st.integers(0, 2**32))
def test_rolls_are_seeded_and_read_the_right_tier(modifier: int, seed: int) -> None:
    check = AbilityCheck(modifier, advantage=True)
    a, b = check.roll(seed=seed), check.roll(seed=seed)
    assert (a.natural, a.total, a.tier) == (b.natural, b.total, b.tier)
    # The seed reaches the dice engine: the same two d20s as ``2d20kh1`` with that seed.
    engine = roll("2d20kh1", seed=seed)
    assert [d.value for d in a.roll.dice] == [d.value for d in engine.dice]
    assert a.natural == engine.total
    assert a.total == a.natural + modifier
    assert a.tier == check.result_for(a.natural)[1]
    assert a.natural == max(d.value for d in a.roll.dice)


def test_other_seeds_give_other_checks() -> None:
    naturals = {AbilityCheck(0).roll(seed=seed).natural for seed in range(20)}
    assert len(naturals) > 3  # the seed is not ignored


def test_check_refuses_absurd_input() -> None:
    with pytest.raises(RuleError, match="modifier"):
        AbilityCheck(5000)
    with pytest.raises(RuleError, match="DC"):
        AbilityCheck(0, dc=-5000)


# -- group checks ------------------------------------------------------------------------

def test_group_rules_by_example() -> None:
    S, W, M, CH, CM = (Tier.STRONG_HIT, Tier.WEAK_HIT, Tier.MISS, Tier.CRITICAL_HIT,
                       Tier.CRITICAL_MISS)
    assert group_result([S, M, W]) == W  # the strong hit cancels the miss: 1 S, 1 W -> tie
    assert group_result([CM, S, W]) == M  # 2 misses - 1 = 1 miss, 1 S, 1 W: lowest of ties
    assert group_result([CH, M, M]) == S  # 2 strong hits cancel both misses
    assert group_result([W, W, S]) == W
    assert group_result([M, M, W]) == M
    assert group_counts([CH, CM, M]) == {M: 1, W: 0, S: 2}
    with pytest.raises(RuleError, match="at least one"):
        group_result([])


def brute_group(modifiers: list[int]) -> dict[Tier, Fraction]:
    out = {Tier.MISS: Fraction(0), Tier.WEAK_HIT: Fraction(0), Tier.STRONG_HIT: Fraction(0)}
    checks = [AbilityCheck(m) for m in modifiers]
    for faces in itertools.product(D20, repeat=len(modifiers)):
        tiers = [c.result_for(f)[1] for c, f in zip(checks, faces, strict=True)]
        strong = sum(2 if t == Tier.CRITICAL_HIT else t == Tier.STRONG_HIT for t in tiers)
        weak = sum(t == Tier.WEAK_HIT for t in tiers)
        miss = sum(2 if t == Tier.CRITICAL_MISS else t == Tier.MISS for t in tiers)
        counts = [(max(0, miss - strong), Tier.MISS), (weak, Tier.WEAK_HIT),
                  (strong, Tier.STRONG_HIT)]
        best = max(n for n, _ in counts)
        out[next(t for n, t in counts if n == best)] += Fraction(1, 20 ** len(modifiers))
    return out


@pytest.mark.parametrize("modifiers", [[0], [3, -1], [2, 0, 5], [8, 8, -4]])
def test_group_odds_against_brute_force(modifiers: list[int]) -> None:
    assert group_odds([AbilityCheck(m) for m in modifiers]) == brute_group(modifiers)


def test_group_roll_is_seeded() -> None:
    checks = [AbilityCheck(1), AbilityCheck(4)]
    a, b = roll_group(checks, seed=9), roll_group(checks, seed=9)
    assert str(a) == str(b)
    assert a.tier == group_result([m.tier for m in a.members])
    seen = set()
    for seed in range(20):
        # The seed is one generator, the members rolled in order from it (as the engine does).
        rng = random.Random(seed)
        expected = [roll(e, rng=rng).total for e in ("1d20+1", "1d20+4")]
        got = [m.total for m in roll_group(checks, seed=seed).members]
        assert got == expected, seed
        seen.add(tuple(got))
    assert len(seen) > 2  # other seeds, other rolls


@given(st.sampled_from(DIE_SCALE), st.integers(-7, 7), st.integers(-20, 20))
def test_step_up_then_down_returns_the_die(die: str, steps: int, flat: int) -> None:
    expr = die + (f"{flat:+d}" if flat else "")
    index = DIE_SCALE.index(die)
    if not 0 <= index + steps < len(DIE_SCALE):
        with pytest.raises(RuleError):
            step_die(expr, steps)
        return
    assert step_die(step_die(expr, steps), -steps) == expr.replace("+0", "")


@given(st.lists(st.integers(-10, 20), min_size=1, max_size=6), st.integers(0, 20))
def test_group_odds_sum_to_one(modifiers: list[int], dc: int) -> None:
    odds = group_odds([AbilityCheck(m, dc) for m in modifiers])
    assert sum(odds.values()) == 1 and all(p >= 0 for p in odds.values())
