"""Group checks: when a group succeeds or fails together (finding the way out of a jungle).

Everyone in the group makes a fitting ability check. Then:

1. A critical miss counts as two misses, a critical hit as two strong hits.
2. Each strong hit cancels one miss.
3. Count what is left; the result with the most is how the group did.
4. On a tie, the lowest of the tied results stands.

Interpretation: the seed's lead-in stops after "makes an appropriate"; read as "ability
check". A strong hit that cancels a miss is still counted itself (the rule removes the
miss only). The group's result is a Strong Hit, Weak Hit or Miss (never a critical).

>>> group_result([Tier.STRONG_HIT, Tier.MISS, Tier.WEAK_HIT])
<Tier.WEAK_HIT: 2>
>>> group_result([Tier.CRITICAL_MISS, Tier.STRONG_HIT, Tier.WEAK_HIT])
<Tier.MISS: 1>
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from companion.dice.roller import make_rng
from companion.errors import RuleError
from companion.rule_rolls import RuleCall, declare
from companion.rulesets.monsters_and_magic.ability_checks import (
    LIMIT,
    AbilityCheck,
    AbilityCheckResult,
    Tier,
)

__all__ = ["GroupCheckResult", "check_group_size", "group_counts", "group_odds", "group_result",
           "parse_modifiers", "read_group", "roll_group"]

#: Largest group whose odds are computed (a guard against runaway input, not a rule).
MAX_GROUP = 30


_RAW = {Tier.CRITICAL_HIT: (2, 0, 0), Tier.STRONG_HIT: (1, 0, 0), Tier.WEAK_HIT: (0, 1, 0),
        Tier.MISS: (0, 0, 1), Tier.CRITICAL_MISS: (0, 0, 2)}
"""What each result adds to the (strong, weak, miss) counts: criticals count double."""


def _raw_counts(tiers: Sequence[Tier]) -> tuple[int, int, int]:
    strong = weak = miss = 0
    for tier in tiers:
        ds, dw, dm = _RAW[tier]
        strong, weak, miss = strong + ds, weak + dw, miss + dm
    return strong, weak, miss


def _cancelled(strong: int, weak: int, miss: int) -> dict[Tier, int]:
    # Listed lowest first, so a tie picks the lowest result.
    return {Tier.MISS: max(0, miss - strong), Tier.WEAK_HIT: weak, Tier.STRONG_HIT: strong}


def _result_of_counts(strong: int, weak: int, miss: int) -> Tier:
    counts = _cancelled(strong, weak, miss)
    best = max(counts.values())
    return next(tier for tier, n in counts.items() if n == best)


def group_counts(tiers: Sequence[Tier]) -> dict[Tier, int]:
    """Misses, weak hits and strong hits left after doubling criticals and cancelling."""
    return _cancelled(*_raw_counts(tiers))


def group_result(tiers: Sequence[Tier]) -> Tier:
    """How the group did, given every member's result."""
    if not tiers:
        raise RuleError("Group Checks: a group check needs at least one creature")
    return _result_of_counts(*_raw_counts(tiers))


def group_odds(checks: Sequence[AbilityCheck]) -> dict[Tier, Fraction]:
    """Exact chance of each group result (Miss, Weak Hit, Strong Hit) for these checks."""
    if not checks:
        raise RuleError("Group Checks: a group check needs at least one creature")
    if len(checks) > MAX_GROUP:
        raise RuleError(f"Group Checks: at most {MAX_GROUP} creatures, got {len(checks)}")
    # Distribution over raw (strong, weak, miss) counts before cancelling.
    states: dict[tuple[int, int, int], Fraction] = {(0, 0, 0): Fraction(1)}
    for check in checks:
        member = [(tier, p) for tier, p in check.tier_odds().items() if p]
        nxt: dict[tuple[int, int, int], Fraction] = {}
        for (s, w, m), q in states.items():
            for tier, p in member:
                ds, dw, dm = _RAW[tier]
                key = (s + ds, w + dw, m + dm)
                nxt[key] = nxt.get(key, Fraction(0)) + q * p
        states = nxt
    out = {Tier.MISS: Fraction(0), Tier.WEAK_HIT: Fraction(0), Tier.STRONG_HIT: Fraction(0)}
    for (s, w, m), q in states.items():
        out[_result_of_counts(s, w, m)] += q
    return out


@dataclass(frozen=True)
class GroupCheckResult:
    """Every member's rolled check and the group's result."""

    members: tuple[AbilityCheckResult, ...]
    counts: dict[Tier, int]
    tier: Tier

    def __str__(self) -> str:
        each = "; ".join(f"{m.total} {m.tier.label}" for m in self.members)
        left = ", ".join(f"{n} {t.label}" for t, n in self.counts.items())
        return f"group: {each} → {left} → {self.tier.label}"

    def to_dict(self) -> dict[str, Any]:
        return {"members": [m.to_dict() for m in self.members],
                "counts": {t.label: n for t, n in self.counts.items()},
                "tier": self.tier.label, "text": str(self)}


def check_group_size(size: int) -> None:
    """Refuse a group of ``size`` creatures the group check does not take (none, or more
    than ``MAX_GROUP``); judged before any die is rolled."""
    if size < 1:
        raise RuleError("Group Checks: a group check needs at least one creature")
    if size > MAX_GROUP:
        raise RuleError(f"Group Checks: at most {MAX_GROUP} creatures, got {size}")


def read_group(members: Sequence[AbilityCheckResult]) -> GroupCheckResult:
    """The group's result from every member's rolled check (each made elsewhere, e.g. on
    the member's own sheet)."""
    check_group_size(len(members))
    tiers = [m.tier for m in members]
    return GroupCheckResult(tuple(members), group_counts(tiers), group_result(tiers))


def roll_group(checks: Sequence[AbilityCheck], *, seed: int | None = None,
               rng: random.Random | None = None) -> GroupCheckResult:
    """Roll every member's check (same RNG, in order) and read the group's result."""
    check_group_size(len(checks))
    rng = make_rng(seed, rng)
    return read_group([check.roll(rng=rng) for check in checks])


_WHOLE = re.compile(r"[+-]?[0-9]{1,9}", re.ASCII)


def parse_modifiers(text: str) -> list[int]:
    """Modifiers written ``"2, 0, -1"`` (the group check's members), or a RuleError."""
    parts = [part.strip().replace("\u2212", "-") for part in str(text).split(",")]
    values: list[int] = []
    for part in parts:
        if not part:
            continue
        if not _WHOLE.fullmatch(part):
            shown = part if len(part) <= 12 else part[:11] + "…"
            raise RuleError(f"Group Checks: the modifiers must be whole numbers separated "
                            f"by commas; '{shown}' is not one")
        values.append(int(part))
    if not values:
        raise RuleError("Group Checks: give at least one modifier")
    if len(values) > MAX_GROUP:
        raise RuleError(f"Group Checks: at most {MAX_GROUP} creatures, got {len(values)}")
    for value in values:
        if abs(value) > LIMIT:
            raise RuleError(f"Group Checks: a modifier must be within ±{LIMIT}, not {value}")
    return values


def _group_declared(args: dict[str, Any], rng: random.Random) -> GroupCheckResult:
    checks = args["checks"]
    if not isinstance(checks, list):
        raise RuleError("Group Checks: the checks are a list")
    return roll_group([AbilityCheck(**c) for c in checks], rng=rng)


def _group_result(value: GroupCheckResult) -> dict[str, Any]:
    return {"totals": [m.total for m in value.members],
            "tiers": [m.tier.label for m in value.members], "tier": value.tier.label}


def group_call(checks: Sequence[AbilityCheck]) -> RuleCall:
    """A group check (it moves no tracker) as a declared rule roll
    ([companion.rule_rolls][]): ``verify`` rolls every member's check again and compares
    the totals and the group's result."""
    check_group_size(len(checks))
    return RuleCall("monsters_and_magic.group_checks.group",
                    {"checks": [dataclasses.asdict(c) for c in checks]})


declare("monsters_and_magic.group_checks.group", _group_declared, _group_result)
