"""``Distribution``: an exact, immutable discrete probability distribution over integers.

Probabilities are exact ``fractions.Fraction`` values, but inside the class they are
integer weights over one common denominator, which keeps the arithmetic in plain ints.
Convolution packs each weight list into one big integer (Kronecker substitution) and lets
CPython's big-integer multiplication do the work: far faster than a loop over pairs.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from fractions import Fraction
from typing import Union

from companion.dice import limits
from companion.errors import DiceError, OddsTooCostlyError

Operand = Union["Distribution", int]


def nbytes_for(bound: int) -> int:
    """Bytes per packed slot that hold any coefficient up to ``bound``."""
    return bound.bit_length() // 8 + 1


def pack(weights: list[int], nbytes: int) -> int:
    """Weights as one integer, ``nbytes`` bytes per slot, lowest slot first."""
    return int.from_bytes(b"".join(w.to_bytes(nbytes, "little") for w in weights), "little")


def unpack(number: int, nbytes: int, length: int) -> list[int]:
    """The inverse of [pack][companion.dice.distribution.pack]."""
    raw = number.to_bytes(nbytes * length, "little")
    from_bytes = int.from_bytes
    return [from_bytes(raw[i : i + nbytes], "little") for i in range(0, nbytes * length, nbytes)]


SIMULATE_HINT = "use simulate(expr, n) for an estimate instead"


WORD_BITS = 30
"""Bits per digit of CPython's integers: costs below are counted in digit operations."""

_OVERHEAD_DIGITS = 30
"""One step of a Python loop costs about as much as 30 digit operations (about 100 ns)."""


def mul_work(a_bits: int, b_bits: int) -> float:
    """Estimated cost of one big-integer product, in digit operations: schoolbook below
    70 digits, Karatsuba above (a lopsided product is cut into pieces of the shorter
    factor, so it costs ``longer * shorter**0.585``). About 3.6 ns each on a small machine."""
    small, big = sorted((a_bits // WORD_BITS + 1, b_bits // WORD_BITS + 1))
    if small <= 70:
        return float(big * small)
    return big * math.pow(small, 0.585)


def power_work(result_bits: int) -> float:
    """Estimated cost of raising an integer to a power whose result has ``result_bits``:
    the last squaring dominates (the earlier ones add about half of it)."""
    return 1.5 * mul_work(result_bits // 2, result_bits // 2) + result_bits // WORD_BITS


_spent: list[float] = []
"""Work charged to the ``odds`` call in progress (empty when none is)."""


def start_metering() -> None:
    """Begin charging every product to one ``odds`` call
    (see [charge][companion.dice.distribution.charge])."""
    _spent[:] = [0.0]


def stop_metering() -> None:
    _spent.clear()


def charge(work: float) -> None:
    """Charge ``work`` digit operations before doing them; refuse past
    [ODDS_MAX_WORK][companion.dice.limits.ODDS_MAX_WORK] for one product, or for one
    ``odds`` call in all."""
    total = work + (_spent[0] if _spent else 0.0)
    if total > limits.ODDS_MAX_WORK:
        raise OddsTooCostlyError(
            f"exact odds would take about {total:.2g} big-integer digit operations "
            f"(the budget is {limits.ODDS_MAX_WORK:.2g}, about a second); {SIMULATE_HINT}"
        )
    if _spent:
        _spent[0] = total


def check_cost(slots: int, nbytes: int, work: float = 0.0) -> None:
    """Refuse arithmetic too large to finish quickly, pointing the player at simulate:
    too many totals, weights too large to hold, or too much work (then charge it)."""
    if slots > limits.ODDS_MAX_OUTCOMES:
        raise OddsTooCostlyError(
            f"exact odds would need {slots:,} separate totals "
            f"(limit {limits.ODDS_MAX_OUTCOMES:,}); {SIMULATE_HINT}"
        )
    if slots * nbytes * 8 > limits.ODDS_MAX_WEIGHT_BITS:
        raise OddsTooCostlyError(
            f"exact odds would need {slots:,} totals with {nbytes * 8:,}-bit weights, "
            f"too much to hold; {SIMULATE_HINT}"
        )
    charge(work)


def _power_coefficients(dense: list[int], n: int) -> list[int]:
    """Coefficients of ``(sum dense[k] x**k) ** n`` (``dense[0] > 0``) by J. C. P. Miller's
    recurrence: ``m p0 q[m] = sum over k of (n k - m + k) p[k] q[m - k]``, exact in integers.
    One pass over the result, each slot touching the nonzero weights once: no big products."""
    p0 = dense[0]
    terms = [(k, w) for k, w in enumerate(dense) if k and w]
    length = (len(dense) - 1) * n + 1
    q = [0] * length
    q[0] = p0**n
    for m in range(1, length):
        acc = 0
        for k, w in terms:
            if k > m:
                break
            acc += (n * k - m + k) * w * q[m - k]
        q[m] = acc // (m * p0)
    return q


def _uniform_power_counts(faces: int, n: int) -> list[int]:
    """Ways ``n`` dice with faces ``0..faces-1`` reach each total: the coefficients of
    ``((1 - x**f) / (1 - x)) ** n``, whose log-derivative gives a recurrence of three
    terms per slot: ``(m+1) q[m+1] = (m+n) q[m] + (m-f+1-nf) q[m-f+1] + (nf-n-m+f) q[m-f]``."""
    f = faces
    length = (f - 1) * n + 1
    q = [0] * length
    q[0] = 1
    for m in range(length - 1):
        acc = (m + n) * q[m]
        if m - f + 1 >= 0:
            acc += (m - f + 1 - n * f) * q[m - f + 1]
            if m - f >= 0:
                acc += (n * f - n - m + f) * q[m - f]
        q[m + 1] = acc // (m + 1)
    return q


class Distribution:
    """Exact probabilities of integer outcomes.

    Behaves as an immutable mapping ``value -> Fraction`` (``d[7]``, ``len(d)``, ``7 in d``)
    but iterates as ``(value, probability)`` pairs in ascending value. Hashable and
    comparable by value. ``truncated`` is the probability mass whose value was cut short
    (exploding dice followed only to a stated depth); it is 0 for exact distributions.

    >>> d = Distribution.die(6) + Distribution.die(6)
    >>> d[7], d.min, d.max, d.mean
    (Fraction(1, 6), 2, 12, Fraction(7, 1))
    """

    __slots__ = ("_denom", "_hash", "_truncated", "_values", "_weights")

    _values: tuple[int, ...]
    _weights: tuple[int, ...]
    _denom: int
    _hash: int | None
    _truncated: Fraction

    def __init__(self, probabilities: Mapping[int, Fraction | int] | None = None) -> None:
        """Build from ``{value: probability}``; probabilities must be >= 0 and sum to 1."""
        if probabilities is None:
            probabilities = {0: 1}
        items = {int(v): Fraction(p) for v, p in probabilities.items() if p != 0}
        if any(p < 0 for p in items.values()):
            raise DiceError("a probability cannot be negative")
        if sum(items.values()) != 1:
            raise DiceError("probabilities must sum to 1")
        denom = math.lcm(*(p.denominator for p in items.values())) if items else 1
        self._set(
            {v: p.numerator * (denom // p.denominator) for v, p in items.items()}, denom
        )

    def _set(
        self, weights: Mapping[int, int], denom: int, truncated: Fraction = Fraction(0)
    ) -> None:
        pairs = sorted((v, w) for v, w in weights.items() if w)
        self._set_sorted([v for v, _ in pairs], [w for _, w in pairs], denom, truncated)

    def _set_sorted(
        self, values: list[int], weights: list[int], denom: int, truncated: Fraction
    ) -> None:
        """Values ascending, weights positive; reduced so equal distributions compare equal."""
        if not values:
            raise DiceError("a distribution needs at least one possible outcome")
        g = math.gcd(denom, *weights)
        if g > 1:
            self._weights = tuple([w // g for w in weights])
            self._denom = denom // g
        else:
            self._weights = tuple(weights)
            self._denom = denom
        self._values = tuple(values)
        self._hash = None
        self._truncated = truncated

    @classmethod
    def from_counts(
        cls, weights: Mapping[int, int], denom: int, truncated: Fraction = Fraction(0)
    ) -> Distribution:
        """``value: count`` over a common ``denom`` (the counts sum to it), taken as given:
        the engine's fast path, for exact counts it computed (no checks)."""
        self = cls.__new__(cls)
        self._set(weights, denom, truncated)
        return self

    @classmethod
    def from_dense_counts(
        cls, low: int, weights: list[int], denom: int, truncated: Fraction = Fraction(0)
    ) -> Distribution:
        """Counts of the values ``low, low + 1, ...`` over ``denom``, taken as given (as
        [from_counts][companion.dice.distribution.Distribution.from_counts])."""
        self = cls.__new__(cls)
        if all(weights):
            self._set_sorted(list(range(low, low + len(weights))), weights, denom, truncated)
        else:
            values = [low + i for i, w in enumerate(weights) if w]
            self._set_sorted(values, [w for w in weights if w], denom, truncated)
        return self

    # -- constructors ---------------------------------------------------------------------
    @classmethod
    def from_weights(cls, weights: Mapping[int, int | Fraction]) -> Distribution:
        """From relative weights (any positive scale): ``{1: 1, 2: 3}`` is 1/4 and 3/4."""
        items = {int(v): Fraction(w) for v, w in weights.items()}
        if any(w < 0 for w in items.values()):
            raise DiceError("a weight cannot be negative")
        total = sum(items.values())
        if total == 0:
            raise DiceError("weights must not all be zero")
        return cls({v: w / total for v, w in items.items()})

    @classmethod
    def constant(cls, value: int) -> Distribution:
        """Certainly ``value``."""
        return cls.from_counts({value: 1}, 1)

    @classmethod
    def die(cls, sides: int) -> Distribution:
        """One fair die numbered 1..sides."""
        if sides < 1:
            raise DiceError(f"a die needs at least 1 side, not {sides}")
        return cls.uniform(1, sides)

    @classmethod
    def uniform(cls, low: int, high: int) -> Distribution:
        """Every integer from ``low`` to ``high`` equally likely."""
        if high < low:
            raise DiceError(f"empty range {low}..{high}")
        check_cost(high - low + 1, 1)
        self = cls.__new__(cls)
        size = high - low + 1
        self._set_sorted(list(range(low, high + 1)), [1] * size, size, Fraction(0))
        return self

    @classmethod
    def mixture(cls, parts: Iterable[tuple[Fraction | int, Distribution]]) -> Distribution:
        """With probability ``p`` the outcome follows ``dist``, for each ``(p, dist)``."""
        parts = [(Fraction(p), d) for p, d in parts if p]
        if sum(p for p, _ in parts) != 1:
            raise DiceError("mixture weights must sum to 1")
        denom = 1
        for p, d in parts:
            denom = math.lcm(denom, p.denominator * d._denom)
        acc: dict[int, int] = {}
        truncated = Fraction(0)
        for p, d in parts:
            scale = p.numerator * (denom // (p.denominator * d._denom))
            for v, w in zip(d._values, d._weights, strict=True):
                acc[v] = acc.get(v, 0) + w * scale
            truncated += p * d.truncated
        return cls.from_counts(acc, denom, truncated)

    @property
    def truncated(self) -> Fraction:
        """Probability mass cut short by a depth limit on exploding dice (0 when exact)."""
        return self._truncated

    # -- mapping-like access --------------------------------------------------------------
    def __iter__(self) -> Iterator[tuple[int, Fraction]]:
        d = self._denom
        return ((v, Fraction(w, d)) for v, w in zip(self._values, self._weights, strict=True))

    def items(self) -> list[tuple[int, Fraction]]:
        return list(self)

    def keys(self) -> tuple[int, ...]:
        return self._values

    def values(self) -> list[Fraction]:
        return [p for _, p in self]

    def __len__(self) -> int:
        return len(self._values)

    def __contains__(self, value: object) -> bool:
        return value in self._values

    def __getitem__(self, value: int) -> Fraction:
        return self.p(value)

    def p(self, value: int) -> Fraction:
        """Probability of exactly ``value`` (0 if impossible)."""
        import bisect

        i = bisect.bisect_left(self._values, value)
        if i < len(self._values) and self._values[i] == value:
            return Fraction(self._weights[i], self._denom)
        return Fraction(0)

    def weights(self) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        """``(values, integer weights, denominator)``: the exact form, for fast reuse."""
        return self._values, self._weights, self._denom

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Distribution):
            return NotImplemented
        return (self._values, self._weights, self._denom, self._truncated) == (
            other._values,
            other._weights,
            other._denom,
            other._truncated,
        )

    def __hash__(self) -> int:
        cached = self._hash
        if cached is None:
            cached = hash((self._values, self._weights, self._denom, self._truncated))
            self._hash = cached
        return cached

    def __repr__(self) -> str:
        """Short, whatever the size: ``<Distribution 2..12, 11 outcomes, mean 7>``."""
        if len(self) == 1:
            return f"<Distribution {self.min}, 1 outcome>"
        cut = ", truncated" if self._truncated else ""
        return (
            f"<Distribution {self.min}..{self.max}, {len(self):,} outcomes, "
            f"mean {float(self.mean):.6g}{cut}>"
        )

    # -- statistics -----------------------------------------------------------------------
    @property
    def min(self) -> int:
        return self._values[0]

    @property
    def max(self) -> int:
        return self._values[-1]

    @property
    def mean(self) -> Fraction:
        return Fraction(
            sum(v * w for v, w in zip(self._values, self._weights, strict=True)), self._denom
        )

    @property
    def variance(self) -> Fraction:
        mean = self.mean
        second = Fraction(
            sum(v * v * w for v, w in zip(self._values, self._weights, strict=True)), self._denom
        )
        return second - mean * mean

    @property
    def stdev(self) -> float:
        return math.sqrt(self.variance)

    def probability(self, predicate: Callable[[int], bool]) -> Fraction:
        """Probability that the outcome satisfies ``predicate``."""
        total = sum(w for v, w in zip(self._values, self._weights, strict=True) if predicate(v))
        return Fraction(total, self._denom)

    def at_least(self, target: int) -> Fraction:
        """P(outcome >= target)."""
        return self.probability(lambda v: v >= target)

    def at_most(self, target: int) -> Fraction:
        """P(outcome <= target)."""
        return self.probability(lambda v: v <= target)

    # -- algebra --------------------------------------------------------------------------
    def map(self, f: Callable[[int], int]) -> Distribution:
        """The distribution of ``f(outcome)``."""
        acc: dict[int, int] = {}
        for v, w in zip(self._values, self._weights, strict=True):
            key = int(f(v))
            acc[key] = acc.get(key, 0) + w
        return Distribution.from_counts(acc, self._denom, self.truncated)

    def map_monotone(self, f: Callable[[int], int]) -> Distribution:
        """[map][companion.dice.distribution.Distribution.map] for a non-decreasing ``f``
        (a clamp, a floor division): equal results are neighbours, merged in one pass."""
        values: list[int] = []
        weights: list[int] = []
        for v, w in zip(self._values, self._weights, strict=True):
            q = f(v)
            if values and values[-1] == q:
                weights[-1] += w
            else:
                values.append(q)
                weights.append(w)
        new = Distribution.__new__(Distribution)
        new._set_sorted(values, weights, self._denom, self._truncated)
        return new

    def __neg__(self) -> Distribution:
        return self._scale(-1)

    def _scale(self, k: int) -> Distribution:
        """The distribution of ``k * outcome``: the same weights in (reversed) order, no
        Python step per outcome beyond one product."""
        if k == 0:
            return Distribution.from_counts({0: self._denom}, self._denom, self._truncated)
        new = Distribution.__new__(Distribution)
        if k > 0:
            new._values = tuple([v * k for v in self._values])
            new._weights = self._weights
        else:
            new._values = tuple([v * k for v in reversed(self._values)])
            new._weights = self._weights[::-1]
        new._denom = self._denom
        new._hash = None
        new._truncated = self._truncated
        return new

    def _divide(self, k: int) -> Distribution:
        """The distribution of ``outcome // k`` for ``k > 0``."""
        return self.map_monotone(lambda v: v // k)

    def __pos__(self) -> Distribution:
        return self

    def _combine_truncated(self, other: Distribution) -> Fraction:
        if not self.truncated and not other.truncated:
            return Fraction(0)
        return 1 - (1 - self.truncated) * (1 - other.truncated)

    def __add__(self, other: Operand) -> Distribution:
        if isinstance(other, int):
            return self._shift(other)
        if not isinstance(other, Distribution):
            return NotImplemented
        return _convolve(self, other)

    __radd__ = __add__

    def _shift(self, k: int) -> Distribution:
        if k == 0:
            return self
        new = Distribution.__new__(Distribution)
        new._values = tuple([v + k for v in self._values])
        new._weights = self._weights
        new._denom = self._denom
        new._hash = None
        new._truncated = self._truncated
        return new

    def __sub__(self, other: Operand) -> Distribution:
        if isinstance(other, int):
            return self._shift(-other)
        if not isinstance(other, Distribution):
            return NotImplemented
        return _convolve(self, -other)

    def __rsub__(self, other: int) -> Distribution:
        return (-self)._shift(other)

    def __mul__(self, other: Operand) -> Distribution:
        if isinstance(other, int):
            return self._scale(other)
        if not isinstance(other, Distribution):
            return NotImplemented
        if len(other) == 1 and not other._truncated:
            return self._scale(other._values[0])
        if len(self) == 1 and not self._truncated:
            return other._scale(self._values[0])
        return self.combine(other, lambda a, b: a * b)

    __rmul__ = __mul__

    def __floordiv__(self, other: Operand) -> Distribution:
        divisor = Distribution.constant(other) if isinstance(other, int) else other
        if 0 in divisor:
            raise DiceError("division by zero is possible")
        if len(divisor) == 1 and not divisor._truncated:
            k = divisor._values[0]
            return self._divide(k) if k > 0 else self._scale(-1)._divide(-k)
        return self.combine(divisor, lambda a, b: a // b)

    def __rfloordiv__(self, other: int) -> Distribution:
        return Distribution.constant(other) // self

    def combine(self, other: Distribution, f: Callable[[int, int], int]) -> Distribution:
        """The distribution of ``f(a, b)`` for independent ``a`` from self, ``b`` from other."""
        if len(self) * len(other) > limits.ODDS_MAX_PAIRS:
            raise OddsTooCostlyError(
                f"combining {len(self):,} by {len(other):,} outcomes is too much work; "
                f"{SIMULATE_HINT}"
            )
        acc: dict[int, int] = {}
        for a, wa in zip(self._values, self._weights, strict=True):
            for b, wb in zip(other._values, other._weights, strict=True):
                key = f(a, b)
                acc[key] = acc.get(key, 0) + wa * wb
        return Distribution.from_counts(
            acc, self._denom * other._denom, self._combine_truncated(other)
        )

    def repeat_sum(self, n: int) -> Distribution:
        """The sum of ``n`` independent copies (``n >= 0``)."""
        if n < 0:
            raise DiceError(f"cannot add up {n} copies of a distribution")
        if n == 0:
            return Distribution.constant(0)
        if n == 1:
            return self
        low = self.min
        span = self.max - low + 1
        dense = [0] * span
        for v, w in zip(self._values, self._weights, strict=True):
            dense[v - low] = w
        denom = self._denom**n
        nbytes = nbytes_for(denom)
        length = (span - 1) * n + 1
        # Three ways, the cheapest estimated first: identical faces by a three-term
        # recurrence, few distinct weights by Miller's recurrence (each slot one Python
        # step per weight), else one big power of the packed weights (Karatsuba).
        uniform = len(self._values) == span and len(set(self._weights)) == 1
        per_slot = nbytes * 8 // WORD_BITS + 1 + _OVERHEAD_DIGITS
        terms = 3 if uniform else len(self._values) - 1
        recurrence = length * terms * per_slot
        power = power_work(length * nbytes * 8)
        check_cost(length, nbytes, min(recurrence, power))
        if recurrence <= power:
            if uniform:
                scale = self._weights[0] ** n
                coeffs = _uniform_power_counts(span, n)
                if scale != 1:
                    coeffs = [c * scale for c in coeffs]
            else:
                coeffs = _power_coefficients(dense, n)
        else:
            coeffs = unpack(pow(pack(dense, nbytes), n), nbytes, length)
        truncated = 1 - (1 - self.truncated) ** n if self.truncated else Fraction(0)
        return Distribution.from_dense_counts(low * n, coeffs, denom, truncated)

    # -- output ---------------------------------------------------------------------------
    def to_dict(self) -> dict[str, object]:
        """JSON-able: exact probabilities as ``"p/q"`` text."""
        from companion.dice.render import fraction_text

        return {
            "min": self.min,
            "max": self.max,
            "mean": fraction_text(self.mean),
            "outcomes": self.outcome_texts(),
            "truncated": fraction_text(self.truncated),
        }

    def outcome_texts(self) -> list[list[object]]:
        """``[value, exact probability text]`` per outcome (as in
        [to_dict][companion.dice.distribution.Distribution.to_dict]), each distinct weight
        written once: a d1,000,000 has one weight, so its million rows cost one fraction.

        >>> Distribution.die(2).outcome_texts()
        [[1, '1/2'], [2, '1/2']]
        """
        from companion.dice.render import fraction_text as text

        seen: dict[int, str] = {}
        denom = self._denom
        out: list[list[object]] = []
        for v, w in zip(self._values, self._weights, strict=True):
            shown = seen.get(w)
            if shown is None:
                shown = seen[w] = text(Fraction(w, denom))
            out.append([v, shown])
        return out

    def to_svg(self, target: int | None = None, title: str | None = None) -> str:
        """A bar chart as standalone SVG (values ``>= target`` highlighted)."""
        from companion.dice.render import distribution_svg

        return distribution_svg(self, target=target, title=title)

    def _repr_svg_(self) -> str:
        return self.to_svg()


def _convolve(a: Distribution, b: Distribution) -> Distribution:
    """Sum of two independent distributions."""
    va, wa, da = a._values, a._weights, a._denom
    vb, wb, db = b._values, b._weights, b._denom
    truncated = a._combine_truncated(b)
    if len(vb) == 1 and wb[0] == db and not b._truncated:  # plus a constant
        return a._shift(vb[0])
    if len(va) == 1 and wa[0] == da and not a._truncated:
        return b._shift(va[0])
    if len(va) == 1:
        return Distribution.from_counts(
            {v + va[0]: w * wa[0] for v, w in zip(vb, wb, strict=True)}, da * db, truncated
        )
    if len(vb) == 1:
        return Distribution.from_counts(
            {v + vb[0]: w * wb[0] for v, w in zip(va, wa, strict=True)}, da * db, truncated
        )
    span_a = va[-1] - va[0] + 1
    span_b = vb[-1] - vb[0] + 1
    length = span_a + span_b - 1
    if len(va) * len(vb) <= 4 * length:
        # Sparse inputs (e.g. 1d6*100): pairwise products are cheaper than packing.
        acc: dict[int, int] = {}
        for x, u in zip(va, wa, strict=True):
            for y, w in zip(vb, wb, strict=True):
                acc[x + y] = acc.get(x + y, 0) + u * w
        return Distribution.from_counts(acc, da * db, truncated)
    denom = da * db
    nbytes = nbytes_for(denom)
    check_cost(length, nbytes, mul_work(span_a * nbytes * 8, span_b * nbytes * 8))
    dense_a = [0] * span_a
    for v, w in zip(va, wa, strict=True):
        dense_a[v - va[0]] = w
    dense_b = [0] * span_b
    for v, w in zip(vb, wb, strict=True):
        dense_b[v - vb[0]] = w
    product = pack(dense_a, nbytes) * pack(dense_b, nbytes)
    return Distribution.from_dense_counts(
        va[0] + vb[0], unpack(product, nbytes, length), denom, truncated
    )
