"""Saving throws, the die of fate and inspiration.

When an action risks a meaningful failure, the referee names an ability and the player
rolls a d20: a result **at or under** the ability succeeds. Only the character taking the
biggest risk rolls, and nothing is rolled when the fiction already settles the outcome.
A *difficulty floor* may be added: then the roll must also be **above** the floor (so a
DEX 12 save over 2 Armor succeeds on 3-12). Advantage and disadvantage never change the
die: they soften or worsen the consequence (advantage: milder failure, better success;
disadvantage: harsher failure, mixed success).

The *die of fate* is a d6 that lets the world decide: 4-6 favours the player characters.

*Inspiration* dice are d6s earned by writing the session recap and keeping the overworld
map. A player may hoard several; when they use them, every die is rolled together and
the player keeps one result to modify a roll.

Interpretation: using inspiration spends the whole hoard (all dice are rolled at once and
only one counts).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from companion import dice, tables
from companion.dice.roller import make_rng
from companion.errors import RuleError

Ability = Literal["STR", "DEX", "CTRL"]
Impact = Literal["advantage", "normal", "disadvantage"]
#: What a success (True) or failure (False) means under each impact.
IMPACT_OUTCOMES: dict[str, dict[bool, str]] = {
    "advantage": {True: "enhanced success", False: "subdued consequence"},
    "normal": {True: "success", False: "failure"},
    "disadvantage": {True: "mixed success", False: "worse consequence than usual"},
}
ABILITIES: tuple[Ability, ...] = ("STR", "DEX", "CTRL")
MAX_SCORE = 18


def check_score(value: int, what: str = "an ability") -> None:
    """Raise [RuleError][companion.errors.RuleError] unless ``value`` is a legal score (0-18)."""
    if not 0 <= value <= MAX_SCORE:
        raise RuleError(f"Ability Scores: {what} runs from 0 to {MAX_SCORE}, got {value}")


@dataclass(frozen=True)
class SaveResult:
    """One d20 save: success means ``floor < roll <= ability``."""

    ability: int
    floor: int
    roll: int
    impact: Impact = "normal"

    @property
    def success(self) -> bool:
        return self.floor < self.roll <= self.ability

    @property
    def outcome(self) -> str:
        """How the referee should colour the result, given the impact."""
        return IMPACT_OUTCOMES[self.impact][self.success]

    def __str__(self) -> str:
        target = f"{self.floor + 1}-{self.ability}" if self.floor else f"≤ {self.ability}"
        return f"d20 = {self.roll} vs {target}: {self.outcome}"


def save_chance(ability: int, floor: int = 0) -> Fraction:
    """Exact chance that a d20 lands above ``floor`` and at or under ``ability``."""
    check_score(ability)
    if floor < 0:
        raise RuleError(f"Saving Throw: a difficulty floor cannot be negative, got {floor}")
    return Fraction(max(0, min(ability, 20) - floor), 20)


def save(
    ability: int, *, floor: int = 0, impact: str = "normal", rng: random.Random | None = None,
    seed: int | None = None,
) -> SaveResult:
    """Roll a save against ``ability`` (0-18), optionally over a difficulty ``floor``.

    ``impact`` (``"advantage"``, ``"normal"``, ``"disadvantage"``) never changes the die;
    it changes what success and failure mean
    ([SaveResult.outcome][companion.rulesets.cairn_srd.saves.SaveResult.outcome]).
    """
    save_chance(ability, floor)  # validates
    if impact not in IMPACT_OUTCOMES:
        raise RuleError(f"Impact: advantage, normal or disadvantage, not “{impact}”")
    roll = dice.roll("1d20", rng=make_rng(seed, rng)).total
    return SaveResult(ability, floor, roll, impact)  # type: ignore[arg-type]


@dataclass(frozen=True)
class FateResult:
    """A die of fate: ``favourable`` when the d6 shows 4-6."""

    roll: int
    text: str

    @property
    def favourable(self) -> bool:
        return self.roll >= 4

    def __str__(self) -> str:
        return f"die of fate d6 = {self.roll}: {self.text}"


def die_of_fate(*, rng: random.Random | None = None, seed: int | None = None) -> FateResult:
    """Roll the die of fate (table ``cairn_die_of_fate``, rolled by the shared table engine)."""
    result = tables.get("cairn_die_of_fate").roll(rng=make_rng(seed, rng))
    assert isinstance(result.roll, int)
    return FateResult(result.roll, result.values["Result"])


def roll_inspiration(
    count: int, *, rng: random.Random | None = None, seed: int | None = None
) -> list[int]:
    """Roll ``count`` inspiration d6s at once; the player keeps one of them."""
    if count < 1:
        raise RuleError("Inspiration: there is no inspiration die to roll")
    return [die.value for die in dice.roll(f"{count}d6", rng=make_rng(seed, rng)).dice]
