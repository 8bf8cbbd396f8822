"""The syntax tree of a dice expression: small frozen dataclasses.

The parser builds these, the roller and the odds engine walk them. ``pos`` is the 0-based
index in the source text, kept so that errors found after parsing can still point at the
spot.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

CompareOp = Literal[">=", ">", "<=", "<", "="]


@dataclass(frozen=True, slots=True)
class Condition:
    """A test of one die face: ``>=5``, ``<3``, ``=1``..."""

    op: CompareOp
    value: int

    def __call__(self, face: int) -> bool:
        op, t = self.op, self.value
        if op == ">=":
            return face >= t
        if op == ">":
            return face > t
        if op == "<=":
            return face <= t
        if op == "<":
            return face < t
        return face == t

    def __str__(self) -> str:
        return f"{'' if self.op == '=' else self.op}{self.value}"


@dataclass(frozen=True, slots=True)
class Keep:
    """Keep/drop: ``kh3`` keeps the 3 highest; ``dl1`` drops the lowest one."""

    keep: bool
    """True for ``k``/``kh``/``kl``, False for ``dh``/``dl``."""
    highest: bool
    """Whether the modifier names the highest (``kh``, ``dh``) or lowest (``kl``, ``dl``)."""
    n: int

    def kept(self, count: int) -> tuple[int, bool]:
        """How many of ``count`` dice are kept, and whether those are the highest."""
        if self.keep:
            return min(self.n, count), self.highest
        return max(count - self.n, 0), not self.highest

    def __str__(self) -> str:
        return f"{'k' if self.keep else 'd'}{'h' if self.highest else 'l'}{self.n}"


@dataclass(frozen=True, slots=True)
class Modifiers:
    """Everything written after ``NdX``, applied in a fixed order whatever the writing order:
    rerolls, explosions, clamps, keep/drop, then success counting."""

    reroll: tuple[Condition, ...] = ()
    reroll_once: bool = False
    explode: Condition | None = None
    """``None`` means no explosion; ``explode_max`` means the bare ``!``."""
    explode_max: bool = False
    clamp_min: int | None = None
    clamp_max: int | None = None
    keep: Keep | None = None
    count: Condition | None = None

    @property
    def plain(self) -> bool:
        return self == _PLAIN

    def __str__(self) -> str:
        parts: list[str] = []
        if self.reroll:
            parts.extend(("ro" if self.reroll_once else "r") + _cond_text(c) for c in self.reroll)
        if self.explode_max:
            parts.append("!")
        elif self.explode is not None:
            parts.append("!" + _cond_text(self.explode, bare_eq=False))
        if self.clamp_min is not None:
            parts.append(f"min{self.clamp_min}")
        if self.clamp_max is not None:
            parts.append(f"max{self.clamp_max}")
        if self.keep is not None:
            parts.append(str(self.keep))
        if self.count is not None:
            parts.append(f"{self.count.op}{self.count.value}")
        return "".join(parts)


def _cond_text(c: Condition, bare_eq: bool = True) -> str:
    if c.op == "=":
        return str(c.value) if bare_eq else f"={c.value}"
    return f"{c.op}{c.value}"


_PLAIN = Modifiers()


@dataclass(frozen=True, slots=True)
class Const:
    value: int
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Dice:
    """``count`` dice with ``sides`` faces. ``sides`` is an int, ``"F"`` (Fudge: -1, 0, +1),
    ``"%"`` (1-100) or a sub-expression; ``count`` is an int or a sub-expression."""

    count: Node
    sides: Node | Literal["F", "%"]
    mods: Modifiers = _PLAIN
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Neg:
    operand: Node
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class BinOp:
    op: Literal["+", "-", "*", "/"]
    left: Node
    right: Node
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Group:
    """Parentheses, kept so the roll's text mirrors what the player wrote."""

    inner: Node
    pos: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Labeled:
    """``2d6[fire]``: the value of ``inner`` is also reported as the subtotal of ``label``."""

    inner: Node
    label: str
    pos: int = field(default=0, compare=False)


Node = Const | Dice | Neg | BinOp | Group | Labeled


def face_range(sides: int | Literal["F", "%"]) -> tuple[int, int]:
    """Lowest and highest face of a die."""
    if sides == "F":
        return -1, 1
    if sides == "%":
        return 1, 100
    return 1, sides


def spine(node: BinOp) -> tuple[Node, list[tuple[str, Node, int]]]:
    """A left-leaning chain ``((a op1 b) op2 c) ...`` as ``a`` and
    ``[(op1, b, pos1), (op2, c, pos2)]``.

    ``1+1+...+1`` parses to a chain hundreds of levels deep; walking it in a loop instead of
    by recursion keeps every walker within Python's (and Pyodide's) recursion limit.
    """
    steps: list[tuple[str, Node, int]] = []
    current: Node = node
    while isinstance(current, BinOp):
        steps.append((current.op, current.right, current.pos))
        current = current.left
    steps.reverse()
    return current, steps
