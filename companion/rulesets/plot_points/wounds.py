"""Strain and wounds: conversion, the wound tiers and the strain they add to checks.

Strain is minor stress or hurt; a long rest clears all of it, and every 4 strain turns
into 1 wound. Wounds are serious and stay until they heal: each long rest, one recovery
check per wound (difficulty 10 Fortitude unless the GM says otherwise) heals that wound
on a success. A character withstands 15 wounds; the 16th brings a near-death experience.

Interpretation: strain converts as soon as it reaches 4, so a character holds 0-3 strain
and the remainder carries over (3 strain + 2 → 1 wound and 1 strain).

The tiers (Exhausted, Injured, Severely Injured, Dying, Near-Death Experience) and what
each does to checks are data: ``WOUND_TIERS``, read from ``lookup_tables.toml``.

Interpretation: the seed gives the near-death experience no effect on checks; the Dying
tier's strain keeps applying to a character with 16 wounds.

Interpretation: 16 wounds is the most a character can have; strain that would convert
into a 17th wound is lost and the GM decides what the near-death experience brings.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import StateError, TableError
from companion.rulesets.plot_points.lookup import WOUND_TIERS, WoundTier
from companion.state import state_field

#: Strain that turns into one wound.
STRAIN_PER_WOUND = 4

#: Wounds a character withstands before the near-death experience (on the next one).
WOUNDS_WITHSTOOD = 15

#: The most wounds a character can have.
MAX_WOUNDS = WOUNDS_WITHSTOOD + 1

#: Longest name of a player or the GM.
MAX_NAME = 40

if WOUND_TIERS[-1].high != MAX_WOUNDS:
    raise TableError(f"lookup_tables.toml: wound tiers must end at {MAX_WOUNDS} wounds")


def wound_tier(wounds: int) -> WoundTier | None:
    """The tier for a number of wounds, or ``None`` for an unwounded character."""
    for tier in WOUND_TIERS:
        if tier.low <= wounds <= tier.high:
            return tier
    return None


def strain_from_check(wounds: int, success: bool) -> int:
    """Strain a character with ``wounds`` gains from one check that succeeded or failed."""
    tier = wound_tier(wounds)
    if tier is None:
        return 0
    return tier.strain_per_check + (0 if success else tier.strain_on_failure)


@dataclass
class Character:
    """One player character's strain (0-3) and wounds (0-16)."""

    name: str = state_field(max_len=MAX_NAME)
    strain: int = state_field(0, min=0, max=STRAIN_PER_WOUND - 1)
    wounds: int = state_field(0, min=0, max=MAX_WOUNDS)

    def check_state(self) -> None:
        """A name of 1 to 40 characters, without spaces around it."""
        if not self.name.strip() or self.name != self.name.strip():
            raise StateError(f"field 'name' must be a name of 1 to {MAX_NAME} characters")

    def __str__(self) -> str:
        """Strain and wounds as a player reads them, with the wound tier's name.

        >>> print(Character("Ann", strain=2, wounds=5))
        Ann — strain 2/3, wounds 5 · Injured
        """
        return (f"{self.name} — strain {self.strain}/{STRAIN_PER_WOUND - 1}, "
                f"wounds {self.wounds} · {self.condition}")

    @property
    def tier(self) -> WoundTier | None:
        return wound_tier(self.wounds)

    @property
    def condition(self) -> str:
        tier = self.tier
        return tier.name if tier else "Unhurt"

    @property
    def can_take_wound(self) -> bool:
        """Whether another wound can be marked (at most ``MAX_WOUNDS``)."""
        return self.wounds < MAX_WOUNDS

    def add_strain(self, amount: int) -> tuple[int, int]:
        """Add strain, converting each 4 into a wound; returns (wounds gained, wounds lost).

        Wounds lost are conversions past the 16th wound (see the module's Interpretation).
        """
        total = self.strain + amount
        converted, self.strain = divmod(total, STRAIN_PER_WOUND)
        return self.add_wounds(converted)

    def add_wounds(self, amount: int) -> tuple[int, int]:
        """Add wounds up to 16; returns (wounds gained, wounds beyond 16 that were lost)."""
        gained = min(amount, MAX_WOUNDS - self.wounds)
        self.wounds += gained
        return gained, amount - gained

