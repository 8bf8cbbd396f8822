"""Ability checks: roll 1d20, add an ability and modifiers, read the result tier.

The tiers come from the ability check results table (``mm_ability_check_results``, a
1d20 table keyed for a bare die):

- **Critical Hit** — a natural 20, whatever the total: success plus a bonus; it also
  counts as a strong hit.
- **Strong Hit** — total 18 or more: clean success.
- **Weak Hit** — total 10-17: success with a cost or complication.
- **Miss** — total under 10: failure; gain 1 XP.
- **Critical Miss** — a natural 1, whatever the total: failure and worse; gain 2 XP.

A *skill check* adds a talent; an *attack roll* adds +POWER for weapons (+FOCUS for
precise, +CUNNING for agile ones) or +SPELL; a *saving throw* adds the named ability; a
focus, cunning, power or luck roll adds that ability. Monsters add their challenge rating
instead of an ability.

**Advantage & Disadvantage.** Interpretation: the seed's sentence stops after "advantage
or disadvantage on an"; read in the familiar way: with advantage roll 2d20 and keep the
higher, with disadvantage keep the lower; having both cancels to a single d20, and several
sources of one kind do not stack. The kept die is the natural one for criticals.

**Difficulty Class.** Interpretation: the sentence stops after "Sometimes an"; read as: a
check may have a DC other than the table's 10. The DC is where a weak hit starts, and a
strong hit starts as far above it as in the table (DC + 8). DC 10 is the plain table.

**Effect steps.** A result at +N or -N steps moves that many rows up or down the chart
(Critical Miss, Miss, Weak Hit, Strong Hit, Critical Hit). Unless a rule says otherwise a
step never makes a critical: stepping up stops at Strong Hit, stepping down stops at Miss.
Interpretation: a result that is already critical may step away from it (a critical hit
at -1 is a strong hit), and one already critical stays so when stepped further outward.

>>> check = AbilityCheck(modifier=3)
>>> check.tier_odds()[Tier.STRONG_HIT]
Fraction(1, 4)
>>> step_result(Tier.WEAK_HIT, 2)
<Tier.STRONG_HIT: 3>
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from companion import tables
from companion.dice import Distribution, odds, roll
from companion.dice.roller import Roll
from companion.errors import RuleError
from companion.rule_rolls import RuleCall, declare

__all__ = [
    "RESULTS_TABLE",
    "AbilityCheck",
    "AbilityCheckResult",
    "Thresholds",
    "Tier",
    "step_result",
    "thresholds",
    "tier_of",
]

#: The id of the result tiers table (1d20, keyed for a bare die).
RESULTS_TABLE = "mm_ability_check_results"

#: A modifier or DC this large is surely a typo; refused rather than computed.
LIMIT = 1000


class Tier(enum.IntEnum):
    """A result on the chart, worst to best (the order effect steps walk)."""

    CRITICAL_MISS = 0
    MISS = 1
    WEAK_HIT = 2
    STRONG_HIT = 3
    CRITICAL_HIT = 4

    @property
    def label(self) -> str:
        """The seed's name: ``"Critical Hit"``..."""
        return self.name.replace("_", " ").title()

    @property
    def is_hit(self) -> bool:
        """Weak, strong and critical hits succeed."""
        return self >= Tier.WEAK_HIT

    @classmethod
    def from_label(cls, text: str) -> Tier:
        key = text.strip().upper().replace(" ", "_").replace("-", "_")
        try:
            return cls[key]
        except KeyError:
            names = ", ".join(t.label for t in cls)
            raise RuleError(f"Ability Checks: no result called {text!r} ({names})") from None


@dataclass(frozen=True)
class Thresholds:
    """What the results table says, read once: faces of the criticals, totals of the hits."""

    critical_hit_face: int
    critical_miss_face: int
    weak_hit_at: int
    strong_hit_at: int

    @property
    def strong_above_dc(self) -> int:
        """How far above the DC a strong hit starts (8 in the table)."""
        return self.strong_hit_at - self.weak_hit_at


@functools.cache
def thresholds() -> Thresholds:
    """The thresholds read from the results table's rows (rules are data once)."""
    table = tables.get(RESULTS_TABLE)
    lowest: dict[Tier, int] = {}
    for row in table.rows:
        covers = row.covers
        assert isinstance(covers, frozenset)
        lowest[Tier.from_label(row.values["Result"])] = min(covers)
    return Thresholds(lowest[Tier.CRITICAL_HIT], lowest[Tier.CRITICAL_MISS],
                      lowest[Tier.WEAK_HIT], lowest[Tier.STRONG_HIT])


def tier_of(natural: int, total: int, dc: int | None = None) -> Tier:
    """The tier of a roll: criticals by the natural face, the rest by total against the DC."""
    t = thresholds()
    if natural == t.critical_hit_face:
        return Tier.CRITICAL_HIT
    if natural == t.critical_miss_face:
        return Tier.CRITICAL_MISS
    weak = t.weak_hit_at if dc is None else dc
    if total >= weak + t.strong_above_dc:
        return Tier.STRONG_HIT
    if total >= weak:
        return Tier.WEAK_HIT
    return Tier.MISS


def step_result(tier: Tier, steps: int, *, allow_critical: bool = False) -> Tier:
    """``tier`` moved ``steps`` rows up (positive) or down the chart (see the module docs)."""
    if abs(steps) > LIMIT:
        raise RuleError(f"Effect Steps: {steps} steps is beyond ±{LIMIT}")
    top = Tier.CRITICAL_HIT if allow_critical else Tier.STRONG_HIT
    bottom = Tier.CRITICAL_MISS if allow_critical else Tier.MISS
    value = int(tier)
    if steps > 0:
        value = max(value, min(value + steps, top))
    elif steps < 0:
        value = min(value, max(value + steps, bottom))
    return Tier(value)


@dataclass(frozen=True)
class AbilityCheck:
    """An ability check: d20 (or 2d20 with advantage/disadvantage) + modifier vs a DC.

    ``modifier`` is the ability plus every other bonus and penalty; ``dc`` ``None`` means
    the table's own 10; ``steps`` are effect steps applied to the result. ``fails``: why
    the check fails automatically (Blinded on a check that relies on sight...), or ``""``:
    such a check is a Miss for certain and rolls no die.
    """

    modifier: int = 0
    dc: int | None = None
    advantage: bool = False
    disadvantage: bool = False
    steps: int = 0
    allow_critical: bool = False
    fails: str = ""

    def __post_init__(self) -> None:
        if abs(self.modifier) > LIMIT:
            raise RuleError(f"Ability Checks: modifier {self.modifier} is beyond ±{LIMIT}")
        if self.dc is not None and abs(self.dc) > LIMIT:
            raise RuleError(f"Difficulty Class: DC {self.dc} is beyond ±{LIMIT}")
        step_result(Tier.WEAK_HIT, self.steps)

    @property
    def dice(self) -> str:
        """``1d20``, or ``2d20kh1`` / ``2d20kl1`` with (uncancelled) advantage/disadvantage."""
        if self.advantage and not self.disadvantage:
            return "2d20kh1"
        if self.disadvantage and not self.advantage:
            return "2d20kl1"
        return "1d20"

    @property
    def expression(self) -> str:
        if not self.modifier:
            return self.dice
        return f"{self.dice} {'+' if self.modifier > 0 else '-'} {abs(self.modifier)}"

    @property
    def effective_dc(self) -> int:
        return thresholds().weak_hit_at if self.dc is None else self.dc

    def natural_distribution(self) -> Distribution:
        """Exact odds of the kept d20."""
        return odds(self.dice)

    def result_for(self, natural: int) -> tuple[Tier, Tier]:
        """(tier before steps, tier after steps) for a kept d20 face."""
        base = tier_of(natural, natural + self.modifier, self.dc)
        return base, step_result(base, self.steps, allow_critical=self.allow_critical)

    def tier_odds(self) -> dict[Tier, Fraction]:
        """Exact chance of every tier (after effect steps), worst first; sums to 1."""
        out = {tier: Fraction(0) for tier in Tier}
        if self.fails:
            out[Tier.MISS] = Fraction(1)  # no roll: a failure for certain
            return out
        for natural, p in self.natural_distribution():
            out[self.result_for(natural)[1]] += p
        return out

    def hit_chance(self) -> Fraction:
        """Exact chance of any hit (weak, strong or critical)."""
        return sum((p for tier, p in self.tier_odds().items() if tier.is_hit), Fraction(0))

    def roll(self, *, seed: int | None = None, rng: random.Random | None = None
             ) -> AbilityCheckResult:
        """Roll once (seedable); a check that ``fails`` rolls nothing and is a Miss."""
        if self.fails:
            return AbilityCheckResult(self, None, None, None, Tier.MISS, Tier.MISS)
        rolled = roll(self.expression, seed=seed, rng=rng)
        kept = [d.value for d in rolled.groups[0].dice if d.counted]
        natural = kept[0]
        base, tier = self.result_for(natural)
        return AbilityCheckResult(self, rolled, natural, rolled.total, base, tier)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "modifier": self.modifier, "dc": self.effective_dc, "advantage": self.advantage,
            "disadvantage": self.disadvantage, "steps": self.steps, "expr": self.expression}
        if self.fails:
            out["fails"] = self.fails
        return out


@dataclass(frozen=True)
class AbilityCheckResult:
    """A rolled check: the dice, the kept natural face, the total and its tier. An
    automatic failure (the check ``fails``) has no dice, face or total: ``None``."""

    check: AbilityCheck
    roll: Roll | None
    natural: int | None
    total: int | None
    base_tier: Tier
    tier: Tier

    @property
    def automatic(self) -> bool:
        """Whether the result came without a roll (an automatic failure)."""
        return self.roll is None

    def __str__(self) -> str:
        if self.roll is None:
            return f"automatic failure, no roll ({self.check.fails}): {self.tier.label}"
        stepped = (f" → {self.tier.label} ({self.check.steps:+d} step"
                   f"{'s' if abs(self.check.steps) != 1 else ''})"
                   if self.check.steps else "")
        return (f"{self.roll} vs DC {self.check.effective_dc}: {self.base_tier.label}"
                f"{stepped}")

    def to_dict(self) -> dict[str, Any]:
        return {**self.check.to_dict(), "natural": self.natural, "total": self.total,
                "base_tier": self.base_tier.label, "tier": self.tier.label,
                "roll": None if self.roll is None else self.roll.to_dict(),
                "text": str(self)}


def _roll_declared(args: dict[str, Any], rng: random.Random) -> AbilityCheckResult:
    return AbilityCheck(**args).roll(rng=rng)


def _declared_result(value: AbilityCheckResult) -> dict[str, Any]:
    return {"natural": value.natural, "total": value.total,
            "base_tier": value.base_tier.label, "tier": value.tier.label}


def check_call(check: AbilityCheck, lead: str = "") -> RuleCall:
    """A check with no adventurer (it moves no tracker) as a declared rule roll
    ([companion.rule_rolls][]): ``verify`` rolls it again and compares its result."""
    return RuleCall("monsters_and_magic.ability_checks.check", dataclasses.asdict(check),
                    lead)


declare("monsters_and_magic.ability_checks.check", _roll_declared, _declared_result)
