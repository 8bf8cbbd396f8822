"""Rolling: walk the syntax tree with a seedable RNG and keep every detail.

Randomness: ``random.Random(seed)`` (Mersenne Twister, identical in CPython and Pyodide).
A face of a die with ``k`` faces is ``low + floor(random() * k)``, as
:func:`random.choices` draws; the same seed gives the same roll on every platform.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from companion.dice import limits
from companion.dice.nodes import BinOp, Const, Dice, Group, Neg, Node, face_range
from companion.dice.odds import clamp_of, explodes_on
from companion.dice.parse import parse
from companion.errors import DiceError, DiceLimitError

KEPT = "kept"
DROPPED = "dropped"
REROLLED = "rerolled"
EXPLODED = "exploded"
SUCCESS = "success"
CAPPED = "capped"

_KEPT = frozenset({KEPT})
_SYSTEM = random.Random()


class Die:
    """One die as rolled.

    ``state`` holds flags: ``kept`` (counts), ``dropped`` (removed by keep/drop),
    ``rerolled`` (replaced by a reroll; does not count), ``exploded`` (triggered an extra
    die), ``success`` (meets the success target), ``capped`` (explosions stopped at the cap).
    """

    __slots__ = ("label", "sides", "state", "value")

    def __init__(
        self,
        sides: int | Literal["F", "%"],
        value: int,
        state: frozenset[str] = _KEPT,
        label: str | None = None,
    ) -> None:
        self.sides = sides
        self.value = value
        self.state = state
        self.label = label

    @property
    def counted(self) -> bool:
        return KEPT in self.state

    def to_dict(self) -> dict[str, object]:
        return {
            "sides": self.sides,
            "value": self.value,
            "state": sorted(self.state),
            "label": self.label,
        }

    def __repr__(self) -> str:
        return f"Die(d{self.sides}={self.value}, {'/'.join(sorted(self.state))})"


@dataclass(slots=True)
class DiceGroup:
    """The dice one ``NdX`` term rolled, in order, and the value that term contributed."""

    node: Dice
    dice: list[Die]
    value: int


@dataclass(slots=True)
class Roll:
    """A rolled expression with every detail kept.

    ``total``; ``dice`` (every die, rerolled and dropped ones included); ``labels`` (subtotal
    per ``[label]``); ``notes`` (caps that were hit); ``str()`` is one line such as
    ``4d6kh3 = [6, 5, 3, ~~1~~] = 14``.
    """

    expr: str
    total: int
    groups: list[DiceGroup]
    labels: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    tree: Node | None = None

    @property
    def dice(self) -> list[Die]:
        return [d for g in self.groups for d in g.dice]

    def __str__(self) -> str:
        from companion.dice.render import roll_text

        return roll_text(self)

    def __int__(self) -> int:
        return self.total

    def _repr_html_(self) -> str:
        from companion.dice.render import roll_html

        return roll_html(self)

    def to_dict(self) -> dict[str, object]:
        """JSON-able: ``expr``, ``total``, ``dice``, ``labels``, ``notes``, ``text``."""
        return {
            "expr": self.expr,
            "total": self.total,
            "dice": [d.to_dict() for d in self.dice],
            "labels": dict(self.labels),
            "notes": list(self.notes),
            "text": str(self),
        }


def make_rng(seed: int | None, rng: random.Random | None) -> random.Random:
    if rng is not None:
        return rng
    if seed is not None:
        return random.Random(seed)
    return _SYSTEM


def roll(expr: str, *, seed: int | None = None, rng: random.Random | None = None) -> Roll:
    """Roll ``expr`` once. Same ``seed`` (or same-state ``rng``), same result.

    >>> str(roll("4d6kh3", seed=1))
    '4d6kh3 = [2, 5, ~~1~~, 3] = 10'
    """
    tree = parse(expr)
    state = _State(make_rng(seed, rng).random)
    total = state.eval(tree, None)
    return Roll(expr, total, state.groups, state.labels, state.notes, tree)


class _State:
    __slots__ = ("groups", "labels", "notes", "random", "rolled")

    def __init__(self, rand: Callable[[], float]) -> None:
        self.random = rand
        self.groups: list[DiceGroup] = []
        self.labels: dict[str, int] = {}
        self.notes: list[str] = []
        self.rolled = 0

    def eval(self, node: Node, label: str | None) -> int:
        if isinstance(node, Dice):
            return self.dice(node, label)
        if isinstance(node, Const):
            return node.value
        if isinstance(node, BinOp):
            a = self.eval(node.left, label)
            b = self.eval(node.right, label)
            op = node.op
            if op == "+":
                return a + b
            if op == "-":
                return a - b
            if op == "*":
                return a * b
            if b == 0:
                raise DiceError(f"division by zero at column {node.pos + 1}")
            return a // b
        if isinstance(node, Neg):
            return -self.eval(node.operand, label)
        if isinstance(node, Group):
            return self.eval(node.inner, label)
        value = self.eval(node.inner, node.label)
        self.labels[node.label] = self.labels.get(node.label, 0) + value
        return value

    def dice(self, node: Dice, label: str | None) -> int:
        count = self.eval(node.count, label)
        if count < 0:
            raise DiceError(f"cannot roll {count} dice (column {node.pos + 1})")
        if count > limits.MAX_DICE:
            raise DiceLimitError(
                f"{count:,} dice at column {node.pos + 1}; the limit is {limits.MAX_DICE:,}"
            )
        shown: int | Literal["F", "%"]
        if isinstance(node.sides, str):
            low, high = face_range(node.sides)
            shown = node.sides
        else:
            high = self.eval(node.sides, label)
            if high < 1:
                raise DiceError(f"a die cannot have {high} sides (column {node.pos + 1})")
            if high > limits.MAX_SIDES:
                raise DiceLimitError(
                    f"d{high:,} at column {node.pos + 1}; the limit is {limits.MAX_SIDES:,} sides"
                )
            low, shown = 1, high
        # Appended after the count and sides, so groups are in rendering order.
        group = DiceGroup(node, [], 0)
        self.groups.append(group)
        mods = node.mods
        rand = self.random
        k = high - low + 1
        dice = group.dice
        if mods.plain:
            self._count(count)
            values = [low + int(rand() * k) for _ in range(count)]
            dice.extend(Die(shown, v, _KEPT, label) for v in values)
            group.value = sum(values)
            return group.value
        explode = explodes_on(low, high, mods)
        if explode is not None and all(explode(v) for v in range(low, high + 1)):
            raise DiceLimitError(
                f"every face of d{shown} explodes at column {node.pos + 1}, "
                "so it would never stop"
            )
        rerolls = mods.reroll
        allowed: list[int] | None = None
        if rerolls and not mods.reroll_once:
            allowed_count = sum(
                1 for v in range(low, high + 1) if not any(c(v) for c in rerolls)
            )
            if allowed_count == 0:
                raise DiceLimitError(
                    f"reroll at column {node.pos + 1} matches every face of d{shown}, "
                    "so it would reroll forever"
                )
        clamp = clamp_of(mods)
        counted: list[Die] = []
        capped = False
        for _ in range(count):
            booms = 0
            while True:
                v = low + int(rand() * k)
                self._count(1)
                if rerolls:
                    attempts = 0
                    while any(c(v) for c in rerolls):
                        dice.append(Die(shown, v, frozenset({REROLLED}), label))
                        attempts += 1
                        if mods.reroll_once:
                            v = low + int(rand() * k)
                            self._count(1)
                            break
                        if attempts >= limits.MAX_REROLL_ATTEMPTS:
                            # Same distribution as rerolling on, without the wait.
                            if allowed is None:
                                allowed = [
                                    f for f in range(low, high + 1)
                                    if not any(c(f) for c in rerolls)
                                ]
                            v = allowed[int(rand() * len(allowed))]
                            break
                        v = low + int(rand() * k)
                        self._count(1)
                boom = explode is not None and explode(v)
                if boom and booms >= limits.MAX_EXPLOSIONS:
                    capped = True
                    die = Die(shown, clamp(v), frozenset({KEPT, CAPPED}), label)
                    dice.append(die)
                    counted.append(die)
                    break
                die = Die(shown, clamp(v), frozenset({KEPT, EXPLODED}) if boom else _KEPT, label)
                dice.append(die)
                counted.append(die)
                if not boom:
                    break
                booms += 1
        if capped:
            self.notes.append(
                f"explosions stopped at {limits.MAX_EXPLOSIONS} per die (column {node.pos + 1})"
            )
        if mods.keep is not None:
            n_kept, highest = mods.keep.kept(len(counted))
            ranked = sorted(range(len(counted)), key=lambda i: counted[i].value, reverse=highest)
            for i in ranked[n_kept:]:
                d = counted[i]
                d.state = (d.state - {KEPT}) | {DROPPED}
            counted = [d for d in counted if KEPT in d.state]
        if mods.count is not None:
            cond = mods.count
            total = 0
            for d in counted:
                if cond(d.value):
                    d.state = d.state | {SUCCESS}
                    total += 1
            group.value = total
        else:
            group.value = sum(d.value for d in counted)
        return group.value

    def _count(self, n: int) -> None:
        self.rolled += n
        if self.rolled > limits.MAX_ROLLED_DICE:
            raise DiceLimitError(
                f"the roll needed more than {limits.MAX_ROLLED_DICE:,} dice "
                "(counting rerolls and explosions)"
            )
