"""Checks: the generic Check and the plot-points PlotCheck, exact odds against brute force."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.checks import Check
from companion.errors import RuleError
from companion.rulesets.plot_points import (
    ABILITY_DICE,
    PlotCheck,
    advantage_die,
    net_advantage,
)

D20 = range(1, 21)


def brute_totals(ability: str, proficiency: int, advantage: int) -> Counter[tuple[int, int]]:
    """Counter of (total, natural) over every equally likely outcome."""
    count = 1 if ability == "average" else 2
    naturals = list(itertools.product(D20, repeat=count))
    sides = {0: 0, 1: 4, 2: 6, 3: 8, 4: 10}.get(abs(advantage), 12)
    extra = range(1, sides + 1) if sides else [0]
    sign = 1 if advantage >= 0 else -1
    out: Counter[tuple[int, int]] = Counter()
    for dice in naturals:
        kept = min(dice) if ability == "weak" else max(dice)
        for e in extra:
            out[(kept + proficiency + sign * e, kept)] += 1
    return out


GRID = [
    (ability, prof, adv)
    for ability in ("weak", "average", "strong")
    for prof in (0, 3)
    for adv in (-5, -1, 0, 2, 4)
]


@pytest.mark.parametrize(("ability", "prof", "adv"), GRID)
def test_success_chance_matches_brute_force(ability: str, prof: int, adv: int) -> None:
    counts = brute_totals(ability, prof, adv)
    whole = sum(counts.values())
    for dc in (-3, 1, 5, 10, 17, 22, 25, 40):
        expected = Fraction(sum(n for (t, _), n in counts.items() if t >= dc), whole)
        assert PlotCheck(ability, prof, adv, dc).chance() == expected  # type: ignore[arg-type]


@pytest.mark.parametrize("ability", ["weak", "average", "strong"])
def test_natural_chances_match_brute_force(ability: str) -> None:
    counts = brute_totals(ability, 0, 0)
    whole = sum(counts.values())
    one = Fraction(sum(n for (_, k), n in counts.items() if k == 1), whole)
    twenty = Fraction(sum(n for (_, k), n in counts.items() if k == 20), whole)
    assert PlotCheck(ability).natural_chances() == (one, twenty)  # type: ignore[arg-type]
    assert {"weak": (Fraction(39, 400), Fraction(1, 400)),
            "average": (Fraction(1, 20), Fraction(1, 20)),
            "strong": (Fraction(1, 400), Fraction(39, 400))}[ability] == (one, twenty)


def test_contest_matches_brute_force() -> None:
    a, b = PlotCheck("average", 2, 1), PlotCheck("weak", 0, -1)
    ca, cb = brute_totals("average", 2, 1), brute_totals("weak", 0, -1)
    whole = sum(ca.values()) * sum(cb.values())
    win = tie = 0
    for ((ta, _), na), ((tb, _), nb) in itertools.product(ca.items(), cb.items()):
        win += na * nb if ta > tb else 0
        tie += na * nb if ta == tb else 0
    odds = a.contest(b)
    assert (odds.win, odds.tie) == (Fraction(win, whole), Fraction(tie, whole))
    assert odds.win + odds.tie + odds.lose == 1


def test_contest_roll_margin_and_winner() -> None:
    import random

    from companion import dice

    a, b = PlotCheck("strong", 1, 2), PlotCheck("average")
    margins = set()
    for seed in range(40):
        contest = a.roll_contest(b, seed=seed)
        assert contest.to_dict() == a.roll_contest(b, seed=seed).to_dict()
        # The seed is one generator: this side's dice, then the other's, as the engine rolls.
        rng = random.Random(seed)
        first, second = dice.roll(a.expression, rng=rng), dice.roll(b.expression, rng=rng)
        assert (contest.first.total, contest.second.total) == (first.total, second.total)
        margins.add(contest.margin)
        assert contest.margin == contest.first.total - contest.second.total
        assert contest.winner == (1 if contest.margin > 0 else 2 if contest.margin < 0 else 0)
        assert contest.first.check.expression == "2d20kh1 + 1 + 1d6"
    assert len(margins) > 5  # other seeds, other contests: the seed is not ignored


def test_advantage_dice() -> None:
    assert [advantage_die(n) for n in range(-6, 7)] == [
        "-1d12", "-1d12", "-1d10", "-1d8", "-1d6", "-1d4", "",
        "+1d4", "+1d6", "+1d8", "+1d10", "+1d12", "+1d12"]
    assert net_advantage(3, 1) == 2 and net_advantage(1, 4) == -3
    with pytest.raises(RuleError, match="Advantage"):
        net_advantage(-1, 0)
    with pytest.raises(RuleError, match="Advantage"):
        advantage_die(1000)


def test_expression_and_bad_ability() -> None:
    assert PlotCheck("weak", -1, -2, 10).expression == "2d20kl1 - 1 - 1d6"
    assert ABILITY_DICE == {"weak": "2d20kl1", "average": "1d20", "strong": "2d20kh1"}
    with pytest.raises(RuleError, match="weak, average or strong"):
        PlotCheck("mighty")  # type: ignore[arg-type]
    with pytest.raises(RuleError, match="needs a difficulty"):
        PlotCheck("average").chance()


@settings(max_examples=80)
@given(ability=st.sampled_from(["weak", "average", "strong"]), prof=st.integers(-5, 10),
       adv=st.integers(-7, 7), dc=st.integers(-5, 35), seed=st.integers(0, 2**32))
def test_roll_explains_itself(ability: str, prof: int, adv: int, dc: int, seed: int) -> None:
    check = PlotCheck(ability, prof, adv, dc)  # type: ignore[arg-type]
    result = check.roll(seed=seed)
    assert result.to_dict() == check.roll(seed=seed).to_dict()
    from companion import dice

    engine = dice.roll(check.expression, seed=seed)  # the seed reaches the dice engine
    assert [d.value for d in result.result.roll.dice] == [d.value for d in engine.dice]
    kept = [d.value for d in result.result.roll.dice if d.counted and d.sides == 20]
    dropped = [d.value for d in result.result.roll.dice if not d.counted and d.sides == 20]
    assert kept == [result.natural]
    # Interpretation: the natural face is the kept d20.
    if ability == "weak" and dropped:
        assert result.natural <= dropped[0]
    if ability == "strong" and dropped:
        assert result.natural >= dropped[0]
    assert result.success == (result.total >= dc)
    assert result.margin == result.total - dc
    assert result.natural_one == (result.natural == 1)
    assert ("natural 20" in str(result)) == result.natural_twenty


def test_generic_check_roll_under_and_margins() -> None:
    save = Check("1d20", target=12, meet="at_most")
    assert save.chance() == Fraction(12, 20)
    margins = save.margin_distribution()
    assert margins.p(0) == Fraction(1, 20) and margins.max == 11 and margins.min == -8
    for seed in range(30):
        result = save.roll(seed=seed)
        assert result.success == (result.total <= 12)
        assert result.margin == 12 - result.total
    with pytest.raises(RuleError, match="'\\+1d4'"):
        Check("1d20", extra=("1d4",))
    with pytest.raises(RuleError, match="no target"):
        Check("1d20").chance()
    contest = Check("1d6").roll_contest(Check("1d6"), seed=3)
    assert contest.margin == contest.first.total - contest.second.total
    assert contest.winner == (1 if contest.margin > 0 else 2 if contest.margin < 0 else 0)
    import random

    from companion import dice

    rng = random.Random(3)  # one generator: the first side's die, then the other's
    assert (contest.first.total, contest.second.total) == (
        dice.roll("1d6", rng=rng).total, dice.roll("1d6", rng=rng).total)
    assert Check("1d20").roll(seed=1).success is None
