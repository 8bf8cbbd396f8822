"""Death & dying: at 0 HP a creature falls unconscious and prone and starts dying.

The dying creature wants to stabilize: a strong or critical hit on its death roll does it
at once, and so does building up 3 deathsave. Once stable it stays unconscious until
healed. Damage taken while dying marks exhaustion; when a dying creature must mark
exhaustion and has none left, it dies. Then Death comes to bargain: accept the GM's deal
(a path to walk, a change to make) and stabilize, or refuse and pass on.

Interpretation (the seed's sentences stop mid-way):

- "make a ..." each turn (or every 6 seconds) — read as a luck check, a *death roll*: on
  the sheet it takes the sheet's modifiers like any check (see
  [Adventurer.death_roll][companion.rulesets.monsters_and_magic.adventurer.Adventurer.death_roll]);
  [death_roll_check][companion.rulesets.monsters_and_magic.death_and_dying.death_roll_check]
  is the bare roll (+LUCK with the ability-check penalty of exhaustion), which the odds
  below follow.
- Results: strong or critical hit stabilizes; a weak hit gains 1 deathsave (3 stabilize);
  a miss marks 1 exhaustion, a critical miss 2.
- "mark ..." on damage while dying — read as 1 exhaustion per instance of damage.
- "healed at least ..." — read as at least 1 HP.

[stabilize_chance][companion.rulesets.monsters_and_magic.death_and_dying.stabilize_chance] gives the
exact chance that a dying creature stabilizes on its
own before it runs out of exhaustion, by following every sequence of death rolls.

>>> death_roll_outcome(Tier.WEAK_HIT)
('deathsave', 1)
>>> stabilize_chance(luck=0, exhaustion=0, max_exhaustion=6) > stabilize_chance(
...     luck=0, exhaustion=4, max_exhaustion=6)
True
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Literal

from companion.errors import RuleError
from companion.rulesets.monsters_and_magic.ability_checks import AbilityCheck, Tier
from companion.rulesets.monsters_and_magic.fatigue_and_exhaustion import exhaustion_penalty

__all__ = ["DEATHSAVES_TO_STABILIZE", "death_roll_check", "death_roll_outcome",
           "stabilize_chance"]

#: Deathsave that stabilizes a dying creature.
DEATHSAVES_TO_STABILIZE = 3

Outcome = Literal["stabilize", "deathsave", "exhaustion"]

LIMIT = 100


def death_roll_outcome(tier: Tier) -> tuple[Outcome, int]:
    """What a death roll's result does: ``("stabilize", 0)``, ``("deathsave", 1)`` or
    ``("exhaustion", n)`` (n exhaustion to mark)."""
    if tier >= Tier.STRONG_HIT:
        return "stabilize", 0
    if tier == Tier.WEAK_HIT:
        return "deathsave", 1
    return "exhaustion", 2 if tier == Tier.CRITICAL_MISS else 1


def death_roll_check(luck: int, exhaustion: int) -> AbilityCheck:
    """The death roll: a luck roll with the exhaustion penalty."""
    return AbilityCheck(modifier=luck - exhaustion_penalty(exhaustion))


def stabilize_chance(*, luck: int, exhaustion: int, max_exhaustion: int,
                     deathsaves: int = 0) -> Fraction:
    """Exact chance that death rolls alone stabilize the creature before it dies.

    A creature dies when it must mark exhaustion with none left (``max_exhaustion`` full).
    """
    if not -LIMIT <= luck <= LIMIT:
        raise RuleError(f"Death & Dying: luck {luck} is out of range")
    if not 0 <= max_exhaustion <= LIMIT or not 0 <= exhaustion <= max_exhaustion:
        raise RuleError(f"Death & Dying: exhaustion {exhaustion} must be 0-{max_exhaustion}")
    if not 0 <= deathsaves < DEATHSAVES_TO_STABILIZE:
        raise RuleError(f"Death & Dying: deathsave must be 0-{DEATHSAVES_TO_STABILIZE - 1}")
    return _chance(luck, exhaustion, max_exhaustion, deathsaves)


@functools.cache
def _chance(luck: int, exhaustion: int, max_exhaustion: int, saves: int) -> Fraction:
    # Every roll either stabilizes, adds a deathsave or adds exhaustion, so the recursion
    # always moves toward an end: no loops to solve.
    total = Fraction(0)
    for tier, p in death_roll_check(luck, exhaustion).tier_odds().items():
        if not p:
            continue
        outcome, n = death_roll_outcome(tier)
        if outcome == "stabilize":
            total += p
        elif outcome == "deathsave":
            if saves + 1 >= DEATHSAVES_TO_STABILIZE:
                total += p
            else:
                total += p * _chance(luck, exhaustion, max_exhaustion, saves + 1)
        elif exhaustion + n <= max_exhaustion:
            total += p * _chance(luck, exhaustion + n, max_exhaustion, saves)
    return total
