"""Hand strength: a player's chance to win the Dice Monarchs showdown.

Given a player's hole dice, the community dice revealed so far (none, the flop, the flop
and turn, or all five) and the number of opponents still in play, `hand_strength`
gives the chance that the player's best hand beats every opponent's at the showdown
(*win*) and the chance that nobody beats it but someone equals it (*split*).

Opponents' hole dice are unknown and independent of each other and of the player's, so
for a complete set of community dice the chance to beat ``k`` opponents is the chance to
beat one, to the power ``k``. The exact answer sums that over every way the unrevealed
community dice can still fall. Each way costs one pass over the 23,040 opponent rolls per
hidden die (`best_ranks`: the best rank every roll makes with the community, built die
by die and remembered for the dice already shown, so a table's players share it).

`quick_strength` is the table's readout, bounded to answer within 200 ms for 2 to 8
players: exact after the turn and the river (12 ways or 1), and before that the exact
chance against the opponents averaged over a seeded sample of `QUICK_COMPLETIONS` of the
120 ways the turn and river can fall after the flop, and before the flop a seeded
simulation of `QUICK_PREFLOP` showdown hands; both carry their standard error, and the
readout ([Strength.describe][companion.rulesets.miasma.dice_monarchs.strength.Strength.describe])
says plainly that they are estimates and of what (the exact answer after the flop takes
seconds here, over the 200 ms a table can wait).

Interpretation: everyone stays in to the showdown (no one bins), and ties are settled by
the ranking and the highest hole numbers as in `hands`; a complete tie splits.
"""

from __future__ import annotations

import collections
import functools
import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from companion.errors import RuleError
from companion.rulesets.miasma.dice_monarchs.hands import (
    DICE,
    OUTCOMES,
    STRIDES,
    best_showdown_hand,
    check_roll,
    rank_table,
)

__all__ = ["DEFAULT_SAMPLES", "MAX_EXACT_COMPLETIONS", "MAX_SIMULATED_HANDS",
           "QUICK_COMPLETIONS", "QUICK_PREFLOP", "Strength", "best_ranks", "hand_strength",
           "max_samples", "quick_strength"]

QUICK_COMPLETIONS = 24
"""Ways of the hidden turn and river sampled by `quick_strength` after the flop."""
QUICK_PREFLOP = 1200
"""Showdown hands simulated by `quick_strength` before the flop (deals x players)."""
QUICK_EXACT = 12
"""`quick_strength` is exact when at most this many ways remain (the turn, the river)."""

MAX_EXACT_COMPLETIONS = 120
"""Above this many ways for the hidden community dice to fall, simulate instead."""

DEFAULT_SAMPLES = 2000
"""Deals simulated unless asked otherwise: within the budget even against 7 opponents."""

MAX_SIMULATED_HANDS = 20_000
"""Budget of one simulation, in showdown hands (deals × players): about a second here.

Each simulated deal builds the best hand of the player and of every opponent, so the cost
is ``samples × (opponents + 1)`` hands, about 50 µs each; a request past the budget is
refused before any work with the most deals it could have."""

_BASE = 13  # faces are at most 12: tie-break codes are base-13 numbers


@dataclass(frozen=True)
class Strength:
    """Chance to win (and to split) the showdown against ``opponents`` players.

    Exact results are `fractions.Fraction`; simulated ones are floats with
    ``stderr`` (one standard error of ``win``) and the number of ``samples``.
    """

    win: Fraction | float
    split: Fraction | float
    opponents: int
    exact: bool
    samples: int = 0
    stderr: float = 0.0
    of_ways: int = 0
    """When ``samples`` are ways of the hidden community dice (not simulated deals): how
    many ways there are in all."""

    def describe(self) -> str:
        """One line for the table: exact figures, or an estimate said to be one.

        >>> Strength(Fraction(1, 4), Fraction(0), 2, exact=True).describe()
        'win 25.00%, split 0.00% against 2 opponents (exact)'
        >>> text = Strength(0.2, 0.01, 3, False, 24, 0.025, of_ways=120).describe()
        >>> text.split(" (")[0]
        'estimated win 20.0% ± 2.5%, split 1.0% against 3 opponents'
        >>> "from 24 of the 120 ways" in text and text.endswith(", not exact)")
        True
        """
        against = f"against {self.opponents} opponent{'s' * (self.opponents != 1)}"
        if self.exact:
            return f"win {float(self.win):.2%}, split {float(self.split):.2%} {against} (exact)"
        source = (f"{self.samples} of the {self.of_ways} ways the hidden community dice can "
                  "fall" if self.of_ways else f"{self.samples} simulated deals")
        return (f"estimated win {float(self.win):.1%} ± {self.stderr:.1%}, split "
                f"{float(self.split):.1%} {against} (an estimate from {source}, not exact)")


@functools.cache
def _coords() -> tuple[tuple[int, ...], ...]:
    """For each die, the value shown (minus one) in every roll index."""
    return tuple(
        tuple((x // stride) % sides for x in range(OUTCOMES))
        for stride, sides in zip(STRIDES, DICE, strict=True)
    )


@functools.cache
def _tiebreak_codes() -> tuple[int, ...]:
    """Each roll's values sorted highest first, as one comparable number."""
    codes = []
    for roll in itertools.product(*(range(1, s + 1) for s in DICE)):
        code = 0
        for v in sorted(roll, reverse=True):
            code = code * _BASE + v
        codes.append(code)
    return tuple(codes)


def _scores_with(community: Sequence[int]) -> list[int]:
    """For every hole roll: its showdown score with these five community dice.

    Lower is stronger: the best rank over the 32 hole/community choices first, then the
    hole numbers. The best rank is found die by die: after die ``i`` each entry is the
    best over the choices for dice ``0..i``.
    """
    best = list(rank_table())
    for coord, stride, value in zip(_coords(), STRIDES, community, strict=True):
        target = (value - 1) * stride
        best = [
            a if a <= (b := best[x - c * stride + target]) else b
            for x, (a, c) in enumerate(zip(best, coord, strict=True))
        ]
    span = _BASE**5
    return [r * span - code for r, code in zip(best, _tiebreak_codes(), strict=True)]


def _player_score(hole: Sequence[int], community: Sequence[int]) -> int:
    shown = best_showdown_hand(hole, community)
    code = 0
    for v in shown.tiebreak:
        code = code * _BASE + v
    return shown.rank * _BASE**5 - code


def _check(hole: Sequence[int], community: Sequence[int], opponents: int) -> None:
    check_roll(hole, "hole dice")
    if len(community) not in (0, 3, 4, 5):
        raise RuleError(
            "Dice Monarchs: community dice come out as the flop (3), turn (4) and river (5);"
            f" got {len(community)}"
        )
    for value, sides in zip(community, DICE, strict=False):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
            raise RuleError(f"community dice: a d{sides} cannot show {value}")
    if isinstance(opponents, bool) or not isinstance(opponents, int) or not 1 <= opponents <= 7:
        raise RuleError(f"Dice Monarchs is for 2-8 players: opponents must be 1-7, got {opponents}")


def hand_strength(
    hole: Sequence[int],
    community: Sequence[int] = (),
    opponents: int = 1,
    *,
    exact: bool | None = None,
    samples: int = DEFAULT_SAMPLES,
    seed: int | None = None,
    rng: random.Random | None = None,
) -> Strength:
    """Chance that ``hole`` wins the showdown against ``opponents`` unknown hands.

    ``community`` lists the revealed community dice in order (d4, d6, d8, then d10, d12).
    ``exact=None`` computes exactly when at most `MAX_EXACT_COMPLETIONS` ways remain
    for the hidden community dice and simulates ``samples`` deals otherwise; ``True`` or
    ``False`` forces the choice (``True`` refuses before the flop: 530 million showdowns).
    Exact answers are remembered, so asking again for the same dice costs nothing.
    """
    hole, community = tuple(hole), tuple(community)
    _check(hole, community, opponents)
    hidden = DICE[len(community) :]
    ways = math.prod(hidden)
    if exact is None:
        exact = ways <= MAX_EXACT_COMPLETIONS
    if exact:
        if ways > 120:
            raise RuleError(
                "hand strength: exact odds before the flop are too costly; simulate instead"
            )
        return _exact(hole, community, opponents)
    _check_samples(samples, opponents)
    return _simulate(hole, community, opponents, samples, rng or random.Random(seed))


def max_samples(opponents: int) -> int:
    """The most deals one simulation may use against ``opponents`` (the budget)."""
    return MAX_SIMULATED_HANDS // (opponents + 1)


def _check_samples(samples: int, opponents: int) -> None:
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise RuleError(f"hand strength: samples must be a whole number of deals, at least 1, "
                        f"not {samples}")
    hands = samples * (opponents + 1)
    if hands > MAX_SIMULATED_HANDS:
        raise RuleError(
            f"hand strength: {samples:,} deals against {opponents} opponent"
            f"{'s' * (opponents != 1)} would build {hands:,} showdown hands, over the budget "
            f"of {MAX_SIMULATED_HANDS:,}; use at most {max_samples(opponents):,} samples"
        )


def _pass(best: Sequence[int], die: int, value: int) -> list[int]:
    """``best`` improved by the choice of the community's die ``die`` showing ``value``:
    each roll keeps the better of its own rank and the rank with that die replaced."""
    stride, sides = STRIDES[die], DICE[die]
    block = stride * sides
    blocks = OUTCOMES // block
    out = list(best)
    src0 = (value - 1) * stride
    if stride <= blocks:  # few rolls share a block position: walk them as strided slices
        for inner in range(stride):
            src = best[src0 + inner :: block]
            for c in range(sides):
                part = slice(c * stride + inner, None, block)
                out[part] = list(map(min, best[part], src))
    else:
        for b in range(blocks):
            base = b * block
            src = best[base + src0 : base + src0 + stride]
            for c in range(sides):
                lo = base + c * stride
                out[lo : lo + stride] = list(map(min, best[lo : lo + stride], src))
    return out


@functools.lru_cache(maxsize=160)
def best_ranks(community: tuple[int, ...]) -> tuple[int, ...]:
    """For every roll of the 23,040: the best rank it makes choosing, die by die, its own
    die or the revealed community die (lower is better); dice not yet revealed count as
    the roll's own. Remembered, so the flop's work is shared by every completion."""
    if not community:
        return rank_table()
    return tuple(_pass(best_ranks(community[:-1]), len(community) - 1, community[-1]))


def _chances(hole: tuple[int, ...], full: tuple[int, ...], k: int) -> tuple[Fraction, Fraction]:
    """(win, split) against ``k`` unknown opponents with all five community dice known."""
    ranks = best_ranks(full)
    shown = best_showdown_hand(hole, full)
    my_rank = shown.rank
    my_code = 0
    for v in shown.tiebreak:
        my_code = my_code * _BASE + v
    counts = collections.Counter(ranks)
    weaker = sum(n for r, n in counts.items() if r > my_rank)
    same = list(itertools.compress(_tiebreak_codes(), map(my_rank.__eq__, ranks)))
    weaker += sum(1 for c in same if c < my_code)
    equal = sum(1 for c in same if c == my_code)
    beat_one = Fraction(weaker, OUTCOMES)
    not_beaten = Fraction(weaker + equal, OUTCOMES)
    return beat_one**k, not_beaten**k - beat_one**k


def quick_strength(hole: Sequence[int], community: Sequence[int] = (), opponents: int = 1,
                   *, seed: int | str | None = None,
                   rng: random.Random | None = None) -> Strength:
    """The table's chance-to-win readout, bounded in time (see the module docs): exact
    from the turn on, else averaged over a seeded sample of community completions.

    ``seed`` is a number or a text key (an app's is the hand, the step and the seat): the
    same seed gives the same estimate on every screen, and the caller needs no random
    generator of its own. It is an estimate shown, never a roll of the game."""
    hole, community = tuple(hole), tuple(community)
    _check(hole, community, opponents)
    hidden = DICE[len(community) :]
    ways = list(itertools.product(*(range(1, s + 1) for s in hidden)))
    if len(ways) <= QUICK_EXACT:
        return _exact(hole, community, opponents)
    r = rng or random.Random(seed)
    if not community:
        return _simulate(hole, community, opponents, QUICK_PREFLOP // (opponents + 1), r)
    n = QUICK_COMPLETIONS
    picked = r.sample(ways, n)
    wins, splits = [], []
    for rest in sorted(picked):  # sorted: completions sharing a prefix reuse its passes
        win, split = _chances(hole, community + rest, opponents)
        wins.append(float(win))
        splits.append(float(split))
    p = sum(wins) / n
    var = sum((w - p) ** 2 for w in wins) / (n - 1)
    fpc = (len(ways) - n) / (len(ways) - 1)
    return Strength(p, sum(splits) / n, opponents, exact=False, samples=n,
                    stderr=math.sqrt(var / n * fpc), of_ways=len(ways))


@functools.lru_cache(maxsize=256)
def _exact(hole: tuple[int, ...], community: tuple[int, ...], k: int) -> Strength:
    hidden = DICE[len(community) :]
    win = split = Fraction(0)
    ways = math.prod(hidden)
    for rest in itertools.product(*(range(1, s + 1) for s in hidden)):
        w, sp = _chances(hole, community + rest, k)
        win += w
        split += sp
    return Strength(win / ways, split / ways, k, exact=True)


def _simulate(
    hole: tuple[int, ...], community: tuple[int, ...], k: int, n: int, rng: random.Random
) -> Strength:
    wins = splits = 0
    for _ in range(n):
        full = community + tuple(rng.randint(1, s) for s in DICE[len(community) :])
        mine = _player_score(hole, full)
        best_other: int | None = None
        for _ in range(k):
            other = tuple(rng.randint(1, s) for s in DICE)
            score = _player_score(other, full)
            if best_other is None or score < best_other:
                best_other = score
        assert best_other is not None
        if mine < best_other:
            wins += 1
        elif mine == best_other:
            splits += 1
    p = wins / n
    return Strength(p, splits / n, k, exact=False, samples=n, stderr=math.sqrt(p * (1 - p) / n))
