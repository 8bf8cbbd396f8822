"""The dice engine: one notation, parsed to a tree, rolled with every detail or solved for
exact odds.

>>> roll("4d6kh3", seed=1).total
10
>>> odds("2d20kh1").at_least(15)
Fraction(51, 100)

See :mod:`companion.dice.parse` for the grammar and :mod:`companion.dice.limits` for the
ceilings that keep an expression from hanging.
"""

from __future__ import annotations

from companion.dice.distribution import Distribution
from companion.dice.fast import roll_many
from companion.dice.nodes import Node
from companion.dice.odds import odds
from companion.dice.parse import parse
from companion.dice.roller import Die, Roll, roll
from companion.dice.simulate import Estimate, simulate

__all__ = [
    "Die",
    "Distribution",
    "Estimate",
    "Node",
    "Roll",
    "odds",
    "parse",
    "roll",
    "roll_many",
    "simulate",
]
