"""Long-distance travel: hexes per travel period, overland and by sea or air.

Overland, a party can travel about 8 hours before it needs a long rest, and cannot take a
short rest on the road. It picks a pace each period (fast, normal or slow; the overland
table gives hexes, the group check modifier and exhaustion). Riding a mount or a vehicle
drawn by pack animals adds 2 hexes. Only a party on foot at the slow pace can forage.

A seaworthy or airworthy vehicle covers its table's hexes over its duration; it cannot
cover its tracks, but passengers may do other things unless they are powering it.

Interpretation: the overland table is printed misaligned (Fast ``3 | 2 | ``, Normal
``2 | - | 1``, Slow ``1 | 0``). Two readings are kept (``reading=``):

- ``"last cell"`` (the default): the last filled cell of each row is its exhaustion. Fast
  is 3 hexes and 2 exhaustion, Normal 2 hexes and 1 exhaustion, Slow 1 hex and none; no
  pace has a group check modifier. Fast is then not strictly better than Normal.
- ``"literal"`` (the earlier reading): cells read where they stand, an empty or ``-`` cell
  0. Fast is 3 hexes with a +2 modifier and no exhaustion, Normal 2 hexes and 1
  exhaustion, Slow 1 hex — Fast would beat Normal on every column.

The reference page shows the printed cells beside both readings. The seed's sentence about
the group check made while travelling is cut off; the planner only reports its modifier.

Interpretation: foraging ("you can forage for supplies by making a group", cut off) is a
group check; each member then gains what the Gather Supplies rest activity gives for the
group's result: 2 supplies on a strong hit, 1 on a weak hit, none on a miss
([forage_supplies][companion.rulesets.monsters_and_magic.travel.forage_supplies]).

>>> overland_hexes("Normal", mounted=True)
4
>>> overland_paces()[0].exhaustion, overland_paces("literal")[0].exhaustion
(2, 0)
>>> vehicle("Airship").hexes
16
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import RuleError
from companion.rulesets.monsters_and_magic._data import section
from companion.rulesets.monsters_and_magic.ability_checks import Tier

__all__ = ["READINGS", "OverlandPace", "TravelPlan", "Vehicle", "can_forage", "forage_supplies",
           "overland_hexes", "overland_paces", "plan_journey", "vehicle", "vehicles"]

#: The two readings of the misaligned overland table (first is the default).
READINGS = ("last cell", "literal")
#: Most travel periods one plan covers (a guard, not a rule: about a year of travel).
MAX_PERIODS = 1000


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


def overland_paces(reading: str = READINGS[0]) -> list[OverlandPace]:
    """The overland table's rows under ``reading`` (see the module docs)."""
    if reading not in READINGS:
        raise RuleError(f"Overland Travel: no reading called {reading!r} "
                        f"({' or '.join(READINGS)})")
    data = section("overland_travel")
    rows = data["last_cell" if reading == READINGS[0] else "interpreted"]
    return [OverlandPace(str(row[0]), int(row[1]), int(row[2]), int(row[3]),
                         tuple(str(c) for c in printed[1:]))
            for row, printed in zip(rows, data["printed"], strict=True)]


def _pace(speed: str, reading: str = READINGS[0]) -> OverlandPace:
    for pace in overland_paces(reading):
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


def forage_supplies(tier: Tier) -> int:
    """Supplies each member gains from foraging, given the group check's result (see the
    module's interpretation).

    >>> forage_supplies(Tier.WEAK_HIT), forage_supplies(Tier.MISS)
    (1, 0)
    """
    return 2 if tier >= Tier.STRONG_HIT else 1 if tier.is_hit else 0


def vehicles() -> list[Vehicle]:
    return [Vehicle(str(r[0]), str(r[1]), int(r[2]), str(r[3]))
            for r in section("sea_and_air_travel")["rows"]]


def vehicle(name: str) -> Vehicle:
    for v in vehicles():
        if v.name.lower() == name.strip().lower():
            return v
    names = ", ".join(v.name for v in vehicles())
    raise RuleError(f"Sea and Air Travel: no vehicle called {name!r} ({names})")


@dataclass(frozen=True)
class TravelPlan:
    """A journey of ``hexes`` hexes planned period by period."""

    hexes: int
    how: str
    per_period: int
    periods: int
    hours: int
    exhaustion: int
    group_check_modifier: int
    can_forage: bool
    reading: str

    def describe(self) -> str:
        extra = [f"{self.exhaustion} exhaustion each" if self.exhaustion else "",
                 f"group check {self.group_check_modifier:+d}"
                 if self.group_check_modifier else "",
                 "can forage (group check)" if self.can_forage else "",
                 "no short rest while travelling overland"
                 if not self.how.startswith("by ") else ""]
        return (f"{self.hexes} hex{'es' * (self.hexes != 1)} {self.how}: {self.per_period} per "
                f"period, {self.periods} period{'s' * (self.periods != 1)} "
                f"({self.hours} hours)" + "".join(f"; {e}" for e in extra if e))


def plan_journey(hexes: int, *, speed: str = "Normal", mounted: bool = False,
                 by_vehicle: str | None = None, reading: str = READINGS[0]) -> TravelPlan:
    """Travel periods (and hours) to cover ``hexes``: overland at ``speed`` (``mounted`` on a
    mount or a draft-animal vehicle) or in a sea or air vehicle ``by_vehicle``.

    Interpretation: each overland period is the seed's 8 hours and a partial last period
    counts whole; the pace's exhaustion is marked per period (each PC of the group).

    >>> plan_journey(7, speed="Fast").periods
    3
    >>> plan_journey(20, by_vehicle="Galley").hours
    72
    """
    if isinstance(hexes, bool) or not isinstance(hexes, int) or not 1 <= hexes <= 10_000:
        raise RuleError(f"Travel: a journey is 1-10,000 hexes, not {hexes}")
    if by_vehicle is not None:
        v = vehicle(by_vehicle)
        periods = -(-hexes // v.hexes)
        hours = int(v.duration.split()[0])
        return TravelPlan(hexes, f"by {v.name} ({v.terrain})", v.hexes, periods,
                          periods * hours, 0, 0, False, reading)
    pace = _pace(speed, reading)
    per = overland_hexes(pace.speed, mounted=mounted)
    periods = -(-hexes // per)
    hours = int(section("overland_travel")["period_hours"])
    return TravelPlan(hexes, f"overland, {pace.speed.lower()}{' mounted' * mounted}", per,
                      periods, periods * hours, pace.exhaustion, pace.group_check_modifier,
                      can_forage(pace.speed, mounted=mounted), reading)
