"""Disarm: knock a weapon or other held item out of a target's grasp with a weapon attack.

The attacker's attack roll is contested by the target's Strength (Athletics) or Dexterity
(Acrobatics) check. If the attacker wins, the attack does no damage or other harm, but the
target drops the item.

- The attacker rolls with disadvantage if the target holds the item with two or more hands.
- The target rolls with advantage if it is larger than the attacker, disadvantage if
  smaller.

Interpretation: the target picks the better of its two skills (see
[contests][companion.rulesets.variant5e.contests]).
"""

from __future__ import annotations

from companion.rulesets.variant5e.contests import Combatant, Contest, Edge, size_edge

__all__ = ["disarm"]


def disarm(attacker: Combatant, target: Combatant, *, two_handed: bool = False) -> Contest:
    """The contest of a disarm attempt by ``attacker`` against ``target``."""
    attack_edge = Edge.DISADVANTAGE if two_handed else Edge.NORMAL
    return Contest(
        rule="Disarm",
        initiator=attacker.side("attack roll", attacker.attack_bonus, attack_edge),
        resister=target.chosen_side(size_edge(target.size, attacker.size)),
        on_success="the target drops the item; the attack deals no damage",
    )


