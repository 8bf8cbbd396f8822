"""Facing and Flanking on a square grid.

**Flanking.** A creature and an ally flank an enemy when both are adjacent to it on
opposite sides or opposite corners of its space. To decide, draw a line between the
centres of the two creatures' spaces: if it goes in through one side (or corner) of the
enemy's space and out through the opposite one, the enemy is flanked. A creature that
cannot see the enemy, or is incapacitated, does not flank. A Large or bigger creature
flanks if any one square of its space qualifies.

**Facing.** A creature faces one side of its space. Lines drawn diagonally outward from
the two corners of that side bound its *front arc*; the opposite side bounds the *rear
arc* the same way; what is left on either hand is the *left* and *right* side arcs.

- A creature may turn when it ends its move, and as a reaction when another creature
  moves; having used that reaction to turn, it may keep turning a number of times equal
  to a tenth of its speed, rounded down. The same reaction may also be spent on an
  opportunity attack against the creature it is tracking.
- It can only target creatures in its front or side arcs and cannot see into its rear
  arc, so attackers there have advantage.
- A shield protects only against attacks from the front arc and the side arc of the arm
  that carries it.
- Some creatures have unusual arcs (an ooze may be all front).

[FacingTracker][companion.rulesets.variant5e.facing_and_flanking.FacingTracker] keeps the turning
rules through a round; [Battlefield][companion.rulesets.variant5e.facing_and_flanking.Battlefield]
is a
small grid for trying out flanking.

Interpretation: squares cut in half by a diagonal boundary line belong to the front (or
rear) arc, so a Medium creature's front arc holds the three squares ahead of it.

Interpretation: the seed's opening line promises +2 to attack rolls for flanking, while
its squares rule grants advantage on melee attack rolls.
[flanking_benefit][companion.rulesets.variant5e.facing_and_flanking.flanking_benefit] follows
the squares rule (advantage) and offers the +2 reading as an option.

Interpretation: an attacker whose space spans several arcs counts as in the arc most
favourable to the defender (front, then a side, then rear): the defender sees part of it.

Coordinates are ``(x, y)`` squares with ``y`` growing southwards (down the screen);
a creature's ``(x, y)`` is the north-west square of its space.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Literal

from companion.errors import RuleError, StateError
from companion.rulesets.variant5e.contests import Size
from companion.state import Observable, Tracker, move, state_field

__all__ = [
    "FACINGS",
    "Battlefield",
    "Creature",
    "FacingTracker",
    "arc_of",
    "arc_of_attacker",
    "attacker_has_rear_advantage",
    "can_target",
    "facing_changes_after_reaction",
    "flanking_benefit",
    "flanking_pairs",
    "flanks",
    "is_flanked",
    "shield_applies",
]

Facing = Literal["north", "east", "south", "west"]
Arc = Literal["front", "left", "right", "rear", "inside"]
FACINGS: tuple[Facing, ...] = ("north", "east", "south", "west")


@dataclass(frozen=True)
class Creature:
    """A creature on the grid: where, how big, which side it is on, where it faces."""

    name: str
    x: int
    y: int
    size: Size = Size.MEDIUM
    team: str = "party"
    facing: Facing = "north"
    can_see: bool = True
    incapacitated: bool = False
    all_front: bool = False

    def __post_init__(self) -> None:
        if self.facing not in FACINGS:
            raise RuleError(f"Facing: {self.name} faces {self.facing!r}; use north, east, "
                            "south or west")

    @property
    def side(self) -> int:
        return self.size.squares

    def squares(self) -> list[tuple[int, int]]:
        """Every square of the creature's space."""
        return [(self.x + i, self.y + j) for j in range(self.side) for i in range(self.side)]

    def is_adjacent_square(self, square: tuple[int, int]) -> bool:
        """Whether ``square`` touches this creature's space (diagonals count), outside it."""
        sx, sy = square
        dx = max(self.x - sx, 0, sx - (self.x + self.side - 1))
        dy = max(self.y - sy, 0, sy - (self.y + self.side - 1))
        return max(dx, dy) == 1


def _crossing_sides(p: tuple[Fraction, Fraction], q: tuple[Fraction, Fraction],
                    box: tuple[int, int, int, int]) -> tuple[set[str], set[str]] | None:
    """Sides of ``box`` where segment p->q enters and leaves it (None if it misses).

    Liang-Barsky clipping in exact fractions, so a line through a corner is exact.
    """
    x0, y0, x1, y1 = box
    t_in, t_out = Fraction(0), Fraction(1)
    for start, delta, lo, hi in ((p[0], q[0] - p[0], x0, x1), (p[1], q[1] - p[1], y0, y1)):
        if delta == 0:
            if not lo < start < hi:
                return None
            continue
        a, b = (lo - start) / delta, (hi - start) / delta
        t_in, t_out = max(t_in, min(a, b)), min(t_out, max(a, b))
    if t_in >= t_out:  # misses, or only grazes a corner
        return None

    def sides(t: Fraction) -> set[str]:
        x = p[0] + t * (q[0] - p[0])
        y = p[1] + t * (q[1] - p[1])
        found = {name for name, hit in (("west", x == x0), ("east", x == x1),
                                        ("north", y == y0), ("south", y == y1)) if hit}
        return found

    return sides(t_in), sides(t_out)


_OPPOSITE = {"west": "east", "east": "west", "north": "south", "south": "north"}


def _squares_flank(a: tuple[int, int], b: tuple[int, int], enemy: Creature) -> bool:
    half = Fraction(1, 2)
    box = (enemy.x, enemy.y, enemy.x + enemy.side, enemy.y + enemy.side)
    crossing = _crossing_sides((a[0] + half, a[1] + half), (b[0] + half, b[1] + half), box)
    if crossing is None:
        return False
    entry, leave = crossing
    return any(_OPPOSITE[side] in leave for side in entry)


def _can_flank(creature: Creature, enemy: Creature) -> bool:
    return creature.can_see and not creature.incapacitated and creature.team != enemy.team


def flanks(a: Creature, b: Creature, enemy: Creature) -> bool:
    """Whether allies ``a`` and ``b`` flank ``enemy`` together."""
    if a.team != b.team or a is b or a == b:
        return False
    if not (_can_flank(a, enemy) and _can_flank(b, enemy)):
        return False
    a_squares = [s for s in a.squares() if enemy.is_adjacent_square(s)]
    b_squares = [s for s in b.squares() if enemy.is_adjacent_square(s)]
    return any(_squares_flank(sa, sb, enemy) for sa in a_squares for sb in b_squares)


def flanking_pairs(creatures: Iterable[Creature], enemy: Creature) -> list[tuple[str, str]]:
    """Every pair of allies (by name) that flanks ``enemy``."""
    others = [c for c in creatures if c != enemy]
    return [(a.name, b.name) for a, b in combinations(others, 2) if flanks(a, b, enemy)]


def is_flanked(creatures: Iterable[Creature], enemy: Creature, by: str | None = None) -> bool:
    """Whether ``enemy`` is flanked (by the creature named ``by``, if given)."""
    pairs = flanking_pairs(creatures, enemy)
    return any(by is None or by in pair for pair in pairs)


def flanking_benefit(option: Literal["advantage", "plus_two"] = "advantage") -> str:
    """What a flanking creature gains against the flanked enemy (see the Interpretation)."""
    if option == "advantage":
        return "advantage on melee attack rolls"
    if option == "plus_two":
        return "+2 on attack rolls"
    raise RuleError(f"Flanking: unknown benefit option {option!r} (advantage or plus_two)")


def _local(creature: Creature, square: tuple[int, int]) -> tuple[int, int]:
    """``square`` as (lateral, forward) in the creature's own frame.

    Lateral 0..side-1 is level with the space (negative is to its left); forward
    0..side-1 likewise, growing toward the front.
    """
    s = creature.side
    rx, ry = square[0] - creature.x, square[1] - creature.y
    return {
        "north": (rx, s - 1 - ry),
        "east": (ry, rx),
        "south": (s - 1 - rx, ry),
        "west": (s - 1 - ry, s - 1 - rx),
    }[creature.facing]


def arc_of(creature: Creature, square: tuple[int, int]) -> Arc:
    """Which of ``creature``'s arcs ``square`` lies in."""
    s = creature.side
    lateral, forward = _local(creature, square)
    if 0 <= lateral < s and 0 <= forward < s:
        return "inside"
    if creature.all_front:
        return "front"
    overhang = max(0, -lateral, lateral - (s - 1))
    if forward >= s and overhang <= forward - s + 1:
        return "front"
    if forward < 0 and overhang <= -forward:
        return "rear"
    return "left" if lateral < 0 else "right"


_PREFERENCE: tuple[Arc, ...] = ("front", "left", "right", "rear")


def arc_of_attacker(defender: Creature, attacker: Creature) -> Arc:
    """The arc ``attacker`` is in, as ``defender`` sees it (see the Interpretation)."""
    arcs = {arc_of(defender, square) for square in attacker.squares()} - {"inside"}
    if not arcs:
        raise RuleError(f"Facing: {attacker.name} shares {defender.name}'s space")
    return min(arcs, key=_PREFERENCE.index)


def can_target(attacker: Creature, target: Creature) -> bool:
    """A creature targets only what is in its front or side arcs."""
    return arc_of_attacker(attacker, target) != "rear"


def attacker_has_rear_advantage(defender: Creature, attacker: Creature) -> bool:
    """An attacker in the defender's rear arc, unseen, has advantage."""
    return arc_of_attacker(defender, attacker) == "rear"


def shield_applies(defender: Creature, attacker: Creature,
                   shield_arm: Literal["left", "right"]) -> bool:
    """A shield's AC bonus counts against the front arc and its own side arc only."""
    if shield_arm not in ("left", "right"):
        raise RuleError(f"Facing: a shield is on the left or right arm, not {shield_arm!r}")
    return arc_of_attacker(defender, attacker) in ("front", shield_arm)


def facing_changes_after_reaction(speed: int) -> int:
    """Further turns allowed after spending the reaction to turn: speed / 10, rounded down."""
    if isinstance(speed, bool) or not isinstance(speed, int) or speed < 0:
        raise RuleError(f"Facing: speed must be 0 or more feet, got {speed!r}")
    return speed // 10


class Battlefield(Observable):
    """A small square grid to try flanking on: each square is empty, an ally or an enemy.

    Allies are team ``"party"``, enemies team ``"foes"``; either side can flank the other.
    All creatures are Medium and can see.
    """

    KINDS: tuple[str, ...] = ("", "ally", "enemy")

    def __init__(self, width: int = 6, height: int = 6) -> None:
        if not (1 <= width <= 12 and 1 <= height <= 12):
            raise RuleError(f"Flanking: the grid must be 1 to 12 squares a side, "
                            f"got {width}x{height}")
        self.width = width
        self.height = height
        self._cells: dict[tuple[int, int], str] = {}

    def kind_at(self, x: int, y: int) -> str:
        return self._cells.get((x, y), "")

    def place(self, x: int, y: int, kind: str) -> None:
        """Put an ally, an enemy, or nothing (``""``) on square ``(x, y)``."""
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise RuleError(f"Flanking: square ({x}, {y}) is off the "
                            f"{self.width}x{self.height} grid")
        if kind not in self.KINDS:
            raise RuleError(f"Flanking: a square holds an ally, an enemy or nothing, not {kind!r}")
        if kind:
            self._cells[(x, y)] = kind
        else:
            self._cells.pop((x, y), None)
        self._changed()

    def cycle(self, x: int, y: int) -> str:
        """Empty -> ally -> enemy -> empty; returns what the square now holds."""
        now = self.KINDS[(self.KINDS.index(self.kind_at(x, y)) + 1) % len(self.KINDS)]
        self.place(x, y, now)
        return now

    def clear(self) -> None:
        self._cells.clear()
        self._changed()

    def creatures(self) -> list[Creature]:
        return [Creature(f"{kind} ({x},{y})", x, y, team="party" if kind == "ally" else "foes")
                for (x, y), kind in sorted(self._cells.items(), key=lambda c: (c[0][1], c[0][0]))]

    def flanked(self) -> dict[str, list[tuple[str, str]]]:
        """Every flanked creature (by name) with the pairs flanking it."""
        everyone = self.creatures()
        found: dict[str, list[tuple[str, str]]] = {}
        for target in everyone:
            pairs = flanking_pairs([c for c in everyone if c.team != target.team], target)
            if pairs:
                found[target.name] = pairs
        return found

    def flanking_squares(self) -> set[tuple[int, int]]:
        """Squares of creatures that are flanking someone."""
        names = {name for pairs in self.flanked().values() for pair in pairs for name in pair}
        return {(c.x, c.y) for c in self.creatures() if c.name in names}

    def flanked_squares(self) -> set[tuple[int, int]]:
        names = set(self.flanked())
        return {(c.x, c.y) for c in self.creatures() if c.name in names}


@dataclass
class FacingTracker(Tracker):
    """One creature's facing through a round, with the turning rules as moves.

    Interpretation: the extra turns after a reaction-turn last until the creature's
    reaction comes back (the start of its next turn), and the opportunity attack made "as
    part of the same reaction" needs no second reaction, once.
    """

    facing: Facing = "north"
    speed: int = state_field(30, min=0, max=1000)
    reaction_used: bool = False
    turns_left: int = state_field(0, min=0, max=100, doc="further turns after a reaction-turn")
    tracking: str = state_field("", max_len=60,
                                doc="the creature turned toward with the reaction")
    attacked_with_reaction: bool = False

    def check_state(self) -> None:
        """What a facing record can never be: turns left, a tracked creature or its
        opportunity attack without the reaction spent, or more turns left than the speed
        allows (speed / 10)."""
        if not self.reaction_used:
            for name in ("turns_left", "tracking", "attacked_with_reaction"):
                if getattr(self, name):
                    raise StateError(f"field '{name}' is set but the reaction is not spent")
        if self.turns_left > facing_changes_after_reaction(self.speed):
            raise StateError(f"field 'turns_left' is {self.turns_left}, more than speed "
                             f"{self.speed} allows ({self.speed // 10})")
        if self.attacked_with_reaction and not self.tracking:
            raise StateError("field 'attacked_with_reaction' is true but no creature is "
                             "tracked")

    @move
    def end_move(self, facing: str) -> None:
        """Face a new direction as the creature finishes its own move."""
        self.facing = _facing(facing)
        self.describe(f"ends its move facing {self.facing}")

    @move
    def turn_as_reaction(self, facing: str, toward: str = "") -> None:
        """Another creature moves: spend the reaction to face it."""
        if self.reaction_used:
            raise RuleError("Facing: the reaction is already spent this round")
        self.facing = _facing(facing)
        self.reaction_used = True
        self.turns_left = facing_changes_after_reaction(self.speed)
        if len(toward.strip()) > 60:
            raise RuleError("Facing: a creature's name is at most 60 characters")
        self.tracking = toward.strip()
        self.describe(f"reaction: turns {self.facing}"
                      + (f" toward {self.tracking}" if self.tracking else "")
                      + f" ({self.turns_left} more turns allowed)")

    @move
    def keep_turning(self, facing: str) -> None:
        """Turn again while tracking, within the speed / 10 allowance."""
        if not self.reaction_used:
            raise RuleError("Facing: keep turning only after turning with the reaction")
        if self.turns_left == 0:
            raise RuleError(f"Facing: no turns left (speed {self.speed} allows "
                            f"{facing_changes_after_reaction(self.speed)})")
        self.facing = _facing(facing)
        self.turns_left -= 1
        self.describe(f"keeps turning: {self.facing} ({self.turns_left} left)")

    @move
    def opportunity_attack_while_tracking(self) -> None:
        """The tracked creature moves away: attack it within the same reaction."""
        if not self.tracking:
            raise RuleError("Facing: no creature is being tracked with the reaction")
        if self.attacked_with_reaction:
            raise RuleError("Facing: the tracking reaction already made its opportunity attack")
        self.attacked_with_reaction = True
        self.describe(f"opportunity attack on {self.tracking} (same reaction)")

    @move
    def start_turn(self) -> None:
        """The creature's turn starts: its reaction is back."""
        self.reaction_used = False
        self.turns_left = 0
        self.tracking = ""
        self.attacked_with_reaction = False
        self.describe("turn starts: reaction back")


def _facing(facing: str) -> Facing:
    key = str(facing).strip().lower()
    for known in FACINGS:
        if key in (known, known[0]):
            return known
    raise RuleError(f"Facing: unknown direction {facing!r} (north, east, south or west)")
