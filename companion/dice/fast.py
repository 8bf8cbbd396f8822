"""``roll_many``: many totals, fast, without the per-die detail.

Each dice term is rolled for the whole batch at once (one ``random.choices`` call), then
combined column-wise; terms the batch path does not cover (rerolls, explosions, dynamic
counts) fall back to the detailed roller, one roll at a time.

Interpretation: a batch consumes the RNG term by term, so ``roll_many(e, n, seed=s)`` is
reproducible but is not the same sequence as ``n`` calls of ``roll(e)`` on that RNG.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable

from companion.dice import limits
from companion.dice.nodes import (
    BinOp,
    Const,
    Dice,
    Group,
    Labeled,
    Neg,
    Node,
    clamp_of,
    face_range,
    spine,
)
from companion.dice.parse import parse, require_text
from companion.dice.roller import RollState, compile_node, entered_dice, face_facts, make_rng
from companion.errors import DiceError, DiceLimitError

_OPS: dict[str, Callable[[int, int], int]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
}


def roll_many(
    expr: str, n: int, *, seed: int | None = None, rng: random.Random | None = None
) -> list[int]:
    """Totals of ``n`` independent rolls of ``expr``.

    >>> len(roll_many("1d20+5", 1000, seed=7))
    1000
    """
    require_text(expr)
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise DiceError(f"the number of rolls must be a whole number >= 0, not {n!r}")
    if n > limits.MAX_BATCH_ROLLS:
        raise DiceLimitError(
            f"{n:,} rolls in one call; the limit is {limits.MAX_BATCH_ROLLS:,}"
        )
    tree = parse(expr)
    bound = _dice_bound(tree)
    ceiling = limits.MAX_BATCH_DICE if _batchable(tree) else limits.MAX_BATCH_DICE_DETAILED
    if bound * n > ceiling:
        raise DiceLimitError(
            f"{n:,} rolls of {expr!r} would roll about {bound * n:,} dice; "
            f"the limit per call is {ceiling:,}"
        )
    if n == 0:
        return []
    entered = entered_dice(rng) if rng is not None and type(rng) is not random.Random else None
    if entered is not None:  # real dice: one roll at a time, each from the faces entered
        return [entered(expr).total for _ in range(n)]
    return _vec(tree, n, make_rng(seed, rng))


def _batchable(node: Node) -> bool:
    """Whether every dice term takes the batch path (see ``_vec_dice``)."""
    if isinstance(node, Dice):
        m = node.mods
        return (
            isinstance(node.count, Const)
            and isinstance(node.sides, (str, Const))
            and not m.reroll
            and m.explode is None
            and not m.explode_max
        )
    if isinstance(node, Const):
        return True
    if isinstance(node, BinOp):
        first, steps = spine(node)
        return _batchable(first) and all(_batchable(right) for _, right, _ in steps)
    if isinstance(node, Neg):
        return _batchable(node.operand)
    return _batchable(node.inner)


def _magnitude(node: Node) -> int:
    """An upper bound on the absolute value ``node`` can take (for dynamic dice counts)."""
    if isinstance(node, Const):
        return abs(node.value)
    if isinstance(node, Dice):
        m = node.mods
        if m.explode is not None or m.explode_max:
            return limits.MAX_DICE * limits.MAX_SIDES
        count = min(_magnitude(node.count), limits.MAX_DICE)
        if m.count is not None:
            return count
        if isinstance(node.sides, str):
            face = 1 if node.sides == "F" else 100
        else:
            face = min(_magnitude(node.sides), limits.MAX_SIDES)
        face = max(face, abs(m.clamp_min or 0), abs(m.clamp_max or 0))
        return count * face
    if isinstance(node, BinOp):
        first, steps = spine(node)
        bound = _magnitude(first)
        for op, right, _ in steps:
            b = _magnitude(right)
            bound = bound * b if op == "*" else bound if op == "/" else bound + b
        return bound
    if isinstance(node, Neg):
        return _magnitude(node.operand)
    return _magnitude(node.inner)


def _dice_bound(node: Node) -> int:
    """About how many dice one roll of ``node`` takes, at most; rerolls and explosions
    count with the dice they are expected to add."""
    if isinstance(node, Dice):
        if isinstance(node.count, Const):
            count = node.count.value
        else:
            count = min(_magnitude(node.count), limits.MAX_DICE) + _dice_bound(node.count)
        if isinstance(node.sides, str):
            low, high = face_range(node.sides)
        elif isinstance(node.sides, Const):
            low, high = 1, node.sides.value
        else:
            low, high = 1, 0
        if high >= low and not node.mods.plain:
            count = int(count * face_facts(low, high, node.mods).records_per_die)
        return max(count, 1) + (0 if isinstance(node.sides, str) else _dice_bound(node.sides))
    if isinstance(node, Const):
        return 0
    if isinstance(node, BinOp):
        first, steps = spine(node)
        return _dice_bound(first) + sum(_dice_bound(right) for _, right, _ in steps)
    if isinstance(node, Neg):
        return _dice_bound(node.operand)
    return _dice_bound(node.inner)


def _vec(node: Node, n: int, rng: random.Random) -> list[int]:
    if isinstance(node, Const):
        return [node.value] * n
    if isinstance(node, (Group, Labeled)):
        return _vec(node.inner, n, rng)
    if isinstance(node, Neg):
        return [-x for x in _vec(node.operand, n, rng)]
    if isinstance(node, BinOp):
        first, steps = spine(node)
        values = _vec(first, n, rng)
        for op, right_node, pos in steps:
            right = _vec(right_node, n, rng)
            if op == "/":
                if 0 in right:
                    raise DiceError(f"division by zero at column {pos}")
                values = list(map(operator.floordiv, values, right))
            else:
                values = list(map(_OPS[op], values, right))
        return values
    return _vec_dice(node, n, rng)


def _vec_dice(node: Dice, n: int, rng: random.Random) -> list[int]:
    mods = node.mods
    simple = (
        isinstance(node.count, Const)
        and (isinstance(node.sides, (str, Const)))
        and not mods.reroll
        and not mods.explode_max
        and mods.explode is None
    )
    if not simple:
        rand = rng.random
        program = compile_node(node, None)
        return [program(RollState(rand)) for _ in range(n)]
    assert isinstance(node.count, Const)
    count = node.count.value
    if count > limits.MAX_DICE:
        raise DiceLimitError(f"{count:,} dice; the limit is {limits.MAX_DICE:,}")
    if isinstance(node.sides, str):
        low, high = face_range(node.sides)
    else:
        assert isinstance(node.sides, Const)
        low, high = 1, node.sides.value
    if count == 0:
        return [0] * n
    faces: list[int] = rng.choices(range(low, high + 1), k=n * count)
    if mods.clamp_min is not None or mods.clamp_max is not None:
        clamp = clamp_of(mods)
        faces = [clamp(v) for v in faces]
    cond = mods.count
    keep = mods.keep
    if keep is None:
        if cond is not None:
            faces = [1 if cond(v) else 0 for v in faces]
        if count == 1:
            return faces
        it = iter(faces)
        return list(map(sum, zip(*([it] * count), strict=True)))
    kept, highest = keep.kept(count)
    it = iter(faces)
    groups = zip(*([it] * count), strict=True)
    if cond is None:
        if kept == count:
            return list(map(sum, groups))
        if kept == 0:
            return [0] * n
        if kept == count - 1:
            drop: Callable[[tuple[int, ...]], int] = min if highest else max
            return [sum(g) - drop(g) for g in groups]
        if kept == 1:
            return list(map(max if highest else min, groups))
        if highest:
            return [sum(sorted(g)[count - kept :]) for g in groups]
        return [sum(sorted(g)[:kept]) for g in groups]
    if highest:
        return [sum(1 for v in sorted(g)[count - kept :] if cond(v)) for g in groups]
    return [sum(1 for v in sorted(g)[:kept] if cond(v)) for g in groups]
