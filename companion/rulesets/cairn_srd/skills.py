"""Skill tests and the yield die.

A task needs **skill, time and tools** (the fiction may stand in for one of them):

- with none or one of the three the attempt simply fails;
- with two, roll a d6: 5+ succeeds (a 2-in-6), shifted by skill, surroundings and help;
- with all three it succeeds.

The referee states the cost of failure first: a broken tool, a comrade in danger, lost
time and a new complication, damage or Fatigue. Roll only when failure is interesting.

When a successful task produces something (hunting, harvesting, brewing, cooking), its
**yield die** gives the amount: d4 with two of the three, d6 with all three; good
conditions, fine tools, training or help each step it up one size, to at most d12.

Interpretation: a situational modifier shifts the 5+ target (``+1`` makes it 4+); the d6
still fails on a natural 1 and succeeds on a 6. A situational modifier is at most
[MAX_MODIFIER][companion.rulesets.cairn_srd.skills.MAX_MODIFIER] either way (past +3 or -1
nothing changes anyway), and a failed task yields nothing.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from companion import dice
from companion.dice.roller import make_rng
from companion.errors import RuleError
from companion.rule_rolls import RuleCall, declare

BASE_TARGET = 5
YIELD_DICE: tuple[int, ...] = (4, 6, 8, 10, 12)
MAX_MODIFIER = 6
"""The largest situational modifier a task takes, either way."""
MAX_STEPS_UP = len(YIELD_DICE) - 1
"""Steps up that reach the d12 from a d4."""


def _have(have: int) -> None:
    if not 0 <= have <= 3:
        raise RuleError(f"Skill Test Procedure: count 0-3 of skill, time and tools, got {have}")


#: The target no d6 face reaches: a test that needs it fails with two of the three.
OUT_OF_REACH = 7


def skill_target(modifier: int = 0, *, natural_six: bool = True) -> int:
    """The d6 face to reach with two of the three, after the situational ``modifier``.

    With ``natural_six`` false (navigation) a penalty may push the target past 6, to
    ``OUT_OF_REACH``: no face succeeds.

    >>> skill_target(-2), skill_target(-2, natural_six=False), skill_target(-1, natural_six=False)
    (6, 7, 6)
    """
    return min(6 if natural_six else OUT_OF_REACH, max(2, BASE_TARGET - modifier))


def skill_chance(have: int, modifier: int = 0, *, natural_six: bool = True) -> Fraction:
    """Exact chance to succeed with ``have`` of skill, time and tools."""
    _have(have)
    if have <= 1:
        return Fraction(0)
    if have == 3:
        return Fraction(1)
    return Fraction(OUT_OF_REACH - skill_target(modifier, natural_six=natural_six), 6)


@dataclass(frozen=True)
class SkillResult:
    have: int
    target: int
    roll: int | None
    success: bool

    def __str__(self) -> str:
        if self.roll is None:
            outcome = "success" if self.success else "failure"
            return f"{self.have} of skill/time/tools: automatic {outcome}"
        return f"d6 = {self.roll} vs {self.target}+: {'success' if self.success else 'failure'}"


def skill_test(have: int, modifier: int = 0, *, rng: random.Random | None = None,
               seed: int | None = None, natural_six: bool = True) -> SkillResult:
    """Resolve a skill test (the d6 is rolled only with exactly two of the three; see
    [skill_target][companion.rulesets.cairn_srd.skills.skill_target] for ``natural_six``)."""
    _have(have)
    if have != 2:
        return SkillResult(have, 0, None, have == 3)
    target = skill_target(modifier, natural_six=natural_six)
    value = dice.roll("1d6", rng=make_rng(seed, rng)).total
    return SkillResult(have, target, value, value >= target)


def yield_die(have: int, steps_up: int = 0) -> int:
    """Sides of the yield die: d4 (two) or d6 (three), stepped up, at most d12."""
    _have(have)
    if have < 2:
        raise RuleError("Yield: with fewer than two of skill, time, tools the task yields nothing")
    if steps_up < 0:
        raise RuleError(f"Yield: steps up cannot be negative, got {steps_up}")
    start = 0 if have == 2 else 1
    return YIELD_DICE[min(len(YIELD_DICE) - 1, start + steps_up)]


def roll_yield(have: int, steps_up: int = 0, *, rng: random.Random | None = None,
               seed: int | None = None) -> int:
    """Roll the yield of a successful task."""
    return dice.roll(f"1d{yield_die(have, steps_up)}", rng=make_rng(seed, rng)).total


def check_modifier(modifier: int) -> int:
    """A situational modifier, checked: within
    ±[MAX_MODIFIER][companion.rulesets.cairn_srd.skills.MAX_MODIFIER]."""
    if isinstance(modifier, bool) or not -MAX_MODIFIER <= modifier <= MAX_MODIFIER:
        raise RuleError(f"Skill Test Procedure: a situational modifier runs "
                        f"-{MAX_MODIFIER} to +{MAX_MODIFIER}, got {modifier}")
    return modifier


@dataclass(frozen=True)
class TaskResult:
    """A skill test and, if it succeeded and produces something, its yield."""

    test: SkillResult
    chance: Fraction
    yield_die: int | None = None
    yield_roll: int | None = None

    def __str__(self) -> str:
        text = str(self.test)
        if self.yield_roll is not None:
            text += f"; yield d{self.yield_die} = {self.yield_roll}"
        elif self.yield_die is not None:
            text += "; nothing is produced"
        return text


def task(have: int, modifier: int = 0, *, produces: bool = False, steps_up: int = 0,
         rng: random.Random | None = None, seed: int | None = None) -> TaskResult:
    """A whole task: the skill test, then (``produces``) the yield die of a success.

    >>> task(3, produces=True, steps_up=1, seed=1).yield_die
    8
    >>> str(task(1, produces=True))
    '1 of skill/time/tools: automatic failure; nothing is produced'
    """
    check_modifier(modifier)
    if produces:
        if not 0 <= steps_up <= MAX_STEPS_UP:
            raise RuleError(f"Yield: steps up run 0-{MAX_STEPS_UP} (a d12 at most), "
                            f"got {steps_up}")
    elif steps_up:
        raise RuleError("Yield: steps up apply only to a task that produces something")
    r = make_rng(seed, rng)
    test = skill_test(have, modifier, rng=r)
    chance = skill_chance(have, modifier)
    if not produces:
        return TaskResult(test, chance)
    if not test.success:
        return TaskResult(test, chance, yield_die=0 if have < 2 else yield_die(have, steps_up))
    die = yield_die(have, steps_up)
    return TaskResult(test, chance, die, dice.roll(f"1d{die}", rng=r).total)


def _task_declared(args: dict[str, Any], rng: random.Random) -> TaskResult:
    return task(args["have"], args["modifier"], produces=bool(args["produces"]),
                steps_up=args["steps_up"], rng=rng)


def _task_result(value: TaskResult) -> dict[str, Any]:
    return {"roll": value.test.roll, "target": value.test.target,
            "success": value.test.success, "yield_die": value.yield_die,
            "yield_roll": value.yield_roll}


def task_call(have: int, modifier: int = 0, *, produces: bool = False,
              steps_up: int = 0) -> RuleCall:
    """A task (it moves no tracker) as a declared rule roll ([companion.rule_rolls][]):
    ``verify`` rolls it again and compares the die, the success and the yield."""
    return RuleCall("cairn_srd.skills.task", {"have": have, "modifier": modifier,
                                              "produces": produces, "steps_up": steps_up})


declare("cairn_srd.skills.task", _task_declared, _task_result)
