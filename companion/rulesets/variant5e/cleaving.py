"""Cleaving through Creatures: excess melee damage spills over to the next foe.

When a melee attack drops a creature that had not been hurt to 0 hit points, the damage
left over may pass to another creature within reach, if the same attack roll would hit
it. If that creature was also unhurt and also drops to 0, the rest passes on again. It
stops when no valid target is left, or when the carried damage fails to drop an unhurt
creature to 0.

Interpretation: the attacker lists the creatures within reach in the order it wants to
hit them; a creature the attack roll cannot hit is not a valid target and is skipped.
A damaged creature may receive the carried damage, but the chain stops there.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import RuleError

__all__ = ["Cleave", "Foe", "cleave"]


@dataclass(frozen=True)
class Foe:
    """A creature that may take cleaving damage."""

    name: str
    hp: int
    max_hp: int
    ac: int

    def __post_init__(self) -> None:
        if not 0 <= self.hp <= self.max_hp or self.max_hp < 1:
            raise RuleError(f"Cleaving: {self.name} needs 0 <= hp <= max hp and max hp >= 1")

    @property
    def undamaged(self) -> bool:
        return self.hp == self.max_hp


@dataclass(frozen=True)
class Cleave:
    """One creature hit by the attack: damage dealt and whether it dropped."""

    name: str
    damage: int
    hp_left: int

    @property
    def dropped(self) -> bool:
        return self.hp_left == 0


def cleave(damage: int, attack_roll: int, first: Foe, within_reach: list[Foe]) -> list[Cleave]:
    """Apply ``damage`` from a melee attack that hit ``first``, carrying any excess on.

    ``attack_roll`` is the attack's total, compared with each further creature's AC.
    """
    if isinstance(damage, bool) or not isinstance(damage, int) or damage < 0:
        raise RuleError(f"Cleaving: damage must be 0 or more, got {damage!r}")
    hits: list[Cleave] = []
    target: Foe | None = first
    remaining = damage
    candidates = [foe for foe in within_reach if foe.name != first.name]
    while target is not None:
        dealt = min(remaining, target.hp)
        hits.append(Cleave(target.name, dealt, target.hp - dealt))
        carries = target.undamaged and target.hp - dealt == 0 and remaining > dealt
        remaining -= dealt
        target = None
        if carries:
            while candidates and target is None:
                foe = candidates.pop(0)
                if attack_roll >= foe.ac and foe.hp > 0:
                    target = foe
    return hits
