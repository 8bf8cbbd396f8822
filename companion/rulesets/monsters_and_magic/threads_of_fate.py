"""Threads of fate: a player character's resource for bending the story and the dice.

Spend one thread for one of these:

- **Feeling Lucky** — make a luck roll and use it in place of an ability check you made,
  forced a creature to make, or a creature made against you (an attack roll, say).
- **Bend Luck** — after a check is rolled but before it is resolved (before damage, say),
  add your +LUCK to a check you made, or subtract it from one you forced or one made
  against you. A negative +LUCK works the other way round.
- **Lucky Find** — add something handy you were lucky to come across (a key, a cipher).
  The GM may ask for more threads for a big find, or veto it (then nothing is spent).
- **Bonds of Fate** — lean on your history with another character: they add their +BOND
  with you to their roll, or you add your +BOND with them to yours.

The *Inspired* status can be cleared to use a thread without spending one, even with none
left.

The GM has threads too; spending one lets the GM reroll an ability check and keep either
result, use a monster's thread-powered ability, or change a scene in a way nobody saw
coming ([GameMaster][companion.rulesets.monsters_and_magic.adventurer.GameMaster]).

Interpretation (the seed's sentences stop mid-way):

- "You have a number of threads equal to your ..." — read as your LUCK, at least 1
  ([max_threads_for][companion.rulesets.monsters_and_magic.threads_of_fate.max_threads_for]); a
  character may set another maximum.
- "At the end of a long rest, you regain ..." — read as regaining every thread.
- "Whenever you spend a ..." — read as the GM's threads, with the three uses above.
- Bend Luck leaves the natural die as it was, so it never makes or unmakes a critical.
- Feeling Lucky's luck roll is an ability check (a luck roll is one made with +LUCK) used in
  place of your own: its result gives what a check's gives — a miss 1 XP, a critical miss
  2 XP and a thread for the GM, a critical hit Inspired — besides the thread spent going
  to the GM. Standing in for a creature's check against you, it gives neither.

>>> bend_luck(natural=12, total=15, luck=3, dc=None)
(18, <Tier.STRONG_HIT: 3>)
>>> bend_luck(natural=12, total=15, luck=3, dc=None, against_you=True)
(12, <Tier.WEAK_HIT: 2>)
"""

from __future__ import annotations

from companion.errors import RuleError
from companion.rulesets.monsters_and_magic.ability_checks import LIMIT, Tier, tier_of

__all__ = ["GM_USES", "USES", "bend_luck", "max_threads_for"]

#: The four ways a player spends a thread.
USES = ("Feeling Lucky", "Bend Luck", "Lucky Find", "Bonds of Fate")
#: The three ways the GM spends a thread.
GM_USES = ("Reroll an ability check", "Use a monster's thread-powered ability",
           "Make an unexpected change to a scene")


def max_threads_for(luck: int) -> int:
    """The threads a character holds when full: its LUCK, at least 1 (the module's reading
    of the cut-off "threads equal to your ...")."""
    if abs(luck) > LIMIT:
        raise RuleError(f"Threads of Fate: luck {luck} is out of range")
    return max(1, luck)


def bend_luck(*, natural: int, total: int, luck: int, dc: int | None,
              against_you: bool = False) -> tuple[int, Tier]:
    """The new total and tier after Bend Luck: +LUCK to your check, -LUCK to another's.

    ``against_you`` is true for a check made against you or one you forced a creature to
    make. The natural face (and so any critical) is unchanged.
    """
    if abs(luck) > LIMIT or abs(total) > 10 * LIMIT:
        raise RuleError("Bend Luck: luck or total out of range")
    bent = total - luck if against_you else total + luck
    return bent, tier_of(natural, bent, dc)
