"""Shove and Shove Aside.

**Shove.** Instead of one of the attacks of the Attack action, push a creature within
reach that is at most one size larger: a Strength (Athletics) check contested by the
target's Strength (Athletics) or Dexterity (Acrobatics) check (target's choice). An
incapacitated target fails automatically. A win knocks the target prone or pushes it
5 feet away.

**Shove Aside.** The same special attack, but it moves the target sideways: the attacker
rolls its Strength (Athletics) check with disadvantage and, on a win, moves the target
5 feet to another space within its reach.
"""

from __future__ import annotations

from companion.rulesets.variant5e.contests import (
    Combatant,
    Contest,
    Edge,
    require_at_most_one_size_larger,
)

__all__ = ["shove", "shove_aside"]


def shove(attacker: Combatant, target: Combatant) -> Contest:
    """The contest of a shove (prone or 5 feet away)."""
    require_at_most_one_size_larger("Shove", attacker, target)
    return Contest(
        rule="Shove",
        initiator=attacker.athletics_side(),
        resister=target.chosen_side(),
        on_success="the target is knocked prone or pushed 5 feet away",
        automatic="the target is incapacitated" if target.incapacitated else "",
    )


def shove_aside(attacker: Combatant, target: Combatant) -> Contest:
    """The contest of a shove aside (attacker at disadvantage).

    Interpretation: an incapacitated target still loses automatically, as with a shove.
    """
    require_at_most_one_size_larger("Shove Aside", attacker, target)
    return Contest(
        rule="Shove Aside",
        initiator=attacker.athletics_side(Edge.DISADVANTAGE),
        resister=target.chosen_side(),
        on_success="the target is moved 5 feet to another space within the attacker's reach",
        automatic="the target is incapacitated" if target.incapacitated else "",
    )
