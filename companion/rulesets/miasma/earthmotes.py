"""Earthmotes: islands of land that magic keeps floating above the ground.

An earthmote is as solid and lasting as any island at sea level, and nothing natural or
magical stops it floating. Each differs in size, shape and height; most hover in place over
some landmark on the ground, a few drift, erratically or along a set route.

**Size.** Roll a d6 on `size_table`; the same table sizes a region.

**Biome.** Pick features from `biome_table` or roll 2d12 and read the two dice as an
unordered pair: each die from 1 to 10 is a terrain type (arctic, coastal, desert, forest,
grassland, hill, mountain, swamp, underdark, underwater) and the pair is the landscape
where those two meet; a double is the pure type. The table also names the encounter tables
(from *Xanathar's Guide to Everything*) to use there. Crossing into a new region, re-roll
one or more dice to see how the land changes (`change_region`). Colder biomes are
likelier near the poles and hotter ones near the equator, but a travelling earthmote can be
far from home: permafrost melting on its way south, a coastline riding an ocean current, a
coral reef floating below sea level.

**Settlements and portals.** A die showing 11 adds a settlement, stronghold or ruin
(peopled or abandoned, as you like) to the biome, and a 12 adds a planar portal (to the
Feywild, the Shadowfell or an elemental plane) that may reshape the land around it; either
way that die is rolled again for the biome. An 11 with a 1 re-rolled into a 3 is a
settlement on an ice sheet, perhaps of igloos; a 12 with a 7 re-rolled into an 8 is an
alpine lake that a portal to the plane of fire may have made a hot spring.

Interpretation: each 11 or 12 that shows is one feature, so 11 and 11 gives two of
settlement/stronghold/ruin and 11 and 12 gives one of each; both dice are re-rolled. A
re-roll that shows 11 or 12 again adds another feature and is re-rolled again, until the
die shows 1-10 (this is how `companion.tables.Table.roll` reads ``reroll`` rows).

Interpretation (a note):

- "Re-roll one or more dice" for a new region: the dice are the two biome dice; either one
  (the other is kept) or both are rolled again, as the table chooses.
- "The size of an earthmote or region" comes from the Size table, so a new region's size
  is rolled on it too (the d6 first, then the biome dice, as for a new earthmote); the
  table may keep the size instead, for a region of the same earthmote.
- The old region's settlements and portals stay behind; the new region's re-rolled dice
  follow the same 11/12 rule and bring their own.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from companion import tables
from companion.dice.roller import draw_seed, make_rng
from companion.errors import RuleError, StateError, TableError
from companion.state import Tracker, move, state_field
from companion.tables import Row, Table

#: Public helpers no app or command calls directly, and why (see tests/test_every_face.py).
LIBRARY_ONLY: dict[str, str] = {
    "feature_odds": "exact feature odds for the site's earthmote reference page",
    "region_odds": "exact biome odds of a new region, checked by the tests against "
                   "enumeration",
}

__all__ = [
    "Earthmote",
    "EarthmoteLog",
    "Feature",
    "biome_table",
    "change_region",
    "dice_text",
    "feature_odds",
    "generate_earthmote",
    "region_odds",
    "size_table",
]

#: Safety stop for chains of 11s and 12s on one die (chance of reaching it: 1 in 6^100).
MAX_REROLLS = 100

MAX_EARTHMOTES = 500
"""Most earthmotes one list keeps (a guard against runaway use, not a rule)."""

SEED_LIMIT = 2**63


def size_table() -> Table:
    """The Size table (d6)."""
    return tables.get("earthmote_size")


def biome_table() -> Table:
    """The Biomes table (2d12 read as an unordered pair; 11 and 12 roll again)."""
    return tables.get("earthmote_biome")


@dataclass
class Feature:
    """A settlement/stronghold/ruin (face 11) or planar portal (face 12) on an earthmote."""

    face: int
    kind: str
    encounters: str

    def check_state(self) -> None:
        """A feature is a re-roll row of the biome table, as that row reads."""
        row = next((r for r in biome_table().rows if r.reroll and self.face in r.covers), None)
        if row is None:
            raise StateError(f"field 'face' must be a face that rolls again, not {self.face}")
        if (self.kind, self.encounters) != (row.values["Biome"], row.values["Encounters"]):
            raise StateError(f"fields 'kind' and 'encounters' must read as the table's row "
                             f"for {self.face}")


@dataclass
class Earthmote:
    """One generated earthmote: its size, its biome pair and any features."""

    size_roll: int
    size: str
    biome_roll: list[int]
    biome: str
    encounters: str
    features: list[Feature] = state_field(default_factory=list, max_len=2 * MAX_REROLLS)
    seed: int | None = state_field(None, min=0, max=SEED_LIMIT - 1)
    """The seed that rolls this earthmote again; ``None`` when it was rolled from dice
    given to it (real dice entered by hand, or a roll whose seed the campaign's roll log
    keeps)."""

    def check_state(self) -> None:
        """An earthmote is what the tables say for its dice: the size row of its d6, the
        biome row of its pair of 1-10s."""
        try:
            size_row = size_table().row_for(self.size_roll)
        except TableError:
            raise StateError(f"field 'size_roll' must be a roll of {size_table().die}, "
                             f"not {self.size_roll}") from None
        if self.size != size_row.values["Size"]:
            raise StateError(f"field 'size' must be the Size row for {self.size_roll}")
        table = biome_table()
        again = {f for row in table.rows if row.reroll for f in row.covers}
        pair = self.biome_roll
        if len(pair) != 2 or pair != sorted(pair) or any(
                not 1 <= v <= table.faces()[0] or v in again for v in pair):
            raise StateError("field 'biome_roll' must be two settled biome dice, lower first")
        row = table.row_for((pair[0], pair[1]))
        if (self.biome, self.encounters) != (row.values["Biome"], row.values["Encounters"]):
            raise StateError(f"fields 'biome' and 'encounters' must be the Biomes row for "
                             f"{pair[0]}, {pair[1]}")

    def describe(self) -> str:
        """One line, e.g. ``Medium (...) earthmote: Ice sheet [Arctic, Desert] + ...``."""
        size_name, _, area = self.size.partition(" ")
        text = f"{size_name} earthmote {area}: {self.biome} [{self.encounters}]".replace("  ", " ")
        for f in self.features:
            text += f" + {f.kind} [{f.encounters}]"
        return text

    def rolls(self) -> str:
        """The dice behind it, e.g. ``d6 3; 2d12 11 → re-rolled, 1 and 3``."""
        noted = "".join(f"{f.face} (re-rolled), " for f in self.features)
        return f"d6 {self.size_roll}; 2d12 {noted}{self.biome_roll[0]} and {self.biome_roll[1]}"


def _features(noted: list[tuple[int, Row]]) -> list[Feature]:
    return [Feature(face, row.values["Biome"], row.values["Encounters"]) for face, row in noted]


def generate_earthmote(*, seed: int | None = None, rng: random.Random | None = None) -> Earthmote:
    """Roll an earthmote's size (d6) and biome (2d12 with 11/12 re-rolled), seedably.

    With ``seed`` the earthmote is always the same one, and ``rng=random.Random(seed)``
    rolls the very same dice. With ``rng`` (a generator, or real dice entered through
    `companion.dice.physical.EnteredDice`) the dice come from it and the earthmote keeps
    ``seed`` if one is given too (the seed that made ``rng``), else none
    (`Earthmote.seed` is ``None``). With neither argument a fresh seed is drawn and kept
    in `Earthmote.seed` so it can be made again.

    >>> generate_earthmote(seed=7) == generate_earthmote(rng=random.Random(7), seed=7)
    True
    """
    if rng is None:
        if seed is None:
            seed = draw_seed()
        rng = make_rng(seed, None)
    else:
        rng = make_rng(None, rng)
    size = size_table().roll(rng=rng)
    biome = biome_table().roll(rng=rng)
    assert isinstance(size.roll, int) and isinstance(biome.roll, tuple)
    return Earthmote(
        size_roll=size.roll, size=size.row.values["Size"], biome_roll=list(biome.roll),
        biome=biome.row.values["Biome"], encounters=biome.row.values["Encounters"],
        features=_features(biome.noted), seed=seed,
    )


def _reroll_rows() -> dict[int, Row]:
    return {face: row for row in biome_table().rows if row.reroll for face in row.covers}


def _check_keep(keep: int | None) -> None:
    if keep is not None and (isinstance(keep, bool) or keep not in (0, 1)):
        raise RuleError(f"Earthmotes: keep die 0 or 1 of the biome pair, or none to re-roll "
                        f"both, not {keep}")


def change_region(
    earthmote: Earthmote, keep: int | None, *, new_size: bool = True, seed: int | None = None,
    rng: random.Random | None = None
) -> Earthmote:
    """Cross into a new region: keep the biome die ``keep`` (0 or 1) and re-roll the other,
    or re-roll both (``keep=None``); the region's size is rolled on the Size table first
    unless ``new_size`` is false (then the size is kept).

    Re-rolled dice follow the same 11/12 rule. Re-rolling both dice and the size rolls
    exactly what [generate_earthmote][companion.rulesets.miasma.earthmotes.generate_earthmote]
    rolls, in the same order. The old region's settlements and portals stay behind. The
    region keeps the move's ``seed`` (``None`` from ``rng`` alone): with the earthmote it
    came from, ``keep`` and ``new_size``, that seed rolls the very same region again. It
    never keeps the earthmote's own seed, which rolls the earthmote, not the region (a
    region that kept its size used to show that seed, as if it replayed it).
    """
    _check_keep(keep)
    table = biome_table()
    sides, _ = table.faces()
    again = _reroll_rows()
    gen = make_rng(seed, rng)
    size_roll, size = earthmote.size_roll, earthmote.size
    if new_size:
        rolled_size = size_table().roll(rng=gen)
        assert isinstance(rolled_size.roll, int)
        size_roll, size = rolled_size.roll, rolled_size.row.values["Size"]
    noted: list[tuple[int, Row]] = []
    if keep is None:
        biome = table.roll(rng=gen)
        assert isinstance(biome.roll, tuple)
        pair = biome.roll
        noted = list(biome.noted)
    else:
        face = gen.randint(1, sides)
        for _ in range(MAX_REROLLS):
            if face not in again:
                break
            noted.append((face, again[face]))
            face = gen.randint(1, sides)
        else:
            raise RuleError("Earthmotes: the die kept showing 11 or 12; roll again")
        pair = (earthmote.biome_roll[keep], face)
    row = table.row_for(pair)
    return Earthmote(
        size_roll=size_roll, size=size, biome_roll=sorted(pair),
        biome=row.values["Biome"], encounters=row.values["Encounters"],
        features=_features(noted), seed=seed,
    )


def region_odds(earthmote: Earthmote, keep: int | None) -> dict[str, Fraction]:
    """Exact chance of each biome for a new region from ``earthmote`` (``keep`` as in
    [change_region][companion.rulesets.miasma.earthmotes.change_region]), by biome name.

    A re-rolled die settles on each face that is not an 11 or 12 with the same chance
    (1 in 10): the 11s and 12s only delay it.
    """
    _check_keep(keep)
    table = biome_table()
    sides, _ = table.faces()
    again = _reroll_rows()
    settled = [f for f in range(1, sides + 1) if f not in again]
    each = Fraction(1, len(settled))
    first = [earthmote.biome_roll[keep]] if keep is not None else settled
    out: dict[str, Fraction] = {}
    for a in first:
        for b in settled:
            name = table.row_for((min(a, b), max(a, b))).values["Biome"]
            out[name] = out.get(name, Fraction(0)) + each * (1 if keep is not None else each)
    return out


def dice_text() -> str:
    """How an earthmote is rolled, in one line from the tables (the app and the site show it).

    >>> print(dice_text())
    size 1d6, biome 2d12 (11: Settlement/stronghold/ruin; 12: Planar portal; roll that die again)
    """
    rerolls = "; ".join(f"{row.range}: {_feature_name(row)}"
                        for row in biome_table().rows if row.reroll)
    return (f"size {size_table().die}, biome {biome_table().die} ({rerolls}; roll that die "
            "again)")


def _feature_name(row: Row) -> str:
    # "Settlement/stronghold/ruin" for 11; the portal row names its planes, so its
    # encounters column ("Planar portal") is the name.
    biome, encounters = row.values["Biome"], row.values["Encounters"]
    return encounters if encounters.lower().startswith("planar") else biome


def feature_odds() -> list[tuple[Row, Fraction, Fraction]]:
    """For each re-roll face: the chance an earthmote gets at least one such feature, and
    the expected number, counting re-rolls (the table's own odds count the first roll only).

    On one die, a given re-roll face shows before the die settles with chance
    ``P(face) / (P(face) + P(settling face))``; the two dice are independent. The expected
    count per die is ``P(face) / P(settling face)`` (a geometric run).
    """
    table = biome_table()
    sides, dice = table.faces()
    rerolls = [row for row in table.rows if row.reroll]
    settle = Fraction(sides - sum(len(r.covers) for r in rerolls), sides)
    out = []
    for row in rerolls:
        p_face = Fraction(len(row.covers), sides)
        never = 1 - p_face / (p_face + settle)
        out.append((row, 1 - never**dice, dice * p_face / settle))
    return out


@dataclass
class EarthmoteLog(Tracker):
    """The earthmotes a party has found, in order; generating one is a move (undoable).

    Each earthmote gets its own seed from the log's ``seed`` and a counter, so the same log
    seed always yields the same sequence of earthmotes.
    """

    kind = "EarthmoteLog"
    what = "earthmote list"

    seed: int = state_field(0, min=0, max=SEED_LIMIT - 1)
    made: int = state_field(0, min=0)
    earthmotes: list[Earthmote] = state_field(default_factory=list, max_len=MAX_EARTHMOTES)

    def check_state(self) -> None:
        """Every earthmote on the list was made by this list (each record checks itself)."""
        if len(self.earthmotes) > self.made:
            raise StateError(f"field 'made' counts {self.made} earthmotes made, but the list "
                             f"holds {len(self.earthmotes)}")

    @property
    def full(self) -> bool:
        """Whether the list holds as many earthmotes as it can (remove one to make more)."""
        return len(self.earthmotes) >= MAX_EARTHMOTES

    @classmethod
    def start(cls, *, seed: int | None = None, rng: random.Random | None = None) -> EarthmoteLog:
        if seed is None:
            seed = draw_seed(rng)
        return cls(seed=seed)

    def next_seed(self) -> int:
        """The seed the list gives its next earthmote (from its own seed and count)."""
        # Below companion.dice.SEED_BOUND like every drawn seed: the app shows it and a
        # browser's JSON reader keeps it exact. (Lists made before drew 63-bit seeds.)
        return draw_seed(random.Random(f"earthmotes:{self.seed}:{self.made}"))

    @move
    def generate(self, *, seed: int | None = None, rng: random.Random | None = None,
                 keep_seed: bool = True) -> Earthmote:
        """Roll a new earthmote and add it to the list.

        Its dice come from ``seed`` (kept in the earthmote unless ``keep_seed`` is false:
        a hidden roll's seed stays secret), else from ``rng`` (real dice entered by hand:
        it keeps no seed), else from the list's own seed and count.
        """
        self._check_room()
        _check_seed(seed)
        if seed is None and rng is None:
            seed = self.next_seed()
        mote = generate_earthmote(seed=seed, rng=None if seed is not None else rng)
        if not keep_seed:
            mote.seed = None
        self.made += 1
        self.earthmotes.append(mote)
        self.describe(f"#{len(self.earthmotes)}: {mote.describe()}")
        return mote

    @move
    def new_region(self, index: int, keep: int | None, *, new_size: bool = True,
                   seed: int | None = None, rng: random.Random | None = None,
                   keep_seed: bool = True) -> Earthmote:
        """Travel on from earthmote ``index`` (from 0): keep biome die ``keep`` and re-roll
        the other, or re-roll both (``keep=None``); the region's size is rolled on the Size
        table unless ``new_size`` is false (dice from ``seed``, else ``rng``, else the
        list's own seed and count). See
        [change_region][companion.rulesets.miasma.earthmotes.change_region].

        ``keep_seed``: as for [generate][companion.rulesets.miasma.earthmotes.EarthmoteLog.generate],
        false for a hidden roll, whose seed stays secret (kept, the shared list would let
        anyone roll the region again and read what the GM hid)."""  # noqa: E501
        self._check_index(index)
        self._check_room()
        _check_seed(seed)
        _check_keep(keep)
        if seed is None and rng is None:
            seed = self.next_seed()
        mote = change_region(self.earthmotes[index], keep, new_size=bool(new_size), seed=seed,
                             rng=None if seed is not None else rng)
        if not keep_seed:
            mote.seed = None
        self.made += 1
        self.earthmotes.append(mote)
        self.describe(f"#{len(self.earthmotes)} (new region from #{index + 1}): "
                      f"{mote.describe()}")
        return mote

    @move
    def remove(self, index: int) -> None:
        """Strike earthmote ``index`` (from 0) off the list."""
        self._check_index(index)
        gone = self.earthmotes.pop(index)
        self.describe(f"removed #{index + 1}: {gone.biome}")

    @move
    def clear(self) -> None:
        """Empty the list."""
        if not self.earthmotes:
            raise RuleError("Earthmotes: the list is already empty")
        self.earthmotes = []
        self.describe("cleared the list")

    def _check_room(self) -> None:
        if len(self.earthmotes) >= MAX_EARTHMOTES:
            raise RuleError(f"Earthmotes: the list holds at most {MAX_EARTHMOTES}; remove or "
                            "clear some first")

    def _check_index(self, index: int) -> None:
        if isinstance(index, bool) or not isinstance(index, int) or not (
            0 <= index < len(self.earthmotes)
        ):
            raise RuleError(f"Earthmotes: there is no earthmote #{index + 1} in the list"
                            if isinstance(index, int)
                            else f"Earthmotes: bad index {index}")


def _check_seed(seed: int | None) -> None:
    """A seed an earthmote keeps is a whole number from 0 up to ``SEED_LIMIT`` (so it saves)."""
    if seed is not None and not 0 <= seed < SEED_LIMIT:
        raise RuleError(f"Earthmotes: a seed is a whole number from 0 to {SEED_LIMIT - 1}, "
                        f"not {seed}")
