"""Long-distance travel: hexes per travel period, overland and by sea or air.

Overland, a party can travel about 8 hours before it needs a long rest, and cannot take a
short rest on the road. It picks a pace each period (fast, normal or slow; the overland
table gives hexes, the group check modifier and exhaustion). Riding a mount or a vehicle
drawn by pack animals adds 2 hexes. Only a party on foot at the slow pace can forage.

A seaworthy or airworthy vehicle covers its table's hexes over its duration; it cannot
cover its tracks, but passengers may do other things unless they are powering it.

Interpretation: the overland table is printed misaligned (Fast ``3 | 2 | ``, Normal
``2 | - | 1``, Slow ``1 | 0``). The cells are read literally: an empty or ``-`` cell is
0, an unsigned number positive. So Fast is 3 hexes with a +2 modifier and no exhaustion,
Normal 2 hexes and 1 exhaustion, Slow 1 hex. The reference page shows the printed cells
beside this reading. The seed's sentence about the group check made while travelling is
cut off; it is not modelled beyond the modifier.

>>> overland_hexes("Normal", mounted=True)
4
>>> vehicle("Airship").hexes
16
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import RuleError
from companion.rulesets.monsters_and_magic._data import section

__all__ = ["OverlandPace", "Vehicle", "can_forage", "overland_hexes", "overland_paces",
           "vehicle", "vehicles"]


@dataclass(frozen=True)
class OverlandPace:
    """One row of the overland travel table, as interpreted (see the module docs)."""

    speed: str
    hexes: int
    group_check_modifier: int
    exhaustion: int
    printed: tuple[str, ...]


@dataclass(frozen=True)
class Vehicle:
    """One row of the sea and air travel table."""

    name: str
    terrain: str
    hexes: int
    duration: str


def overland_paces() -> list[OverlandPace]:
    data = section("overland_travel")
    return [OverlandPace(str(row[0]), int(row[1]), int(row[2]), int(row[3]),
                         tuple(str(c) for c in printed[1:]))
            for row, printed in zip(data["interpreted"], data["printed"], strict=True)]


def _pace(speed: str) -> OverlandPace:
    for pace in overland_paces():
        if pace.speed.lower() == speed.strip().lower():
            return pace
    names = ", ".join(p.speed for p in overland_paces())
    raise RuleError(f"Overland Travel: no speed called {speed!r} ({names})")


def overland_hexes(speed: str, *, mounted: bool = False) -> int:
    """Hexes covered in one overland travel period at ``speed``."""
    bonus = int(section("overland_travel")["mount_bonus_hexes"]) if mounted else 0
    return _pace(speed).hexes + bonus


def can_forage(speed: str, *, mounted: bool = False) -> bool:
    """Foraging is possible only on foot (no mount or vehicle) at the slow pace."""
    return _pace(speed).speed == "Slow" and not mounted


def vehicles() -> list[Vehicle]:
    return [Vehicle(str(r[0]), str(r[1]), int(r[2]), str(r[3]))
            for r in section("sea_and_air_travel")["rows"]]


def vehicle(name: str) -> Vehicle:
    for v in vehicles():
        if v.name.lower() == name.strip().lower():
            return v
    names = ", ".join(v.name for v in vehicles())
    raise RuleError(f"Sea and Air Travel: no vehicle called {name!r} ({names})")
