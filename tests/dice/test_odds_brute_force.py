"""Exact odds from the engine's DP agree with brute-force enumeration, construct by
construct, on small dice."""

from __future__ import annotations

from fractions import Fraction

import brute
import pytest

from companion.dice import odds
from companion.dice.distribution import Distribution
from companion.dice.odds import keep_odds


def top(k: int):  # sum of the k highest
    return lambda faces: sum(sorted(faces)[len(faces) - k :])


def bottom(k: int):
    return lambda faces: sum(sorted(faces)[:k])


D6, D4, D3, D10, D20 = brute.die(6), brute.die(4), brute.die(3), brute.die(10), brute.die(20)
FUDGE = brute.die(3, low=-1)

CASES = {
    "3d6": lambda: brute.pool([D6] * 3, sum),
    "d6": lambda: brute.pool([D6], sum),
    "1d6+3": lambda: brute.pool([D6], lambda f: f[0] + 3),
    "2d6-1d4": lambda: brute.pool([D6, D6, D4], lambda f: f[0] + f[1] - f[2]),
    "1d6*1d4": lambda: brute.pool([D6, D4], lambda f: f[0] * f[1]),
    "2d6/3": lambda: brute.pool([D6, D6], lambda f: (f[0] + f[1]) // 3),
    "-1d6/4": lambda: brute.pool([D6], lambda f: (-f[0]) // 4),
    "(1d4+1)*2": lambda: brute.pool([D4], lambda f: (f[0] + 1) * 2),
    "-(1d4-3)": lambda: brute.pool([D4], lambda f: -(f[0] - 3)),
    "4d6kh3": lambda: brute.pool([D6] * 4, top(3)),
    "4d6k3": lambda: brute.pool([D6] * 4, top(3)),
    "2d20kh": lambda: brute.pool([D20] * 2, max),
    "2d20kl": lambda: brute.pool([D20] * 2, min),
    "3d6kl2": lambda: brute.pool([D6] * 3, bottom(2)),
    "4d6dl1": lambda: brute.pool([D6] * 4, top(3)),
    "4d6dh2": lambda: brute.pool([D6] * 4, bottom(2)),
    "3d4kh5": lambda: brute.pool([D4] * 3, sum),
    "3d4dl5": lambda: {0: Fraction(1)},
    "5d4kh2+1d6": lambda: brute.combine(
        brute.pool([D4] * 5, top(2)), brute.pool([D6], sum), int.__add__
    ),
    "d%": lambda: brute.pool([brute.die(100)], sum),
    "4dF": lambda: brute.pool([FUDGE] * 4, sum),
    "3dFkh2": lambda: brute.pool([FUDGE] * 3, top(2)),
    "5d10>=8": lambda: brute.pool([D10] * 5, lambda f: sum(v >= 8 for v in f)),
    "4d6>4": lambda: brute.pool([D6] * 4, lambda f: sum(v > 4 for v in f)),
    "4d6<=2": lambda: brute.pool([D6] * 4, lambda f: sum(v <= 2 for v in f)),
    "4d6<2": lambda: brute.pool([D6] * 4, lambda f: sum(v < 2 for v in f)),
    "4d6=3": lambda: brute.pool([D6] * 4, lambda f: sum(v == 3 for v in f)),
    "2d20kh1>=15": lambda: brute.pool([D20] * 2, lambda f: int(max(f) >= 15)),
    "4d6kl2=6": lambda: brute.pool([D6] * 4, lambda f: sum(v == 6 for v in sorted(f)[:2])),
    "4d6min2": lambda: brute.pool([D6] * 4, lambda f: sum(max(v, 2) for v in f)),
    "3d6max4": lambda: brute.pool([D6] * 3, lambda f: sum(min(v, 4) for v in f)),
    "4d6min2max5kh2": lambda: brute.pool(
        [D6] * 4, lambda f: sum(sorted(min(max(v, 2), 5) for v in f)[2:])
    ),
    "3d6r1": lambda: brute.pool([brute.reroll_until(D6, lambda v: v == 1)] * 3, sum),
    "3d6r<3": lambda: brute.pool([brute.reroll_until(D6, lambda v: v < 3)] * 3, sum),
    "3d6r<=2": lambda: brute.pool([brute.reroll_until(D6, lambda v: v <= 2)] * 3, sum),
    "3d6r1r6": lambda: brute.pool([brute.reroll_until(D6, lambda v: v in (1, 6))] * 3, sum),
    "3d6r>5": lambda: brute.pool([brute.reroll_until(D6, lambda v: v > 5)] * 3, sum),
    "3d6r>=5": lambda: brute.pool([brute.reroll_until(D6, lambda v: v >= 5)] * 3, sum),
    "3d6ro>4": lambda: brute.pool([brute.reroll_once(D6, lambda v: v > 4)] * 3, sum),
    "3d6ro1": lambda: brute.pool([brute.reroll_once(D6, lambda v: v == 1)] * 3, sum),
    "3d6ro<=2": lambda: brute.pool([brute.reroll_once(D6, lambda v: v <= 2)] * 3, sum),
    "4d6ro1kh3": lambda: brute.pool([brute.reroll_once(D6, lambda v: v == 1)] * 4, top(3)),
    # Reroll once on every face is legal (it stops after one reroll): the die stays a d6.
    "1d6ro<=6": lambda: brute.pool([brute.reroll_once(D6, lambda v: v <= 6)], sum),
    "2d6ro<7": lambda: brute.pool([brute.reroll_once(D6, lambda v: v < 7)] * 2, sum),
    "(1d3)d4": lambda: brute.mixture(
        [(Fraction(1, 3), brute.pool([D4] * n, sum)) for n in (1, 2, 3)]
    ),
    "2d(1d3*2)": lambda: brute.mixture(
        [(Fraction(1, 3), brute.pool([brute.die(2 * s)] * 2, sum)) for s in (1, 2, 3)]
    ),
    "(1d3-1)d6kh1": lambda: brute.mixture(
        [(Fraction(1, 3), brute.pool([D6] * n, lambda f: max(f, default=0))) for n in (0, 1, 2)]
    ),
    "2d6[fire]+1d4[cold]": lambda: brute.pool([D6, D6, D4], sum),
}


@pytest.mark.parametrize("expr", sorted(CASES))
def test_exact_odds_match_brute_force(expr: str) -> None:
    expected = {k: v for k, v in CASES[expr]().items() if v}
    got = dict(odds(expr))
    assert got == expected
    assert sum(got.values()) == 1


EXPLODING = [
    ("2d6!", D6, lambda v: v == 6, 2, lambda r: sum(r)),
    ("1d4!", D4, lambda v: v == 4, 1, lambda r: sum(r)),
    ("2d4!>=3", D4, lambda v: v >= 3, 2, lambda r: sum(r)),
    ("2d4!=1", D4, lambda v: v == 1, 2, lambda r: sum(r)),
    ("2d4!>3", D4, lambda v: v > 3, 2, lambda r: sum(r)),
    ("2d4!<2", D4, lambda v: v < 2, 2, lambda r: sum(r)),
    ("2d4!<=2", D4, lambda v: v <= 2, 2, lambda r: sum(r)),
    ("3d4!>=4", D4, lambda v: v >= 4, 3, lambda r: sum(r)),
    # Success counting counts every die an explosion added (Interpretation, see odds.py).
    ("2d6!>=5>=5", D6, lambda v: v >= 5, 2, lambda r: sum(v >= 5 for v in r)),
    ("2d4!min2", D4, lambda v: v == 4, 2, lambda r: sum(max(v, 2) for v in r)),
    # Clamps change the value shown, not the face that decides the explosion.
    ("2d4!max3", D4, lambda v: v == 4, 2, lambda r: sum(min(v, 3) for v in r)),
    # Rerolls apply to every roll of the die, explosions included.
    ("2d4!r1", brute.reroll_until(D4, lambda v: v == 1), lambda v: v == 4, 2, sum),
    ("2d4!ro<=2", brute.reroll_once(D4, lambda v: v <= 2), lambda v: v == 4, 2, sum),
]


@pytest.mark.parametrize(("expr", "faces", "boom", "n", "f"), EXPLODING)
@pytest.mark.parametrize("depth", [0, 1, 3])
def test_exploding_odds_match_enumerated_chains(expr, faces, boom, n, f, depth) -> None:
    chains = brute.exploding_chains(faces, boom, depth)
    expected = brute.chain_pool(chains, n, f)
    dist = odds(expr, explode_depth=depth)
    assert dict(dist) == {k: v for k, v in expected.items() if v}
    # Truncated mass: some die's chain was cut at the depth with an explosion still due.
    cut = sum(p for chain, p in chains if len(chain) == depth + 1 and boom(chain[-1]))
    assert dist.truncated == 1 - (1 - cut) ** n


def test_keep_odds_on_an_uneven_die_matches_brute_force() -> None:
    weights = {-2: 3, 0: 1, 1: 5, 7: 2}
    die = Distribution.from_weights(weights)
    faces = [(v, Fraction(w, 11)) for v, w in weights.items()]
    for n in range(1, 5):
        for k in range(0, n + 1):
            assert dict(keep_odds(die, n, k, True)) == brute.pool([faces] * n, top(k))
            assert dict(keep_odds(die, n, k, False)) == brute.pool([faces] * n, bottom(k))


def test_dice_count_and_size_sub_expressions_roll_once_per_term() -> None:
    # (1d2)d(1d2): count and size are independent single rolls.
    parts = []
    for n in (1, 2):
        for s in (1, 2):
            parts.append((Fraction(1, 4), brute.pool([brute.die(s)] * n, sum)))
    assert dict(odds("(1d2)d(1d2)")) == brute.mixture(parts)


# Keep/drop on exploding dice: every explosion adds a die to the pool, and keep/drop then
# looks at all of them (as the roller does).
KEEP_EXPLODING = [
    ("3d4!kh2", D4, lambda v: v == 4, 3, top(2)),
    ("2d4!kl1", D4, lambda v: v == 4, 2, bottom(1)),
    ("3d4!dl1", D4, lambda v: v == 4, 3, lambda r: sum(sorted(r)[1:])),
    ("2d4!dh1", D4, lambda v: v == 4, 2, lambda r: sum(sorted(r)[:-1])),
    ("3d4!>=3kh2", D4, lambda v: v >= 3, 3, top(2)),
    ("2d4!=1kh1", D4, lambda v: v == 1, 2, top(1)),  # exploding faces below the rest
    ("2d4!=1kl2", D4, lambda v: v == 1, 2, bottom(2)),
    ("3d4!kh2>=3", D4, lambda v: v == 4, 3, lambda r: sum(v >= 3 for v in sorted(r)[-2:])),
    ("2d4!min2kh1", D4, lambda v: v == 4, 2, lambda r: max(max(v, 2) for v in r)),
]


@pytest.mark.parametrize(("expr", "faces", "boom", "n", "f"), KEEP_EXPLODING)
@pytest.mark.parametrize("depth", [0, 1, 2])
def test_keep_on_exploding_dice_matches_enumerated_pools(expr, faces, boom, n, f, depth) -> None:
    chains = brute.exploding_chains(faces, boom, depth)
    expected = brute.chain_pool(chains, n, f)
    dist = odds(expr, explode_depth=depth)
    assert dict(dist) == {k: v for k, v in expected.items() if v}
    cut = sum(p for chain, p in chains if len(chain) == depth + 1 and boom(chain[-1]))
    assert dist.truncated == 1 - (1 - cut) ** n
