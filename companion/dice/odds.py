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
    WORD_BITS,
    Distribution,
    check_cost,
    mul_work,
    nbytes_for,
    power_work,
    start_metering,
    stop_metering,
    unpack,
)
from companion.dice.nodes import (
    BinOp,
    Const,
    Dice,
    FaceRanges,
    Group,
    Keep,
    Labeled,
    Modifiers,
    Neg,
    Node,
    clamp_of,
    explode_span,
    explodes_on,
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
    global _deadline, _steps
    if _deadline is not None:  # nested call: the outer one keeps the clock and the budget
        return _odds_text(expr, explode_depth)
    _deadline = time.monotonic() + limits.ODDS_TIME_LIMIT
    _steps = 0
    start_metering()
    try:
        return _odds_text(expr, explode_depth)
    finally:
        _deadline = None
        stop_metering()


_deadline: float | None = None
_steps = 0


def _check_time() -> None:
    """The last-resort net behind the cost budget: stop exact odds that run too long."""
    if _deadline is not None and time.monotonic() > _deadline:
        raise OddsTooCostlyError(
            f"exact odds took longer than {limits.ODDS_TIME_LIMIT:g} seconds; {SIMULATE_HINT}"
        )


def spend(steps: int, what: str) -> None:
    """Charge the estimated cost of the next piece of work to this call's budget
    ([ODDS_MAX_STEPS][companion.dice.limits.ODDS_MAX_STEPS]) before doing it, and refuse
    once the total would pass the budget."""
    global _steps
    _steps += steps
    if _steps > limits.ODDS_MAX_STEPS:
        raise OddsTooCostlyError(
            f"exact odds of {what} would take about {max(steps, _steps):,} steps "
            f"(the budget is {limits.ODDS_MAX_STEPS:,}); {SIMULATE_HINT}"
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


def clear_caches() -> None:
    """Forget every cached parse, distribution and pool (benchmarks time cold runs)."""
    _odds_text.cache_clear()
    _pool_odds.cache_clear()
    parse.cache_clear()


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
            if op in ("*", "/") and min(len(total), len(right)) == 1:
                # By a constant: one pass over the outcomes, a fraction of a step each.
                spend(max(len(total), len(right)) // 4,
                      f"the {'product' if op == '*' else 'quotient'} at column {pos}")
            elif op in ("*", "/"):
                # A pair costs about six steps (a Python call, a big-integer product and a
                # dict update), more when the weights are long.
                bits = total.weights()[2].bit_length() + right.weights()[2].bit_length()
                spend(6 * len(total) * len(right) * (1 + bits // 256),
                      f"the {'product' if op == '*' else 'quotient'} at column {pos}")
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
        shapes = [(n, p, low, high) for n, p in counts]
    else:
        shapes = [(n, pn * ps, 1, s) for n, pn in counts for s, ps in sides_dist]
    if len(shapes) > 1:
        where = f"{_short(str(node))} at column {node.pos}"
        _mixture_budget(shapes, node.mods, depth, where)
    parts = [(p, _pool_odds(n, low, high, node.mods, depth)) for n, p, low, high in shapes]
    _check_time()
    if len(parts) == 1:
        return parts[0][1]
    return Distribution.mixture(parts)


def _mixture_budget(
    shapes: list[tuple[int, Fraction, int, int]], mods: Modifiers, depth: int, what: str
) -> None:
    """Charge a dynamic count or size (``(1d50)d(1d50)``) before any case is worked out:
    every case's totals are added up over a common denominator that grows with each new
    die size, so the cost is about (totals of all cases) x (words in that denominator)."""
    entries = 0
    longest: dict[int, int] = {}  # faces -> most dice of that size
    for n, _, low, high in shapes:
        faces = high - low + 1
        dice = n if mods.keep is None else mods.keep.kept(n)[0]
        per_die = 1 if mods.count is not None else high - low
        if mods.explode is not None or mods.explode_max:
            per_die *= depth + 1
        entries += dice * per_die + 1
        longest[faces] = max(longest.get(faces, 0), n)
    bits = sum(n * faces.bit_length() for faces, n in longest.items())
    spend(entries * max(1, bits // 64), what)


def _short(text: str, width: int = 40) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def face_distribution(low: int, high: int, mods: Modifiers) -> Distribution:
    """One roll of a die with faces ``low..high`` after its rerolls (before explosions)."""
    base = Distribution.uniform(low, high)
    if not mods.reroll:
        return base
    conds = mods.reroll
    allowed = FaceRanges.allowed(low, high, conds)
    size = high - low + 1
    if not mods.reroll_once:
        if not len(allowed):
            raise DiceLimitError(
                f"reroll {''.join(str(c) for c in conds)} matches every face of a d{high}"
                f"{'' if low == 1 else f' ({low}..{high})'}, so it would reroll forever"
            )
        weights = [0] * size
        for lo, hi in allowed.ranges:
            weights[lo - low : hi - low + 1] = [1] * (hi - lo + 1)
        return Distribution.from_dense_counts(low, weights, len(allowed))
    # Reroll once: a matching face is rolled again and the new face stands, whatever it is:
    # P(v) = [v allowed] / size + (matching / size) * (1 / size).
    matching = size - len(allowed)
    if not matching or not len(allowed):
        return base
    weights = [matching] * size
    for lo, hi in allowed.ranges:
        weights[lo - low : hi - low + 1] = [size + matching] * (hi - lo + 1)
    return Distribution.from_dense_counts(low, weights, size * size)


def _pool_text(n: int, low: int, high: int, mods: Modifiers) -> str:
    return f"{n}d{'F' if (low, high) == (-1, 1) else high}{mods}"


def _pool_budget(n: int, low: int, high: int, mods: Modifiers, depth: int) -> None:
    """Refuse a pool whose exact odds would cost too much, before any of the work."""
    faces = high - low + 1
    what = _pool_text(n, low, high, mods)
    if faces > limits.ODDS_MAX_FACES:
        raise OddsTooCostlyError(
            f"exact odds of {what} would follow {faces:,} faces per die "
            f"(the limit is {limits.ODDS_MAX_FACES:,}); {SIMULATE_HINT}"
        )
    steps = 0 if mods.plain else faces * (1 + len(mods.reroll))
    span = explode_span(low, high, mods)
    if mods.keep is not None and span is None and 0 < mods.keep.kept(n)[0] < n:
        # Order statistics hold weights over denom**n (denom is faces, or faces**2 after a
        # reroll-once): refuse before the faces are even built when they cannot be held.
        kept = mods.keep.kept(n)[0]
        scores = 2 if mods.count is not None else faces
        bits = n * (faces.bit_length() * (2 if mods.reroll_once else 1))
        check_cost(faces if kept == 1 else (scores - 1) * kept + 1, bits // 8 + 1)
    if span is not None:
        if mods.keep is not None:
            # The (explosions, other dice) cases: about n^2 * depth^2 / 2 multiplications
            # (cheap ones: counted as half a step), then a keep DP per count of dice.
            steps += (n + 1) ** 2 * (depth + 1) * (depth + 2) // 4 + n * (depth + 1) * faces
        else:
            # Each of the ``depth`` levels mixes the chain so far (growing by a die's range
            # per level) with the faces: about faces * depth^2 / 2.
            steps += faces * (depth + 1) * (depth + 2) // 2
            booms = span[1] - span[0] + 1
            top = max(abs(low), abs(high)) if mods.count is None else 1
            if booms > 1 and top * (depth + 1) * max(n, 1) > limits.ODDS_MAX_OUTCOMES:
                raise OddsTooCostlyError(
                    f"exact odds of {what} would need about {top * (depth + 1) * n:,} "
                    f"separate totals (limit {limits.ODDS_MAX_OUTCOMES:,}); {SIMULATE_HINT}"
                )
            # Exploding on several faces convolves the chain with them at every level: its
            # last product holds about top * (depth + 1) totals, each weighing about
            # (depth + 1) * log2(faces**2) bits (a reroll-once die has faces**2 as its
            # denominator), and each of the depth levels multiplies the chain by the
            # exploding faces' weights.
            weight_bits = (depth + 1) * 2 * faces.bit_length()
            bits = top * (depth + 1) * weight_bits
            if booms > 1:
                check_cost(top * (depth + 1), weight_bits // 8 + 1,
                           (depth + 1) * mul_work(bits, booms * weight_bits))
    spend(steps, what)


@_small_result_cache(maxsize=1024)
def _pool_odds(n: int, low: int, high: int, mods: Modifiers, depth: int) -> Distribution:
    """Total (or success count) of ``n`` dice with faces ``low..high`` and ``mods``."""
    _check_time()
    if n == 0:
        return Distribution.constant(0)
    _pool_budget(n, low, high, mods, depth)
    face = face_distribution(low, high, mods)
    clamped = mods.clamp_min is not None or mods.clamp_max is not None
    clamp = clamp_of(mods)
    count = mods.count

    def score(v: int) -> int:
        shown = clamp(v)
        return (1 if count(shown) else 0) if count is not None else shown

    shown_face = face.map_monotone(clamp) if clamped else face

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
        per_die = face.map(score) if count is not None else shown_face
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
    # One die: k explosions then a non-exploding face (k <= depth), or depth + 1 explosions
    # (cut off there: it ends on any face); weights over denom**(depth + 1). The pool's
    # cases are keyed (exploding dice, other dice) = (x, y): choosing which y dice end
    # normally, x is (n - y) * (depth + 1) plus the explosions of those y dice, whose
    # weights are the coefficients of g(t)**y. This is O(n^2 depth^2), not O(n^3 depth^2).
    cut_w = w_boom ** (depth + 1)
    g = [w_boom**k * w_rest * denom ** (depth - k) for k in range(depth + 1)]
    poly = [1]
    pool: dict[tuple[int, int], int] = {}
    for y in range(n + 1):
        _check_time()
        if y:
            nxt = [0] * (len(poly) + depth)
            for i, a in enumerate(poly):
                for k, b in enumerate(g):
                    nxt[i + k] += a * b
            poly = nxt
        m = n - y
        factor = math.comb(n, y) * cut_w**m
        base = m * (depth + 1)
        for j, c in enumerate(poly):
            if c:
                pool[(base + j, y)] = factor * c
    if len(pool) > 20 * limits.ODDS_MAX_MIXTURE:  # cases share their keep DPs (memo)
        raise OddsTooCostlyError(
            f"keep/drop on {n} exploding dice splits into {len(pool):,} cases; {SIMULATE_HINT}"
        )
    pool_denom = denom ** ((depth + 1) * n)
    cut = Fraction(cut_w, denom ** (depth + 1))
    memo: dict[tuple[bool, int, int, bool], Distribution] = {}

    def kept_part(is_upper: bool, count: int, kept: int, highest: bool) -> Distribution:
        key = (is_upper, count, kept, highest)
        if key not in memo:
            memo[key] = keep_odds(upper if is_upper else lower, count, kept, highest, score)
        return memo[key]

    # Cases that keep the same dice from each group share one part: add their weights first.
    grouped: dict[tuple[bool, int, int, int, bool], int] = {}
    for (x, y), w in pool.items():
        n_up, n_low = (x, y) if upper_is_boom else (y, x)
        kept, highest = keep.kept(x + y)
        # Highest: the upper group's dice are kept first; lowest: the lower group's.
        first, n_first, n_second = (True, n_up, n_low) if highest else (False, n_low, n_up)
        key = (first, n_first, n_second if n_first < kept else 0, kept, highest)
        grouped[key] = grouped.get(key, 0) + w
    parts = []
    for (first, n_first, n_second, kept, highest), w in grouped.items():
        _check_time()
        if n_first >= kept:
            part = kept_part(first, n_first, kept, highest)
        else:
            part = kept_part(first, n_first, n_first, highest) + kept_part(
                not first, n_second, kept - n_first, highest
            )
        parts.append((Fraction(w, pool_denom), part))
    values_out, weights_out, denom_out = Distribution.mixture(parts).weights()
    truncated = 1 - (1 - cut) ** n if cut else Fraction(0)
    return Distribution.from_counts(
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
    chain = Distribution.from_counts(
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
    if kept >= n:
        return (die if score is None else die.map(score)).repeat_sum(n)
    if score is None:
        def score(v: int) -> int:
            return v
    values, weights, denom = die.weights()
    if kept == 1:
        # One die kept: P(best <= x) = P(one die <= x)^n, so the CDF alone gives the answer.
        # Its cost is one n-th power per face, each as long as the denominator denom**n.
        bits = (denom.bit_length() + 1) * n
        check_cost(len(values), bits // 8 + 1, len(values) * power_work(bits))
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
        return Distribution.from_counts(best, denom**n)
    order = list(zip(values, weights, strict=True))
    if highest:
        order.reverse()
    scores = [score(v) for v, _ in order]
    smin, smax = min(scores), max(scores)
    length = (smax - smin) * kept + 1
    nbytes = nbytes_for(denom**n)
    shift = nbytes * 8
    # Per face and per state (kept of them): an n-th power as long as denom**n and the
    # packed polynomial times that closing weight (both mostly shorter than their final
    # length: counted a quarter). Per face, state and count on that face (kept**2 / 2 of
    # them): a Python step with a binomial of n (n bits), two products by it as long as
    # the weights, and the polynomial (on average half its final length) times it.
    packed = length * shift
    work = len(order) * kept * (power_work(shift) + mul_work(packed, shift)) / 4
    work += len(order) * (kept * (kept + 1) // 2) * (
        packed // 60 + 6 * shift // WORD_BITS + n // WORD_BITS + 100
    )
    check_cost(length, nbytes, work)
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
        w_pow = [w**c for c in range(kept)]  # only the first powers are needed
        here_or_after = w + rest
        for j in range(kept):
            poly = states[j]
            if not poly:
                continue
            remaining = n - j
            need = kept - j
            if not rest:  # the least preferred face: every remaining die lands here
                result += (poly * w**remaining) << (need * e)
                continue
            # c >= need dice on this face complete the kept set (the others fall on less
            # preferred faces) and all add the same kept score, so their weights are summed:
            # by the binomial theorem, (w + rest)^remaining minus the terms with c < need.
            closing = here_or_after**remaining
            rest_pow = rest ** (remaining - need + 1)  # rest^(remaining - c), c = need - 1
            for c in range(need - 1, -1, -1):
                coef = comb(remaining, c) * w_pow[c]
                new[j + c] += (poly * coef) << (c * e)
                closing -= coef * rest_pow
                rest_pow *= rest
            if closing:
                result += (poly * closing) << (need * e)
        states = new
    coeffs = unpack(result, nbytes, length)
    return Distribution.from_dense_counts(smin * kept, coeffs, denom**n)
