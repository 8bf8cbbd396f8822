"""``simulate``: Monte Carlo estimates with standard errors, for what exact odds can't
afford (keep/drop on exploding dice, huge pools)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from companion.dice.fast import roll_many


@dataclass(frozen=True, repr=False)
class Estimate:
    """Results of ``n`` simulated rolls: frequencies, mean and their standard errors."""

    expr: str
    n: int
    counts: dict[int, int]

    @property
    def mean(self) -> float:
        return sum(v * c for v, c in self.counts.items()) / self.n

    @property
    def stdev(self) -> float:
        if self.n < 2:
            return 0.0
        m = self.mean
        ss = sum(c * (v - m) ** 2 for v, c in self.counts.items())
        return math.sqrt(ss / (self.n - 1))

    @property
    def mean_stderr(self) -> float:
        """Standard error of [mean][companion.dice.simulate.Estimate.mean]."""
        return self.stdev / math.sqrt(self.n)

    @property
    def min(self) -> int:
        return min(self.counts)

    @property
    def max(self) -> int:
        return max(self.counts)

    def probability(self, predicate: Callable[[int], bool]) -> tuple[float, float]:
        """Estimated probability that the total satisfies ``predicate``, and its standard
        error (binomial)."""
        hits = sum(c for v, c in self.counts.items() if predicate(v))
        p = hits / self.n
        return p, math.sqrt(p * (1 - p) / self.n)

    def p(self, value: int) -> tuple[float, float]:
        return self.probability(lambda v: v == value)

    def at_least(self, target: int) -> tuple[float, float]:
        return self.probability(lambda v: v >= target)

    def at_most(self, target: int) -> tuple[float, float]:
        return self.probability(lambda v: v <= target)

    def __str__(self) -> str:
        return (
            f"{self.expr}: mean {self.mean:.4f} ± {self.mean_stderr:.4f} "
            f"(stdev {self.stdev:.4f}, n = {self.n:,})"
        )

    def __repr__(self) -> str:
        expr = self.expr if len(self.expr) <= 40 else self.expr[:39] + "…"
        return f"<Estimate {expr}: mean {self.mean:.4g}, n = {self.n:,}>"


def simulate(expr: str, n: int, *, seed: int | None = None) -> Estimate:
    """Roll ``expr`` ``n`` times (``n >= 1``) and summarise.

    >>> est = simulate("3d6", 10_000, seed=1)
    >>> abs(est.mean - 10.5) < 4 * est.mean_stderr
    True
    """
    from companion.errors import DiceError

    if not isinstance(n, int) or n < 1:
        raise DiceError(f"simulate needs at least 1 roll, not {n!r}")
    totals = roll_many(expr, n, seed=seed)
    return Estimate(expr, n, dict(sorted(Counter(totals).items())))
