"""Spell Points / Mentality: one pool of points instead of spell slots.

The house rule borrows the DMG's spell-point variant and calls the pool *mentality*; the
aim is that players weigh every spell before casting it.

- **Pool size.** Look the character's class level up in the Mentality Points table.
  Bards, clerics, druids and wizards use their level as is. Paladins, rangers and
  artificers use half their level in that class; eldritch knights and arcane tricksters a
  third. Every division rounds down, and any other subclass follows the same pattern.
- **Casting.** A spell of 1st level or higher subtracts its cost (Mentality Cost table,
  by spell level) from the pool, like mana. No slots are built from the points. Cantrips
  are free. At 0 points no leveled spell can be cast.
- **Long rest.** Regain half of the pool's maximum, rounded up (as with Hit Dice), never
  above the maximum.

Interpretation: a spell whose cost exceeds the points left is refused (mana-style), not
cast down to 0; the seed only says that at 0 nothing leveled can be cast, and compares
the pool to mana in video games.

Interpretation: a half or third caster whose divided level is 0 (a 1st-level paladin,
say) has a pool of 0 points; the table starts at level 1.

Interpretation: the seed borrows the DMG's spell-point variant, so its limits hold (the
default): the highest spell level is capped by the row of the points
table the caster reads (1st at levels 1-2, 2nd at 3-4 ... 9th from 17;
[max_spell_level][companion.rulesets.variant5e.spell_points.max_spell_level]), and each
spell level of 6th and higher can be cast once per long rest. A table that turns the
DMG's limits off keeps the earlier reading: any level 1 to 9 the
points pay for.

Interpretation: the seed names bards, clerics, druids, wizards (full), paladins, rangers,
artificers (half), eldritch knights and arcane tricksters (third), and says "apply same
rules for any other sub-class": sorcerers and warlocks (Pact Magic replaced by the pool)
count as full casters; any other subclass is placed by choosing its kind.

## In code

Both tables live once in ``mentality_tables.toml`` beside this module.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

from companion.errors import RuleError, StateError, TableError, quoted
from companion.state import OWN_NUMBERS, Tracker, move, state_field
from companion.tables.fixed import Schema, load_fixed

__all__ = [
    "CASTER_KINDS",
    "SpellPoints",
    "caster_kind_of",
    "max_spell_level",
    "mentality_cost",
    "mentality_points",
    "mentality_tables",
    "table_level",
]

CasterKind = Literal["full", "half", "third"]

#: The kinds of caster the seed distinguishes, in the order it names them.
CASTER_KINDS: tuple[CasterKind, ...] = ("full", "half", "third")

DATA_FILE = "mentality_tables.toml"
_TABLE: Schema = {"title": str, "section": str, "key": str, "value": str, "rows": {"*": int}}
TABLES_SCHEMA: dict[str, Schema] = {
    "cost_table": _TABLE,
    "points_table": _TABLE,
    "casters": {kind: {"divisor": int, "classes": [str]} for kind in CASTER_KINDS},
    "level_cap": {"once_per_rest_from": int, "rows": {"*": int}},
}
"""The keys and types of ``mentality_tables.toml``; `mentality_tables` checks the levels."""


@cache
def mentality_tables() -> dict[str, Any]:
    """The seed's two lookup tables and the caster kinds, read from the package data.

    Raises [TableError][companion.errors.TableError] if the file is malformed (a level missing or a
    cost not a
    whole number), naming the table and the level.
    """
    data = load_fixed(Path(__file__).with_name(DATA_FILE), TABLES_SCHEMA, where=DATA_FILE)
    for name, levels in (("cost_table", range(1, 10)), ("points_table", range(1, 21)),
                         ("level_cap", range(1, 21))):
        rows = data[name]["rows"]
        for level in levels:
            value = rows.get(str(level))
            if value is None or value < 0:
                raise TableError(f"{DATA_FILE}: {name} level {level} needs a whole number")
        if len(rows) != len(levels):
            raise TableError(f"{DATA_FILE}: {name} has rows outside levels "
                             f"{levels.start}-{levels.stop - 1}")
    for kind in CASTER_KINDS:
        if data["casters"][kind]["divisor"] < 1:
            raise TableError(f"{DATA_FILE}: casters.{kind}.divisor must be a whole number >= 1")
    return data


def mentality_cost(spell_level: int) -> int:
    """Points a spell of ``spell_level`` costs (0 for a cantrip, level 0)."""
    if isinstance(spell_level, bool) or not isinstance(spell_level, int):
        raise RuleError(f"Spell Points: spell level must be a whole number, got {spell_level!r}")
    if spell_level == 0:
        return 0
    if not 1 <= spell_level <= 9:
        raise RuleError(f"Spell Points: spell level must be 0 (cantrip) to 9, got {spell_level}")
    cost: int = mentality_tables()["cost_table"]["rows"][str(spell_level)]
    return cost


def caster_kind_of(class_name: str) -> CasterKind:
    """Which kind of caster a class (or subclass) named in the seed is."""
    wanted = " ".join(class_name.lower().replace("(", " ").replace(")", " ").split())
    for kind in CASTER_KINDS:
        for name in mentality_tables()["casters"][kind]["classes"]:
            if name == wanted or (wanted.endswith(name) and " " in name):
                return kind
    raise RuleError(f"Spell Points: the seed names no caster kind for {class_name!r}; "
                    "choose full, half or third")


def table_level(class_level: int, kind: CasterKind) -> int:
    """The row of the points table a caster of ``kind`` reads (level divided, rounded down)."""
    if isinstance(class_level, bool) or not isinstance(class_level, int):
        raise RuleError(f"Spell Points: class level must be a whole number, got {class_level!r}")
    if not 1 <= class_level <= 20:
        raise RuleError(f"Spell Points: class level must be 1 to 20, got {class_level}")
    if kind not in CASTER_KINDS:
        raise RuleError(f"Spell Points: caster kind must be full, half or third, got {kind!r}")
    divisor: int = mentality_tables()["casters"][kind]["divisor"]
    return class_level // divisor


def mentality_points(class_level: int, kind: CasterKind = "full") -> int:
    """The maximum pool for a caster of ``kind`` at ``class_level``."""
    level = table_level(class_level, kind)
    if level == 0:
        return 0
    points: int = mentality_tables()["points_table"]["rows"][str(level)]
    return points


def max_spell_level(class_level: int, kind: CasterKind = "full") -> int:
    """The highest spell level a caster of ``kind`` at ``class_level`` can pay for (0: none).

    >>> max_spell_level(5), max_spell_level(5, "half"), max_spell_level(17, "full")
    (3, 1, 9)
    """
    level = table_level(class_level, kind)
    if level == 0:
        return 0
    cap: int = mentality_tables()["level_cap"]["rows"][str(level)]
    return cap


def once_per_rest_from() -> int:
    """The lowest spell level that can be cast only once per long rest (6)."""
    first: int = mentality_tables()["level_cap"]["once_per_rest_from"]
    return first


@dataclass
class SpellPoints(Tracker):
    """A caster's mentality pool, with casting and long rests as moves.

    >>> wizard = SpellPoints.new(class_level=3)
    >>> wizard.points, wizard.maximum
    (14, 14)
    >>> wizard.cast(2); wizard.points
    11
    """

    class_level: int = state_field(1, min=1, max=20, doc="level in the casting class")
    caster: CasterKind = "full"
    maximum: int = state_field(4, min=0, max=133, doc="the pool's size from the table")
    points: int = state_field(4, min=0, max=133, doc="points left")
    dmg_limits: bool = True
    high_cast: list[int] = state_field(default_factory=list, min=6, max=9, max_len=4,
                                       doc="levels 6+ cast since the last long rest")

    @classmethod
    def new(cls, class_level: int, caster: CasterKind = "full") -> SpellPoints:
        """A rested caster: the pool is full."""
        maximum = mentality_points(class_level, caster)
        return cls(class_level=class_level, caster=caster, maximum=maximum, points=maximum)

    def check_state(self) -> None:
        if self.maximum != mentality_points(self.class_level, self.caster):
            raise StateError(
                f"field 'maximum' must be {mentality_points(self.class_level, self.caster)} "
                f"for a level {self.class_level} {self.caster} caster, got {self.maximum}"
            )
        if self.points > self.maximum:
            raise StateError(f"field 'points' ({self.points}) exceeds maximum ({self.maximum})")
        if len(set(self.high_cast)) != len(self.high_cast):
            raise StateError("field 'high_cast' names a spell level twice")

    def __str__(self) -> str:
        """The pool as a player reads it, and the high levels already cast since a rest.

        >>> wizard = SpellPoints.new(class_level=11)
        >>> wizard.cast(6); print(wizard)
        mentality 64/73 · level 11 full caster · cast since the last long rest: level 6
        """
        cast = (f" · cast since the last long rest: level "
                f"{', '.join(map(str, sorted(self.high_cast)))}" if self.high_cast else "")
        return (f"mentality {self.points}/{self.maximum} · level {self.class_level} "
                f"{self.caster} caster{cast}")

    @property
    def max_spell_level(self) -> int:
        """The highest level this caster can cast (9 without the DMG limits)."""
        return max_spell_level(self.class_level, self.caster) if self.dmg_limits else 9

    def can_cast(self, spell_level: int) -> bool:
        """Whether the pool pays for a spell of ``spell_level`` right now."""
        return self.cast_refusal(spell_level) is None

    def cast_refusal(self, spell_level: int) -> str | None:
        """Why a spell of ``spell_level`` cannot be cast now, or ``None`` if it can."""
        cost = mentality_cost(spell_level)
        if self.dmg_limits and spell_level > self.max_spell_level:
            return (f"Spell Points: a level {self.class_level} {self.caster} caster can cast "
                    f"spells up to level {self.max_spell_level}, not {spell_level}")
        if self.dmg_limits and spell_level in self.high_cast:
            return (f"Spell Points: a level {spell_level} spell was already cast since the "
                    "last long rest (6th level and higher: once each per long rest)")
        if spell_level > 0 and self.points == 0:
            return ("Spell Points: at 0 mentality no spell of 1st level or higher can be "
                    "cast")
        if cost > self.points:
            return (f"Spell Points: a level {spell_level} spell costs {cost} mentality, "
                    f"only {self.points} left")
        return None

    @move
    def cast(self, spell_level: int) -> None:
        """Cast a spell: pay its mentality cost; cantrips (level 0) are free."""
        refusal = self.cast_refusal(spell_level)
        if refusal is not None:
            raise RuleError(refusal)
        cost = mentality_cost(spell_level)
        self.points -= cost
        if self.dmg_limits and spell_level >= once_per_rest_from():
            self.high_cast.append(spell_level)
        what = "a cantrip (free)" if spell_level == 0 else f"a level {spell_level} spell"
        self.describe(f"cast {what}: -{cost}, {self.points}/{self.maximum} left")

    @move(who_may=OWN_NUMBERS)  # the table's correction: the GM's unless trusted
    def set_class_level(self, class_level: int) -> None:
        """Set the caster's level in the casting class (a level gained, or the table's
        correction): the pool's size follows the level, and points already spent stay
        spent (the pool moves by the same amount as its size, never below 0).

        >>> wizard = SpellPoints.new(class_level=3)
        >>> wizard.cast(2); wizard.set_class_level(4); (wizard.points, wizard.maximum)
        (14, 17)
        """
        if type(class_level) is not int or not 1 <= class_level <= 20:
            raise RuleError(f"Spell Points: a class level is 1 to 20, not {class_level}")
        maximum = mentality_points(class_level, self.caster)
        spent = self.maximum - self.points
        self.class_level, self.maximum = class_level, maximum
        self.points = max(0, maximum - spent)
        self.describe(f"class level {class_level}: {self.points}/{maximum} mentality")

    @move(who_may=OWN_NUMBERS)  # the table's correction: the GM's unless trusted
    def set_caster(self, caster: str) -> None:
        """Set the kind of caster (the table's correction, or a class taken): the pool's
        size follows it, and points already spent stay spent, as for
        [set_class_level][companion.rulesets.variant5e.spell_points.SpellPoints.set_class_level].

        >>> cleric = SpellPoints.new(class_level=5)
        >>> cleric.cast(1); cleric.set_caster("half"); (cleric.points, cleric.maximum)
        (4, 6)
        """
        if caster not in CASTER_KINDS:
            raise RuleError(f"Spell Points: a caster is {' or '.join(CASTER_KINDS)}, "
                            f"not {quoted(str(caster))}")
        kind = next(k for k in CASTER_KINDS if k == caster)  # the typed name
        maximum = mentality_points(self.class_level, kind)
        spent = self.maximum - self.points
        self.caster, self.maximum = kind, maximum
        self.points = max(0, maximum - spent)
        self.describe(f"{caster} caster: {self.points}/{maximum} mentality")

    @move
    def set_dmg_limits(self, on: bool) -> None:
        """Switch the DMG limits (level cap, 6th+ once per long rest) on or off now."""
        self.dmg_limits = bool(on)
        if not on:
            self.high_cast = []
        self.describe(f"DMG spell-point limits {'on' if on else 'off'}")

    @move
    def long_rest(self) -> None:
        """Regain half the maximum, rounded up, capped at the maximum."""
        regained = min(-(-self.maximum // 2), self.maximum - self.points)
        self.points += regained
        self.high_cast = []
        self.describe(f"long rest: +{regained}, {self.points}/{self.maximum}")
