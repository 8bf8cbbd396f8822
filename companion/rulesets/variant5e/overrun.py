"""Overrun: force a way through a hostile creature's space.

As an action or a bonus action, the mover makes a Strength (Athletics) check contested by
the hostile creature's Strength (Athletics) check. The mover has advantage if it is larger
than the hostile creature and disadvantage if it is smaller. Winning lets the mover pass
through that creature's space once this turn.
"""

from __future__ import annotations

from companion.rulesets.variant5e.contests import Combatant, Contest, size_edge

__all__ = ["overrun"]


def overrun(mover: Combatant, hostile: Combatant) -> Contest:
    """The contest of an overrun attempt."""
    return Contest(
        rule="Overrun",
        initiator=mover.athletics_side(size_edge(mover.size, hostile.size)),
        resister=hostile.athletics_side(),
        on_success="the mover may move through the hostile creature's space once this turn",
    )
