"""Opportunity Attack: striking a foe that moves out of reach.

When a hostile creature you can see leaves your reach, you may spend your reaction on one
melee attack against it; the attack lands just before it leaves. Disengaging avoids this,
and so does being moved without using your own movement, action or reaction (teleporting,
being hurled by an explosion, falling past an enemy).
"""

from __future__ import annotations

__all__ = ["provokes_opportunity_attack"]


def provokes_opportunity_attack(*, leaves_reach: bool, can_see_mover: bool = True,
                                hostile: bool = True, disengaged: bool = False,
                                teleported: bool = False, moved_by_other: bool = False) -> bool:
    """Whether a creature's movement lets you make an opportunity attack against it."""
    if not (leaves_reach and can_see_mover and hostile):
        return False
    return not (disengaged or teleported or moved_by_other)
