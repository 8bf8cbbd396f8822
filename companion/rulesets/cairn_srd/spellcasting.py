"""Spellcasting: magic dice, Fatigue, mishaps and dooms; grimoires and scrolls.

Spells are petty (no slot) and come as single-use **scrolls** or entries in a
**grimoire**. Copying a scroll into a grimoire takes a full watch and magical inks
(50-70 silver) and destroys the scroll. Making a grimoire takes 4 uses of magical inks,
a scroll (its first spell, used up), a blank book and a full watch, after which the
maker is Deprived.

To cast, hold the grimoire or scroll, pick a spell and invest **magic dice** (d6): as
many as you have free burden slots, but at most 4 (magic items may add more). Some spells
use the number of dice ``[dice]`` or their total ``[sum]``. Then roll:

- each die showing 4-6 puts a **Fatigue** in a burden slot (1-3: none);
- **doubles** bring a **mishap** (table ``cairn_mishap``); with several doubles the
  highest face picks the mishap;
- **triples** bring a **doom**; every triple counts. The 1st doom bars spellcasting for
  24 hours, the 2nd for 3 days, the 3rd for good. Quests can lift dooms.

Interpretation: a face shown on two or more dice is a double, so a triple is also a
double (mishap *and* doom). The seed's chance table (3 dice: 44 % mishap) is only true
under this reading; its remark that both need 5 dice is not. Six of one face are two
triples (dooms = count // 3 per face).

:func:`magic_dice_odds` computes the exact chances by counting how many dice show each
face (multinomial weights), so 13 dice cost 8,568 cases, not 6^13 rolls.
"""

from __future__ import annotations

import functools
import math
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from companion.errors import RuleError
from companion.rulesets.cairn_srd._data import lookup, resolve_rng, roll_die, rules_data

MAX_MAGIC_DICE = 4
FATIGUE_FROM = 4
"""Magic dice at or above this face give Fatigue (3 while mishap 1 lasts)."""


@dataclass(frozen=True)
class MagicReading:
    """What a set of magic dice means."""

    dice: tuple[int, ...]
    fatigue: int
    mishap_face: int | None
    dooms: int

    @property
    def mishap(self) -> str | None:
        if self.mishap_face is None:
            return None
        return lookup("cairn_mishap", self.mishap_face)["Mishap"]

    def __str__(self) -> str:
        parts = [f"magic dice {list(self.dice)}: {self.fatigue} Fatigue"]
        if self.mishap_face is not None:
            parts.append(f"mishap {self.mishap_face}: {self.mishap}")
        if self.dooms:
            parts.append(f"{self.dooms} doom{'s' if self.dooms > 1 else ''}")
        return "; ".join(parts)


def read_magic_dice(
    dice: list[int] | tuple[int, ...], fatigue_from: int = FATIGUE_FROM
) -> MagicReading:
    """Count Fatigue, pick the mishap (highest doubled face) and count dooms."""
    counts = Counter(dice)
    doubled = [face for face, n in counts.items() if n >= 2]
    dooms = sum(n // 3 for n in counts.values())
    fatigue = sum(1 for d in dice if d >= fatigue_from)
    return MagicReading(tuple(dice), fatigue, max(doubled) if doubled else None, dooms)


def cast(
    dice: int,
    *,
    fatigue_from: int = FATIGUE_FROM,
    rng: random.Random | None = None,
    seed: int | None = None,
) -> MagicReading:
    """Roll ``dice`` magic dice and read them (no character involved)."""
    if dice < 1:
        raise RuleError("Spell Casting Procedure: invest at least one magic die")
    r = resolve_rng(rng, seed)
    return read_magic_dice(tuple(roll_die(6, r) for _ in range(dice)), fatigue_from)


def available_magic_dice(free_slots: int, extra: int = 0) -> int:
    """Magic dice a caster may invest: free slots, capped at 4 (+ ``extra`` from items)."""
    return max(0, min(free_slots, MAX_MAGIC_DICE + extra))


def _face_counts(n: int, faces: int = 6) -> Iterator[tuple[int, ...]]:
    if faces == 1:
        yield (n,)
        return
    for c in range(n + 1):
        for rest in _face_counts(n - c, faces - 1):
            yield (c, *rest)


def _ways(counts: tuple[int, ...]) -> int:
    ways = math.factorial(sum(counts))
    for c in counts:
        ways //= math.factorial(c)
    return ways


@dataclass(frozen=True)
class MagicOdds:
    """Exact chances for one number of magic dice."""

    dice: int
    mishap: Fraction
    doom: Fraction
    mishap_faces: dict[int, Fraction]
    """Chance that each mishap row (1-6) is the one read."""
    fatigue: dict[int, Fraction]
    """Chance of each number of Fatigue."""

    @property
    def fatigue_mean(self) -> Fraction:
        return sum((k * p for k, p in self.fatigue.items()), Fraction(0))


@functools.cache
def magic_dice_odds(dice: int, fatigue_from: int = FATIGUE_FROM) -> MagicOdds:
    """Exact mishap, doom, mishap-row and Fatigue chances for ``dice`` magic dice."""
    if not 1 <= dice <= 60:
        raise RuleError(f"Spell Casting Procedure: odds are computed for 1-60 dice, got {dice}")
    total = 6**dice
    mishap = doom = 0
    faces = dict.fromkeys(range(1, 7), 0)
    for counts in _face_counts(dice):
        ways = _ways(counts)
        doubled = [face for face, n in enumerate(counts, 1) if n >= 2]
        if doubled:
            mishap += ways
            faces[max(doubled)] += ways
        if max(counts) >= 3:
            doom += ways
    p = Fraction(7 - fatigue_from, 6)
    fatigue = {
        k: math.comb(dice, k) * p**k * (1 - p) ** (dice - k) for k in range(dice + 1)
    }
    return MagicOdds(
        dice,
        Fraction(mishap, total),
        Fraction(doom, total),
        {f: Fraction(w, total) for f, w in faces.items()},
        fatigue,
    )


@dataclass(frozen=True)
class MagicTableRow:
    """One row of the seed's chance table beside the exact figures."""

    dice: int
    printed_mishap: int
    printed_doom: int
    odds: MagicOdds

    @staticmethod
    def _differs(printed: int, exact: Fraction) -> bool:
        # The seed prints whole percents: it agrees if it is the rounded exact figure.
        return printed != round(exact * 100)

    @property
    def mishap_differs(self) -> bool:
        return self._differs(self.printed_mishap, self.odds.mishap)

    @property
    def doom_differs(self) -> bool:
        return self._differs(self.printed_doom, self.odds.doom)


def magic_table() -> list[MagicTableRow]:
    """Every row of the seed's magic-dice chance table with its exact odds."""
    printed = rules_data()["magic_dice_chances"]["printed"]
    return [MagicTableRow(n, m, d, magic_dice_odds(n)) for n, m, d in printed]


def doom_effect(doom_number: int) -> str:
    """What the ``doom_number``-th doom (1-3) does."""
    effects: list[str] = rules_data()["dooms"]["effects"]
    return effects[min(doom_number, len(effects)) - 1]
