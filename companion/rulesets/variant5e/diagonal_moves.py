"""Diagonal Moves: counting movement on a 5-foot grid more truthfully.

The basic rule counts every square as 5 feet, diagonals included. This option makes
diagonals alternate: the first diagonal square costs 5 feet, the second 10, the third 5,
and so on. The alternation carries on across straight squares in between: one diagonal
(5 ft), three straight (15 ft) and one more diagonal (10 ft) make 30 feet. Range is
measured the same way.

[MovementCounter][companion.rulesets.variant5e.diagonal_moves.MovementCounter] keeps the count
through a turn (a Dash, see [dash][companion.rulesets.variant5e.dash], doubles
its allowance); [distance][companion.rulesets.variant5e.diagonal_moves.distance] measures range.

Interpretation: the alternation restarts at the start of each turn (each new count).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import RuleError, StateError
from companion.rulesets.variant5e.dash import dash_movement
from companion.state import Tracker, move, state_field

__all__ = ["DIRECTIONS", "MovementCounter", "diagonal_step_cost", "distance"]

#: Compass steps on the grid: name -> (dx, dy), with y growing southwards (down the screen).
DIRECTIONS: dict[str, tuple[int, int]] = {
    "n": (0, -1), "ne": (1, -1), "e": (1, 0), "se": (1, 1),
    "s": (0, 1), "sw": (-1, 1), "w": (-1, 0), "nw": (-1, -1),
}


def diagonal_step_cost(diagonals_before: int) -> int:
    """Feet for a diagonal square when ``diagonals_before`` were already counted."""
    return 10 if diagonals_before % 2 else 5


def distance(dx: int, dy: int) -> int:
    """Range in feet between two squares ``dx`` columns and ``dy`` rows apart.

    The shortest path takes ``min`` diagonal squares and the rest straight.
    """
    diagonal = min(abs(dx), abs(dy))
    straight = max(abs(dx), abs(dy)) - diagonal
    return 5 * straight + 5 * diagonal + 5 * (diagonal // 2)


#: Fastest speed the counter takes, in feet (a guard, far past any creature).
MAX_SPEED = 1000

#: How far from its start the counter follows a creature, in squares.
MAX_SQUARES = 1_000_000


@dataclass
class MovementCounter(Tracker):
    """One creature's movement this turn, square by square.

    >>> c = MovementCounter(speed=30)
    >>> c.step("ne"); c.step("e"); c.step("e"); c.step("e"); c.step("se")
    >>> c.feet
    30
    """

    speed: int = state_field(30, min=0, max=MAX_SPEED, doc="current speed in feet")
    feet: int = state_field(0, min=0, max=2 * MAX_SPEED, doc="feet moved this turn")
    diagonals: int = state_field(0, min=0, max=2 * MAX_SPEED // 5,
                                 doc="diagonal squares counted this turn")
    x: int = state_field(0, min=-MAX_SQUARES, max=MAX_SQUARES)
    y: int = state_field(0, min=-MAX_SQUARES, max=MAX_SQUARES)
    dashed: bool = False

    def check_state(self) -> None:
        """What a count can never be: feet that are not a whole number of squares, or
        fewer feet than the diagonals counted cost (5, 10, 5, 10...)."""
        if self.feet % 5:
            raise StateError(f"field 'feet' is {self.feet}, not a multiple of 5")
        least = 5 * self.diagonals + 5 * (self.diagonals // 2)
        if self.feet < least:
            raise StateError(f"field 'feet' is {self.feet} but {self.diagonals} diagonal "
                             f"squares cost {least} ft")

    def can_step(self, direction: str) -> bool:
        """Whether the movement left pays for the next square in ``direction``."""
        return self.step_refusal(direction) is None

    def step_refusal(self, direction: str) -> str | None:
        """Why the next square in ``direction`` cannot be moved now, or ``None``."""
        cost = self.next_cost(direction)
        if self.feet + cost > self.allowance:
            return (f"Diagonal Moves: this square costs {cost} ft, only {self.remaining} ft "
                    "of movement left")
        return None

    @property
    def allowance(self) -> int:
        """Feet the creature may move this turn (doubled by a Dash)."""
        return dash_movement(self.speed) if self.dashed else self.speed

    @property
    def remaining(self) -> int:
        return max(0, self.allowance - self.feet)

    def next_cost(self, direction: str) -> int:
        """What the next square in ``direction`` would cost."""
        dx, dy = _direction(direction)
        return diagonal_step_cost(self.diagonals) if dx and dy else 5

    @move
    def step(self, direction: str) -> None:
        """Move one square (``n``, ``ne``, ``e``... ``nw``)."""
        dx, dy = _direction(direction)
        cost = self.next_cost(direction)
        refusal = self.step_refusal(direction)
        if refusal is not None:
            raise RuleError(refusal)
        self.feet += cost
        if dx and dy:
            self.diagonals += 1
        self.x = max(-MAX_SQUARES, min(MAX_SQUARES, self.x + dx))
        self.y = max(-MAX_SQUARES, min(MAX_SQUARES, self.y + dy))
        self.describe(f"{direction.lower()}: {cost} ft ({self.feet}/{self.allowance} ft)")

    @move
    def dash(self) -> None:
        """Take the Dash action: extra movement equal to the speed, this turn."""
        if self.dashed:
            raise RuleError("Dash: this counter already includes a Dash this turn")
        self.dashed = True
        self.describe(f"dash: {self.allowance} ft this turn")

    @move
    def set_speed(self, speed: int) -> None:
        """Change the current speed (a spell, difficult terrain rules, a grapple...)."""
        if isinstance(speed, bool) or not isinstance(speed, int) or not 0 <= speed <= MAX_SPEED:
            raise RuleError(f"Diagonal Moves: speed must be 0 to {MAX_SPEED} feet, "
                            f"got {speed!r}")
        self.speed = speed
        self.describe(f"speed {speed} ft")

    @move
    def new_turn(self) -> None:
        """Start a fresh turn: the count and the 5/10 alternation restart."""
        self.feet = 0
        self.diagonals = 0
        self.dashed = False
        self.describe("new turn")


def _direction(direction: str) -> tuple[int, int]:
    key = str(direction).strip().lower()
    if key not in DIRECTIONS:
        raise RuleError(f"Diagonal Moves: unknown direction {direction!r} "
                        f"(use {', '.join(DIRECTIONS)})")
    return DIRECTIONS[key]
