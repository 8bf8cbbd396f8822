"""Identify a Spell: an Intelligence (Arcana) check against DC 15 + the spell's level.

A character who perceived a spell being cast, its effect, or both, may try to name it:
with the reaction while it is being cast, or with an action on their turn once it has been
cast. The check is always Intelligence (Arcana), even for casters who use Wisdom or
Charisma, since it is about theory, not casting. A character of the class the spell was
cast as (a cleric watching a cleric's spell) rolls with advantage; some spells belong to
no class when cast, such as a monster's innate spellcasting.
"""

from __future__ import annotations

from typing import Literal

from companion.checks import Check
from companion.errors import RuleError

__all__ = ["identify_a_spell", "identify_dc", "identify_timing"]


def identify_dc(spell_level: int) -> int:
    """DC 15 + the spell's level (cantrips are level 0)."""
    if isinstance(spell_level, bool) or not isinstance(spell_level, int):
        raise RuleError(f"Identify a Spell: spell level must be a whole number, "
                        f"got {spell_level!r}")
    if not 0 <= spell_level <= 9:
        raise RuleError(f"Identify a Spell: spell level must be 0 to 9, got {spell_level}")
    return 15 + spell_level


def identify_timing(being_cast: bool) -> Literal["reaction", "action"]:
    """The reaction while the spell is cast, an action on your turn afterwards."""
    return "reaction" if being_cast else "action"


def identify_a_spell(arcana_modifier: int, spell_level: int, *, same_class: bool = False,
                     perceived_casting: bool = True, perceived_effect: bool = False) -> Check:
    """The Intelligence (Arcana) check to identify a spell, ready to roll or to price.

    >>> identify_a_spell(5, 3).chance()
    Fraction(2, 5)
    """
    if not (perceived_casting or perceived_effect):
        raise RuleError("Identify a Spell: the character must have perceived the casting, "
                        "the effect, or both")
    dice = "2d20kh1" if same_class else "1d20"
    return Check(dice, modifier=arcana_modifier, target=identify_dc(spell_level),
                 label="Intelligence (Arcana) to identify a spell")
