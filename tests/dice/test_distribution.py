"""Distribution as a general exact discrete-distribution algebra."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest

from companion.dice import Distribution, odds
from companion.dice.render import percent
from companion.errors import DiceError


def brute_sum(*sides: int) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    total = 1
    for s in sides:
        total *= s
    for combo in itertools.product(*(range(1, s + 1) for s in sides)):
        out[sum(combo)] = out.get(sum(combo), Fraction(0)) + Fraction(1, total)
    return out


def test_constructors() -> None:
    assert dict(Distribution.die(4)) == {v: Fraction(1, 4) for v in range(1, 5)}
    assert dict(Distribution.constant(3)) == {3: 1}
    w = Distribution.from_weights({1: 1, 2: 3, 5: 0})
    assert dict(w) == {1: Fraction(1, 4), 2: Fraction(3, 4)}
    assert Distribution({0: Fraction(1, 2), 1: Fraction(1, 2)}) == Distribution.die(2) - 1
    with pytest.raises(DiceError):
        Distribution({1: Fraction(1, 2)})
    with pytest.raises(DiceError):
        Distribution.from_weights({1: -1, 2: 2})
    with pytest.raises(DiceError):
        Distribution.die(0)


def test_mapping_protocol_and_iteration_order() -> None:
    d = Distribution.from_weights({5: 1, -2: 1, 3: 2})
    assert list(d) == [(-2, Fraction(1, 4)), (3, Fraction(1, 2)), (5, Fraction(1, 4))]
    assert d[3] == d.p(3) == Fraction(1, 2) and d[4] == 0
    assert 3 in d and 4 not in d and len(d) == 3
    assert d.keys() == (-2, 3, 5)


def test_convolution_matches_brute_force() -> None:
    got = Distribution.die(6) + Distribution.die(8) + Distribution.die(3)
    assert dict(got) == brute_sum(6, 8, 3)
    assert dict(Distribution.die(6).repeat_sum(4)) == brute_sum(6, 6, 6, 6)
    assert Distribution.die(6).repeat_sum(0) == Distribution.constant(0)


def test_arithmetic_with_ints_and_distributions() -> None:
    d6 = Distribution.die(6)
    assert (d6 + 2).min == 3 and (2 + d6).max == 8
    assert (10 - d6).min == 4
    assert dict(d6 * 2) == {v: Fraction(1, 6) for v in range(2, 13, 2)}
    assert dict(-d6) == {-v: Fraction(1, 6) for v in range(1, 7)}
    prod = d6 * Distribution.die(2)
    assert prod[6] == Fraction(2, 12)  # 6x1 and 3x2
    third, sixth = Fraction(1, 3), Fraction(1, 6)
    assert dict(d6 // 2) == {0: sixth, 1: third, 2: third, 3: sixth}
    with pytest.raises(DiceError):
        d6 // (Distribution.die(2) - 1)
    sparse = Distribution.die(3) * 1000 + Distribution.die(3)
    assert len(sparse) == 9 and sparse[2002] == Fraction(1, 9)


def test_statistics() -> None:
    d = odds("2d6")
    assert d.min == 2 and d.max == 12 and d.mean == 7
    assert d.variance == Fraction(35, 6)
    assert abs(d.stdev - (35 / 6) ** 0.5) < 1e-12
    assert d.at_least(10) == Fraction(6, 36) and d.at_most(3) == Fraction(3, 36)
    assert d.probability(lambda v: v % 2 == 0) == Fraction(1, 2)


def test_map_mixture_hash_and_immutability() -> None:
    d = Distribution.die(6).map(lambda v: v % 2)
    assert dict(d) == {0: Fraction(1, 2), 1: Fraction(1, 2)}
    half = Fraction(1, 2)
    m = Distribution.mixture([(half, Distribution.constant(0)), (half, Distribution.die(2))])
    assert dict(m) == {0: Fraction(1, 2), 1: Fraction(1, 4), 2: Fraction(1, 4)}
    with pytest.raises(DiceError):
        Distribution.mixture([(Fraction(1, 3), Distribution.die(2))])
    a, b = odds("3d6"), Distribution.die(6).repeat_sum(3)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    with pytest.raises(AttributeError):
        a.foo = 1  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        a.truncated = Fraction(1, 2)  # type: ignore[misc]
    assert odds("1d6!") != odds("1d6!", explode_depth=3)  # truncation is part of the value


def test_to_dict_and_svg() -> None:
    d = odds("2d6")
    data = json.loads(json.dumps(d.to_dict()))
    assert data["min"] == 2 and data["mean"] == "7"
    assert sum(Fraction(p) for _, p in data["outcomes"]) == 1
    svg = d.to_svg(target=10, title="2d6 & more")
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert svg.count("<rect") == 11 + 3  # one bar per value, plus a hatch over 10, 11, 12
    assert "2d6 &amp; more" in svg and "16.67%" in svg
    big = odds("1d1000")
    assert big.to_svg().count("<rect") <= 200


def test_percent() -> None:
    assert percent(Fraction(1, 3)) == "33.33%"
    assert percent(Fraction(1)) == "100.00%"
    assert percent(Fraction(0)) == "0.00%"
    assert percent(Fraction(1, 10**9)) == "<0.01%"
    assert percent(1 - Fraction(1, 10**9)) == ">99.99%"
    assert percent(Fraction(1, 8), digits=1) == "12.5%"


def test_large_sums_stay_exact() -> None:
    d = odds("100d6")
    assert d.min == 100 and d.max == 600 and d.mean == 350
    assert d[100] == Fraction(1, 6**100)
    assert sum(p for _, p in d) == 1
