"""Dueling: a one-on-one contest that need not kill (first blood, wits, a court case).

1. Set the **stakes**: what winning and losing mean.
2. Set the **hit points**: Guard for a physical duel; for a contest of words, CTRL
   (counted only: it inflicts no real CTRL damage).
3. Each side **secretly** picks *attack* (batter, accuse, intimidate), *defend* (parry,
   cite, reason) or *flourish* (charm, taunt, feint).
4. Reveal together: defend beats attack, attack beats flourish, flourish beats defend.
   The winner deals 1d8 to the other's hit points and the loser still deals 1d4; the same
   pick on both sides deals 1d6 each way.

Interpretation: the duel ends when a side's hit points reach 0; if both reach 0 in the
same exchange, the duel is a draw. Choices stay hidden until both are made, and the
second choice reveals both at once (nobody has to press "reveal"). No one chooses before
the duel is started with its stakes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from companion import dice
from companion.dice.roller import make_rng
from companion.errors import RuleError
from companion.state import Tracker, move, state_field

TACTICS = ("attack", "defend", "flourish")
#: Each tactic and the one it beats.
BEATS = {"defend": "attack", "attack": "flourish", "flourish": "defend"}


def exchange_dice(mine: str, theirs: str) -> tuple[int, int]:
    """Sides of the die each duelist rolls against the other: (mine, theirs)."""
    for t in (mine, theirs):
        if t not in TACTICS:
            raise RuleError(f"Dueling Rules: choose attack, defend or flourish, not {t!r}")
    if mine == theirs:
        return 6, 6
    return (8, 4) if BEATS[mine] == theirs else (4, 8)


@dataclass
class Exchange:
    choices: list[str]
    dice: list[int]
    damage: list[int]


@dataclass
class Duel(Tracker):
    """A duel between two sides, with secret choices and recorded stakes."""

    names: list[str] = field(default_factory=lambda: ["Left", "Right"])
    stakes: str = ""
    hit_points: list[int] = field(default_factory=lambda: [6, 6])
    choices: list[str] = field(default_factory=lambda: ["", ""])
    exchanges: list[Exchange] = field(default_factory=list)
    winner: str = ""
    rounds: int = state_field(0, min=0)

    @property
    def over(self) -> bool:
        return bool(self.winner)

    @property
    def started(self) -> bool:
        """Whether the duelists, hit points and stakes are set (step 1 and 2 done)."""
        return bool(self.stakes)

    def can_choose(self, who: int | str) -> bool:
        """Whether ``who`` may pick a tactic now (started, not over, not yet chosen)."""
        return self.started and not self.over and not self.choices[self._side(who)]

    def ready(self) -> bool:
        return all(self.choices)

    def _side(self, who: int | str) -> int:
        if isinstance(who, int) and who in (0, 1):
            return who
        if isinstance(who, str) and who in self.names:
            return self.names.index(who)
        raise RuleError(f"Dueling Rules: no duelist {who!r}")

    @move
    def start(self, first: str, second: str, first_hp: int, second_hp: int,
              stakes: str) -> None:
        """Establish the duelists, their hit points and the stakes."""
        if not stakes.strip():
            raise RuleError("Dueling Rules step 1: establish the stakes first")
        if min(first_hp, second_hp) < 1:
            raise RuleError("Dueling Rules step 2: hit points must be at least 1")
        names = [first.strip() or "Left", second.strip() or "Right"]
        if names[0] == names[1]:
            names[1] += " (2)"
        self.names, self.hit_points, self.stakes = names, [first_hp, second_hp], stakes.strip()
        self.choices, self.exchanges, self.winner, self.rounds = ["", ""], [], "", 0
        self.describe(f"duel {names[0]} ({first_hp}) vs {names[1]} ({second_hp}): {self.stakes}")

    @move
    def choose(self, who: int | str, tactic: str, rng: random.Random | None = None,
               seed: int | None = None) -> Exchange | None:
        """Secretly pick a tactic (the history does not say which); the second pick reveals
        both and deals the damage (returned), rolled with ``rng`` or ``seed``."""
        side = self._side(who)
        if not self.started:
            raise RuleError("Dueling Rules step 1: start the duel with its stakes first")
        if self.over:
            raise RuleError(f"Dueling Rules: the duel is over ({self.winner})")
        tactic = tactic.strip().lower()
        if tactic not in TACTICS:
            raise RuleError(
                f"Dueling Rules step 3: choose attack, defend or flourish, not {tactic!r}")
        if self.choices[side]:
            raise RuleError(f"Dueling Rules step 3: {self.names[side]} has already chosen")
        self.choices[side] = tactic
        if not self.ready():
            self.describe(f"{self.names[side]} has chosen")
            return None
        return self._reveal(make_rng(seed, rng))

    def waiting(self) -> list[str]:
        """The duelists who have not chosen yet."""
        return [n for n, c in zip(self.names, self.choices, strict=True) if not c]

    def _reveal(self, r: random.Random) -> Exchange:
        """Reveal both picks and deal the damage (step 4)."""
        sides = list(exchange_dice(self.choices[0], self.choices[1]))
        dealt = [dice.roll(f"1d{sides[0]}", rng=r).total, dice.roll(f"1d{sides[1]}", rng=r).total]
        # dealt[0] is what side 0 inflicts on side 1
        self.hit_points = [max(0, self.hit_points[0] - dealt[1]),
                           max(0, self.hit_points[1] - dealt[0])]
        ex = Exchange(list(self.choices), sides, dealt)
        self.exchanges.append(ex)
        self.rounds += 1
        self.choices = ["", ""]
        down = [hp == 0 for hp in self.hit_points]
        if all(down):
            self.winner = "draw"
        elif any(down):
            self.winner = self.names[down.index(False)]
        self.describe(
            f"{self.names[0]} {ex.choices[0]} vs {self.names[1]} {ex.choices[1]}: "
            f"{self.names[0]} deals d{sides[0]} = {dealt[0]}, {self.names[1]} deals "
            f"d{sides[1]} = {dealt[1]}" + (f"; winner: {self.winner}" if self.winner else ""))
        return ex
