"""Fatigue & exhaustion: small strain marked often, and the lasting toll it leaves.

A creature marks fatigue for strenuous things (breaking free of a restraint costs 3, the
Doomed condition 1 a turn); rests clear it. When there is no fatigue left to mark, the
mark becomes exhaustion. The first exhaustion costs nothing; after that the penalty grows
like the Fibonacci sequence. When there is no exhaustion left to mark, the creature falls
unconscious until a long rest (or until someone helps it recover); while dying, it dies.

Interpretation (the seed's sentences stop mid-way):

- "Whenever you need to mark a ..." — read as: every point of fatigue that does not fit
  (all
  [DEFAULT_MAX_FATIGUE][companion.rulesets.monsters_and_magic.fatigue_and_exhaustion.DEFAULT_MAX_FATIGUE]
  boxes full) marks one exhaustion instead.
- "your second and third exhaustion bestows a ..." — read as an ongoing penalty to ability
  checks equal to the Fibonacci number of the marks after the first: 1 mark 0, 2 marks
  -1, 3 marks -1, 4 marks -2, 5 marks -3, 6 marks -5
  ([exhaustion_penalty][companion.rulesets.monsters_and_magic.fatigue_and_exhaustion.exhaustion_penalty]).
- The number of fatigue boxes is not given;
  [DEFAULT_MAX_FATIGUE][companion.rulesets.monsters_and_magic.fatigue_and_exhaustion.DEFAULT_MAX_FATIGUE]
  is 5 and a character may set another.
- The number of exhaustion boxes is not given;
  [DEFAULT_MAX_EXHAUSTION][companion.rulesets.monsters_and_magic.fatigue_and_exhaustion.DEFAULT_MAX_EXHAUSTION]
  is 6 (the last box the Fibonacci penalty reaches, -5) and a character may set another.
- Monsters' version ("they receive ...") is cut off and not modelled.

>>> [exhaustion_penalty(n) for n in range(7)]
[0, 0, 1, 1, 2, 3, 5]
"""

from __future__ import annotations

from companion.errors import RuleError

__all__ = ["DEFAULT_MAX_EXHAUSTION", "DEFAULT_MAX_FATIGUE", "exhaustion_penalty"]

#: Fatigue boxes before a mark spills into exhaustion (not in the seed: see the module's
#: readings).
DEFAULT_MAX_FATIGUE = 5

#: Exhaustion boxes before a mark knocks a creature out (not in the seed: see the module's
#: readings).
DEFAULT_MAX_EXHAUSTION = 6

#: A count this large is surely a typo.
LIMIT = 1000


def exhaustion_penalty(marks: int) -> int:
    """The ability-check penalty (as a positive number) for ``marks`` exhaustion."""
    if not 0 <= marks <= LIMIT:
        raise RuleError(f"Fatigue & Exhaustion: {marks} exhaustion marks is out of range")
    if marks <= 1:
        return 0
    previous, current = 0, 1  # Fibonacci numbers F(1)=1, F(2)=1, ...
    for _ in range(marks - 2):
        previous, current = current, previous + current
    return current
