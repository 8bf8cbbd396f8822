"""Tumble: duck and weave through a hostile creature's space.

As an action or a bonus action, the tumbler makes a Dexterity (Acrobatics) check contested
by the hostile creature's Dexterity (Acrobatics) check. Winning lets the tumbler pass
through that creature's space once this turn.
"""

from __future__ import annotations

from companion.rulesets.variant5e.contests import Combatant, Contest

__all__ = ["tumble"]


def tumble(tumbler: Combatant, hostile: Combatant) -> Contest:
    """The contest of a tumble attempt."""
    return Contest(
        rule="Tumble",
        initiator=tumbler.acrobatics_side(),
        resister=hostile.acrobatics_side(),
        on_success="the tumbler may move through the hostile creature's space once this turn",
    )
