"""Issue 15: plot-points contests (exact odds, rolled, CLI), recovery proficiency, amounts."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from fractions import Fraction

import pytest

from companion.errors import RuleError
from companion.rulesets.plot_points.checks import PlotCheck
from companion.rulesets.plot_points.session import PlotPointSession


def faces(ability: str, proficiency: int, die: int, sign: int) -> list[int]:
    """Every equally likely total of a check, enumerated die by die."""
    totals = []
    extra = range(1, die + 1) if die else [0]
    for a, b in itertools.product(range(1, 21), repeat=2):
        kept = {"weak": min(a, b), "strong": max(a, b), "average": a}[ability]
        if ability == "average" and b != 1:
            continue  # one d20: count each face once
        totals += [kept + proficiency + sign * x for x in extra]
    return totals


@pytest.mark.parametrize(("mine", "theirs", "a", "b"), [
    (("strong", 2, 1), ("weak", 0, 0), (4, 1), (0, 1)),
    (("average", 0, -2), ("average", 1, 0), (6, -1), (0, 1)),
])
def test_contest_odds_match_brute_force(mine: tuple[str, int, int],
                                        theirs: tuple[str, int, int],
                                        a: tuple[int, int], b: tuple[int, int]) -> None:
    first = faces(mine[0], mine[1], *a)
    second = faces(theirs[0], theirs[1], *b)
    win = sum(1 for x in first for y in second if x > y)
    tie = sum(1 for x in first for y in second if x == y)
    n = len(first) * len(second)
    odds = PlotCheck(*mine).contest(PlotCheck(*theirs))
    assert (odds.win, odds.tie) == (Fraction(win, n), Fraction(tie, n))
    assert odds.lose == 1 - odds.win - odds.tie


@pytest.mark.parametrize("seed", range(10))
def test_session_contest_rolls_with_the_engine_dice(seed: int) -> None:
    s = PlotPointSession.new(["Ann", "Bob"])
    out = s.contest("Ann", "Orc", "strong", 2, 1, "weak", seed=seed)
    rng = random.Random(seed)
    first = PlotCheck("strong", 2, 1).roll(rng=rng)
    second = PlotCheck("weak").roll(rng=rng)
    assert (out.first.total, out.second.total) == (first.total, second.total)
    assert out.margin == first.total - second.total
    assert out.winner == ("Ann" if out.margin > 0 else "Orc" if out.margin < 0 else None)
    assert s.current is None
    lucky, unlucky = 3, 0
    for r in (first, second):
        if r.natural_one and lucky:
            lucky, unlucky = lucky - 1, unlucky + 1
        elif r.natural_twenty and unlucky:
            lucky, unlucky = lucky + 1, unlucky - 1
    assert (s.lucky, s.unlucky) == (lucky, unlucky)


def test_contest_loser_with_injuries_gains_strain_and_illegal_contests() -> None:
    s = PlotPointSession.new(["Ann", "Bob"])
    s.gain_wounds("Ann", 5)  # Injured: a failed check adds 1 strain
    for seed in range(12):  # at most 12 strain: stays Injured (5-8 wounds)
        before = s.character("Ann").strain + 4 * s.character("Ann").wounds
        out = s.contest("Ann", "Bob", seed=seed)
        after = s.character("Ann").strain + 4 * s.character("Ann").wounds
        assert after - before == (1 if out.margin < 0 else 0)
    with pytest.raises(RuleError, match="two different sides"):
        s.contest("Ann", "Ann")
    with pytest.raises(RuleError, match="no player named 'Zed'"):
        s.contest("Zed", "Ann")


@pytest.mark.parametrize("seed", range(6))
def test_recovery_checks_take_proficiency(seed: int) -> None:
    s = PlotPointSession.new(["Ann"])
    s.gain_wounds("Ann", 3)
    results = s.long_rest("Ann", 12, "average", 5, seed=seed)
    rng = random.Random(seed)
    expected = [PlotCheck("average", 5, 0, 12).roll(rng=rng) for _ in range(3)]
    assert [r.total for r in results] == [e.total for e in expected]
    assert s.character("Ann").wounds == 3 - sum(1 for e in expected if e.success)


def test_strain_and_wounds_in_any_amount() -> None:
    s = PlotPointSession.new(["Ann"])
    s.gain_strain("Ann", 9)
    assert (s.character("Ann").wounds, s.character("Ann").strain) == (2, 1)
    s.gain_wounds("Ann", 7)
    s.heal_wounds("Ann", 4)
    assert s.character("Ann").wounds == 5
    for bad in (0, 101):
        with pytest.raises(RuleError, match="1 to 100"):
            s.gain_strain("Ann", bad)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", "contest", *args],
                          capture_output=True, text=True, timeout=60)


def test_cli_contest() -> None:
    out = run("--ability", "strong", "--vs-ability", "weak", "--json")
    data = json.loads(out.stdout)
    odds = PlotCheck("strong").contest(PlotCheck("weak"))
    assert Fraction(data["p_win"]) == odds.win and Fraction(data["p_tie"]) == odds.tie
    rolled = json.loads(run("--ability", "average", "--vs-ability", "average", "--roll",
                            "--seed", "7", "--json").stdout)["roll"]
    expected = PlotCheck().roll_contest(PlotCheck(), seed=7)
    assert rolled["margin"] == expected.margin
    bad = run("--ability", "average", "--vs-ability", "weak", "--vs-advantage", "500")
    assert bad.returncode != 0 and "beyond ±99" in bad.stderr
    assert bad.stderr.strip().count("\n") == 0
