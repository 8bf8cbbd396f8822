"""Checks of the plot-points rules: ability dice, proficiency, advantage dice, difficulty.

The five steps of a check, as code:

1. Ability dice: a *weak* ability rolls two d20 and keeps the lower, an *average* one a
   single d20, a *strong* one two d20 keeping the higher (``ABILITY_DICE``, read from
   ``lookup_tables.toml``).
2. Add the proficiency bonus, if the character has the skill or tool.
3. Net advantage (advantages minus disadvantages) picks one extra die, added for advantage
   and subtracted for disadvantage
   ([advantage_die][companion.rulesets.plot_points.checks.advantage_die]; the dice are
   ``ADVANTAGE_DICE``).
4. Compare: a static check succeeds when the result is at least the difficulty; a contest
   is won by the higher result.
5. The margin: result minus difficulty, or minus the opponent's result (negative when
   failing or losing).

>>> PlotCheck("strong", proficiency=2, advantage=1, difficulty=15).expression
'2d20kh1 + 2 + 1d4'
>>> PlotCheck("average", difficulty=11).chance()
Fraction(1, 2)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from companion.checks import Check, CheckResult, ContestOdds, ContestResult
from companion.errors import RuleError, quoted
from companion.rule_rolls import RuleCall, declare
from companion.rulesets.plot_points.lookup import ABILITIES, ABILITY_DICE, ADVANTAGE_DICE

Ability = str
"""An ability strength: one of [ABILITIES][companion.rulesets.plot_points.lookup.ABILITIES]."""

#: Public helpers no app or command calls directly, and why (see tests/test_every_face.py).
LIBRARY_ONLY: dict[str, str] = {
    "net_advantage": "the apps and the CLI take the net count (advantages minus "
                     "disadvantages) directly",
}

#: A net advantage this large is surely a typo; refused rather than silently capped.
MAX_ADVANTAGE = 99

#: Largest proficiency bonus (either sign) a check accepts: beyond it, surely a typo.
MAX_PROFICIENCY = 1000

#: Largest difficulty (either sign) a check accepts: beyond it, surely a typo.
MAX_DIFFICULTY = 1000


def ability_text() -> str:
    """The ability strengths as a player reads them: ``"weak, average or strong"``."""
    return ", ".join(ABILITIES[:-1]) + f" or {ABILITIES[-1]}" if len(ABILITIES) > 1 else (
        ABILITIES[0])


def net_advantage(advantages: int, disadvantages: int) -> int:
    """Each advantage cancels one disadvantage; positive = advantage, negative = disadvantage."""
    if advantages < 0 or disadvantages < 0:
        raise RuleError("Advantage & Disadvantage: counts cannot be negative")
    return advantages - disadvantages


def advantage_die(net: int) -> str:
    """The signed extra die for a net advantage: ``"+1d4"``, ``"-1d12"``, or ``""`` for none.

    >>> [advantage_die(n) for n in (0, 1, 2, -3, 4, 7)]
    ['', '+1d4', '+1d6', '-1d8', '+1d10', '+1d12']
    """
    if isinstance(net, bool) or not isinstance(net, int):
        raise RuleError(f"Advantage & Disadvantage: the net advantage is a whole number, "
                        f"not {quoted(str(net))}")
    if abs(net) > MAX_ADVANTAGE:
        raise RuleError(f"Advantage & Disadvantage: net {net} is beyond ±{MAX_ADVANTAGE}")
    if net == 0:
        return ""
    sides = ADVANTAGE_DICE[min(abs(net), max(ADVANTAGE_DICE))]
    return f"{'+' if net > 0 else '-'}1d{sides}"


def _ability(value: str) -> Ability:
    if value not in ABILITY_DICE:
        raise RuleError(f"How To Make Checks: ability must be {ability_text()}, "
                        f"got {quoted(str(value))}")
    return value


@dataclass(frozen=True)
class PlotCheck:
    """A check: ability strength, proficiency bonus, net advantage, difficulty.

    ``advantage`` is the net count (negative for disadvantage); ``difficulty`` is ``None``
    for a contest.
    """

    ability: Ability = "average"
    proficiency: int = 0
    advantage: int = 0
    difficulty: int | None = None

    def __post_init__(self) -> None:
        _ability(self.ability)
        advantage_die(self.advantage)
        for what, value, limit in (("proficiency", self.proficiency, MAX_PROFICIENCY),
                                   ("difficulty", self.difficulty, MAX_DIFFICULTY)):
            if value is None and what == "difficulty":
                continue
            if isinstance(value, bool) or not isinstance(value, int) or abs(value) > limit:
                raise RuleError(f"How To Make Checks: {what} must be a whole number from "
                                f"-{limit} to {limit}, not {value}")

    def check(self) -> Check:
        """The generic [Check][companion.checks.Check] this check rolls."""
        extra = advantage_die(self.advantage)
        return Check(ABILITY_DICE[self.ability], self.proficiency,
                     (extra,) if extra else (), self.difficulty, "at_least")

    @property
    def expression(self) -> str:
        return self.check().expression

    def chance(self) -> Fraction:
        """Exact chance that a static check succeeds (result ≥ difficulty)."""
        if self.difficulty is None:
            raise RuleError("How To Make Checks: a static check needs a difficulty")
        return self.check().chance()

    def natural_chances(self) -> tuple[Fraction, Fraction]:
        """Exact chances that the kept d20 shows 1 and 20 (see
        [PlotCheckResult][companion.rulesets.plot_points.checks.PlotCheckResult])."""
        dist = self.check().natural_distribution()
        return dist.p(1), dist.p(20)

    def contest(self, other: PlotCheck) -> ContestOdds:
        """Exact chances that this side's result beats, ties or loses to ``other``'s.

        Interpretation: the seed says the higher result wins and leaves ties open; a tie
        is reported as such (the GM decides, e.g. the status quo holds).
        """
        return self.check().contest(other.check())

    def roll_contest(self, other: PlotCheck, *, seed: int | None = None,
                     rng: random.Random | None = None) -> ContestResult:
        """Roll a contest against ``other`` (this side first); the margin is this side's
        result minus the other's, and the higher result wins."""
        return self.check().roll_contest(other.check(), seed=seed, rng=rng)

    def roll(self, *, seed: int | None = None, rng: random.Random | None = None
             ) -> PlotCheckResult:
        """Roll the check once (seedable)."""
        return PlotCheckResult(self, self.check().roll(seed=seed, rng=rng))

    def to_dict(self) -> dict[str, Any]:
        return {"ability": self.ability, "proficiency": self.proficiency,
                "advantage": self.advantage, "difficulty": self.difficulty,
                "expr": self.expression}


@dataclass(frozen=True)
class PlotCheckResult:
    """A rolled check with its special dice results.

    Interpretation: "the d20 lands on a 1 / 20" means the d20 that counts — for a weak or
    strong ability, the kept one of the two. A weak roll of 1 and 20 keeps the 1: a natural
    1; a strong roll of 1 and 20 keeps the 20: a natural 20.
    """

    check: PlotCheck
    result: CheckResult

    @property
    def total(self) -> int:
        return self.result.total

    @property
    def natural(self) -> int:
        natural = self.result.natural
        assert natural is not None  # the ability dice always keep exactly one d20
        return natural

    @property
    def natural_one(self) -> bool:
        return self.natural == 1

    @property
    def natural_twenty(self) -> bool:
        return self.natural == 20

    @property
    def success(self) -> bool | None:
        return self.result.success

    @property
    def margin(self) -> int | None:
        return self.result.margin

    def __str__(self) -> str:
        special = " — natural 1" if self.natural_one else (
            " — natural 20" if self.natural_twenty else "")
        return str(self.result) + special

    def to_dict(self) -> dict[str, Any]:
        return {**self.result.to_dict(), "check": self.check.to_dict(),
                "natural_one": self.natural_one, "natural_twenty": self.natural_twenty,
                "text": str(self)}


def _roll_declared(args: dict[str, Any], rng: random.Random) -> PlotCheckResult:
    return PlotCheck(args["ability"], args["proficiency"], args["advantage"],
                     args["difficulty"]).roll(rng=rng)


def _declared_result(value: PlotCheckResult) -> dict[str, Any]:
    return {"total": value.total, "natural": value.natural, "success": value.success,
            "margin": value.margin}


def check_call(check: PlotCheck, lead: str = "") -> RuleCall:
    """A check as a declared rule roll ([companion.rule_rolls][]): the roll's entry
    records it, and ``verify`` rolls it again and compares its result."""
    return RuleCall("plot_points.checks.check", {
        "ability": check.ability, "proficiency": check.proficiency,
        "advantage": check.advantage, "difficulty": check.difficulty}, lead)


def _contest_declared(args: dict[str, Any], rng: random.Random) -> tuple[str, str,
                                                                          ContestResult]:
    sides = [PlotCheck(s["ability"], s["proficiency"], s["advantage"])
             for s in (args["mine"], args["theirs"])]
    return str(args["who"]), str(args["opponent"]), sides[0].roll_contest(sides[1], rng=rng)


def _contest_result(value: tuple[str, str, ContestResult]) -> dict[str, Any]:
    result = value[2]
    return {"first": result.first.total, "second": result.second.total,
            "margin": result.margin, "winner": result.winner}


def _contest_text(value: tuple[str, str, ContestResult]) -> str:
    who, opponent, result = value
    return (f"contest {who} {result.first.total} vs {opponent} {result.second.total} "
            f"(margin {result.margin:+d})")


def contest_call(who: str, mine: PlotCheck, opponent: str, theirs: PlotCheck) -> RuleCall:
    """A contest rolled off the table (it moves no tracker) as a declared rule roll: its
    value is ``(who, opponent, ContestResult)``; ``verify`` rolls it again."""
    def side(c: PlotCheck) -> dict[str, Any]:
        return {"ability": c.ability, "proficiency": c.proficiency, "advantage": c.advantage}

    return RuleCall("plot_points.checks.contest", {"who": who, "opponent": opponent,
                                                   "mine": side(mine),
                                                   "theirs": side(theirs)})


declare("plot_points.checks.contest", _contest_declared, _contest_result, _contest_text)


# A check moves no tracker when it is rolled off the table (a hidden check): declared so
# that its result is made again from the log alone.
declare("plot_points.checks.check", _roll_declared, _declared_result)
