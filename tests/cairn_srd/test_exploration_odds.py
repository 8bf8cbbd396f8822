"""The site clock's exact odds: against brute-force enumeration of every roll sequence,
against an independent linear solve, and against a long seeded run of the tracker."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from companion import dice
from companion.errors import OddsTooCostlyError, RuleError
from companion.rulesets.cairn_srd import exploration as ex
from companion.rulesets.cairn_srd.exploration import Delve, clock_after, encounter_odds


def brute_within(clock: int, die: int, turns: int) -> Fraction:
    """Every sequence of ``turns`` rolls, followed by the clock rule until an encounter."""
    hit = 0
    for rolls in itertools.product(range(1, die + 1), repeat=turns):
        value = clock
        for r in rolls:
            step = clock_after(value, r)
            if step.encounter:
                hit += 1
                break
            value = step.after
    return Fraction(hit, die ** turns)


@pytest.mark.parametrize(("clock", "die", "turns"), [
    (1, 6, 1), (1, 6, 3), (2, 6, 4), (3, 6, 4), (4, 6, 3), (5, 6, 4), (9, 6, 4),
    (20, 6, 4), (3, 8, 3), (7, 8, 3), (12, 10, 3), (20, 12, 3), (13, 12, 3),
])
def test_within_matches_brute_force(clock: int, die: int, turns: int) -> None:
    odds = encounter_odds(clock, die, turns)
    assert odds.within == brute_within(clock, die, turns)
    assert odds.next == brute_within(clock, die, 1)


def solve_expected(die: int, top: int) -> list[Fraction]:
    """E[v] = 1 + (1/die) * sum E[next] by Gauss-Jordan over every clock value 1..top."""
    n = top
    rows = []
    for v in range(1, n + 1):
        row = [Fraction(0)] * (n + 1)
        row[v - 1] += 1
        for r in range(1, die + 1):
            step = clock_after(v, r)
            if not step.encounter:
                row[step.after - 1] -= Fraction(1, die)
        row[n] = Fraction(1)
        rows.append(row)
    for col in range(n):
        pivot = next(i for i in range(col, n) if rows[i][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [x / lead for x in rows[col]]
        for i in range(n):
            if i != col and rows[i][col] != 0:
                f = rows[i][col]
                rows[i] = [a - f * b for a, b in zip(rows[i], rows[col], strict=True)]
    return [Fraction(0)] + [rows[i][n] for i in range(n)]


@pytest.mark.parametrize("die", ex.SITE_DICE)
def test_expected_turns_match_a_full_linear_solve(die: int) -> None:
    solved = solve_expected(die, 20)
    for clock in range(1, 21):
        assert encounter_odds(clock, die).expected_turns == solved[clock]


def test_hand_worked_values() -> None:
    # From 1 on a d6: 1 -> 0 -> back to 3, anything else an encounter.
    assert encounter_odds(1, 6).next == Fraction(5, 6)
    assert encounter_odds(1, 6).expected_turns == Fraction(216, 167)
    assert encounter_odds(6, 6).next == 0 and encounter_odds(5, 6).next == Fraction(1, 6)
    assert encounter_odds(20, 12).next == 0
    assert encounter_odds(11, 12).next == Fraction(1, 12)
    # Omen: coming down from above 3 to 3, 2, 1 or 0 (5 - 2, 5 - 3, 5 - 4, 5 - 5).
    assert encounter_odds(5, 6).omen_next == Fraction(4, 6)
    assert encounter_odds(3, 6).omen_next == Fraction(1, 6)  # only 3 - 3 = 0 -> 3
    assert encounter_odds(20, 6).omen_next == 0 and encounter_odds(9, 6).omen_next == Fraction(1, 6)


def test_within_grows_to_certainty_and_matches_expected_tail() -> None:
    odds = [encounter_odds(20, 6, t).within for t in (1, 2, 3, 4, 10, 40)]
    assert odds == sorted(odds) and odds[0] == 0 and odds[2] == 0  # 3 sixes leave 2
    assert odds[3] > 0 and 1 - odds[-1] < Fraction(1, 10**6)
    # The expectation is the sum of the survival chances.
    survival = sum((1 - encounter_odds(20, 6, t).within for t in range(1, 400)), Fraction(1))
    assert abs(survival - encounter_odds(20, 6).expected_turns) < Fraction(1, 10**12)


def test_odds_against_a_long_seeded_run_of_the_tracker() -> None:
    """2,000 turns of the tracker, then 200,000 turns of the same rule with the same dice
    (die fixed at d6): the share of turns started at each clock value that brought an
    encounter, and the mean gap between encounters from 20."""
    rng = random.Random(20261124)
    d = Delve()
    shadow = 20
    for _ in range(2_000):  # the tracker follows the rule the odds are computed from
        d.declare("explore")
        d.describe_turn()
        state = rng.getstate()
        step = d.roll_site_die(rng=rng)
        rng.setstate(state)
        assert dice.roll("1d6", rng=rng).total == step.roll
        shadow = clock_after(shadow, step.roll).after
        assert d.clock == shadow
        d.mark_lights()
    starts: dict[int, list[int]] = {}
    gaps: list[int] = []
    since = 0
    clock = 20
    for _ in range(200_000):
        before = clock
        step = clock_after(clock, dice.roll("1d6", rng=rng).total)
        clock = step.after
        tally = starts.setdefault(before, [0, 0])
        tally[0] += 1
        tally[1] += step.encounter
        since += 1
        if step.encounter:
            gaps.append(since)
            since = 0
    for clock in (1, 2, 3, 5):
        n, hits = starts[clock]
        p = encounter_odds(clock, 6).next
        sd = (float(p * (1 - p)) / n) ** 0.5
        assert abs(hits / n - float(p)) < 4 * sd + 1e-9, clock
    mean = sum(gaps) / len(gaps)
    expected = float(encounter_odds(20, 6).expected_turns)
    var = sum((g - mean) ** 2 for g in gaps) / len(gaps)
    assert abs(mean - expected) < 4 * (var / len(gaps)) ** 0.5


def test_reference_table_shape_and_edges() -> None:
    table = ex.clock_odds_table()
    assert len(table) == 20 and [o.die for o in table[0]] == list(ex.SITE_DICE)
    assert all(o.next == Fraction(max(0, o.die - o.clock), o.die) for row in table for o in row)


def test_inputs_are_bounded_before_any_work() -> None:
    with pytest.raises(RuleError, match="d6, d8, d10, d12"):
        encounter_odds(20, 7)
    with pytest.raises(OddsTooCostlyError, match="clock runs from 1"):
        encounter_odds(0, 6)
    with pytest.raises(OddsTooCostlyError, match="clock runs from 1"):
        encounter_odds(ex.MAX_ODDS_CLOCK + 1, 6)
    with pytest.raises(OddsTooCostlyError, match="turns ahead"):
        encounter_odds(20, 6, ex.MAX_ODDS_TURNS + 1)
    big = encounter_odds(ex.MAX_ODDS_CLOCK, 6, ex.MAX_ODDS_TURNS)  # the largest: quick
    assert big.expected_turns > Fraction(ex.MAX_ODDS_CLOCK, 6)  # at most 6 off per turn


def test_omen_odds_by_brute_force() -> None:
    # Every clock and die: count the faces by the reading itself, written out again here.
    for die in (6, 8, 10, 12):
        for clock in range(1, 21):
            faces = sum(1 for r in range(1, die + 1)
                        if clock - r == 0 or (clock > 3 and 0 < clock - r <= 3))
            assert encounter_odds(clock, die).omen_next == Fraction(faces, die)
