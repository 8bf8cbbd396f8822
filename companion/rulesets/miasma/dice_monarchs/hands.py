"""Dice Monarchs hands: the ranking, what each hand needs, and how often it turns up.

A *roll* here is one value on each of the five dice d4, d6, d8, d10 and d12, written in
that order. A hand is a *pattern* of three, four or five face values; a roll holds the
hand when that many different dice of the roll show exactly those values (which die shows
which value does not matter, and the other dice may show anything). The seed lists 54
patterns from highest to lowest; several share a name ("5 of a Kind" has four patterns,
one per face) and each pattern is its own hand, ranked by its place in the list.

The seed prints, for each group of hands, how many of the 23,040 rolls of the five dice
(4·6·8·10·12) hold it. `hand_counts` computes those counts exactly with the dice
engine: the five dice are one pool, and the engine's
[`Distribution`][companion.dice.distribution.Distribution] of what the pool shows (which
faces, how many of each, in any order) is evaluated against each pattern. The counts are
kept beside the printed figures (`Hand.printed_count`) so any difference shows.

Interpretation: the printed counts are reproduced when a roll is counted for *every* hand
it holds (a roll showing 4, 6, 8, 10, 12 counts for Perfect Even River and also for
Perfect Even Turn, Even Turn, ...). Counting each roll only under its best hand gives
smaller numbers; `best_hand_counts` gives those, and the reference page shows both.

Interpretation: the list order is the ranking, one rank per pattern. The rule "even hands
are considered higher value than odd hands" is what that order already does: every Even
hand is listed directly above its Odd twin of the same odds. A roll that holds no listed
pattern has no hand and ranks below every hand.
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path

from companion.dice.distribution import Distribution
from companion.errors import TableError
from companion.tables.fixed import Schema, load_fixed

#: Public helpers no app or command calls directly, and why (see tests/test_every_face.py).
LIBRARY_ONLY: dict[str, str] = {
    "roll_index": "indexes the 23,040 rolls for the counting code and its tests",
    "rank_of_roll": "a step of the exact hand counts the table and apps show",
    "best_hand": "the best hand of a bare roll; the apps and CLI use best_showdown_hand",
    "printed_percent_of": "compares the seed's printed percentages (reference page, tests)",
    "percent_matches": "compares the seed's printed percentages (reference page, tests)",
}

__all__ = [
    "DICE",
    "OUTCOMES",
    "STRIDES",
    "Hand",
    "ShowdownHand",
    "all_hands",
    "best_hand",
    "best_hand_counts",
    "best_hand_so_far",
    "best_showdown_hand",
    "dice_text",
    "face_counts_code",
    "hand_counts",
    "holds",
    "percent_matches",
    "pool_distribution",
    "printed_percent_of",
    "rank_of_roll",
    "rank_table",
    "roll_index",
]

DATA_FILE = Path(__file__).with_name("hands.toml")
_SCHEMA: dict[str, Schema] = {
    "dice": [int],
    "tiers": [{"printed_count": int, "printed_percent": str,
               "hands": [{"name": str, "pattern": [int]}]}],
}

DICE: tuple[int, ...] = (4, 6, 8, 10, 12)
"""Sides of the five dice every hand is made of, in the order rolls are written."""

OUTCOMES = 4 * 6 * 8 * 10 * 12
"""Rolls of one d4, d6, d8, d10 and d12: 23,040."""

STRIDES: tuple[int, ...] = tuple(
    functools.reduce(lambda a, b: a * b, DICE[i + 1 :], 1) for i in range(len(DICE))
)
"""Index of a roll in a flat table of the 23,040: a mixed-radix number, the d12 lowest."""


@dataclass(frozen=True)
class Hand:
    """One row of the seed's hand table.

    ``rank`` is 0 for the highest hand; ``tier`` numbers the seed's probability headings
    (0 = "1 in 23,040"). ``printed_count`` and ``printed_percent`` are the seed's figures
    for the tier, kept as text exactly as printed.
    """

    rank: int
    name: str
    pattern: tuple[int, ...]
    tier: int
    printed_count: int
    printed_percent: str

    @property
    def label(self) -> str:
        """Name and pattern, e.g. ``"5 of a Kind (4,4,4,4,4)"``: unique among the hands."""
        return f"{self.name} ({','.join(map(str, self.pattern))})"

    @property
    def parity(self) -> str | None:
        """``"even"``/``"odd"`` for the seed's Even and Odd hands, else ``None``."""
        words = self.name.split()
        return "even" if "Even" in words else "odd" if "Odd" in words else None


def _load(path: Path) -> tuple[Hand, ...]:
    data = load_fixed(path, _SCHEMA)  # the keys and their types; the rules' checks follow
    where = path.name
    if data["dice"] != list(DICE):
        raise TableError(f"{where}: 'dice' must be {list(DICE)}")
    out: list[Hand] = []
    seen: set[tuple[int, ...]] = set()
    for t, tier in enumerate(data["tiers"]):
        here = f"{where} tiers[{t}]"
        count, percent = tier["printed_count"], tier["printed_percent"]
        if count < 0:
            raise TableError(f"{here}: 'printed_count' must be a whole number")
        if not _is_decimal(percent):
            raise TableError(f"{here}: 'printed_percent' must be a decimal number as text")
        for r, row in enumerate(tier["hands"]):
            name, pattern = row["name"], row["pattern"]
            if not name.strip():
                raise TableError(f"{here}.hands[{r}]: 'name' must be text")
            if not 3 <= len(pattern) <= len(DICE):
                raise TableError(f"{here}.hands[{r}] ({name}): 'pattern' must list 3 to 5 faces")
            key = tuple(sorted(pattern))
            if key in seen:
                raise TableError(f"{here}.hands[{r}] ({name}): pattern {pattern} is listed twice")
            seen.add(key)
            hand = Hand(len(out), name.strip(), tuple(pattern), t, count, percent)
            if not _placements(hand.pattern):
                raise TableError(f"{here}.hands[{r}] ({name}): no roll can show {pattern}")
            out.append(hand)
    return tuple(out)


def _is_decimal(text: str) -> bool:
    try:
        Decimal(text)
    except ArithmeticError:
        return False
    return text.replace(".", "", 1).isdigit()


@functools.cache
def all_hands() -> tuple[Hand, ...]:
    """Every hand, highest first (loaded once from ``hands.toml``)."""
    return _load(DATA_FILE)


def roll_index(roll: Sequence[int]) -> int:
    """Position of a roll (d4, d6, d8, d10, d12 values) among the 23,040, from 0."""
    check_roll(roll, "roll")
    return sum((v - 1) * s for v, s in zip(roll, STRIDES, strict=True))


def check_roll(roll: Sequence[int], what: str) -> None:
    """Raise `TableError` unless ``roll`` is one legal value per die d4..d12."""
    if len(roll) != len(DICE):
        raise TableError(f"{what}: expected 5 values (d4, d6, d8, d10, d12), got {len(roll)}")
    for value, sides in zip(roll, DICE, strict=True):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
            raise TableError(f"{what}: a d{sides} cannot show {value}")


def _placements(pattern: Sequence[int]) -> list[tuple[int, ...]]:
    """Ways to put the pattern's values on different dice (die positions per value)."""
    return [
        dice
        for dice in itertools.permutations(range(len(DICE)), len(pattern))
        if all(v <= DICE[d] for v, d in zip(pattern, dice, strict=True))
    ]


# -- the pool: what the five dice show, as one Distribution ---------------------------------
#
# A roll holds a pattern exactly when, for every face value, at least as many dice show it
# as the pattern asks for (each die shows one value, so matching values to dice is free).
# Which die shows which value does not matter, so the pool is summarised as the *count of
# each face*, packed into one integer: digit ``v - 1`` in base ``_BASE`` counts the dice
# showing ``v``. Adding a die adds ``_BASE ** (v - 1)``; the engine combines the five dice.

_BASE = len(DICE) + 1  # a digit counts 0..5 dice
_TOP = max(DICE)


def face_counts_code(values: Iterable[int]) -> int:
    """The pool code of some faces: how many of them show each value, packed in one integer."""
    return sum(_face_code(v) for v in values)


def _face_code(value: int) -> int:
    return int(_BASE ** (value - 1))


def _counts(code: int) -> tuple[int, ...]:
    """The pool code unpacked: how many dice show 1, 2, ..., 12."""
    out = []
    for _ in range(_TOP):
        code, digit = divmod(code, _BASE)
        out.append(digit)
    return tuple(out)


@functools.cache
def pool_distribution() -> Distribution:
    """The engine's distribution of the pool code of one d4, d6, d8, d10 and d12.

    Every probability is a whole number of 23,040ths: the chance of a code times
    `OUTCOMES` is the number of rolls showing those faces.
    """
    dist = Distribution.constant(0)
    for sides in DICE:
        dist = dist.combine(Distribution.die(sides).map(_face_code), operator.add)
    return dist


def _needs(pattern: Sequence[int]) -> tuple[int, ...]:
    return _counts(face_counts_code(pattern))


def _contains(have: tuple[int, ...], need: tuple[int, ...]) -> bool:
    return all(h >= n for h, n in zip(have, need, strict=True))


def _code_holds(need: tuple[int, ...], code: int) -> bool:
    return _contains(_counts(code), need)


@functools.cache
def _rank_of_code(code: int) -> int:
    """Rank of the best hand in a pool (``len(all_hands())`` when it holds none)."""
    have = _counts(code)
    for hand in all_hands():
        if _contains(have, _needs(hand.pattern)):
            return hand.rank
    return len(all_hands())


def _rolls_with(probability: Fraction) -> int:
    count = probability * OUTCOMES
    assert count.denominator == 1  # every pool code is a whole number of rolls
    return int(count)


def hand_counts() -> list[tuple[Hand, int]]:
    """Every hand with the number of the 23,040 rolls that hold it (the seed's reading)."""
    pool = pool_distribution()
    out = []
    for hand in all_hands():
        held = pool.probability(functools.partial(_code_holds, _needs(hand.pattern)))
        out.append((hand, _rolls_with(held)))
    return out


@functools.cache
def rank_table() -> tuple[int, ...]:
    """Rank of the best hand held by each of the 23,040 rolls (``len(all_hands())`` = none)."""
    return tuple(_rank_of_code(face_counts_code(roll)) for roll in all_rolls())


def best_hand_counts() -> list[tuple[Hand | None, int]]:
    """How many rolls have each hand as their *best* hand; ``None`` = rolls with no hand."""
    ranks = pool_distribution().map(_rank_of_code)
    none = len(all_hands())
    return [*((h, _rolls_with(ranks.p(h.rank))) for h in all_hands()),
            (None, _rolls_with(ranks.p(none)))]


def holds(roll: Sequence[int], hand: Hand) -> bool:
    """Whether the roll holds the hand's pattern."""
    check_roll(roll, "roll")
    return _contains(_counts(face_counts_code(roll)), _needs(hand.pattern))


def rank_of_roll(roll: Sequence[int]) -> int:
    """Rank of the best hand in the roll (0 = highest; ``len(all_hands())`` = no hand)."""
    return rank_table()[roll_index(roll)]


def best_hand(roll: Sequence[int]) -> Hand | None:
    """The highest hand the roll holds, or ``None``."""
    rank = rank_of_roll(roll)
    return all_hands()[rank] if rank < len(all_hands()) else None


def printed_percent_of(hand: Hand) -> Fraction:
    """The seed's printed percentage for the hand's tier, as an exact number."""
    return Fraction(hand.printed_percent)


def percent_matches(hand: Hand, count: int) -> bool:
    """Whether ``count / 23,040`` rounds (half up) to the seed's printed percentage."""
    digits = Decimal(hand.printed_percent).as_tuple().exponent
    exact = Decimal(count * 100) / Decimal(OUTCOMES)
    rounded = exact.quantize(Decimal(1).scaleb(int(digits)), rounding=ROUND_HALF_UP)
    return rounded == Decimal(hand.printed_percent)


@dataclass(frozen=True)
class ShowdownHand:
    """The hand a player makes at the showdown.

    ``dice`` is the value used for each die size (d4..d12) and ``sources`` says where it
    came from, ``"hole"`` or ``"community"``; ``hole`` keeps the player's own dice, which
    settle ties.
    """

    hand: Hand | None
    dice: tuple[int, ...]
    sources: tuple[str, ...]
    hole: tuple[int, ...]

    @property
    def rank(self) -> int:
        return self.hand.rank if self.hand is not None else len(all_hands())

    @property
    def tiebreak(self) -> tuple[int, ...]:
        """The hole dice, highest first: compared in turn when hands are equal."""
        return tuple(sorted(self.hole, reverse=True))

    def key(self) -> tuple[int, tuple[int, ...]]:
        """Sort key where a larger key is the stronger hand."""
        return (-self.rank, self.tiebreak)

    def describe(self) -> str:
        """The hand and the dice making it, e.g. ``"Low Flop (5,6,7), using hole d4 1, d6 5
        and community d8 7, d10 6, d12 2"``."""
        name = self.hand.label if self.hand is not None else "no hand"
        parts = []
        for source in ("hole", "community"):
            used = [(s, v) for s, v, src in zip(DICE, self.dice, self.sources, strict=True)
                    if src == source]
            if used:
                parts.append(f"{source} {dice_text([s for s, _ in used], [v for _, v in used])}")
        return f"{name}, using {' and '.join(parts)}"


def dice_text(sides: Sequence[int], values: Sequence[int]) -> str:
    """Dice as players say them: ``"d4 2, d6 2, d8 1"`` (each die's size, then its face)."""
    return ", ".join(f"d{s} {v}" for s, v in zip(sides, values, strict=True))


def best_showdown_hand(hole: Sequence[int], community: Sequence[int]) -> ShowdownHand:
    """The best hand from a player's hole dice and the five community dice.

    For each die size the player uses either their own die or the community die of that
    size (never both, never two of one size): 32 choices, the highest-ranked one wins.
    On equal ranks the choice using more hole dice is shown (it reads more naturally).
    """
    check_roll(hole, "hole dice")
    check_roll(community, "community dice")
    table = rank_table()
    best: tuple[int, int, tuple[int, ...]] | None = None
    for choice in itertools.product((0, 1), repeat=5):  # 1 = community die
        dice = tuple(c if pick else h for h, c, pick in zip(hole, community, choice, strict=True))
        rank = table[sum((v - 1) * s for v, s in zip(dice, STRIDES, strict=True))]
        candidate = (rank, sum(choice), choice)
        if best is None or candidate < best:
            best = candidate
    assert best is not None
    rank, _, choice = best
    dice = tuple(c if pick else h for h, c, pick in zip(hole, community, choice, strict=True))
    sources = tuple("community" if pick else "hole" for pick in choice)
    hand = all_hands()[rank] if rank < len(all_hands()) else None
    return ShowdownHand(hand, dice, sources, tuple(hole))


def best_hand_so_far(hole: Sequence[int], community: Sequence[int]) -> ShowdownHand:
    """The best hand the hole dice make with the community dice revealed so far.

    Sizes whose community die is still hidden can only use the hole die.
    """
    check_roll(hole, "hole dice")
    if len(community) > len(DICE):
        raise TableError(f"community dice: at most 5, got {len(community)}")
    filled = tuple(community) + tuple(hole[len(community) :])
    return best_showdown_hand(hole, filled)


def all_rolls() -> Iterable[tuple[int, ...]]:
    """Every roll of the five dice, in index order."""
    return itertools.product(*(range(1, s + 1) for s in DICE))
