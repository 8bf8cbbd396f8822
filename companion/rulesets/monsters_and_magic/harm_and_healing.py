"""Harm & healing: damage after armor, resistance and vulnerability, and falling.

Damage first loses the target's AC (armor soaks damage here, it is not a number to hit).
What is left is halved for a resisted damage type or doubled for a vulnerable one; an
immune creature takes none of that type.

Falling deals 1d6 damage per 10 feet fallen. On the material plane a creature falls 580
feet in the first 6-second turn, 2,315 feet by the second and 5,280 (a mile) by the third.

Underwater, everything has resistance to fire damage
([underwater_affinity][companion.rulesets.monsters_and_magic.harm_and_healing.underwater_affinity]).

Interpretation: halving rounds down; a fall of less than 10 feet deals no damage and
partial tens do not count (25 feet is 2d6). "About the same as Earth" is read as standard
gravity (32.174 ft/s²) with no air resistance;
[falling_distance_computed][companion.rulesets.monsters_and_magic.harm_and_healing.falling_distance_computed]
gives
the exact figure the printed distances are checked against (the third, a mile, is about
1.3% above it and is flagged on the reference page). The seed's sentences on HP, AC and temporary
HP stop mid-way; only what is printed is modelled.

Interpretation: falling damage is damage like any other, so the faller's AC reduces it
(and resistance, halved after AC, would apply). The falling rule says only "1d6 damage for
each 10 feet", but the resistance rule reads damage as reduced by AC first ("after reducing
damage by your AC") with no exception, and falling gives none; a table that lets a fall
ignore armor takes the dice total off HP by hand.

Interpretation: underwater fire resistance does not stack with a resistance the creature
already has, cancels a vulnerability to fire (the seed gives each its own rule and no way
to combine them; halving then doubling is read as neither), and leaves immunity as it is.

>>> damage_after_armor(9, ac=2, affinity="resistant")
3
>>> falling_damage_dice(25)
'2d6'
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from companion.dice import Distribution, odds
from companion.errors import RuleError
from companion.rulesets.monsters_and_magic._data import section

__all__ = ["Affinity", "damage_after_armor", "falling_damage_dice", "falling_damage_odds",
           "falling_distance", "falling_distance_computed", "falling_distance_differs",
           "underwater_affinity"]

Affinity = Literal["normal", "resistant", "vulnerable", "immune"]

LIMIT = 1_000_000


def damage_after_armor(amount: int, *, ac: int = 0, affinity: Affinity = "normal") -> int:
    """Damage actually taken: ``amount`` minus ``ac``, then halved/doubled/zeroed."""
    if not 0 <= amount <= LIMIT:
        raise RuleError(f"Harm & Healing: damage must be 0-{LIMIT:,}, got {amount}")
    if not 0 <= ac <= LIMIT:
        raise RuleError(f"Harm & Healing: AC must be 0-{LIMIT:,}, got {ac}")
    left = max(0, amount - ac)
    if affinity == "normal":
        return left
    if affinity == "resistant":
        return left // 2
    if affinity == "vulnerable":
        return left * 2
    if affinity == "immune":
        return 0
    raise RuleError(f"Resistance & Vulnerability: unknown affinity {affinity!r}")


def underwater_affinity(affinity: Affinity, damage_type: str) -> Affinity:
    """How a creature underwater takes ``damage_type``: fire is resisted (see the module's
    Interpretation for resistance or vulnerability already there); other types as usual.

    >>> underwater_affinity("normal", "fire"), underwater_affinity("vulnerable", "fire")
    ('resistant', 'normal')
    """
    if damage_type.strip().lower() != "fire" or affinity in ("resistant", "immune"):
        return affinity
    return "normal" if affinity == "vulnerable" else "resistant"


def falling_damage_dice(feet: int) -> str:
    """The dice for a fall of ``feet`` (``"0"`` for under 10 feet)."""
    if not 0 <= feet <= LIMIT:
        raise RuleError(f"Falling: a fall must be 0-{LIMIT:,} feet, got {feet}")
    per = section("falling")["damage_per_10_feet"]
    count = feet // 10
    if count == 0:
        return "0"
    return f"{count}{per[per.index('d'):]}" if per.startswith("1d") else f"{count}*({per})"


def falling_damage_odds(feet: int, *, ac: int = 0, affinity: Affinity = "normal"
                        ) -> Distribution:
    """Exact odds of the damage a fall of ``feet`` leaves once the faller's ``ac`` (and
    ``affinity``) has taken its share, as the sheet takes it (the module's
    Interpretation): the falling dice's odds with each total read through
    [damage_after_armor][companion.rulesets.monsters_and_magic.harm_and_healing.damage_after_armor].
    Under 10 feet, no damage for certain.

    >>> falling_damage_odds(20, ac=2).p(0)  # 2d6 of 2 or less: a double 1
    Fraction(1, 36)
    """
    dice = falling_damage_dice(feet)
    damage_after_armor(0, ac=ac, affinity=affinity)  # a bad AC or affinity, refused first
    if dice == "0":
        return Distribution.constant(0)
    return odds(dice).map_monotone(
        lambda total: damage_after_armor(total, ac=ac, affinity=affinity))


def falling_distance(turns: int) -> int:
    """Feet fallen by the end of turn ``turns`` (1-3), as the seed prints them."""
    printed: list[int] = section("falling")["printed_feet_by_turn"]
    if not 1 <= turns <= len(printed):
        raise RuleError(f"Falling: the seed gives distances for turns 1-{len(printed)}")
    return printed[turns - 1]


#: Standard gravity in feet per second squared (9.80665 m/s²).
GRAVITY_FT_S2 = Fraction(32174, 1000)
#: Seconds in a combat turn.
TURN_SECONDS = 6
#: A printed distance this far (relative) from the computed one is flagged.
TOLERANCE = Fraction(1, 100)


def falling_distance_computed(turns: int) -> Fraction:
    """Exact feet fallen from rest by the end of turn ``turns``: g·t²/2, no air resistance."""
    if not 1 <= turns <= 100:
        raise RuleError(f"Falling: turns must be 1-100, got {turns}")
    seconds = turns * TURN_SECONDS
    return GRAVITY_FT_S2 * seconds * seconds / 2


def falling_distance_differs(turns: int) -> bool:
    """Whether the seed's printed distance for ``turns`` is more than 1% off the physics."""
    computed = falling_distance_computed(turns)
    return abs(falling_distance(turns) - computed) > TOLERANCE * computed
