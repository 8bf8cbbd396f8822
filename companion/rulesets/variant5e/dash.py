"""Dash: extra movement for this turn, equal to the creature's current speed.

Any change to the speed changes the extra movement by the same amount: speed 30 moves up
to 60 feet with a Dash, speed reduced to 15 moves up to 30.
"""

from __future__ import annotations

from companion.errors import RuleError

__all__ = ["dash_movement"]


def dash_movement(speed: int) -> int:
    """Movement available this turn after a Dash: the current speed, twice."""
    if isinstance(speed, bool) or not isinstance(speed, int) or speed < 0:
        raise RuleError(f"Dash: speed must be 0 or more feet, got {speed!r}")
    return 2 * speed
