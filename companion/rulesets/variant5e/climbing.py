"""Climbing onto a bigger creature.

A creature may leap onto another by grappling it, though a Small or Medium grappler rarely
manages that against a Huge or Gargantuan foe without magical might. Alternatively, a big
enough opponent counts as terrain to climb:

- **Climbing on.** Once in position, the smaller creature spends its action on a
  Strength (Athletics) or Dexterity (Acrobatics) check contested by the target's Dexterity
  (Acrobatics) check. Winning puts it in the target's space; it moves with the target and
  has advantage on attack rolls against it. Moving about inside that space counts as
  difficult terrain. Whether the big creature can attack it there is up to the DM.
- **Dislodging.** As an action, the big creature makes a Strength (Athletics) check
  contested by the smaller creature's Strength (Athletics) or Dexterity (Acrobatics)
  check (the smaller one chooses), knocking, scraping or throwing it off on a win.

Interpretation: "bigger" means at least one size larger than the climber.
"""

from __future__ import annotations

from companion.errors import RuleError
from companion.rulesets.variant5e.contests import Combatant, Contest

__all__ = ["climb_onto", "dislodge"]


def _require_bigger(rule: str, small: Combatant, big: Combatant) -> None:
    if big.size <= small.size:
        raise RuleError(f"{rule}: {big.name} ({big.size.name.lower()}) must be larger than "
                        f"{small.name} ({small.size.name.lower()})")


def climb_onto(climber: Combatant, target: Combatant) -> Contest:
    """The contest of climbing onto a larger creature."""
    _require_bigger("Climbing onto a Bigger Creature", climber, target)
    return Contest(
        rule="Climbing onto a Bigger Creature",
        initiator=climber.chosen_side(),
        resister=target.acrobatics_side(),
        on_success=("the climber enters the target's space, moves with it and has advantage "
                    "on attack rolls against it"),
    )


def dislodge(big: Combatant, rider: Combatant) -> Contest:
    """The contest of a big creature shaking off a creature clinging to it."""
    _require_bigger("Climbing onto a Bigger Creature (dislodge)", rider, big)
    return Contest(
        rule="Dislodge a Climber",
        initiator=big.athletics_side(),
        resister=rider.chosen_side(),
        on_success="the clinging creature is knocked off",
    )
