"""Contests: two creatures' d20 rolls set against each other, with exact odds.

Several combat options (disarm, grapple, escape, overrun, shove, shove aside, tumble,
climbing onto a bigger creature and being dislodged) are settled by a contest: each side
rolls d20 and adds its modifier, and the higher total wins. Advantage rolls two d20 and
keeps the higher (``2d20kh1``), disadvantage keeps the lower (``2d20kl1``); a side with
both rolls one d20.

Interpretation: on a tie the situation stays as it was, so the side *resisting* the
change wins (the target of a grapple, the grappler when someone tries to escape, the
creature being overrun...). This is the 5e rule for contests; the seed does not restate it.

Interpretation: when the seed lets a creature choose between two skills (Strength
(Athletics) or Dexterity (Acrobatics)), it picks the one with the higher modifier.

Each side is a framework [Check][companion.checks.Check]; the odds come from the dice
engine's exact distributions, never from typed-in numbers.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from enum import Enum, IntEnum
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from companion.checks import Check
from companion.errors import RuleError
from companion.rule_rolls import RuleCall, declare

if TYPE_CHECKING:
    from companion.dice import Distribution

#: Public helpers no app or command calls directly, and why (see tests/test_every_face.py).
LIBRARY_ONLY: dict[str, str] = {
    "d20_odds": "a building block of the contest odds the apps and CLI show",
}

__all__ = [
    "Combatant",
    "Contest",
    "ContestOdds",
    "ContestResult",
    "Edge",
    "Side",
    "Size",
    "combine_edges",
    "d20_expression",
    "d20_odds",
]


class Size(IntEnum):
    """Creature sizes, smallest first, so sizes compare with ``<`` and subtract."""

    TINY = 0
    SMALL = 1
    MEDIUM = 2
    LARGE = 3
    HUGE = 4
    GARGANTUAN = 5

    @classmethod
    def parse(cls, text: str | Size) -> Size:
        """A size from its name (``"large"``), as a player types it."""
        if isinstance(text, Size):
            return text
        try:
            return cls[str(text).strip().upper()]
        except KeyError:
            names = ", ".join(s.name.lower() for s in cls)
            raise RuleError(f"sizes: unknown size {text!r} (known: {names})") from None

    @property
    def squares(self) -> int:
        """Side of the square space it takes on a 5-foot grid (Tiny and Small share one)."""
        return {3: 2, 4: 3, 5: 4}.get(int(self), 1)


class Edge(Enum):
    """Advantage, disadvantage or neither on a d20 roll."""

    NORMAL = "normal"
    ADVANTAGE = "advantage"
    DISADVANTAGE = "disadvantage"


def combine_edges(*edges: Edge) -> Edge:
    """Any advantage together with any disadvantage cancels to a single plain d20."""
    advantage = Edge.ADVANTAGE in edges
    disadvantage = Edge.DISADVANTAGE in edges
    if advantage == disadvantage:
        return Edge.NORMAL
    return Edge.ADVANTAGE if advantage else Edge.DISADVANTAGE


def d20_expression(modifier: int, edge: Edge = Edge.NORMAL) -> str:
    """The dice expression of a d20 roll: ``1d20+3``, ``2d20kh1-1``..."""
    if isinstance(modifier, bool) or not isinstance(modifier, int):
        raise RuleError(f"contests: a modifier must be a whole number, got {modifier!r}")
    if not -30 <= modifier <= 30:
        raise RuleError(f"contests: modifier {modifier} is outside -30..30")
    base = {Edge.NORMAL: "1d20", Edge.ADVANTAGE: "2d20kh1", Edge.DISADVANTAGE: "2d20kl1"}[edge]
    return base if modifier == 0 else f"{base}{modifier:+d}"


def d20_odds(modifier: int, edge: Edge = Edge.NORMAL) -> Distribution:
    """Exact distribution of a d20 roll's total (from the dice engine)."""
    from companion.dice import odds

    return odds(d20_expression(modifier, edge))


@dataclass(frozen=True)
class Side:
    """One side of a contest: who, which check, its modifier and its edge."""

    who: str
    check: str
    modifier: int
    edge: Edge = Edge.NORMAL

    @property
    def expression(self) -> str:
        return d20_expression(self.modifier, self.edge)

    def as_check(self) -> Check:
        """This side's roll as a framework [Check][companion.checks.Check] (no target)."""
        d20_expression(self.modifier, self.edge)  # validates the modifier
        dice = {Edge.NORMAL: "1d20", Edge.ADVANTAGE: "2d20kh1",
                Edge.DISADVANTAGE: "2d20kl1"}[self.edge]
        return Check(dice, modifier=self.modifier, label=f"{self.who}: {self.check}")

    def __str__(self) -> str:
        edge = "" if self.edge is Edge.NORMAL else f" with {self.edge.value}"
        return f"{self.who}: {self.check} {self.modifier:+d}{edge}"


@dataclass(frozen=True)
class ContestOdds:
    """Exact chances of a contest: the initiator wins, the totals tie, the resister wins.

    ``resister`` includes ties (the status quo holds on a tie).
    """

    initiator: Fraction
    tie: Fraction
    resister: Fraction


@dataclass(frozen=True)
class ContestResult:
    """One rolled contest."""

    contest: Contest
    initiator_total: int | None
    resister_total: int | None
    initiator_wins: bool

    def __str__(self) -> str:
        c = self.contest
        if self.initiator_total is None:
            return f"{c.rule}: {c.initiator.who} succeeds automatically ({c.automatic})"
        winner = c.initiator.who if self.initiator_wins else c.resister.who
        tie = " (tie: status quo)" if self.initiator_total == self.resister_total else ""
        return (f"{c.rule}: {c.initiator.who} {self.initiator_total} vs "
                f"{c.resister.who} {self.resister_total}: {winner} wins{tie}")


@dataclass(frozen=True)
class Contest:
    """A contest between an initiator (who tries to change things) and a resister.

    ``automatic`` is a reason the initiator succeeds without rolling (e.g. the target is
    incapacitated), or ``""``. ``on_success`` says what winning does.
    """

    rule: str
    initiator: Side
    resister: Side
    on_success: str = ""
    automatic: str = ""

    def odds(self) -> ContestOdds:
        """Exact odds, from the difference of the two totals' distributions."""
        if self.automatic:
            return ContestOdds(Fraction(1), Fraction(0), Fraction(0))
        odds = self.initiator.as_check().contest(self.resister.as_check())
        return ContestOdds(odds.win, odds.tie, odds.tie + odds.lose)

    def roll(self, *, seed: int | None = None, rng: random.Random | None = None) -> ContestResult:
        """Roll both sides (initiator first) with the dice engine."""
        if self.automatic:
            return ContestResult(self, None, None, True)
        rolled = self.initiator.as_check().roll_contest(self.resister.as_check(), seed=seed,
                                                        rng=rng)
        mine, theirs = rolled.first.total, rolled.second.total
        return ContestResult(self, mine, theirs, mine > theirs)

    def with_edges(self, initiator: Edge = Edge.NORMAL, resister: Edge = Edge.NORMAL) -> Contest:
        """The same contest with extra sources of advantage/disadvantage on either side."""
        return replace(
            self,
            initiator=replace(self.initiator, edge=combine_edges(self.initiator.edge, initiator)),
            resister=replace(self.resister, edge=combine_edges(self.resister.edge, resister)),
        )


@dataclass(frozen=True)
class Combatant:
    """What the contests need to know about a creature.

    ``edge`` carries advantage/disadvantage from outside the rule (the Help action, a
    spell...); the maneuver adds its own and they combine.
    """

    name: str = "creature"
    size: Size = Size.MEDIUM
    athletics: int = 0
    acrobatics: int = 0
    attack_bonus: int = 0
    edge: Edge = Edge.NORMAL
    incapacitated: bool = False

    def best_of_athletics_acrobatics(self) -> tuple[str, int]:
        """The skill this creature picks when it may choose (the higher; Athletics on a tie)."""
        if self.acrobatics > self.athletics:
            return "Dexterity (Acrobatics)", self.acrobatics
        return "Strength (Athletics)", self.athletics

    def side(self, check: str, modifier: int, *edges: Edge) -> Side:
        return Side(self.name, check, modifier, combine_edges(self.edge, *edges))

    def athletics_side(self, *edges: Edge) -> Side:
        return self.side("Strength (Athletics)", self.athletics, *edges)

    def acrobatics_side(self, *edges: Edge) -> Side:
        return self.side("Dexterity (Acrobatics)", self.acrobatics, *edges)

    def chosen_side(self, *edges: Edge) -> Side:
        check, modifier = self.best_of_athletics_acrobatics()
        return self.side(check, modifier, *edges)


def size_edge(mine: Size, theirs: Size) -> Edge:
    """Advantage if larger than the other creature, disadvantage if smaller."""
    if mine > theirs:
        return Edge.ADVANTAGE
    if mine < theirs:
        return Edge.DISADVANTAGE
    return Edge.NORMAL


def require_at_most_one_size_larger(rule: str, actor: Combatant, target: Combatant) -> None:
    """The target of a grapple or shove may be at most one size larger than the actor."""
    if target.size - actor.size > 1:
        raise RuleError(f"{rule}: the target ({target.size.name.lower()}) must be no more than "
                        f"one size larger than {actor.name} ({actor.size.name.lower()})")


def _side(data: dict[str, Any]) -> Side:
    return Side(str(data["who"]), str(data["check"]), data["modifier"], Edge(data["edge"]))


def _roll_declared(args: dict[str, Any], rng: random.Random) -> ContestResult:
    return Contest(str(args["rule"]), _side(args["initiator"]), _side(args["resister"]),
                   str(args["on_success"]), str(args["automatic"])).roll(rng=rng)


def _declared_result(value: ContestResult) -> dict[str, Any]:
    return {"initiator_total": value.initiator_total,
            "resister_total": value.resister_total, "initiator_wins": value.initiator_wins}


def contest_call(contest: Contest, lead: str = "") -> RuleCall:
    """A contest (it moves no tracker) as a declared rule roll ([companion.rule_rolls][]):
    ``verify`` rolls it again and compares both totals and the winner."""
    def side(s: Side) -> dict[str, Any]:
        return {"who": s.who, "check": s.check, "modifier": s.modifier, "edge": s.edge.value}

    return RuleCall("variant5e.contests.contest", {
        "rule": contest.rule, "initiator": side(contest.initiator),
        "resister": side(contest.resister), "on_success": contest.on_success,
        "automatic": contest.automatic}, lead)


declare("variant5e.contests.contest", _roll_declared, _declared_result)
