"""Grapple, moving a grappled target, and escaping a grapple.

**Grapple.** Instead of one of the attacks of the Attack action, a creature can try to
seize another. The target must be within reach and at most one size larger, and the
grappler needs at least one free hand. The grappler's Strength (Athletics) check is
contested by the target's Strength (Athletics) or Dexterity (Acrobatics) check (the
target's choice). An incapacitated target is grappled automatically. A win gives the
target the grappled condition; the grappler can let go at any time, no action needed.

**Moving a grappled target.** The grappler may drag or carry the grappled creature
along, at half speed unless that creature is two or more sizes smaller.

**Escape a grapple.** The grappled creature spends its action on a Strength (Athletics)
or Dexterity (Acrobatics) check contested by the grappler's Strength (Athletics) check.
"""

from __future__ import annotations

from companion.errors import RuleError
from companion.rulesets.variant5e.contests import (
    Combatant,
    Contest,
    Size,
    require_at_most_one_size_larger,
)

__all__ = ["escape_grapple", "grapple", "speed_while_moving_grappled"]


def grapple(grappler: Combatant, target: Combatant, *, free_hand: bool = True,
            within_reach: bool = True) -> Contest:
    """The contest of a grapple attempt."""
    if not free_hand:
        raise RuleError("Grapple: the grappler needs at least one free hand")
    if not within_reach:
        raise RuleError("Grapple: the target must be within the grappler's reach")
    require_at_most_one_size_larger("Grapple", grappler, target)
    return Contest(
        rule="Grapple",
        initiator=grappler.athletics_side(),
        resister=target.chosen_side(),
        on_success="the target is grappled",
        automatic="the target is incapacitated" if target.incapacitated else "",
    )


def escape_grapple(escapee: Combatant, grappler: Combatant) -> Contest:
    """The contest of a grappled creature trying to break free (it uses its action)."""
    return Contest(
        rule="Escape a Grapple",
        initiator=escapee.chosen_side(),
        resister=grappler.athletics_side(),
        on_success="the creature is no longer grappled",
    )


def speed_while_moving_grappled(speed: int, grappler: Size, grappled: Size) -> int:
    """The grappler's speed while dragging or carrying the grappled creature.

    Interpretation: halving rounds down to whole feet.
    """
    if isinstance(speed, bool) or not isinstance(speed, int) or speed < 0:
        raise RuleError(f"Moving a Grappled Target: speed must be 0 or more feet, got {speed!r}")
    if grappler - grappled >= 2:
        return speed
    return speed // 2
