"""Dice notation: the die-size scale, stepping a die up or down, percentile and odd dice.

``NdS`` means N dice of S sides; a trailing ``+M`` or ``-M`` is added to their total.

**Die size steps.** A rule may raise or lower a die's size. One step changes the average by
about 1, and on a normal set of dice the sizes run::

    1d2  1d4  1d6  1d8  1d10  1d12  2d6  3d4

so raising a 1d12 gives 2d6 (not a hard-to-find d14) and lowering a 1d6 gives 1d4. The
scale is data (``data/rules.toml``);
[step_die][companion.rulesets.monsters_and_magic.dice_notation.step_die] walks it.

Interpretation: the seed prints the scale run together as ``1d21d41d6...``; it is read as
the eight sizes above. A step past either end (below 1d2, above 3d4) is refused with a
``RuleError`` rather than guessed, and a die that is not on the scale cannot be stepped.
A flat modifier (``1d8+2``) is kept unchanged while the dice step.

**Percentile dice.** ``d100`` / ``d%`` is rolled as two d10s, one the tens and one the
ones; a double zero reads 100
([percentile_distribution][companion.rulesets.monsters_and_magic.dice_notation.percentile_distribution],
[roll_percentile][companion.rulesets.monsters_and_magic.dice_notation.roll_percentile]).
A *percentage chance* of N% succeeds when the d% shows N or less
([percent_chance][companion.rulesets.monsters_and_magic.dice_notation.percent_chance]).

**Odd dice.** A die with an odd number of faces (a d3) is rolled as the even die with
twice the faces (a d6), halved and rounded up
([odd_die_distribution][companion.rulesets.monsters_and_magic.dice_notation.odd_die_distribution]).

>>> step_die("1d12", 1)
'2d6'
>>> step_die("1d6", -1)
'1d4'
>>> step_die("1d8+2", 2)
'1d12+2'
>>> odd_die_distribution(3) == Distribution.die(3)
True
"""

from __future__ import annotations

import random
import re
from fractions import Fraction

from companion.dice import Distribution, odds, roll
from companion.errors import RuleError
from companion.rulesets.monsters_and_magic._data import section

__all__ = [
    "DIE_SCALE",
    "odd_die_distribution",
    "percent_chance",
    "percentile_distribution",
    "roll_odd_die",
    "roll_percentile",
    "step_die",
    "step_distribution",
]

#: The die sizes in order, smallest first (from the data file).
DIE_SCALE: tuple[str, ...] = tuple(section("die_scale")["scale"])

_TERM = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$")

#: Most steps one call may take (a guard against a typo, not a rule).
MAX_STEPS = 100


def _split(expr: str) -> tuple[str, int]:
    match = _TERM.match(expr)
    if not match:
        raise RuleError(f"Dice Notation: {expr!r} is not a die like '1d8' or '1d8+2'")
    count, sides, sign, flat = match.groups()
    die = f"{int(count or 1)}d{int(sides)}"
    modifier = int(flat or 0) * (-1 if sign == "-" else 1)
    return die, modifier


def step_die(expr: str, steps: int) -> str:
    """``expr`` moved ``steps`` sizes up the scale (negative: down); the modifier is kept."""
    if not isinstance(steps, int) or abs(steps) > MAX_STEPS:
        raise RuleError(f"Dice Notation: steps must be a whole number within ±{MAX_STEPS}")
    die, modifier = _split(expr)
    if die not in DIE_SCALE:
        raise RuleError(f"Dice Notation: {die} is not on the die size scale "
                        f"({' '.join(DIE_SCALE)})")
    index = DIE_SCALE.index(die) + steps
    if index < 0:
        raise RuleError(f"Dice Notation: {die} cannot step down {-steps}; "
                        f"{DIE_SCALE[0]} is the smallest size")
    if index >= len(DIE_SCALE):
        raise RuleError(f"Dice Notation: {die} cannot step up {steps}; "
                        f"{DIE_SCALE[-1]} is the largest size")
    stepped = DIE_SCALE[index]
    if modifier:
        stepped += f"{'+' if modifier > 0 else '-'}{abs(modifier)}"
    return stepped


def step_distribution(expr: str, steps: int) -> Distribution:
    """Exact odds of the stepped die (see
    [step_die][companion.rulesets.monsters_and_magic.dice_notation.step_die])."""
    return odds(step_die(expr, steps))


def percentile_distribution() -> Distribution:
    """Exact odds of d% read from two d10s: tens digit, ones digit, ``00`` = 100.

    Each d10 shows 1-10 with 10 read as the digit 0.
    """
    digit = Distribution.die(10).map(lambda face: face % 10)
    return digit.combine(digit, _percentile_value)


def _percentile_value(tens: int, ones: int) -> int:
    value = tens * 10 + ones
    return value if value else 100


def roll_percentile(*, seed: int | None = None, rng: random.Random | None = None
                    ) -> tuple[int, int, int]:
    """Roll d% as two d10s: ``(tens digit, ones digit, value)`` with ``00`` read as 100.

    The dice engine rolls ``2d10`` (the first die is the tens), so the same seed gives
    the same dice here, on the command line (``roll 2d10 --seed``) and in the apps.
    """
    first, second = (die.value for die in roll("2d10", seed=seed, rng=rng).dice)
    tens, ones = first % 10, second % 10
    return tens, ones, _percentile_value(tens, ones)


def percent_chance(percent: int) -> Fraction:
    """Exact chance that a d% roll is at most ``percent`` (a rule's "N% chance").

    Interpretation: the seed's sentence compares the roll with "what you rolled"; it is
    read as: succeed when the d% result is at most the stated chance.
    """
    if not 0 <= percent <= 100:
        raise RuleError(f"Percentage Chances: a chance must be 0-100%, got {percent}")
    return percentile_distribution().at_most(percent)


def _odd_sides(sides: int) -> int:
    if sides < 1 or sides % 2 == 0 or sides > 999:
        raise RuleError(f"Odd Dice Faces: d{sides} is not an odd die (1-999 faces)")
    return sides * 2


def odd_die_distribution(sides: int) -> Distribution:
    """Exact odds of a d``sides`` (odd) rolled as d``2*sides``, halved, rounded up."""
    return Distribution.die(_odd_sides(sides)).map(lambda face: (face + 1) // 2)


def roll_odd_die(sides: int, *, seed: int | None = None, rng: random.Random | None = None
                 ) -> tuple[int, int]:
    """Roll an odd die the seed's way: ``(face of the even die, halved and rounded up)``.

    The even die is rolled by the dice engine (``1d6`` for a d3).
    """
    face = roll(f"1d{_odd_sides(sides)}", seed=seed, rng=rng).total
    return face, (face + 1) // 2
