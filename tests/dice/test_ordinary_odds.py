"""Issue 11's budgets refuse only what is truly costly: the ordinary expressions a referee
asks for (``1000d6``, ``100d100``, a d1,000,000, ``10000d20kl3``, which the engine answered
in 0.1 to 1.4 s before the budgets and refused once they were first set) are answered,
each in its own child process limited in time and memory (see ``sandbox.py``).

The sums behind them take recurrences instead of big powers, so they are also checked
exact against repeated convolution and brute force.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from sandbox import run_limited

from companion.dice import Distribution, odds

ANSWER_WITHIN = 2.0
"""CPU seconds one answer may take (the old engine's slowest here, ``1000d6``, took 1.4)."""

PEAK_MB = 300
"""Peak memory of the child, in MB (a d1,000,000 holds a million totals: about 250 MB)."""

ORDINARY = [
    # (expression, distinct totals)
    ("1000d6", 5_001),
    ("100d100", 9_901),
    ("2d100000", 199_999),
    ("d1000000", 1_000_000),
    ("10000d20kl3", 58),
    ("10d10000", 99_991),
    ("200d6", 1_001),
    ("500d6", 2_501),
    ("500d20", 9_501),
    ("50d20", 951),
    ("20d100", 1_981),
    ("4d6kh3", 16),
    ("10d10kh3", 28),
    ("20d6kh10", 51),
    ("3d20kh1", 20),
    ("100d20kh50", 951),
    ("8d6!", 1_001),
    ("10d10!>=8", 2_091),
    ("50d6!kh3", 16),
    ("d%", 100),
    ("4dF", 9),
    ("100dF", 201),
    ("100d6>=5", 101),
    ("100d10r1", 801),
    ("100d20ro<=2", 1_901),
    ("3500d20kh1", 20),
]


@pytest.mark.parametrize(("expr", "outcomes"), ORDINARY)
def test_ordinary_expressions_are_answered_quickly(expr: str, outcomes: int) -> None:
    out = run_limited(
        f"""
def work():
    from companion.dice import odds
    d = odds({expr!r})
    return [len(d), d.min, d.max, float(d.mean)]
"""
    )
    assert out.ok, f"{expr} was refused: {out.error}: {out.message}"
    assert out.value[0] == outcomes  # type: ignore[index]
    assert out.seconds < ANSWER_WITHIN, f"{expr}: {out.seconds:.2f} s"
    assert out.peak_mb < PEAK_MB, f"{expr}: {out.peak_mb:.0f} MB"


def _iterated(die: Distribution, n: int) -> Distribution:
    total = Distribution.constant(0)
    for _ in range(n):
        total = total + die
    return total


@pytest.mark.parametrize(
    "weights",
    [
        {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1},  # identical faces: the three-term recurrence
        {-1: 1, 0: 1, 1: 1},
        {2: 3, 3: 3, 4: 3},  # identical weights other than 1 (scaled)
        {1: 1, 2: 5, 3: 1, 4: 7},  # distinct weights: Miller's recurrence
        {0: 4, 1: 1},  # a success count
        {1: 2, 4: 1, 9: 3},  # gaps between faces
        {-3: 1, 5: 2},
    ],
)
@pytest.mark.parametrize("n", [2, 3, 7, 40])
def test_repeated_sums_equal_repeated_convolution(weights: dict[int, int], n: int) -> None:
    die = Distribution.from_weights(weights)
    assert die.repeat_sum(n) == _iterated(die, n)


def test_repeated_sums_equal_brute_force_enumeration() -> None:
    die = Distribution.from_weights({1: 1, 2: 2, 5: 3})
    brute: Counter[int] = Counter()
    for faces in itertools.product([1, 2, 2, 5, 5, 5], repeat=5):
        brute[sum(faces)] += 1
    expected = {v: Fraction(c, 6**5) for v, c in brute.items()}
    assert dict(die.repeat_sum(5)) == expected


def test_a_thousand_d6_is_exact() -> None:
    d = odds("1000d6")
    assert sum(p for _, p in d) == 1 and d.truncated == 0
    assert d.mean == 3500 and d.variance == Fraction(1000 * 35, 12)
    assert d[1000] == Fraction(1, 6**1000) and d[6000] == d[1000]
    assert d[3500 - 17] == d[3500 + 17]  # symmetric about the mean
    assert odds("300d6") == _iterated(Distribution.die(6), 300)
    assert odds("100d100") == _iterated(Distribution.die(100), 100)
