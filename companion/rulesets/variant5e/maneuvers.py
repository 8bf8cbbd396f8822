"""The contested combat options by name, for the CLI and the combat-options app.

Each entry builds the [Contest][companion.rulesets.variant5e.contests.Contest] of one option from
the two creatures
(who acts first, who resists) and the option's own circumstances.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from companion.errors import UnknownNameError
from companion.rulesets.variant5e.climbing import climb_onto, dislodge
from companion.rulesets.variant5e.contests import Combatant, Contest
from companion.rulesets.variant5e.disarm import disarm
from companion.rulesets.variant5e.grapple import escape_grapple, grapple
from companion.rulesets.variant5e.overrun import overrun
from companion.rulesets.variant5e.shove import shove, shove_aside
from companion.rulesets.variant5e.tumble import tumble

__all__ = ["MANEUVERS", "Maneuver", "maneuver"]


@dataclass(frozen=True)
class Maneuver:
    """A contested option: its name, the roles of the two creatures, how to build it."""

    name: str
    initiator: str
    resister: str
    build: Callable[[Combatant, Combatant, bool], Contest]
    flag: str = ""
    """What the one optional circumstance means (``""`` when the option has none)."""


def _plain(fn: Callable[[Combatant, Combatant], Contest]) -> Callable[
        [Combatant, Combatant, bool], Contest]:
    return lambda a, b, _flag: fn(a, b)


MANEUVERS: dict[str, Maneuver] = {m.name: m for m in (
    Maneuver("grapple", "grappler", "target", _plain(grapple)),
    Maneuver("escape a grapple", "grappled creature", "grappler", _plain(escape_grapple)),
    Maneuver("shove", "attacker", "target", _plain(shove)),
    Maneuver("shove aside", "attacker", "target", _plain(shove_aside)),
    Maneuver("disarm", "attacker", "target",
             lambda a, b, flag: disarm(a, b, two_handed=flag),
             flag="target holds the item with two or more hands"),
    Maneuver("overrun", "mover", "hostile creature", _plain(overrun)),
    Maneuver("tumble", "tumbler", "hostile creature", _plain(tumble)),
    Maneuver("climb onto a bigger creature", "climber", "bigger creature", _plain(climb_onto)),
    Maneuver("dislodge a climber", "bigger creature", "climber", _plain(dislodge)),
)}


def maneuver(name: str) -> Maneuver:
    """The option called ``name`` (case and spacing forgiven)."""
    key = " ".join(name.lower().replace("-", " ").replace("_", " ").split())
    if key not in MANEUVERS:
        raise UnknownNameError(f"no combat option {name!r} (known: {', '.join(MANEUVERS)})")
    return MANEUVERS[key]
