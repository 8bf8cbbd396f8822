"""Damage, armor, Guard, STR and Critical Damage.

An attack rolls its damage die; the defender's Armor soaks that much, the rest comes off
**Guard** (GD) first and anything beyond Guard comes off **STR**. A target whose STR is
hit by combat damage saves STR (at the new, lower score) or suffers **Critical Damage**:
out of the fight, stable only with aid and rest, dead within the hour otherwise. Damage
from traps and the environment hits an ability directly and needs no such save. *Direct*
damage skips Guard (and Armor) and lands on STR.

Zero STR is death, zero DEX paralysis, zero CTRL delirium.

A **scar** comes when a hit leaves Guard at **exactly 0** after armor: read the scar
table (``cairn_scars``) by the damage Guard actually took. The seed's example: 2 Armor,
5 Guard, a 7 rolled: Armor takes 2, Guard takes 5 and ends at 0, so the scar is row 4-6.

Interpretation: direct damage skips Armor as well as Guard. The seed says only that it
"bypasses GD", but it treats direct damage as damage to an ability score (the referee's
"suffering Direct Damage to ability scores"; environmental damage "bypasses GD, hitting a
relevant ability"), and Armor is what the defender subtracts from an attack's weapon die:
a fall, fire or poison is no weapon for a breastplate to turn. A direct hit therefore
lands on STR in full (and, as combat damage, still asks the Critical Damage save).

Interpretation: Guard takes at most 18 damage; a taken amount above 12 reads row 12.
A hit that leaves Guard at 0 but carries on into STR left Guard below zero, so it scars
no one.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Hit:
    """How one hit splits between armor, Guard and STR."""

    rolled: int
    absorbed: int
    to_guard: int
    to_str: int
    guard_after: int
    str_after: int

    @property
    def scar_damage(self) -> int | None:
        """The damage that read the scar table, or ``None`` when no scar is taken."""
        if self.to_guard > 0 and self.guard_after == 0 and self.to_str == 0:
            return min(self.to_guard, 12)
        return None


def resolve_hit(amount: int, *, guard: int, strength: int, armor: int, direct: bool = False) -> Hit:
    """Split ``amount`` damage: armor first, then Guard, then STR (``direct`` skips both)."""
    amount = max(0, amount)
    absorbed = 0 if direct else min(armor, amount)
    rest = amount - absorbed
    to_guard = 0 if direct else min(guard, rest)
    to_str = rest - to_guard
    return Hit(amount, absorbed, to_guard, to_str, guard - to_guard, max(0, strength - to_str))
