"""Magic dice: reading rolls, exact odds against brute force, the seed's printed figures."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.errors import RuleError
from companion.rulesets.cairn_srd import spellcasting as sc


@pytest.mark.parametrize("n", range(1, 7))
def test_odds_equal_brute_force(n: int) -> None:
    total = 6**n
    mishap = doom = 0
    faces: Counter[int] = Counter()
    fatigue: Counter[int] = Counter()
    for roll in itertools.product(range(1, 7), repeat=n):
        reading = sc.read_magic_dice(roll)
        mishap += reading.mishap_face is not None
        doom += reading.dooms > 0
        if reading.mishap_face:
            faces[reading.mishap_face] += 1
        fatigue[reading.fatigue] += 1
    odds = sc.magic_dice_odds(n)
    assert odds.mishap == Fraction(mishap, total)
    assert odds.doom == Fraction(doom, total)
    assert {f: p for f, p in odds.mishap_faces.items() if p} == {
        f: Fraction(w, total) for f, w in faces.items()}
    assert odds.fatigue == {k: Fraction(fatigue[k], total) for k in range(n + 1)}
    assert odds.fatigue_mean == Fraction(n, 2)


def _face_counts(n: int, faces: int = 6) -> Iterator[tuple[int, ...]]:
    if faces == 1:
        yield (n,)
        return
    for c in range(n + 1):
        for rest in _face_counts(n - c, faces - 1):
            yield (c, *rest)


def _hand_enumeration(n: int, fatigue_from: int) -> sc.MagicOdds:
    """The oracle: every way the n dice can split between the six faces (multinomial)."""
    total = 6**n
    mishap = doom = 0
    faces = dict.fromkeys(range(1, 7), 0)
    for counts in _face_counts(n):
        ways = math.factorial(n)
        for c in counts:
            ways //= math.factorial(c)
        doubled = [face for face, k in enumerate(counts, 1) if k >= 2]
        if doubled:
            mishap += ways
            faces[max(doubled)] += ways
        if max(counts) >= 3:
            doom += ways
    p = Fraction(7 - fatigue_from, 6)
    fatigue = {k: math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}
    return sc.MagicOdds(n, Fraction(mishap, total), Fraction(doom, total),
                        {f: Fraction(w, total) for f, w in faces.items()}, fatigue)


@pytest.mark.parametrize("n", [*range(1, 16), 20, 30])
@pytest.mark.parametrize("fatigue_from", [3, 4])
def test_engine_pool_equals_hand_enumeration(n: int, fatigue_from: int) -> None:
    assert sc.magic_dice_odds(n, fatigue_from) == _hand_enumeration(n, fatigue_from)


def test_cast_is_bounded_before_rolling() -> None:
    with pytest.raises(RuleError, match="1-60 magic dice, got 1000000000"):
        sc.cast(1_000_000_000, seed=1)
    with pytest.raises(RuleError, match="1-60"):
        sc.magic_dice_odds(61)
    assert len(sc.cast(60, seed=1).dice) == 60


def test_known_exact_values() -> None:
    assert sc.magic_dice_odds(2).mishap == Fraction(1, 6)
    assert sc.magic_dice_odds(3).mishap == Fraction(4, 9)
    assert sc.magic_dice_odds(3).doom == Fraction(1, 36)
    assert sc.magic_dice_odds(7).mishap == 1  # pigeonhole: 7 dice, 6 faces
    assert sc.magic_dice_odds(13).doom == 1   # 13 dice: some face shows 3 times


def test_printed_table_kept_and_differences_flagged() -> None:
    rows = sc.magic_table()
    assert [r.dice for r in rows] == list(range(1, 14))
    assert (rows[4].printed_mishap, rows[4].printed_doom) == (96, 19)
    flagged_mishap = [r.dice for r in rows if r.mishap_differs]
    flagged_doom = [r.dice for r in rows if r.doom_differs]
    assert flagged_mishap == [5, 6]   # 90.74 % and 98.46 % exact
    assert flagged_doom == [5, 6, 7, 8, 9, 12]
    assert not rows[3].mishap_differs and not rows[3].doom_differs  # 72 % / 10 % agree


def test_reading_rules() -> None:
    r = sc.read_magic_dice((6, 6, 2, 2))
    assert (r.mishap_face, r.dooms, r.fatigue) == (6, 0, 2)  # highest double wins
    r = sc.read_magic_dice((3, 3, 3))
    assert (r.mishap_face, r.dooms, r.fatigue) == (3, 1, 0)  # Interpretation: triple is a double
    r = sc.read_magic_dice((5, 5, 5, 1, 1, 1))
    assert (r.mishap_face, r.dooms) == (5, 2)  # every triple counts
    r = sc.read_magic_dice((4, 4, 4, 4, 4, 4))
    assert r.dooms == 2
    assert sc.read_magic_dice((1, 2, 3), fatigue_from=3).fatigue == 1
    assert "CTRL" in (sc.read_magic_dice((2, 2)).mishap or "")


def test_available_dice_cap() -> None:
    assert sc.available_magic_dice(10) == 4
    assert sc.available_magic_dice(2) == 2
    assert sc.available_magic_dice(0) == 0
    assert sc.available_magic_dice(10, extra=1) == 5
    assert sc.available_magic_dice(3, extra=2) == 3


def test_cast_is_seeded_and_checked() -> None:
    from companion import dice

    assert sc.cast(3, seed=11) == sc.cast(3, seed=11)
    casts = set()
    for seed in range(20):  # the seed is the engine's: the dice of 3d6 with that seed
        reading = sc.cast(3, seed=seed)
        assert reading.dice == tuple(d.value for d in dice.roll("3d6", seed=seed).dice), seed
        casts.add(reading.dice)
    assert len(casts) > 2  # other seeds, other dice
    with pytest.raises(RuleError, match="Spell Casting Procedure"):
        sc.cast(0)
    with pytest.raises(RuleError):
        sc.magic_dice_odds(0)


@given(st.lists(st.integers(1, 6), min_size=1, max_size=12))
def test_reading_properties(dice: list[int]) -> None:
    r = sc.read_magic_dice(dice)
    assert r.fatigue == sum(1 for d in dice if d >= 4)
    counts = Counter(dice)
    assert (r.mishap_face is None) == (len(counts) == len(dice))
    assert (r.dooms > 0) == (max(counts.values()) >= 3)
    if r.mishap_face is not None:
        assert counts[r.mishap_face] >= 2
        assert all(f <= r.mishap_face for f, c in counts.items() if c >= 2)
