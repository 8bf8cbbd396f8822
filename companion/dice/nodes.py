"""The syntax tree of a dice expression: small frozen dataclasses.

The parser builds these, the roller and the odds engine walk them. ``pos`` is the 0-based
index in the source text, kept so that errors found after parsing can still point at the
spot. ``str()`` of a node gives the notation back: ``parse(str(parse(s))) == parse(s)``.

>>> from companion.dice.parse import parse
>>> str(parse("4d6 kh3 + d8[fire]"))
'4d6kh3+1d8[fire]'

The facts about a die's faces that the roller and the odds engine both need (which faces a
reroll leaves, which explode, what a clamp shows) are here too, worked out once.
"""

from __future__ import annotations

from collections.abc import Callable
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

    def span(self, low: int, high: int) -> tuple[int, int] | None:
        """The faces from ``low..high`` that meet the test, as one range (or None)."""
        op, t = self.op, self.value
        lo, hi = {
            ">=": (t, high),
            ">": (t + 1, high),
            "<=": (low, t),
            "<": (low, t - 1),
            "=": (t, t),
        }[op]
        lo, hi = max(lo, low), min(hi, high)
        return (lo, hi) if lo <= hi else None


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
            counted = f"{self.count.op}{self.count.value}"
            if parts and parts[-1] == "!":
                # Right after a bare '!' the comparison would belong to the explosion.
                parts.insert(len(parts) - 1, counted)
            else:
                parts.append(counted)
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

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True, slots=True)
class Dice:
    """``count`` dice with ``sides`` faces. ``sides`` is an int, ``"F"`` (Fudge: -1, 0, +1),
    ``"%"`` (1-100) or a sub-expression; ``count`` is an int or a sub-expression."""

    count: Node
    sides: Node | Literal["F", "%"]
    mods: Modifiers = _PLAIN
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}{self.mods}"


@dataclass(frozen=True, slots=True)
class Neg:
    operand: Node
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return f"-{self.operand}"


@dataclass(frozen=True, slots=True)
class BinOp:
    op: Literal["+", "-", "*", "/"]
    left: Node
    right: Node
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        first, steps = spine(self)  # a loop, not recursion: chains can be 500 terms long
        return str(first) + "".join(f"{op}{right}" for op, right, _ in steps)


@dataclass(frozen=True, slots=True)
class Group:
    """Parentheses, kept so the roll's text mirrors what the player wrote."""

    inner: Node
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return f"({self.inner})"


@dataclass(frozen=True, slots=True)
class Labeled:
    """``2d6[fire]``: the value of ``inner`` is also reported as the subtotal of ``label``."""

    inner: Node
    label: str
    pos: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return f"{self.inner}[{self.label}]"


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


def explodes_on(low: int, high: int, mods: Modifiers) -> Callable[[int], bool] | None:
    """The explosion test for raw faces, or None if the dice never explode."""
    if mods.explode_max:
        return lambda v: v == high
    cond = mods.explode
    if cond is None:
        return None
    return cond.__call__


def explode_span(low: int, high: int, mods: Modifiers) -> tuple[int, int] | None:
    """The faces that explode, as one range (None when none do)."""
    if mods.explode_max:
        return high, high
    return mods.explode.span(low, high) if mods.explode is not None else None


def clamp_of(mods: Modifiers) -> Callable[[int], int]:
    """Per-die ``minN``/``maxN``: the value a face shows after clamping."""
    lo, hi = mods.clamp_min, mods.clamp_max
    if lo is None and hi is None:
        return lambda v: v
    if hi is None:
        low = lo if lo is not None else 0
        return lambda v: max(v, low)
    if lo is None:
        high = hi
        return lambda v: min(v, high)
    low, high = lo, hi
    return lambda v: min(max(v, low), high)


class FaceRanges:
    """The faces ``low..high`` that no reroll condition matches, held as a few ranges.

    A reroll leaves a d1,000,000 with hundreds of thousands of faces; listing them costs a
    second, while the ranges cost nothing. ``len()`` and indexing work as on the list
    (``ranges[i]`` is the i-th allowed face, so a uniform draw is ``ranges[int(u * len)]``).

    >>> r = FaceRanges.allowed(1, 20, (Condition("<=", 2), Condition("=", 20)))
    >>> r.ranges, len(r), r[0], r[-1], 7 in r, 20 in r
    (((3, 19),), 17, 3, 19, True, False)
    """

    __slots__ = ("_starts", "ranges", "size")

    def __init__(self, ranges: tuple[tuple[int, int], ...]) -> None:
        self.ranges = ranges
        starts = []
        size = 0
        for lo, hi in ranges:
            starts.append(size)
            size += hi - lo + 1
        self._starts = tuple(starts)
        self.size = size

    @classmethod
    def allowed(
        cls, low: int, high: int, conditions: tuple[Condition, ...]
    ) -> FaceRanges:
        """The faces of ``low..high`` not matched by any of ``conditions``."""
        blocked = sorted(s for c in conditions if (s := c.span(low, high)) is not None)
        out: list[tuple[int, int]] = []
        at = low
        for lo, hi in blocked:
            if lo > at:
                out.append((at, lo - 1))
            at = max(at, hi + 1)
        if at <= high:
            out.append((at, high))
        return cls(tuple(out))

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, i: int) -> int:
        if i < 0:
            i += self.size
        if not 0 <= i < self.size:
            raise IndexError(i)
        import bisect

        k = bisect.bisect_right(self._starts, i) - 1
        return self.ranges[k][0] + i - self._starts[k]

    def __contains__(self, face: object) -> bool:
        return isinstance(face, int) and any(lo <= face <= hi for lo, hi in self.ranges)

    def within(self, span: tuple[int, int] | None) -> bool:
        """Whether every face here lies in ``span`` (False when there are none)."""
        if span is None or not self.ranges:
            return False
        return span[0] <= self.ranges[0][0] and self.ranges[-1][1] <= span[1]
