"""Exact odds of a dice expression, by dynamic programming over its syntax tree.

Sums are convolutions; keep/drop uses order statistics (a DP over the faces from the most
to the least preferred, counting how many dice show each face); dynamic counts and sizes
are mixtures. No combination of dice is ever enumerated one by one.
"""

from __future__ import annotations

import contextlib
import functools
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from fractions import Fraction

from companion.dice import limits
from companion.dice.distribution import (
    SIMULATE_HINT,
    Distribution,
    _nbytes,
    check_cost,
    unpack,
)
from companion.dice.nodes import (
    BinOp,
    Const,
    Dice,
    Group,
    Keep,
    Labeled,
    Modifiers,
    Neg,
    Node,
    face_range,
    spine,
)
from companion.dice.parse import parse, require_text
from companion.errors import DiceError, DiceLimitError, OddsTooCostlyError


def odds(expr: str, *, explode_depth: int = limits.ODDS_EXPLODE_DEPTH) -> Distribution:
    """Exact distribution of the total of ``expr``.

    Exploding dice are followed for ``explode_depth`` extra rolls per die; the mass cut off
    there is ``result.truncated``.

    >>> odds("2d6").at_least(10)
    Fraction(1, 6)
    """
    require_text(expr)
    if not isinstance(explode_depth, int) or not 0 <= explode_depth <= limits.MAX_EXPLOSIONS:
        raise DiceError(
            f"explode_depth must be a whole number from 0 to {limits.MAX_EXPLOSIONS}, "
            f"not {explode_depth!r}"
        )
    global _deadline
    if _deadline is not None:  # nested call: the outer one keeps the clock
        return _odds_text(expr, explode_depth)
    _deadline = time.monotonic() + limits.ODDS_TIME_LIMIT
    try:
        return _odds_text(expr, explode_depth)
    finally:
        _deadline = None


_deadline: float | None = None


def _check_time() -> None:
    """The safety net behind the cost ceilings: stop exact odds that run too long."""
    if _deadline is not None and time.monotonic() > _deadline:
        raise OddsTooCostlyError(
            f"exact odds took longer than {limits.ODDS_TIME_LIMIT:g} seconds; {SIMULATE_HINT}"
        )


class _SmallResultCache:
    """An LRU cache of distributions that skips huge ones (a d1,000,000 holds tens of MB),
    so a long session in the app cannot fill memory with cached odds."""

    def __init__(self, func: Callable[..., Distribution], maxsize: int) -> None:
        self.func = func
        self.maxsize = maxsize
        self.store: OrderedDict[tuple[object, ...], Distribution] = OrderedDict()
        functools.update_wrapper(self, func)

    def __call__(self, *args: object) -> Distribution:
        found = self.store.get(args)
        if found is not None:
            with contextlib.suppress(KeyError):  # another thread may have evicted it
                self.store.move_to_end(args)
            return found
        result = self.func(*args)
        if len(result) <= _CACHE_MAX_OUTCOMES:
            self.store[args] = result
            if len(self.store) > self.maxsize:
                self.store.popitem(last=False)
        return result

    def cache_clear(self) -> None:
        self.store.clear()


_CACHE_MAX_OUTCOMES = 20_000


def _small_result_cache(maxsize: int) -> Callable[[Callable[..., Distribution]], _SmallResultCache]:
    return lambda func: _SmallResultCache(func, maxsize)


@_small_result_cache(maxsize=512)
def _odds_text(expr: str, explode_depth: int) -> Distribution:
    return node_odds(parse(expr), explode_depth)


def node_odds(node: Node, explode_depth: int = limits.ODDS_EXPLODE_DEPTH) -> Distribution:
    """Exact distribution of one syntax-tree node.

    Not cached by node: hashing a tree hundreds of levels deep would recurse that deep.
    Results are cached by expression text ([odds][companion.dice.odds.odds]) and per pool of dice.
    """
    if isinstance(node, Const):
        return Distribution.constant(node.value)
    if isinstance(node, (Group, Labeled)):
        return node_odds(node.inner, explode_depth)
    if isinstance(node, Neg):
        return -node_odds(node.operand, explode_depth)
    if isinstance(node, BinOp):
        first, steps = spine(node)
        total = node_odds(first, explode_depth)
        for op, right_node, pos in steps:
            _check_time()
            right = node_odds(right_node, explode_depth)
            if op == "+":
                total = total + right
            elif op == "-":
                total = total - right
            elif op == "*":
                total = total * right
            else:
                if 0 in right:
                    raise DiceError(f"division by zero is possible at column {pos}")
                total = total // right
        return total
    return _dice_odds(node, explode_depth)


def _dice_odds(node: Dice, depth: int) -> Distribution:
    counts = node_odds(node.count, depth)
    if isinstance(node.sides, str):
        sides_dist: Distribution | None = None
    else:
        sides_dist = node_odds(node.sides, depth)
        if sides_dist.min < 1:
            raise DiceError(f"a die could get {sides_dist.min} sides at column {node.pos}")
        if sides_dist.max > limits.MAX_SIDES:
            raise DiceLimitError(
                f"a die could get {sides_dist.max:,} sides at column {node.pos}; "
                f"the limit is {limits.MAX_SIDES:,}"
            )
    if counts.min < 0:
        raise DiceError(f"the number of dice could be negative at column {node.pos}")
    if counts.max > limits.MAX_DICE:
        raise DiceLimitError(
            f"more than {limits.MAX_DICE:,} dice in one expression (at column {node.pos})"
        )
    cases = len(counts) * (1 if sides_dist is None else len(sides_dist))
    if cases > limits.ODDS_MAX_MIXTURE:
        raise OddsTooCostlyError(
            f"the dice at column {node.pos} split into {cases:,} cases of count and size; "
            f"{SIMULATE_HINT}"
        )
    if sides_dist is None:
        assert isinstance(node.sides, str)
        low, high = face_range(node.sides)
        parts = [(p, _pool_odds(n, low, high, node.mods, depth)) for n, p in counts]
    else:
        parts = [
            (pn * ps, _pool_odds(n, 1, s, node.mods, depth))
            for n, pn in counts
            for s, ps in sides_dist
        ]
    _check_time()
    if len(parts) == 1:
        return parts[0][1]
    return Distribution.mixture(parts)


def face_distribution(low: int, high: int, mods: Modifiers) -> Distribution:
    """One roll of a die with faces ``low..high`` after its rerolls (before explosions)."""
    base = Distribution.uniform(low, high)
    if not mods.reroll:
        return base
    conds = mods.reroll

    def rerolled(v: int) -> bool:
        return any(c(v) for c in conds)

    keep = [v for v in range(low, high + 1) if not rerolled(v)]
    if not mods.reroll_once:
        if not keep:
            raise DiceLimitError(
                f"reroll {''.join(str(c) for c in conds)} matches every face of a d{high}"
                f"{'' if low == 1 else f' ({low}..{high})'}, so it would reroll forever"
            )
        return Distribution.from_weights(dict.fromkeys(keep, 1))
    # Reroll once: a matching face is rolled again and the new face stands, whatever it is.
    p_reroll = Fraction(high - low + 1 - len(keep), high - low + 1)
    if not p_reroll or not keep:
        return base
    kept_part = Distribution.from_weights(dict.fromkeys(keep, 1))
    return Distribution.mixture([(1 - p_reroll, kept_part), (p_reroll, base)])


def explodes_on(low: int, high: int, mods: Modifiers) -> Callable[[int], bool] | None:
    """The explosion test for raw faces, or None if the dice never explode."""
    if mods.explode_max:
        return lambda v: v == high
    cond = mods.explode
    if cond is None:
        return None
    return cond.__call__


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


@_small_result_cache(maxsize=1024)
def _pool_odds(n: int, low: int, high: int, mods: Modifiers, depth: int) -> Distribution:
    """Total (or success count) of ``n`` dice with faces ``low..high`` and ``mods``."""
    _check_time()
    if n == 0:
        return Distribution.constant(0)
    face = face_distribution(low, high, mods)
    clamped = mods.clamp_min is not None or mods.clamp_max is not None
    clamp = clamp_of(mods)
    count = mods.count

    def score(v: int) -> int:
        shown = clamp(v)
        return (1 if count(shown) else 0) if count is not None else shown

    shown_face = face.map(clamp) if clamped else face

    explode = explodes_on(low, high, mods)
    if explode is not None:
        boom = [v for v in face.keys() if explode(v)]  # noqa: SIM118 (iteration yields pairs)
        if len(boom) == len(face):
            raise DiceLimitError(
                f"every face d{high if (low, high) != (-1, 1) else 'F'} can show explodes, "
                "so it would never stop"
            )
        if boom:
            if mods.keep is not None:
                return _keep_exploding(face, set(boom), clamp, score, n, mods.keep, depth)
            return _chain(face, boom, score, depth).repeat_sum(n)
    if mods.keep is None:
        per_die = face.map(score) if clamped or count is not None else face
        return per_die.repeat_sum(n)
    kept, highest = mods.keep.kept(n)
    return keep_odds(shown_face, n, kept, highest, score if count is not None else None)


def _keep_exploding(
    face: Distribution,
    boom: set[int],
    clamp: Callable[[int], int],
    score: Callable[[int], int],
    n: int,
    keep: Keep,
    depth: int,
) -> Distribution:
    """Keep/drop over a pool where every explosion adds a die of its own.

    Each rolled die either explodes (a face from ``boom``) or ends its chain. So the pool is
    X dice drawn from the exploding faces and Y from the others, with (X, Y) following from
    the chain lengths; given (X, Y), and when every exploding face shows at least as high (or
    at most as low) as every other face, which dice are kept follows from X and Y alone.
    A die cut off at ``depth`` ends on any face; that mass is ``truncated``.
    """
    values, weights, denom = face.weights()
    w_boom = sum(w for v, w in zip(values, weights, strict=True) if v in boom)
    w_rest = denom - w_boom
    booms = Distribution.from_weights(
        {v: w for v, w in zip(values, weights, strict=True) if v in boom}
    ).map(clamp)
    rests = Distribution.from_weights(
        {v: w for v, w in zip(values, weights, strict=True) if v not in boom}
    ).map(clamp)
    if booms.min >= rests.max:
        upper, lower, upper_is_boom = booms, rests, True
    elif booms.max <= rests.min:
        upper, lower, upper_is_boom = rests, booms, False
    else:
        raise OddsTooCostlyError(
            "exact odds of keep/drop on dice that explode on faces mixed among the others are "
            f"not supported; {SIMULATE_HINT}"
        )
    # One die: k explosions then a non-exploding face (k < depth), or depth explosions and
    # then any face; weights over denom**(depth + 1). Keys are (exploding, other) counts.
    one: dict[tuple[int, int], int] = {}
    for k in range(depth + 1):
        one[(k, 1)] = w_boom**k * w_rest * denom ** (depth - k)
    one[(depth + 1, 0)] = w_boom ** (depth + 1)
    pool: dict[tuple[int, int], int] = {(0, 0): 1}
    for _ in range(n):
        _check_time()
        nxt: dict[tuple[int, int], int] = {}
        for (x, y), w in pool.items():
            for (dx, dy), u in one.items():
                key = (x + dx, y + dy)
                nxt[key] = nxt.get(key, 0) + w * u
        pool = nxt
    if len(pool) > 20 * limits.ODDS_MAX_MIXTURE:  # cases share their keep DPs (memo)
        raise OddsTooCostlyError(
            f"keep/drop on {n} exploding dice splits into {len(pool):,} cases; {SIMULATE_HINT}"
        )
    pool_denom = denom ** ((depth + 1) * n)
    cut = Fraction(w_boom ** (depth + 1), denom ** (depth + 1))
    memo: dict[tuple[bool, int, int, bool], Distribution] = {}

    def kept_part(is_upper: bool, count: int, kept: int, highest: bool) -> Distribution:
        key = (is_upper, count, kept, highest)
        if key not in memo:
            memo[key] = keep_odds(upper if is_upper else lower, count, kept, highest, score)
        return memo[key]

    parts = []
    for (x, y), w in pool.items():
        _check_time()
        n_up, n_low = (x, y) if upper_is_boom else (y, x)
        kept, highest = keep.kept(x + y)
        # Highest: the upper group's dice are kept first; lowest: the lower group's.
        first, n_first, n_second = (True, n_up, n_low) if highest else (False, n_low, n_up)
        if n_first >= kept:
            part = kept_part(first, n_first, kept, highest)
        else:
            part = kept_part(first, n_first, n_first, highest) + kept_part(
                not first, n_second, kept - n_first, highest
            )
        parts.append((Fraction(w, pool_denom), part))
    values_out, weights_out, denom_out = Distribution.mixture(parts).weights()
    truncated = 1 - (1 - cut) ** n if cut else Fraction(0)
    return Distribution._make(
        dict(zip(values_out, weights_out, strict=True)), denom_out, truncated
    )


def _chain(
    face: Distribution, boom: list[int], score: Callable[[int], int], depth: int
) -> Distribution:
    """Score of one die plus the dice its explosions add, followed ``depth`` rolls deep."""
    values, weights, denom = face.weights()
    boom_set = set(boom)
    p_boom = Fraction(sum(w for v, w in zip(values, weights, strict=True) if v in boom_set), denom)
    rest = Distribution.from_weights(
        {v: w for v, w in zip(values, weights, strict=True) if v not in boom_set}
    ).map(score)
    boom_scores = Distribution.from_weights(
        {v: w for v, w in zip(values, weights, strict=True) if v in boom_set}
    ).map(score)
    # Depth 0: a die that would explode again is cut short; that mass is the truncation.
    start_values, start_weights, start_denom = face.map(score).weights()
    chain = Distribution._make(
        dict(zip(start_values, start_weights, strict=True)), start_denom, p_boom
    )
    for _ in range(depth):
        _check_time()
        chain = Distribution.mixture([(1 - p_boom, rest), (p_boom, boom_scores + chain)])
    return chain


def keep_odds(
    die: Distribution,
    n: int,
    kept: int,
    highest: bool,
    score: Callable[[int], int] | None = None,
) -> Distribution:
    """Sum of ``score`` over the ``kept`` highest (or lowest) of ``n`` independent ``die``.

    Order statistics by a DP over faces from the most to the least preferred: state ``j``
    (dice placed so far, all of them kept) holds a polynomial in x whose exponent is the kept
    score so far, packed into one integer. Once ``kept`` dice are placed the rest must all
    show less preferred faces, which closes the state in one multiplication.
    """
    if kept <= 0:
        return Distribution.constant(0)
    if score is None:
        def score(v: int) -> int:
            return v
    if kept >= n:
        return die.map(score).repeat_sum(n)
    values, weights, denom = die.weights()
    if kept == 1:
        # One die kept: P(best <= x) = P(one die <= x)^n, so the CDF alone gives the answer.
        ranked = zip(values, weights, strict=True) if highest else zip(
            reversed(values), reversed(weights), strict=True
        )
        best: dict[int, int] = {}
        below = 0
        below_n = 0
        for v, w in ranked:
            below += w
            now = below**n
            key = score(v)
            best[key] = best.get(key, 0) + now - below_n
            below_n = now
        return Distribution._make(best, denom**n)
    order = list(zip(values, weights, strict=True))
    if highest:
        order.reverse()
    scores = [score(v) for v, _ in order]
    smin, smax = min(scores), max(scores)
    length = (smax - smin) * kept + 1
    nbytes = _nbytes(denom**n)
    shift = nbytes * 8
    check_cost(length, nbytes)
    work = len(order) * kept * (kept + 1) // 2 * length * shift
    if work > limits.ODDS_MAX_KEEP_WORK:
        raise OddsTooCostlyError(
            f"keeping {kept} of {n} dice with {len(order)} faces exactly is too much work; "
            f"{SIMULATE_HINT}"
        )
    rest_after = [0] * len(order)
    acc = 0
    for i in range(len(order) - 1, -1, -1):
        rest_after[i] = acc
        acc += order[i][1]
    comb = math.comb
    states = [0] * kept
    states[0] = 1
    result = 0
    for i, (_, w) in enumerate(order):
        e = (scores[i] - smin) * shift
        rest = rest_after[i]
        new = [0] * kept
        w_pow = [1] * (n + 1)
        rest_pow = [1] * (n + 1)
        for c in range(1, n + 1):
            w_pow[c] = w_pow[c - 1] * w
            rest_pow[c] = rest_pow[c - 1] * rest
        here_or_after = w + rest
        for j in range(kept):
            poly = states[j]
            if not poly:
                continue
            remaining = n - j
            need = kept - j
            if not rest:  # the least preferred face: every remaining die lands here
                result += (poly * w_pow[remaining]) << (need * e)
                continue
            # c >= need dice on this face complete the kept set (the others fall on less
            # preferred faces) and all add the same kept score, so their weights are summed:
            # by the binomial theorem, (w + rest)^remaining minus the terms with c < need.
            closing = here_or_after**remaining
            for c in range(need):
                coef = comb(remaining, c) * w_pow[c]
                new[j + c] += (poly * coef) << (c * e)
                closing -= coef * rest_pow[remaining - c]
            if closing:
                result += (poly * closing) << (need * e)
        states = new
    coeffs = unpack(result, nbytes, length)
    return Distribution._dense(smin * kept, coeffs, denom**n)
