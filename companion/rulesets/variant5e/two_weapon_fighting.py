"""Two-Weapon Fighting: the off-hand bonus attack.

After taking the Attack action with a light melee weapon held in one hand, a creature may
use its bonus action to attack with a different light melee weapon held in the other hand.
That bonus attack adds no ability modifier to damage unless the modifier is negative.
Either weapon may be thrown instead, if it has the thrown property.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import RuleError

__all__ = ["Weapon", "bonus_attack_damage_modifier", "check_two_weapon_fighting"]


@dataclass(frozen=True)
class Weapon:
    """A weapon as two-weapon fighting sees it."""

    name: str
    light: bool = True
    melee: bool = True
    thrown: bool = False


def check_two_weapon_fighting(main: Weapon, off: Weapon, *, took_attack_action: bool = True,
                              same_weapon: bool = False) -> None:
    """Raise [RuleError][companion.errors.RuleError] unless the bonus attack is allowed."""
    if not took_attack_action:
        raise RuleError("Two-Weapon Fighting: the bonus attack follows the Attack action")
    if same_weapon:
        raise RuleError("Two-Weapon Fighting: the bonus attack needs a different weapon "
                        "held in the other hand")
    for weapon in (main, off):
        if not (weapon.light and weapon.melee):
            raise RuleError(f"Two-Weapon Fighting: {weapon.name} is not a light melee weapon")


def bonus_attack_damage_modifier(ability_modifier: int) -> int:
    """The ability modifier added to the bonus attack's damage: only a negative one."""
    return min(0, ability_modifier)
