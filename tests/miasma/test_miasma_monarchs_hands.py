"""Dice Monarchs hands: engine counts against an independent brute force, ranking, showdown."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.dice import odds
from companion.errors import TableError
from companion.rulesets.miasma.dice_monarchs import hands as H

SIDES = (4, 6, 8, 10, 12)


def brute_force() -> tuple[Counter[tuple[int, ...]], Counter[tuple[int, ...] | None]]:
    """Walk all 23,040 rolls; a roll holds a pattern if some of its dice, sorted, equal it.

    Written without the engine: sub-multisets of the roll by combinations, patterns read
    straight from the TOML data through ``all_hands()`` only for their values and order.
    """
    patterns = [tuple(sorted(h.pattern)) for h in H.all_hands()]
    holding: Counter[tuple[int, ...]] = Counter()
    best: Counter[tuple[int, ...] | None] = Counter()
    for roll in itertools.product(*(range(1, s + 1) for s in SIDES)):
        subs = {tuple(sorted(c)) for k in (3, 4, 5) for c in itertools.combinations(roll, k)}
        first = None
        for pattern in patterns:
            if pattern in subs:
                holding[pattern] += 1
                first = first or pattern
        best[first] += 1
    return holding, best


@pytest.fixture(scope="module")
def enumeration() -> tuple[Counter[tuple[int, ...]], Counter[tuple[int, ...] | None]]:
    return brute_force()


def test_there_are_54_hands_in_seed_order() -> None:
    hands = H.all_hands()
    assert len(hands) == 54
    assert [h.rank for h in hands] == list(range(54))
    assert hands[0].label == "Perfect Even River (4,6,8,10,12)"
    assert hands[-1].label == "3 Flop (1,2,3)"
    assert len({h.label for h in hands}) == 54
    assert H.OUTCOMES == 23_040 == 4 * 6 * 8 * 10 * 12


def test_engine_counts_match_brute_force(enumeration) -> None:
    holding, _ = enumeration
    counted = H.hand_counts()
    assert len(counted) == 54
    for hand, count in counted:
        assert count == holding[tuple(sorted(hand.pattern))], hand.label


def placement_holders(pattern: tuple[int, ...]) -> frozenset[tuple[int, ...]]:
    """The second oracle (the enumeration the counts used before the engine did them):
    put the pattern's values on every choice of distinct dice, let the other dice run free."""
    found: set[tuple[int, ...]] = set()
    for dice in itertools.permutations(range(5), len(pattern)):
        if any(v > SIDES[d] for v, d in zip(pattern, dice, strict=True)):
            continue
        fixed = dict(zip(dice, pattern, strict=True))
        ranges = [(fixed[d],) if d in fixed else range(1, SIDES[d] + 1) for d in range(5)]
        found.update(itertools.product(*ranges))
    return frozenset(found)


def test_engine_counts_match_the_placement_enumeration() -> None:
    for hand, count in H.hand_counts():
        assert count == len(placement_holders(hand.pattern)), hand.label


def test_counts_come_from_the_engines_pool_distribution() -> None:
    pool = H.pool_distribution()
    # The pool's outcomes are what the five dice show, in any order: its sum of faces is
    # exactly the engine's odds for the sum of one d4, d6, d8, d10 and d12.
    digits = [[(code // 6**k) % 6 for k in range(12)] for code, _ in pool]
    assert all(sum(d) == 5 for d in digits)
    faces = pool.map(lambda code: sum((k + 1) * ((code // 6**k) % 6) for k in range(12)))
    assert faces == odds("1d4+1d6+1d8+1d10+1d12")
    assert all((p * H.OUTCOMES).denominator == 1 for _, p in pool)
    assert pool.p(H.face_counts_code((1, 1, 1, 1, 1))) == Fraction(1, H.OUTCOMES)
    # 1-2-3-4-5 in any order, but the d4 cannot show the 5: 4 · 4! = 96 rolls.
    assert pool.p(H.face_counts_code((1, 2, 3, 4, 5))) == Fraction(96, H.OUTCOMES)


def test_rank_table_matches_brute_force_on_every_roll() -> None:
    table = H.rank_table()
    for i, roll in enumerate(H.all_rolls()):
        if i % 7 == 0:  # a spread third of the 23,040 keeps this under a few seconds
            assert table[i] == slow_best_rank(roll), roll


def test_engine_counts_reproduce_every_printed_count() -> None:
    differences = [(h.label, h.printed_count, n) for h, n in H.hand_counts()
                   if n != h.printed_count]
    assert differences == []
    assert all(H.percent_matches(h, n) for h, n in H.hand_counts())


def test_best_hand_counts_match_brute_force(enumeration) -> None:
    _, best = enumeration
    result = H.best_hand_counts()
    assert sum(n for _, n in result) == 23_040
    for hand, count in result:
        key = None if hand is None else tuple(sorted(hand.pattern))
        assert count == best[key]
    # A roll holding a higher hand is not counted lower: Perfect Even Turn loses one roll.
    assert dict((h.label, n) for h, n in result if h)["Perfect Even Turn (6,8,10,12)"] == 3


def test_even_hands_rank_directly_above_their_odd_twins() -> None:
    hands = H.all_hands()
    for upper, lower in itertools.pairwise(hands):
        if upper.parity == "even" and lower.parity == "odd":
            assert upper.name.replace("Even", "Odd") == lower.name
            assert upper.tier == lower.tier
    evens = [h for h in hands if h.parity == "even"]
    assert len(evens) == 9
    for even in evens:
        assert hands[even.rank + 1].name == even.name.replace("Even", "Odd")


def test_percent_check_flags_a_wrong_figure() -> None:
    hand = H.all_hands()[0]
    assert H.percent_matches(hand, 1)
    assert not H.percent_matches(hand, 5)
    assert H.printed_percent_of(hand) == Fraction(4, 1000)


def slow_best_rank(dice: tuple[int, ...]) -> int:
    subs = {tuple(sorted(c)) for k in (3, 4, 5) for c in itertools.combinations(dice, k)}
    for hand in H.all_hands():
        if tuple(sorted(hand.pattern)) in subs:
            return hand.rank
    return len(H.all_hands())


rolls = st.tuples(*(st.integers(1, s) for s in SIDES))


@settings(max_examples=150, deadline=None)
@given(hole=rolls, community=rolls)
def test_showdown_hand_is_the_best_of_the_32_choices(hole, community) -> None:
    shown = H.best_showdown_hand(hole, community)
    brute = min(
        slow_best_rank(tuple(
            c if pick else h for h, c, pick in zip(hole, community, choice, strict=True)))
        for choice in itertools.product((0, 1), repeat=5)
    )
    assert shown.rank == brute
    # The dice it reports really are one per size, from where it says.
    for h, c, used, src in zip(hole, community, shown.dice,
                               shown.sources, strict=True):
        assert used == (h if src == "hole" else c)
    assert slow_best_rank(shown.dice) == brute


@settings(max_examples=100, deadline=None)
@given(roll=rolls)
def test_best_hand_of_a_roll(roll) -> None:
    best = H.best_hand(roll)
    rank = slow_best_rank(roll)
    assert (best.rank if best else 54) == rank
    if best:
        assert H.holds(roll, best)


def test_hole_d4_cannot_join_the_community_d4() -> None:
    # Four 4s are on the table (hole d4, community d4, d6, d8) but two are d4s: one per hand.
    shown = H.best_showdown_hand((4, 5, 5, 9, 11), (4, 4, 4, 9, 11))
    assert shown.hand is not None and shown.hand.label == "3 Buried (4,4,4)"
    assert shown.dice[:3] == (4, 4, 4)


def test_ties_compare_hole_numbers_from_the_highest_down() -> None:
    community = (1, 1, 1, 1, 1)
    a = H.best_showdown_hand((1, 1, 8, 3, 2), community)
    b = H.best_showdown_hand((1, 1, 7, 7, 2), community)
    assert a.hand == b.hand and a.hand is not None and a.hand.label == "5 of a Kind (1,1,1,1,1)"
    assert a.key() > b.key()  # 8 beats 7
    c = H.best_showdown_hand((1, 1, 8, 3, 3), community)
    assert c.key() > a.key()  # 8-3-3 beats 8-3-2


@pytest.mark.parametrize(
    ("roll", "message"),
    [((1, 2, 3, 4), "expected 5 values"), ((5, 1, 1, 1, 1), "a d4 cannot show 5"),
     ((1, 1, 1, 1, 13), "a d12 cannot show 13"), ((0, 1, 1, 1, 1), "a d4 cannot show 0")],
)
def test_bad_rolls_are_refused(roll, message) -> None:
    with pytest.raises(TableError, match=message):
        H.best_hand(roll)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("dice = [4, 6, 8]\n[[tiers]]\nprinted_percent = \"1\"\nprinted_count = 1\n"
         "hands = [{ name = \"X\", pattern = [1, 2, 3] }]\n", "'dice' must be"),
        ("dice = [4, 6, 8, 10, 12]\n", "^hands.toml: missing tiers$"),
        ("dice = [4, 6, 8, 10, 12]\ntiers = []\n", "^hands.toml: tiers must not be empty$"),
        ("dice = [4, 6, 8, 10, 12]\n[[tiers]]\nprinted_percent = \"1\"\nprinted_count = 1\n"
         "hands = [{ name = \"X\", pattern = [1, 2, 3.5] }]\n",
         r"tiers\[0\]\.hands\[0\]\.pattern\[2\] must be a whole number, not a number"),
        ("dice = [4, 6, 8, 10, 12]\n[[tiers]]\nprinted_percent = \"1\"\nprinted_count = 1\n"
         "hands = [{ name = \"X\", pattern = [13, 1, 1] }]\n", "no roll can show"),
        ("dice = [4, 6, 8, 10, 12]\n[[tiers]]\nprinted_percent = \"1\"\nprinted_count = 1\n"
         "hands = [{ name = \"X\", pattern = [1, 2] }]\n", "3 to 5 faces"),
        ("dice = [4, 6, 8, 10, 12]\n[[tiers]]\nprinted_percent = \"x\"\nprinted_count = 1\n"
         "hands = [{ name = \"X\", pattern = [1, 2, 3] }]\n", "printed_percent"),
        ("dice = [4, 6, 8, 10, 12]\n[[tiers]]\nprinted_percent = \"1\"\nprinted_count = 1\n"
         "hands = [{ name = \"X\", pattern = [1, 2, 3] }, { name = \"Y\", pattern = [3, 2, 1] }]\n",
         "listed twice"),
        ("dice = [", "^hands.toml: not valid TOML"),
    ],
)
def test_malformed_hand_data_is_refused(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "hands.toml"
    path.write_text(text)
    with pytest.raises(TableError, match=message):
        H._load(path)


def test_best_hand_so_far_uses_only_revealed_community_dice() -> None:
    hole = (1, 5, 3, 9, 12)
    assert H.best_hand_so_far(hole, ()).hand.label == "Low Odd Flop (1,3,5)"
    flop = H.best_hand_so_far(hole, (4, 6, 8))
    assert flop.hand.label == "Even Flop (4,6,8)" and flop.sources[3:] == ("hole", "hole")
    turn = H.best_hand_so_far(hole, (4, 6, 8, 10))
    assert turn.hand.label == "Perfect Even River (4,6,8,10,12)" and turn.sources[4] == "hole"
