"""Checks: dice, modifiers and a target, answering "roll it" and "what are the odds".

A [Check][companion.checks.Check] is the generic shape every ruleset's check fits: base
dice (``"1d20"``, ``"2d20kh1"``), a flat modifier, optional extra dice added or
subtracted (an advantage die, a bane), and a target met either at or above
(``"at_least"``, the usual "meet or beat") or at or below (``"at_most"``, roll-under
saves). It has no rules of its own; a
ruleset builds the right Check and reads the result.

>>> from fractions import Fraction
>>> c = Check("1d20", modifier=2, target=15)
>>> c.expression
'1d20 + 2'
>>> c.chance()
Fraction(2, 5)
>>> r = c.roll(seed=4)
>>> (r.total, r.success, r.margin) == (r.roll.total, r.total >= 15, r.total - 15)
True

Contests compare two checks: [Check.contest][companion.checks.Check.contest] gives the
exact chances to win, tie and lose; [Check.roll_contest][companion.checks.Check.roll_contest]
rolls both.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from companion.errors import RuleError

if TYPE_CHECKING:
    from companion.dice import Distribution, Roll

Meet = Literal["at_least", "at_most"]

_EXTRA = re.compile(r"^[+-]\s*\d*d\d+$")


@dataclass(frozen=True)
class Check:
    """A check: ``dice`` + ``modifier`` ± each of ``extra`` against ``target``.

    ``extra`` holds signed dice terms such as ``"+1d4"`` or ``"-1d6"``. ``target`` may be
    ``None`` for a roll with no fixed difficulty (a contest, or just a total).
    ``meet="at_least"`` succeeds on ``total >= target``; ``"at_most"`` on ``total <= target``.
    """

    dice: str
    modifier: int = 0
    extra: tuple[str, ...] = ()
    target: int | None = None
    meet: Meet = "at_least"
    label: str = ""

    def __post_init__(self) -> None:
        for term in self.extra:
            if not _EXTRA.match(term.strip()):
                raise RuleError(f"check: extra dice {term!r} must look like '+1d4' or '-1d6'")
        if self.meet not in ("at_least", "at_most"):
            raise RuleError(f"check: meet must be 'at_least' or 'at_most', got {self.meet!r}")

    @property
    def expression(self) -> str:
        """The whole check as one dice expression (``"2d20kh1 + 3 - 1d6"``)."""
        parts = [self.dice.strip()]
        if self.modifier:
            parts.append(f"{'+' if self.modifier > 0 else '-'} {abs(self.modifier)}")
        for term in self.extra:
            term = term.strip()
            parts.append(f"{term[0]} {term[1:].strip()}")
        return " ".join(parts)

    # -- odds --------------------------------------------------------------------------

    def distribution(self) -> Distribution:
        """Exact chance of every total."""
        from companion import dice

        return dice.odds(self.expression)

    def natural_distribution(self) -> Distribution:
        """Exact chance of every face the base dice keep (the "natural" roll)."""
        from companion import dice

        return dice.odds(self.dice)

    def _need_target(self) -> int:
        if self.target is None:
            raise RuleError("check: this check has no target (difficulty) to succeed against")
        return self.target

    def succeeds(self, total: int) -> bool:
        target = self._need_target()
        return total >= target if self.meet == "at_least" else total <= target

    def chance(self) -> Fraction:
        """Exact chance of success against ``target``."""
        target = self._need_target()
        dist = self.distribution()
        return dist.at_least(target) if self.meet == "at_least" else dist.at_most(target)

    def margin_distribution(self) -> Distribution:
        """Exact chance of every margin (total minus target; positive = by how much it beat)."""
        target = self._need_target()
        dist = self.distribution()
        return dist - target if self.meet == "at_least" else (dist - target).map(lambda v: -v)

    def contest(self, other: Check) -> ContestOdds:
        """Exact chances that this check's total beats, ties or loses to ``other``'s."""
        difference = self.distribution() - other.distribution()
        win = difference.probability(lambda v: v > 0)
        tie = difference.p(0)
        return ContestOdds(win, tie, 1 - win - tie)

    # -- rolling -----------------------------------------------------------------------

    def roll(self, *, seed: int | None = None, rng: random.Random | None = None) -> CheckResult:
        """Roll the check once (seedable); the result explains itself."""
        from companion import dice

        rolled = dice.roll(self.expression, seed=seed, rng=rng)
        kept = [d.value for d in rolled.groups[0].dice if d.counted] if rolled.groups else []
        natural = kept[0] if len(kept) == 1 else None
        if self.target is None:
            return CheckResult(self, rolled, rolled.total, natural, None, None)
        success = self.succeeds(rolled.total)
        margin = rolled.total - self.target
        if self.meet == "at_most":
            margin = -margin
        return CheckResult(self, rolled, rolled.total, natural, success, margin)

    def roll_contest(self, other: Check, *, seed: int | None = None,
                     rng: random.Random | None = None) -> ContestResult:
        """Roll this check against ``other`` (same RNG, this one first)."""
        rng = rng if rng is not None else random.Random(seed)
        return ContestResult(self.roll(rng=rng), other.roll(rng=rng))


@dataclass(frozen=True)
class ContestOdds:
    """Exact chances of a contest: ``win``, ``tie``, ``lose`` (they sum to 1)."""

    win: Fraction
    tie: Fraction
    lose: Fraction


@dataclass(frozen=True)
class CheckResult:
    """One rolled check: the dice, the total, the natural face, success and margin.

    ``natural`` is the face the base dice kept (``None`` if they keep several);
    ``success`` and ``margin`` are ``None`` without a target.
    """

    check: Check
    roll: Roll
    total: int
    natural: int | None
    success: bool | None
    margin: int | None
    notes: tuple[str, ...] = field(default=())

    def __str__(self) -> str:
        text = str(self.roll)
        if self.success is not None and self.check.target is not None:
            sign = "≥" if self.check.meet == "at_least" else "≤"
            verdict = "success" if self.success else "failure"
            text += f" vs {sign} {self.check.target}: {verdict} (margin {self.margin:+d})"
        return text + "".join(f"; {note}" for note in self.notes)

    def to_dict(self) -> dict[str, Any]:
        return {"expr": self.check.expression, "total": self.total, "natural": self.natural,
                "target": self.check.target, "success": self.success, "margin": self.margin,
                "roll": self.roll.to_dict(), "notes": list(self.notes), "text": str(self)}


@dataclass(frozen=True)
class ContestResult:
    """Two rolled checks; ``margin`` is first total minus second, ``winner`` 1, 2 or 0 (tie)."""

    first: CheckResult
    second: CheckResult

    @property
    def margin(self) -> int:
        return self.first.total - self.second.total

    @property
    def winner(self) -> int:
        return 1 if self.margin > 0 else 2 if self.margin < 0 else 0

    def __str__(self) -> str:
        outcome = {1: "first wins", 2: "second wins", 0: "tie"}[self.winner]
        return f"{self.first.roll} vs {self.second.roll}: {outcome} (margin {self.margin:+d})"

    def to_dict(self) -> dict[str, Any]:
        return {"first": self.first.to_dict(), "second": self.second.to_dict(),
                "margin": self.margin, "winner": self.winner}
