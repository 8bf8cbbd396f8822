"""Conditions (harmful) and statuses (helpful): named states with a rule each.

States of either kind can coexist and one may cancel another, but a creature never has
the same one twice. Unless a rule says otherwise one lasts until the end of the
creature's next turn in combat, or 6 seconds.

Inflicting a condition the target already has instead either extends it by 1 turn or
*detonates* it: the condition ends at once and deals 1d10 damage of the attack's type.
Bestowing a status the target already has (with no more time left than the new one would
give) either extends it by 1 turn or gives something else.

The sheet keeps how long each lasts and runs it out as the creature's turns end
([Adventurer.inflict][companion.rulesets.monsters_and_magic.adventurer.Adventurer.inflict],
[Adventurer.extend][companion.rulesets.monsters_and_magic.adventurer.Adventurer.extend]).

Interpretation: the alternative to 1d10 detonation damage and the status alternative are
cut off in the seed and left out. Some states include others: Unconscious includes Prone
and Stunned, Prone includes Slowed, Invisible makes a creature undetected; these are
derived ([implied][companion.rulesets.monsters_and_magic.conditions_and_statuses.implied]), not
stored.

The effect of each state is data (``data/rules.toml``):
[CONDITIONS][companion.rulesets.monsters_and_magic.conditions_and_statuses.CONDITIONS],
[STATUSES][companion.rulesets.monsters_and_magic.conditions_and_statuses.STATUSES].
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.errors import RuleError
from companion.rulesets.monsters_and_magic._data import entries, section

__all__ = ["CONDITIONS", "DETONATE_DAMAGE", "STATUSES", "condition_name", "implied",
           "status_name"]

#: Condition name -> its effect, in the seed's order.
CONDITIONS: dict[str, str] = entries("conditions")
#: Status name -> its effect, in the seed's order.
STATUSES: dict[str, str] = entries("statuses")
#: Damage dealt when a condition is detonated.
DETONATE_DAMAGE: str = section("conditions")["detonate_damage"]

_IMPLIES: dict[str, tuple[str, ...]] = {
    "Unconscious": ("Prone", "Stunned"),
    "Prone": ("Slowed",),
}


def _name(text: str, known: dict[str, str], kind: str) -> str:
    for name in known:
        if name.lower() == text.strip().lower():
            return name
    raise RuleError(f"Conditions & Statuses: no {kind} called {text!r} "
                    f"({', '.join(known)})")


def condition_name(text: str) -> str:
    """The seed's spelling of a condition name (case-insensitive), or a RuleError."""
    return _name(text, CONDITIONS, "condition")


def status_name(text: str) -> str:
    """The seed's spelling of a status name (case-insensitive), or a RuleError."""
    return _name(text, STATUSES, "status")


def implied(conditions: Iterable[str]) -> list[str]:
    """The conditions in effect: those held plus those they include, in the seed's order."""
    held = set(conditions)
    frontier = list(held)
    while frontier:
        for more in _IMPLIES.get(frontier.pop(), ()):
            if more not in held:
                held.add(more)
                frontier.append(more)
    return [name for name in CONDITIONS if name in held]
