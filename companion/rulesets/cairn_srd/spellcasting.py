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

[magic_dice_odds][companion.rulesets.cairn_srd.spellcasting.magic_dice_odds] computes the
exact chances with the dice engine: the pool is evaluated face by face (how many dice show
a 1, then how many of the rest show a 2, ...), so 60 dice cost a few thousand states, not
6^60 rolls.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from companion import dice as engine
from companion.dice import Distribution
from companion.dice.roller import make_rng
from companion.errors import RuleError
from companion.rulesets.cairn_srd.fixed_tables import read_row, rules_data

MAX_MAGIC_DICE = 4
MAX_CAST_DICE = 60
"""The most magic dice one cast (or its odds) handles: 4 plus far more than any magic item
adds. A larger count is refused before anything is rolled."""
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
        return read_row("cairn_mishap", self.mishap_face)["Mishap"]

    def __str__(self) -> str:
        parts = [f"magic dice {', '.join(map(str, self.dice))}: {self.fatigue} Fatigue"]
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
    """Roll ``dice`` magic dice (``{dice}d6`` in the dice engine) and read them."""
    if not 1 <= dice <= MAX_CAST_DICE:
        raise RuleError(f"Spell Casting Procedure: invest 1-{MAX_CAST_DICE} magic dice, "
                        f"got {dice}")
    rolled = engine.roll(f"{dice}d6", rng=make_rng(seed, rng))
    return read_magic_dice(tuple(die.value for die in rolled.dice), fatigue_from)


def available_magic_dice(free_slots: int, extra: int = 0) -> int:
    """Magic dice a caster may invest: free slots, capped at 4 (+ ``extra`` from items).

    Interpretation: extra magic dice from items raise the cap of 4 but are still capped by
    the free burden slots ("equal to your available burden slots, up to a maximum of 4";
    the items "grant additional Magic Dice", read as more dice allowed, not dice that need
    no slot): a caster with 3 free slots and an item's +1 invests at most 3.

    >>> available_magic_dice(3, extra=1), available_magic_dice(6, extra=1)
    (3, 5)
    """
    return max(0, min(free_slots, MAX_MAGIC_DICE + extra))


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


def _pool_state(left: int, mishap: int, doom: int) -> int:
    return (left * 7 + mishap) * 2 + doom


def _pool_read(state: int) -> tuple[int, int, int]:
    rest, doom = divmod(state, 2)
    left, mishap = divmod(rest, 7)
    return left, mishap, doom


def _after(face: int, left: int, mishap: int, doom: int) -> Callable[[int], int]:
    """The state once ``n`` of the ``left`` dice turned out to show ``face``."""

    def step(n: int) -> int:
        return _pool_state(left - n, face if n >= 2 else mishap, 1 if n >= 3 else doom)

    return step


@functools.cache
def _pool(dice: int) -> Distribution:
    """The pool of ``dice`` d6 evaluated face by face, as a distribution over states.

    Face 1 first: how many of the ``dice`` show it is the number of 1s on ``{dice}d6``.
    The dice left each show one of the faces still to come, uniformly, so how many of
    them show the next face is the number of 1s on ``{left}d{faces left}``; and so on.
    Each state keeps what the rule reads: dice left, the highest doubled face so far (0:
    none) and whether some face came up three times (a doom).
    """
    pool = Distribution.constant(_pool_state(dice, 0, 0))
    for face in range(1, 7):
        parts = []
        for state, p in pool:
            left, mishap, doom = _pool_read(state)
            showing = engine.odds(f"{left}d{7 - face}=1") if left else Distribution.constant(0)
            parts.append((p, showing.map(_after(face, left, mishap, doom))))
        pool = Distribution.mixture(parts)
    return pool


@functools.cache
def magic_dice_odds(dice: int, fatigue_from: int = FATIGUE_FROM) -> MagicOdds:
    """Exact mishap, doom, mishap-row and Fatigue chances for ``dice`` magic dice.

    Computed by the dice engine: Fatigue is the count ``{dice}d6>={fatigue_from}``; the
    mishap row and dooms come from evaluating the pool face by face (`_pool`).
    """
    if not 1 <= dice <= MAX_CAST_DICE:
        raise RuleError(f"Spell Casting Procedure: odds are computed for 1-{MAX_CAST_DICE} "
                        f"dice, got {dice}")
    if not 1 <= fatigue_from <= 6:
        raise RuleError(f"Spell Casting Procedure: Fatigue comes from a face of 1-6, "
                        f"got {fatigue_from}")
    pool = _pool(dice)
    mishaps = pool.map(lambda state: _pool_read(state)[1])
    faces = {f: mishaps.p(f) for f in range(1, 7)}
    fatigue = engine.odds(f"{dice}d6>={fatigue_from}")
    return MagicOdds(
        dice,
        1 - mishaps.p(0),
        pool.map(lambda state: _pool_read(state)[2]).p(1),
        faces,
        {k: fatigue.p(k) for k in range(dice + 1)},
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
