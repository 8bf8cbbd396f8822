"""The dice engine: one notation, parsed to a tree, rolled with every detail or solved for
exact odds.

>>> roll("4d6kh3", seed=1).total
13
>>> odds("2d20kh1").at_least(15)
Fraction(51, 100)

- [roll][companion.dice.roller.roll] returns a [Roll][companion.dice.roller.Roll] (every
  die with its state, label subtotals, text, HTML, JSON);
  [roll_many][companion.dice.fast.roll_many] returns many totals fast;
  [simulate][companion.dice.simulate.simulate] estimates.
- [odds][companion.dice.odds.odds] returns an exact
  [Distribution][companion.dice.distribution.Distribution] (``fractions.Fraction``
  throughout), which is also a general algebra of discrete distributions for tables and
  rulesets.
- The grammar is in [companion.dice.parse][]; every ceiling that keeps an expression from
  hanging is in [companion.dice.limits][]; errors are [companion.errors][] types.

Randomness: ``random.Random(seed)``, the same generator in CPython and Pyodide, so a seed
gives the same roll in the CLI, the apps and the docs. Seeded results are pinned by tests.
Every seed the project draws (`draw_seed`) is below `SEED_BOUND`, 2**53.

Readings of the notation where common rollers differ (each is tested):

- Interpretation: modifiers apply in one fixed order whatever order they are written in:
  rerolls, explosions, ``min``/``max`` clamps, keep/drop, then success counting.
- Interpretation: every explosion adds a die of its own to the pool. Keep/drop and success
  counting look at every die rolled, explosions included (``3d6!kh2`` keeps the two highest
  of all the dice; ``5d10!>=8`` counts each exploded die that reaches 8).
- Interpretation: rerolls apply to every roll of a die, explosions included; ``r`` rerolls
  until the face no longer matches (several ``r`` conditions combine with "or"); ``ro``
  rerolls once and keeps the new face, even if it matches again.
- Interpretation: explosions and rerolls test the face as rolled; ``min``/``max`` change the
  value the die shows, which keep/drop and success counting then use.
- Interpretation: a comparison written right after ``!`` belongs to the explosion
  (``4d6!>=5`` explodes on 5 and 6); to count successes too, write it after another
  modifier or a second comparison (``4d6!>=6>=5``).
- Interpretation: keeping more dice than were rolled keeps them all; dropping more drops
  them all (the total is then 0).
- Interpretation: ``/`` is floor division (rounds toward minus infinity: ``-7/2`` is -4).
- Interpretation: every cost is estimated before the work and refused past a budget
  (``companion.dice.limits``, listed on the notation page): exact odds hold at most
  1,000,000 totals and about a second of big-integer work (``1000d6``, ``100d100`` and a
  d1,000,000 are answered in milliseconds; ``100d1000000kh1`` is refused at once), and a
  roll records at most 100,000 dice.
  ``repr()`` of a roll or a distribution is short (``<Roll 4d6kh3 = 13, seed 1>``);
  ``str()`` of a parsed expression is its notation.
- Interpretation: exact odds follow exploding dice for ``explode_depth`` extra rolls (20 by
  default) and report the mass cut off as ``Distribution.truncated``; a single roll stops a
  die after 100 explosions and says so in ``Roll.notes``. Expressions that could never stop
  (``1d1!``, ``1d6r<=6``, ``1d2r1!``) are refused instead.
- Interpretation: an error's column is the number of characters before the problem
  (counting from 0, as the CLI contract's example does: in ``'2d6+(3))'`` the stray ``)``
  is at column 7).
"""

from __future__ import annotations

from companion.dice.distribution import Distribution
from companion.dice.fast import roll_many
from companion.dice.nodes import Node
from companion.dice.odds import odds
from companion.dice.parse import parse
from companion.dice.roller import SEED_BOUND, Die, Roll, draw_seed, roll
from companion.dice.simulate import Estimate, simulate

__all__ = [
    "SEED_BOUND",
    "Die",
    "Distribution",
    "Estimate",
    "Node",
    "Roll",
    "draw_seed",
    "odds",
    "parse",
    "roll",
    "roll_many",
    "simulate",
]
