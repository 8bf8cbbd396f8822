"""The luck report: every roll of the roll log placed on its own exact odds, per seat, per
play session and for the whole campaign.

"Are the dice against me tonight?" has an exact answer, because every roll of the roll log
that has a dice expression has an exact distribution ([odds][companion.dice.odds.odds]):

**A roll's percentile.** A roll of ``X`` that came out ``x`` is placed at

    u(x) = P(X < x) + P(X = x) / 2

its *mid-percentile*: the share of rolls of the same expression that come out lower, ties
split in half. A 1d20 showing 20 is at 97.5%, a 1 at 2.5%; ``3d6`` showing 10 is at
43.75% and 11 at 56.25% (between them, half its rolls). Splitting ties is what makes every
roll count the same whatever its dice: for any expression, a fair roll's percentile
averages exactly 1/2.
Higher is luckier: a total above what the expression usually gives.

**A seat's evening.** A seat's ``n`` rolls in a session have a mean percentile. Its
meaning depends on ``n`` and on the dice: the mean of 3 rolls wanders far more than the
mean of 30, and the mean of one roll of ``1d2`` (25% or 75%, nothing between) is not
spread like the mean of one ``1d100``. So the report compares the evening with every
evening of *the same rolls* made with fair dice: with ``U_i`` the percentile a fair roll of
the ``i``-th expression gets (a discrete variable: one value per total, taken with that
total's probability), the sum ``S = U_1 + ... + U_n`` has an exact distribution, the
convolution of the ``n`` distributions of the ``U_i``; the evening's sum ``s`` is placed
on it the same way, ``P(S < s) + P(S = s) / 2``. "Bryn's 23 rolls tonight: luckier than
87% of evenings of the same 23 rolls" says that 87% (ties split) of fair evenings of
those expressions have a lower sum of percentiles. The mean is not uniform (it gathers
round 1/2 as ``n`` grows), so this is not the mean itself read as a percentage.

How it is worked out, exactly: each ``U_i`` takes the values ``(2 C_{j-1} + c_j) / 2W``
with probability ``c_j / W`` (``c_j`` the ways to reach the ``j``-th total, ``C_{j-1}``
those below it, ``W`` the odds' common denominator). Those are whole numbers over a
common scale (the least common multiple of the ``2W``), so the sum is the engine's own
[Distribution][companion.dice.distribution.Distribution] arithmetic over whole numbers:
rolls of the same shape (``1d20+3`` and ``1d20+5`` place their rolls alike) are summed at
once (``repeat_sum``), then the groups are convolved. The probabilities stay fractions
throughout.

**Cost, and the normal approximation.** Sums of percentiles of *different* dice are the
costly part: a d20's percentiles sit on a scale of 40, ``3d6``'s on 432, ``4d6kh3``'s on
2,592, and their sum needs the common scale, where the possible sums multiply. So the whole
sum is costed before any work (sizes only): past
[MAX_PAIRS][companion.luck.MAX_PAIRS] pairs of sums or
[MAX_DENSE_WORK][companion.luck.MAX_DENSE_WORK] big-integer digit operations for one
evening, or past the whole report's budget
([REPORT_PAIRS][companion.luck.REPORT_PAIRS]: sessions first, then the campaign), the
report says **approximate (normal)**: ``S`` has mean ``n/2`` exactly and variance
``sum (1 - sum_j p_j^3) / 12`` exactly (the variance of a mid-percentile); the evening is
placed at ``Phi((s - n/2) / sd)``. Measured on a shared 2-core machine: a session of 25
rolls each of four seats using ``1d20+k``, ``2d6+k`` and ``1d8+k`` is exact in about 70 ms
a session; 25 rolls of seven kinds of dice (``3d6``, ``4d6kh3``, ``2d20kh1``, ``1d100``
besides) would take over a minute exactly, and are placed by the normal curve at once; an
exploding die (its percentiles on a scale of ``2 * 6**21``) makes an evening normal too.
With that many kinds of rolls the normal curve is close, and it is labelled every time it
is used. A log that asks for too much before any sum (more than
[MAX_EXPRESSIONS][companion.luck.MAX_EXPRESSIONS] different expressions, more than
[MAX_OUTCOMES][companion.luck.MAX_OUTCOMES] totals over their odds, more than
[MAX_ROLLS][companion.luck.MAX_ROLLS] rolls) is refused with one line.

**Which rolls count.**

- A roll of the roll log with a dice expression (the dice tray, ``roll EXPR --campaign``),
  public, counts where it was rolled.
- A hidden roll (GM only, blind, self) counts only once revealed, with the revealed
  expression and total, for the seat that rolled it and the session it was rolled in (not
  the one it was revealed in). Before that it is counted as "hidden, not yet revealed",
  and nothing of it is used: the report reads only what every player may see, so it is the
  same whoever asks (no seat learns anything from it that the log does not show them).
- Physical dice (entered by hand, ``--physical``/``--dice``, "I rolled it myself") are
  placed on the same odds but reported apart, as "your own dice": a roll the table did not
  make with the companion's generator says nothing about it.
- A rule roll (a check, a save, a deal an app made with ``rng``) is not placed: the log
  keeps the label and the result the app showed, not the rule's distribution. It is
  counted as "rule roll, not placed".
- A roll whose expression's exact odds the engine refuses (too costly) is counted as "odds
  too costly, not placed".
- Exploding dice are followed ``20`` explosions deep, as the engine's odds follow them: a
  die cut off there stays on the face it shows (the engine's ``truncated`` mass, below
  1e-12 for a d6), and rolls are placed on those odds as they are (a total past the
  deepest followed is above all of them: percentile 1).

**Play sessions.** A session is a sitting of the provably fair seeds
([companion.sittings][]): from the first roll after the GM's last ``session close`` to the
next close. In an older log, with no sittings, it is the rolls between two gaps: a roll
more than [SESSION_GAP][companion.luck.SESSION_GAP] after the one before starts a new
session. [play_sessions][companion.luck.play_sessions] is that rule, in one function.

- Interpretation: "luckier" means higher totals. In a roll-under game (a Cairn save on a
  d20 under STR) a low roll is the good one: read the report the other way.
- Interpretation: a seat is a name (``who`` of the roll, names compared as
  [same_name][companion.names.same_name] does); rolls made under no name are "someone".
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import math
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any

from companion.dice.distribution import Distribution, start_metering, stop_metering
from companion.errors import CompanionError, DiceError, clipped
from companion.names import name_key

__all__ = [
    "LUCK_KINDS",
    "MAX_DENSE_WORK",
    "MAX_EXPRESSIONS",
    "MAX_OUTCOMES",
    "MAX_PAIRS",
    "MAX_ROLLS",
    "NOT_PLACED",
    "REPORT_DENSE_WORK",
    "REPORT_PAIRS",
    "SESSION_CLOSE_KIND",
    "SESSION_GAP",
    "LuckError",
    "LuckReport",
    "PercentileLaw",
    "PlacedRoll",
    "SeatLuck",
    "Standing",
    "Summary",
    "luck_fields",
    "luck_report",
    "percentile",
    "percentile_law",
    "percentile_svg",
    "play_sessions",
    "sparkline",
    "standing",
]

SESSION_GAP = timedelta(hours=6)
"""A roll this long after the one before starts a new play session."""

SESSION_CLOSE_KIND = "session_close"
"""The kind of a log event that closes a play session (the provably fair seeds' ``session
close``); the next roll starts a new session."""

#: The kinds of log entry a report reads (the rest it passes over).
LUCK_KINDS = ("roll", "reveal", "sitting", SESSION_CLOSE_KIND)

#: What a report reads of a roll's or a reveal's data.
_READ = ("commitment", "rule", "expr", "total", "physical", "entry")

MAX_EXPRESSIONS = 500
"""Most different expressions one report works out exact odds for."""

MAX_OUTCOMES = 3_000_000
"""Most totals, summed over those expressions' odds (the cost is their size, as in ``verify``:
a ``1d1000000`` alone is a million)."""

MAX_ROLLS = 100_000
"""Most rolls one report places."""

MAX_PAIRS = 1_000_000
"""Most pairs of sums the sparse convolutions of one standing may touch in all (about half a
second of Python work); past it, and past the engine's own budgets, the normal approximation
is used."""

MAX_DENSE_WORK = 30_000_000
"""Most big-integer digit operations the packed products of one standing may take (the engine
counts about 3.6 ns each; a shared machine takes several times that): past it, the normal
approximation."""

ODDS_SECONDS = 20.0
"""Seconds the exact odds of a report's expressions may take in all before it is refused (each
expression's odds are bounded by the engine; this bounds their number times that)."""


class LuckError(CompanionError):
    """A luck report refused: one line saying why."""


# -- one roll ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PercentileLaw:
    """The distribution of a fair roll's percentile, as whole numbers over ``scale``: the
    percentile ``values[j] / scale`` comes with probability ``weights[j] / denom``.
    ``totals`` are the expression's totals the values belong to (an observed total is
    placed by them). The ways below a total are not kept: ``values[j] * (2 * denom /
    scale)`` is twice them plus its own ``weights[j]`` (a d1,000,000's law holds two
    tuples of a million, not three)."""

    totals: tuple[int, ...]
    weights: tuple[int, ...]
    denom: int
    values: tuple[int, ...]
    scale: int

    def place(self, total: int) -> Fraction:
        """The mid-percentile of ``total``: ``P(X < total) + P(X = total) / 2``."""
        i = bisect.bisect_left(self.totals, total)
        if i < len(self.totals) and self.totals[i] == total:
            return Fraction(self.values[i], self.scale)
        if i == len(self.totals):  # above every total
            return Fraction(1)
        doubled_below = self.values[i] * (2 * self.denom // self.scale) - self.weights[i]
        return Fraction(doubled_below, 2 * self.denom)

    @functools.cached_property
    def distribution(self) -> Distribution:
        """The law as an engine distribution over the whole numbers ``values`` (worked
        out once: a d1,000,000's holds a million)."""
        return Distribution.from_counts(dict(zip(self.values, self.weights, strict=True)),
                                        self.denom)

    @functools.cached_property
    def variance(self) -> Fraction:
        """Exactly ``(1 - sum p^3) / 12``: the variance of a mid-percentile."""
        cubes = sum(w * w * w for w in self.weights)
        return (1 - Fraction(cubes, self.denom ** 3)) / 12

    @property
    def shape(self) -> tuple[tuple[int, ...], tuple[int, ...], int]:
        """What two laws share when they place rolls alike (``1d20+3`` and ``1d20+5``)."""
        return self.values, self.weights, self.scale


def percentile_law(dist: Distribution) -> PercentileLaw:
    """The law of the percentile of a fair roll of ``dist``."""
    totals, weights, denom = dist.weights()
    doubled = []
    acc = 0
    for w in weights:  # 2 * (the ways below) + its own ways
        doubled.append(2 * acc + w)
        acc += w
    g = math.gcd(2 * denom, *doubled)
    return PercentileLaw(tuple(totals), tuple(weights), denom,
                         tuple(d // g for d in doubled), 2 * denom // g)


def percentile(dist: Distribution, total: int) -> Fraction:
    """The mid-percentile of ``total`` on ``dist``: ``P(X < total) + P(X = total) / 2``.

    >>> from companion.dice import odds
    >>> percentile(odds("1d20"), 20), percentile(odds("3d6"), 10)
    (Fraction(39, 40), Fraction(7, 16))
    """
    return percentile_law(dist).place(total)


# -- an evening -------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """Where a sum of percentiles stands among fair evenings of the same rolls:
    ``luckier_than`` is ``P(S < s) + P(S = s) / 2``; ``exact`` says whether it is the
    exact fraction or the normal approximation (a float); ``why`` says why not exact."""

    luckier_than: Fraction | float
    exact: bool
    why: str = ""

    @property
    def method(self) -> str:
        return "exact" if self.exact else "normal"


def standing(laws: Sequence[PercentileLaw], observed: Fraction,
             spent: _Budget | None = None) -> Standing:
    """Where ``observed`` (a sum of the rolls' percentiles) stands among fair evenings of
    rolls with these ``laws``: exactly when the sum's distribution is within budget, else
    by the normal approximation (``exact`` False, ``why`` the reason). ``spent``: what a
    whole report has spent on exact sums so far (its own budget, added to)."""
    if not laws:
        raise LuckError("no roll to place")
    try:
        return Standing(_exact_standing(laws, observed, spent), True)
    except (DiceError, MemoryError) as exc:
        why = str(exc).split(";")[0]
    mean = Fraction(len(laws), 2)
    counts: dict[int, tuple[PercentileLaw, int]] = {}
    for law in laws:  # each law's variance once (a d1,000,000's sums a million cubes)
        seen = counts.get(id(law))
        counts[id(law)] = (law, (seen[1] if seen else 0) + 1)
    variance = sum((law.variance * n for law, n in counts.values()), Fraction(0))
    if variance == 0:  # every roll certain: nothing is luckier than anything
        return Standing(0.5, False, why)
    z = float(observed - mean) / math.sqrt(variance)
    return Standing(0.5 * (1.0 + math.erf(z / math.sqrt(2.0))), False, why)


def _exact_standing(laws: Sequence[PercentileLaw], observed: Fraction,
                    spent: _Budget | None = None) -> Fraction:
    distinct: dict[int, list[Any]] = {}
    for law in laws:  # by identity first: a shape's tuples may hold a million totals
        distinct.setdefault(id(law), [law, 0])[1] += 1
    groups: dict[tuple[tuple[int, ...], tuple[int, ...], int], list[Any]] = {}
    for law, n in distinct.values():
        groups.setdefault(law.shape, [law, 0])[1] += n
    scale = math.lcm(*(law.scale for law, _ in groups.values()))
    # Meet in the middle: the rolls split into two halves A and B, each summed exactly,
    # and P(A + B < s) read off as the sum over B's totals b of P(B = b) P(A < s - b): the
    # last (largest) convolution is never made. A group of one shape splits between the
    # halves too (12 d20s: six and six).
    pieces: list[tuple[PercentileLaw, int]] = []
    for law, count in groups.values():
        pieces += [(law, count - count // 2), (law, count // 2)] if count > 1 else \
            [(law, count)]
    # The whole plan is costed before any work: a sum that would run past a budget is
    # refused at once, not after spending it.
    plan = _plan(pieces, scale)
    _check_plan(plan, spent)
    budget = _Budget()
    start_metering()
    try:
        parts = sorted((_repeat(law, count, budget) * (scale // law.scale)
                        for law, count in pieces if count), key=len, reverse=True)
        halves: list[list[Distribution]] = [[], []]
        sizes = [1.0, 1.0]
        for part in parts:  # the larger part to the smaller half (sizes multiply)
            i = 0 if sizes[0] <= sizes[1] else 1
            halves[i].append(part)
            sizes[i] *= len(part)
        sums = []
        for half in halves:
            half.sort(key=len)
            acc = half[0] if half else Distribution.constant(0)
            for part in half[1:]:
                acc = _add(acc, part, budget)
            sums.append(acc)
    finally:
        stop_metering()
    a_values, a_weights, a_denom = sums[0].weights()
    b_values, b_weights, b_denom = sums[1].weights()
    if len(b_values) > MAX_PAIRS:
        from companion.errors import OddsTooCostlyError

        raise OddsTooCostlyError(f"the exact sum has {len(b_values):,} totals in one half "
                                 f"(limit {MAX_PAIRS:,})")
    if spent is not None:  # the report counts what was planned (an upper bound)
        spent.pairs += plan.pairs
        spent.dense += plan.dense
    cumulative = [0]
    for w in a_weights:
        cumulative.append(cumulative[-1] + w)
    target = observed * scale  # the observed sum on the same scale: num / den
    num, den = target.numerator, target.denominator
    under = same = 0
    for b, wb in zip(b_values, b_weights, strict=True):
        t = num - b * den  # a counts below when a * den < t
        below = bisect.bisect_right(a_values, (t - 1) // den)
        under += wb * cumulative[below]
        if t % den == 0:
            i = bisect.bisect_left(a_values, t // den)
            if i < len(a_values) and a_values[i] == t // den:
                same += wb * a_weights[i]
    return Fraction(2 * under + same, 2 * a_denom * b_denom)


class _Budget:
    """What one exact standing (or a whole report) has spent so far, or plans to: pairs of
    sums touched and packed digit operations (every step checks the total)."""

    def __init__(self) -> None:
        self.pairs = 0
        self.dense = 0.0


def _plan(pieces: Sequence[tuple[PercentileLaw, int]], scale: int) -> _Budget:
    """What the exact sum of ``pieces`` would cost, worked out on sizes alone the way
    ``_exact_standing`` goes (sizes are upper bounds: the
    product of the parts' sizes, or the lattice points their span holds)."""
    from companion.dice import limits
    from companion.dice.distribution import mul_work

    cost = _Budget()
    shapes = []  # (size, span, step, bits) of each part, on the common scale
    for law, count in pieces:
        if not count:
            continue
        n, span1 = len(law.values), law.values[-1] - law.values[0]
        step = math.gcd(*(v - law.values[0] for v in law.values)) or 1
        if span1 * count + 1 <= limits.ODDS_MAX_OUTCOMES:
            size = min(span1 * count // step + 1, n ** min(count, 64))
        else:
            size = n
            for k in range(2, count + 1):
                cost.pairs += size * n
                size = min(size * n, span1 * k // step + 1)
                if cost.pairs > MAX_PAIRS:
                    return cost
        factor = scale // law.scale
        shapes.append((size, span1 * count * factor, step * factor,
                       law.denom.bit_length() * count))
    shapes.sort(key=lambda p: p[0], reverse=True)
    halves: list[list[tuple[int, int, int, int]]] = [[], []]
    sizes = [1.0, 1.0]
    for shape in shapes:
        i = 0 if sizes[0] <= sizes[1] else 1
        halves[i].append(shape)
        sizes[i] *= shape[0]
    last = 0
    for half in halves:
        half.sort(key=lambda p: p[0])
        if not half:
            continue
        size, span, step, bits = half[0]
        for b_size, b_span, b_step, b_bits in half[1:]:
            nbits = (bits + b_bits) // 8 * 8 + 8
            dense = mul_work((span + 1) * nbits, (b_span + 1) * nbits)
            if size * b_size * _PAIR_WORK > dense:
                cost.dense += dense
            else:
                cost.pairs += size * b_size
            step = math.gcd(step, b_step)
            span += b_span
            size = min(size * b_size, span // step + 1)
            bits += b_bits
        last = size
    cost.pairs += last  # the meeting in the middle: one step per total of a half
    return cost


REPORT_PAIRS = 3_000_000
"""Most pairs of sums a whole report's exact sums may plan in all (with
[REPORT_DENSE_WORK][companion.luck.REPORT_DENSE_WORK], a few seconds on a shared
machine): the rest are placed by the normal curve."""

REPORT_DENSE_WORK = 100_000_000
"""Most packed digit operations a whole report's exact sums may plan in all."""


def _check_plan(plan: _Budget, spent: _Budget | None) -> None:
    from companion.errors import OddsTooCostlyError

    if plan.pairs > MAX_PAIRS:
        raise OddsTooCostlyError(f"the exact sum would touch more than {MAX_PAIRS:,} pairs "
                                 "of sums (the limit)")
    if plan.dense > MAX_DENSE_WORK:
        raise OddsTooCostlyError(f"the exact sum would take about {plan.dense:.2g} digit "
                                 f"operations (limit {MAX_DENSE_WORK:.2g})")
    if spent is not None and (spent.pairs + plan.pairs > REPORT_PAIRS
                              or spent.dense + plan.dense > REPORT_DENSE_WORK):
        raise OddsTooCostlyError("the report's budget for exact sums is spent (a report "
                                 "of this many sessions places the rest by the normal "
                                 "curve; ask for one session: --session N)")


def _repeat(law: PercentileLaw, count: int, budget: _Budget) -> Distribution:
    """The sum of ``count`` percentiles of ``law``: the engine's ``repeat_sum`` when its
    dense span fits, else pairs of sums one roll at a time (an exploding die's law sits
    sparsely on a scale of 2 * 6**21)."""
    from companion.dice import limits

    one = law.distribution
    if (law.values[-1] - law.values[0]) * count + 1 <= limits.ODDS_MAX_OUTCOMES:
        return one.repeat_sum(count)
    acc = one
    for _ in range(count - 1):
        acc = _add(acc, one, budget)
    return acc


#: Digit operations one step of a Python loop over pairs costs (about 150 ns, at the
#: engine's 3.6 ns per digit operation).
_PAIR_WORK = 40


def _add(a: Distribution, b: Distribution, budget: _Budget) -> Distribution:
    """``a + b``, by pairs of sums when they are few (sums of percentiles of different
    dice are sparse on their common scale: a d20's sit every 54th step of 2,160), else by
    the engine's packed product (its budgets apply)."""
    from companion.dice.distribution import mul_work, nbytes_for
    from companion.errors import OddsTooCostlyError

    va, wa, da = a.weights()
    vb, wb, db = b.weights()
    pairs = len(va) * len(vb)
    nbytes = nbytes_for(da * db)
    dense = mul_work((va[-1] - va[0] + 1) * nbytes * 8, (vb[-1] - vb[0] + 1) * nbytes * 8)
    if pairs * _PAIR_WORK > dense:
        budget.dense += dense
        if budget.dense > MAX_DENSE_WORK:
            raise OddsTooCostlyError(f"the exact sum would take about {budget.dense:.2g} "
                                     f"digit operations (limit {MAX_DENSE_WORK:.2g})")
        return a + b
    budget.pairs += pairs
    if budget.pairs > MAX_PAIRS:
        raise OddsTooCostlyError(f"the exact sum would touch {budget.pairs:,} pairs of sums "
                                 f"(limit {MAX_PAIRS:,})")
    acc: dict[int, int] = {}
    get = acc.get
    for x, u in zip(va, wa, strict=True):
        for y, w in zip(vb, wb, strict=True):
            acc[x + y] = get(x + y, 0) + u * w
    return Distribution.from_counts(acc, da * db)


# -- the log ----------------------------------------------------------------------------


def play_sessions(events: Iterable[Mapping[str, Any]]) -> dict[int, int]:
    """The play session of every roll entry of the log, by its ``seq``.

    A log with provably fair seeds ([companion.sittings][]): a roll's session is its
    sitting (the number ``companion session show`` gives); a roll with no number of its
    own (real dice, a seed the GM typed) belongs to the sitting open when it was made, or,
    after a close, to the next one; rolls made before the log's first sitting are session
    0 ("before the provably fair seeds").

    A log without sittings (older campaigns): a roll starts a new session (from 1) when it
    comes more than [SESSION_GAP][companion.luck.SESSION_GAP] after the roll before it, or
    after an event of kind [SESSION_CLOSE_KIND][companion.luck.SESSION_CLOSE_KIND].
    """
    events = list(events)
    if any(_sitting_of(event) is not None for event in events):
        return _sittings(events)
    out: dict[int, int] = {}
    number = 0
    last: datetime | None = None
    closed = True
    for event in events:
        kind = event.get("kind")
        if kind == SESSION_CLOSE_KIND:
            closed = True
            continue
        if kind != "roll":
            continue
        when = _time(event.get("at"))
        if closed or (when is not None and last is not None and when - last > SESSION_GAP):
            number += 1
            closed = False
        if when is not None:
            last = when
        seq = event.get("seq")
        if type(seq) is int:
            out[seq] = number
    return out


def luck_fields(event: Mapping[str, Any]) -> dict[str, Any]:
    """``event`` (of a kind in [LUCK_KINDS][companion.luck.LUCK_KINDS]) kept in what the
    report reads of it: the same report, from a few fields of each entry (a log read a
    page at a time keeps only these: ``luck NAME``, issue 49)."""
    data = event.get("data")
    if isinstance(data, Mapping):
        if event.get("kind") == "sitting":
            info = data.get("sitting")
            close = isinstance(info, Mapping) and isinstance(info.get("close"), Mapping)
            data = {"sitting": {"close": {}}} if close else {}
        else:
            fair = data.get("fair")
            kept = {k: data[k] for k in _READ if k in data}
            if isinstance(fair, Mapping) and "sitting" in fair:
                kept["fair"] = {"sitting": fair["sitting"]}
            data = kept
    return {"seq": event.get("seq"), "at": event.get("at"), "who": event.get("who"),
            "kind": event.get("kind"), "data": data}


def _sitting_of(event: Mapping[str, Any]) -> int | None:
    """The sitting number a roll entry carries (``data.fair.sitting``), else ``None``."""
    data = event.get("data")
    if event.get("kind") != "roll" or not isinstance(data, Mapping):
        return None
    fair = data.get("fair")
    number = fair.get("sitting") if isinstance(fair, Mapping) else None
    return number if type(number) is int and number > 0 else None


def _sittings(events: list[Mapping[str, Any]]) -> dict[int, int]:
    out: dict[int, int] = {}
    current, open_ = 0, False
    for event in events:
        kind = event.get("kind")
        if kind == "sitting":
            data = event.get("data")
            info = data.get("sitting") if isinstance(data, Mapping) else None
            if isinstance(info, Mapping) and isinstance(info.get("close"), Mapping):
                open_ = False
            continue
        if kind != "roll":
            continue
        number = _sitting_of(event)
        if number is not None:
            current, open_ = number, True
        elif current:  # no number of its own: the open sitting's, else the next one's
            number = current if open_ else current + 1
        else:
            number = 0  # before the first sitting
        seq = event.get("seq")
        if type(seq) is int:
            out[seq] = number
    return out


def _time(text: object) -> datetime | None:
    if not isinstance(text, str):
        return None
    try:
        when = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo is not None else None


@dataclass(frozen=True)
class PlacedRoll:
    """One roll placed on its exact odds: its roll-log ``entry``, who rolled it, its
    ``session``, expression and total, ``percentile`` (exact), ``physical`` (real dice)
    and ``revealed`` (the reveal's entry for a hidden roll, else ``None``)."""

    entry: int
    who: str
    session: int
    expr: str
    total: int
    percentile: Fraction
    physical: bool = False
    revealed: int | None = None

    def to_dict(self) -> dict[str, Any]:
        from companion.dice.render import fraction_text

        return {"entry": self.entry, "session": self.session, "expr": self.expr,
                "total": self.total, "percentile": fraction_text(self.percentile),
                "percent": _percent(self.percentile), "physical": self.physical,
                "revealed": self.revealed}


@dataclass(frozen=True)
class Summary:
    """A seat's rolls over a span (a session or the campaign), of one kind (the
    companion's dice, or the seat's own): their count, mean percentile and standing."""

    rolls: tuple[PlacedRoll, ...]
    mean: Fraction
    standing: Standing

    def to_dict(self, *, entries: bool) -> dict[str, Any]:
        from companion.dice.render import fraction_text

        luck = self.standing.luckier_than
        out: dict[str, Any] = {
            "rolls": len(self.rolls),
            "mean_percentile": fraction_text(self.mean),
            "mean_percent": _percent(self.mean),
            "luckier_than": (fraction_text(luck) if isinstance(luck, Fraction)
                             else round(luck, 6)),
            "luckier_than_percent": _percent(luck),
            "method": self.standing.method,
        }
        if self.standing.why:
            out["why_approximate"] = self.standing.why
        if entries:
            out["entries"] = [r.to_dict() for r in self.rolls]
        return out

    def line(self, who: str, span: str, *, own: bool = False) -> str:
        """``Bryn's 23 rolls in session 3: mean percentile 61.2%, luckier than 87% of
        sessions of the same 23 rolls``."""
        n = len(self.rolls)
        rolls = f"{n} roll{'s' if n != 1 else ''}"
        luck = _percent(self.standing.luckier_than)
        how = "" if self.standing.exact else " (approximate: normal curve)"
        kind = " with their own dice" if own else ""
        spans = "campaigns" if span == "over the campaign" else "sessions"
        return (f"{who}'s {rolls}{kind} {span}: mean percentile {_percent(self.mean):g}%, "
                f"luckier than {luck:g}% of {spans} of the same {rolls}{how}")


@dataclass(frozen=True)
class SeatLuck:
    """One seat's luck over one span: ``dice`` (the companion's rolls), ``own`` (the
    seat's own dice, apart) and what was not placed (``not_placed``: reason -> count)."""

    who: str
    session: int | None
    dice: Summary | None
    own: Summary | None
    not_placed: Mapping[str, int] = field(default_factory=dict)

    def to_dict(self, *, entries: bool) -> dict[str, Any]:
        return {"session": self.session,
                "dice": self.dice.to_dict(entries=entries) if self.dice else None,
                "own_dice": self.own.to_dict(entries=entries) if self.own else None,
                "not_placed": dict(self.not_placed)}


NOT_PLACED = {
    "hidden": "hidden, not yet revealed",
    "rule": "rule roll (no dice expression)",
    "costly": "odds too costly",
    "unreadable": "unreadable entry",
}
"""Why a roll of the log was not placed (the ``not_placed`` keys), as the report words it."""


@dataclass(frozen=True)
class LuckReport:
    """The report of one campaign's log: every seat's luck per session (only session
    ``session`` when asked) and, without a session asked, over the whole campaign."""

    campaign: str
    session: int | None
    sessions: tuple[Mapping[str, Any], ...]
    seats: tuple[tuple[str, tuple[SeatLuck, ...], SeatLuck | None], ...]

    def to_dict(self) -> dict[str, Any]:
        """The ``--json`` shape (see [companion.cli.luck][])."""
        return {
            "campaign": self.campaign,
            "session": self.session,
            "sessions": [dict(s) for s in self.sessions],
            "seats": [{"who": who,
                       "sessions": [s.to_dict(entries=True) for s in per_session],
                       "campaign": whole.to_dict(entries=False) if whole else None}
                      for who, per_session, whole in self.seats],
        }

    def lines(self) -> list[str]:
        """The report as text, one seat after another, with a chart per span."""
        out = []
        if self.session is None:
            out.append(f"{self.campaign}: luck report, {len(self.sessions)} session"
                       f"{'s' if len(self.sessions) != 1 else ''} (each roll placed on its "
                       "exact odds; higher is luckier)")
        else:
            out.append(f"{self.campaign}: luck report, session {self.session} of "
                       f"{len(self.sessions)} (each roll placed on its exact odds; higher "
                       "is luckier)")
        if not self.seats:
            out.append("  no roll placed yet")
        for who, per_session, whole in self.seats:
            # The whole campaign said again only when it is more than one session.
            spans = [*per_session, *([whole] if whole and len(per_session) > 1 else [])]
            for luck in spans:
                span = ("over the campaign" if luck.session is None
                        else f"in session {luck.session}")
                for summary, own in ((luck.dice, False), (luck.own, True)):
                    if summary is None:
                        continue
                    out.append(summary.line(who, span, own=own))
                    out.append("  " + sparkline([r.percentile for r in summary.rolls]))
                    if self.session is not None:  # one session asked: each roll listed
                        out += [f"  #{r.entry} {r.expr} = {r.total}: {_percent(r.percentile):g}%"
                                + (f" (revealed in #{r.revealed})" if r.revealed else "")
                                for r in summary.rolls]
                if luck.not_placed:
                    parts = [f"{n} {NOT_PLACED.get(k, k)}" for k, n in luck.not_placed.items()]
                    out.append(f"  {who}, not placed {span}: {', '.join(parts)}")
        return out


def _percent(p: Fraction | float) -> float:
    return round(float(p) * 100, 1)


class _Roll:
    """A roll entry read from the log, before placing."""

    __slots__ = ("entry", "expr", "physical", "revealed", "session", "total", "who", "why")

    def __init__(self, entry: int, who: str, session: int) -> None:
        self.entry, self.who, self.session = entry, who, session
        self.expr = ""
        self.total = 0
        self.physical = False
        self.revealed: int | None = None
        self.why = ""  # why it is not placed ("" when it is)


def _read_rolls(events: Sequence[Mapping[str, Any]]) -> list[_Roll]:
    """Every roll entry, with what the whole table may see of it (a hidden one through
    its reveal, only)."""
    sessions = play_sessions(events)
    reveals: dict[int, Mapping[str, Any]] = {}
    for event in events:
        data = event.get("data")
        if event.get("kind") == "reveal" and isinstance(data, Mapping):
            entry = data.get("entry")
            if type(entry) is int and entry not in reveals:
                reveals[entry] = {**data, "seq": event.get("seq")}
    rolls = []
    for event in events:
        seq = event.get("seq")
        if event.get("kind") != "roll" or type(seq) is not int:
            continue
        who = " ".join(str(event.get("who") or "").split()) or "someone"
        roll = _Roll(seq, who, sessions.get(seq, 0))
        data = event.get("data")
        if not isinstance(data, Mapping):
            roll.why = "unreadable"
        elif "commitment" in data:
            shown = reveals.get(seq)
            if shown is None:
                roll.why = "hidden"
            else:
                reveal_seq = shown.get("seq")
                roll.revealed = reveal_seq if type(reveal_seq) is int else None
                _fill(roll, shown)
        else:
            _fill(roll, data)
        rolls.append(roll)
    return rolls


def _fill(roll: _Roll, data: Mapping[str, Any]) -> None:
    if data.get("rule") is True:
        roll.why = "rule"
        return
    expr, total = data.get("expr"), data.get("total")
    if not isinstance(expr, str) or type(total) is not int:
        roll.why = "unreadable"
        return
    roll.expr, roll.total = expr, total
    roll.physical = data.get("physical") is True


def _laws(rolls: Sequence[_Roll]) -> dict[str, PercentileLaw | None]:
    """Each expression's percentile law (``None``: the engine refuses its odds), within
    the report's budgets."""
    from companion.dice import odds

    exprs = list(dict.fromkeys(r.expr for r in rolls if not r.why))
    if len(exprs) > MAX_EXPRESSIONS:
        raise LuckError(f"this log has {len(exprs):,} different dice expressions; a report "
                        f"works out the exact odds of at most {MAX_EXPRESSIONS:,} (ask for "
                        "one session: --session N)")
    laws: dict[str, PercentileLaw | None] = {}
    outcomes = 0
    started = time.monotonic()
    for expr in exprs:
        if time.monotonic() - started > ODDS_SECONDS:
            raise LuckError(f"the exact odds of this log's {len(exprs):,} expressions take "
                            f"more than {ODDS_SECONDS:g} seconds (ask for one session: "
                            "--session N)")
        try:
            dist = odds(expr)
        except CompanionError:
            laws[expr] = None
            continue
        outcomes += len(dist)
        if outcomes > MAX_OUTCOMES:
            raise LuckError(f"the exact odds of this log's expressions hold more than "
                            f"{MAX_OUTCOMES:,} totals in all (up to {clipped(expr)!r}); "
                            "ask for one session: --session N")
        laws[expr] = percentile_law(dist)
    return laws


def luck_report(events: Sequence[Mapping[str, Any]], campaign: str = "",
                session: int | None = None) -> LuckReport:
    """The luck report of a campaign's log (event dicts, oldest first: ``seq``, ``at``,
    ``who``, ``kind``, ``data`` as the store keeps them), for session ``session`` only
    when given (from 1), else for every session and the whole campaign.

    Only what every player may see is read: a hidden roll's secret is never used, even in
    the GM's view (its reveal is)."""
    rolls = _read_rolls(events)
    shown: dict[str, str] = {}  # a seat is shown as the log first names it
    for r in rolls:
        shown.setdefault(name_key(r.who) or r.who, r.who)
    count = max((r.session for r in rolls), default=0)
    if session is not None:
        if type(session) is not int or not 1 <= session <= max(count, 0):
            have = f"sessions 1 to {count}" if count > 1 else (
                "one session (1)" if count == 1 else "no session yet (no roll logged)")
            raise LuckError(f"there is no session {session} in {campaign or 'this log'}: it "
                            f"has {have}")
        rolls = [r for r in rolls if r.session == session]
    if len(rolls) > MAX_ROLLS:
        raise LuckError(f"this log has {len(rolls):,} rolls; a report places at most "
                        f"{MAX_ROLLS:,} (ask for one session: --session N)")
    laws = _laws(rolls)
    placed: list[tuple[_Roll, PlacedRoll | None, PercentileLaw | None]] = []
    for r in rolls:
        law = laws.get(r.expr) if not r.why else None
        if not r.why and law is None:
            r.why = "costly"
        pr = None if law is None else PlacedRoll(r.entry, r.who, r.session, r.expr,
                                                 r.total, law.place(r.total), r.physical,
                                                 r.revealed)
        placed.append((r, pr, law))
    sessions = _session_spans(events, session)
    seats: dict[str, list[tuple[_Roll, PlacedRoll | None, PercentileLaw | None]]] = {}
    for item in placed:
        seats.setdefault(name_key(item[0].who) or item[0].who, []).append(item)
    out = []
    spent = _Budget()  # the whole report's exact sums: every seat's sessions first
    per_seat = {key: tuple(_seat_luck(shown[key], n, [i for i in items if i[0].session == n],
                                      spent)
                           for n in sorted({r.session for r, _, _ in items}))
                for key, items in seats.items()}
    for key, items in seats.items():
        whole = None
        if session is None and len(per_seat[key]) == 1:  # the campaign is that session
            whole = dataclasses.replace(per_seat[key][0], session=None)
        elif session is None:
            whole = _seat_luck(shown[key], None, items, spent)
        out.append((shown[key], per_seat[key], whole))
    return LuckReport(campaign, session, tuple(sessions), tuple(out))


def _seat_luck(who: str, session: int | None,
               items: Sequence[tuple[_Roll, PlacedRoll | None, PercentileLaw | None]],
               spent: _Budget | None = None) -> SeatLuck:
    not_placed: dict[str, int] = {}
    for r, _, _ in items:
        if r.why:
            not_placed[r.why] = not_placed.get(r.why, 0) + 1
    kinds: list[Summary | None] = []
    for physical in (False, True):
        chosen = [(p, law) for r, p, law in items
                  if p is not None and law is not None and r.physical is physical]
        if not chosen:
            kinds.append(None)
            continue
        total = sum((p.percentile for p, _ in chosen), Fraction(0))
        kinds.append(Summary(tuple(p for p, _ in chosen), total / len(chosen),
                             standing([law for _, law in chosen], total, spent)))
    return SeatLuck(who, session, kinds[0], kinds[1], not_placed)


def _session_spans(events: Sequence[Mapping[str, Any]], only: int | None
                   ) -> list[dict[str, Any]]:
    sessions = play_sessions(events)
    times = {e.get("seq"): e.get("at") for e in events if e.get("kind") == "roll"}
    spans: dict[int, dict[str, Any]] = {}
    for seq, n in sessions.items():
        span = spans.setdefault(n, {"session": n, "first": seq, "last": seq,
                                    "start": times.get(seq), "end": times.get(seq),
                                    "rolls": 0})
        span["last"], span["end"] = seq, times.get(seq)
        span["rolls"] += 1
    return [s for n, s in sorted(spans.items()) if only is None or n == only]


# -- charts -----------------------------------------------------------------------------

_BARS = "▁▂▃▄▅▆▇█"


def sparkline(percentiles: Sequence[Fraction | float], width: int = 60) -> str:
    """The percentiles as a line of block characters, oldest first (the newest ``width``
    when there are more): low bar, unlucky roll.

    >>> sparkline([Fraction(1, 40), Fraction(1, 2), Fraction(39, 40)])
    '▁▅█'
    """
    shown = list(percentiles)[-width:]
    return "".join(_BARS[min(len(_BARS) - 1, int(float(p) * len(_BARS)))] for p in shown)


def percentile_svg(percentiles: Sequence[Fraction | float], title: str = "",
                   width: int = 120) -> str:
    """A small bar chart of the percentiles (oldest first, the newest ``width`` at most),
    with the 50% line: every bar's height is its roll's percentile."""
    import html

    shown = list(percentiles)[-width:]
    bar, gap, height = 6, 2, 40
    w = max(1, len(shown)) * (bar + gap)
    bars = []
    for i, p in enumerate(shown):
        h = max(1.0, float(p) * height)
        label = f"{float(p) * 100:.1f}%"
        bars.append(f'<rect x="{i * (bar + gap)}" y="{height - h:.1f}" width="{bar}" '
                    f'height="{h:.1f}" class="tc-luck-bar"><title>{label}</title></rect>')
    name = html.escape(title, quote=True)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="tc-luck-chart" role="img" '
            f'aria-label="{name}" width="{w}" height="{height}" viewBox="0 0 {w} {height}">'
            f'<title>{name}</title>{"".join(bars)}<line x1="0" y1="{height / 2}" x2="{w}" '
            f'y2="{height / 2}" stroke="currentColor" stroke-dasharray="2,2" '
            'stroke-width="0.5"/></svg>')
