"""Wilderness watches: travel, exploring, supplies, camps and the watch procedure.

Time in the wilds runs in **watches**, three to a day (day, evening, night). A watch is
long enough to cover a few leagues, explore a wide area, hunt or forage, harvest a
monster, or cook an elaborate meal. The party declares its **action** for the watch
together: **travel**, **explore**, **supply**, **lookout** or **make camp**. Usually the
first two watches go to travel or exploring and the last to making camp.

**Travel.** The whole party moves. A named navigator may make a skill test to stay on
course, shifted by the path's navigation modifier (and maps, guides, weather, skills).
When a leg's watches are spent the party reaches the next point of its route; getting
lost costs one more travel watch. Travelling all three watches of a day leaves every
traveller **Deprived** with a **Fatigue**. Mounts, guides and maps may speed travel;
wagons and other vehicles only roll on roads or very flat land, and the mounts pulling
them add no bonus or penalty ([make_leg][companion.rulesets.cairn_srd.wilderness.make_leg]
with ``vehicle``). Beasts of burden and vehicles carry items too, outside anyone's burden
([Journey.load_cargo][companion.rulesets.cairn_srd.wilderness.Journey.load_cargo]).

**Night travel.** Travelling in the dark adds one watch to the path. Normally the night
watch is dark; in winter only the first watch has daylight. A full watch in the dark
needs about 8 hours of light: 8 torches or candles, or 2 uses of lantern oil.

**Travel duration** of a path is worked out ahead of time: the watches its path type,
its distance and its terrain's difficulty add (the travel duration tables), plus
up to 2 watches on the open sea out of sight of land. Travel by water uses the
surrounding terrain's difficulty. Weather adds its own watches on the day.

| Path type | Watches | Navigation |
|---|---|---|
| Roads | none | none |
| Trails | +1 | −1 |
| Wilderness | +2 | −2 |

| Distance | Watches |
|---|---|
| Short (~4 leagues) | +1 |
| Medium (~8 leagues) | +2 |
| Long (~12 leagues) | +3 |

| Difficulty | Terrain | Watches |
|---|---|---|
| Easy | plains, plateaus, valleys | none |
| Tough | forests, deserts, hills | +1 |
| Perilous | mountains, jungles, swamp | +2 |

A short road over plains takes 1 watch; a long wilderness crossing of mountains at night
takes 3 + 2 + 2 + 1 = 8.

**Explore** searches a wide area, scouts ahead or treads carefully, and finds a shelter,
a village, a cave or an obvious landmark. It is not travel: leaving the area still takes
a travel action. **Lookout** goes alongside any other action: the lookout spots threats
with a skill test; a camp needs three lookout shifts for everyone to sleep.

**Supply.** Hunting, fishing and foraging are skill tests with a yield (see
[skills][companion.rulesets.cairn_srd.skills]); a forager says first what they look for
(table ``cairn_foraged_component``). Harvesting monster parts is a skill test too, and
failure may ruin the parts, hurt the harvester or change them for good. A farmstead or
village on the way sells supplies for silver.

**Make camp.** Everyone eats a Ration; a mount eats a full slot (3 Rations, or one slot of
feed) unless it can graze. Those who rest remove all their Fatigue; anyone who cannot
sleep becomes Deprived and takes a Fatigue instead. Each may do one more thing besides
resting (cure game, cook, sing, craft, keep watch). **Camp quality**: in winter or foul
weather a proper rest needs a fire, bedding and a tent; the referee warns the players
first, and some weather stops a fire catching. **Cooking** is a skill test: cooked meat
removes 1 Fatigue, foraged food is only a meal, and meat with foraged food is a
**balanced meal** that removes all Fatigue.

**Event check.** At the end of each watch the referee rolls a d6
(``cairn_wilderness_event``): 4-6 nothing; 1 an encounter (its distance, activity and
complication from the encounter tables), 2 a threat to the party's resources (table
``cairn_resource_threat``, drawn among the threats that fit the terrain), 3 a local
disaster. A threat is avoided by spending a watch, taking a Fatigue, spending resources
or tools, or a skill test.

**The watch procedure** ([Journey][companion.rulesets.cairn_srd.wilderness.Journey]):
1. the referee sets the weather; 2. the party chooses its action; 3. the referee says
what happens (the action is resolved); 4. light sources are marked; 5. the event die is
rolled. A move out of this order is refused.

Interpretation: a leg's duration is the sum of the watches its path, distance and
terrain add (distance always adds at least one, so every leg takes a watch or more).
Interpretation: the navigator tests once per leg, on its first travel watch; a failure
(getting lost) adds one watch to that leg. The night penalty is added once per leg, on
the first watch of that leg travelled in the dark. The weather's penalty is added to the
current leg on the watch it applies to.
Interpretation: the event die's face picks the event: 1 encounter, 2 threat, 3 disaster.
Interpretation: the threats' terrain names are matched to the travel terrains thus:
forests and jungles are Forest, swamp is Wetlands, plains, valleys, hills and mountains
are themselves; plateaus and deserts get only the threats marked Any; travel by water
adds River.
Interpretation: travelling or exploring in a dark watch needs a full watch of light
(8 hours: a torch or candle burns 1 hour, a use of oil 4); without it the action is
refused.
Interpretation: a camp meal of meat or a balanced meal needs a successful cooking test
to remove Fatigue; a failed test still feeds the party. A traveller who eats nothing at
camp becomes Deprived; one who eats and sleeps is no longer Deprived. Rest removes all
Fatigue first; then the sleepless take theirs; then a cooked meal removes its share.
Interpretation: in winter or foul weather a camp without fire, bedding and shelter gives
no rest: Fatigue stays, but those who sleep are not Deprived.
Interpretation: "roads or very flat terrain" lets a vehicle take a road through any
terrain (a road is laid through it) and, off the road (trails, wilderness), only the
flattest terrains of the Easy row, plains and plateaus (valleys are easy going but have
sides to climb); a vehicle does not travel by water. A party with a vehicle plans only
legs it can take: a leg it cannot take is refused, and a vehicle joins only a route whose
legs still ahead it can take.
Interpretation: the seed gives beasts of burden and vehicles no capacity; here a
traveller's mounts are its beasts of burden and each carries 10 slots (a PC's whole
inventory, the one carrying figure the seed has), a vehicle 20 (twice a beast, for the
beasts that pull it); items carried so count their slots as a burden does, fill no
one's burden and cost no Guard.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from companion import dice, tables
from companion.acting import named_actor
from companion.dice.roller import make_rng
from companion.errors import RuleError, StateError
from companion.rulesets.cairn_srd.burden import Item, make_item, slots_used
from companion.rulesets.cairn_srd.character import Character
from companion.rulesets.cairn_srd.fixed_tables import data_file, rows
from companion.rulesets.cairn_srd.skills import (
    SkillResult,
    check_modifier,
    roll_yield,
    skill_chance,
    skill_test,
)
from companion.rulesets.cairn_srd.social import roll_npc
from companion.state import OWNER, Tracker, move, state_field
from companion.table_moves import TableTrackers, argument, named_trackers
from companion.table_moves import declare as declare_table_move

MAX_NAME = 40
MAX_LEGS = 50
MAX_PARTY = 12
MAX_STOCK = 10_000
MAX_TEXT = 120
ENCOUNTER_TABLES = ("cairn_encounter_distance", "cairn_encounter_activity",
                    "cairn_encounter_complication")
"""Distance, activity and complication of an encounter (shared with exploration turns)."""
EVENT_TABLE = "cairn_wilderness_event"
DISPOSITION_TABLE = "cairn_npc_disposition"
"""An encounter's disposition, when no NPC is rolled whole (the social tables' 2d6)."""
THREAT_TABLE = "cairn_resource_threat"
COMPONENT_TABLE = "cairn_foraged_component"
STEPS = ("weather", "choose actions", "resolve the actions", "mark light", "event die")
"""The watch procedure's five steps, in order (step 1 is ``STEPS[0]``)."""
SUPPLY_ACTIVITIES = ("hunt", "fish", "forage", "harvest", "buy")
MEALS = ("rations", "meat", "foraged", "balanced")


def wilderness_data() -> dict[str, Any]:
    """The fixed wilderness tables (``data/wilderness.toml``)."""
    return data_file("wilderness")


def _section(name: str) -> dict[str, Any]:
    return {k: v for k, v in wilderness_data()[name].items() if k != "section"}


def path_types() -> dict[str, tuple[int, int]]:
    """Path type → (watches added, navigation modifier)."""
    return {k: (int(v[0]), int(v[1])) for k, v in _section("path_types").items()}


def distances() -> dict[str, tuple[int, int]]:
    """Distance → (about how many leagues, watches added)."""
    return {k: (int(v[0]), int(v[1])) for k, v in _section("distances").items()}


def difficulties() -> dict[str, tuple[int, str, str]]:
    """Difficulty → (watches added, its terrains, its hazards)."""
    return {k: (int(v[0]), str(v[1]), str(v[2])) for k, v in _section("difficulty").items()}


def terrains() -> dict[str, str]:
    """Each terrain named by the difficulty table → its difficulty (``"Forests": "Tough"``)."""
    out: dict[str, str] = {}
    for level, (_, names, _) in difficulties().items():
        for name in names.split(","):
            out[name.strip().capitalize()] = level
    return out


WATCHES_PER_DAY = int(wilderness_data()["watches"]["per_day"])
WATCH_NAMES: tuple[str, ...] = tuple(wilderness_data()["watches"]["names"])
ACTIONS: tuple[str, ...] = tuple(_section("actions"))
OPEN_SEA_MAX = int(wilderness_data()["open_sea"]["max_extra_watches"])
NIGHT_EXTRA = int(wilderness_data()["night_travel"]["extra_watches"])
LIGHT_HOURS = int(wilderness_data()["night_travel"]["light_hours_per_watch"])
TORCH_HOURS = int(wilderness_data()["night_travel"]["hours_per_torch"])
OIL_HOURS = int(wilderness_data()["night_travel"]["hours_per_oil_use"])
RATIONS_PER_MOUNT = int(wilderness_data()["camp"]["rations_per_mount"])
LOOKOUT_SHIFTS = int(wilderness_data()["camp"]["lookout_shifts"])
THREAT_TERRAIN = {"Forests": "Forest", "Jungles": "Forest", "Swamp": "Wetlands",
                  "Plains": "Plains", "Valleys": "Valleys", "Hills": "Hills",
                  "Mountains": "Mountains", "Plateaus": "", "Deserts": ""}
"""Travel terrain → the terrain name the threats table uses ("" = only threats for Any)."""


def is_dark(watch: int, winter: bool = False) -> bool:
    """Whether watch ``watch`` (0 = day, 1 = evening, 2 = night) lacks sunlight."""
    if not 0 <= watch < WATCHES_PER_DAY:
        raise RuleError(f"Wilderness Watches: a day has watches 1-{WATCHES_PER_DAY}, "
                        f"not {watch + 1}")
    lit = wilderness_data()["watches"]["lit_in_winter" if winter else "lit"]
    return watch not in lit


def light_hours(torches: int = 0, oil: int = 0) -> int:
    """Hours of light from ``torches`` torches or candles and ``oil`` uses of lantern oil."""
    if torches < 0 or oil < 0:
        raise RuleError("Night Travel: light sources cannot be negative")
    return torches * TORCH_HOURS + oil * OIL_HOURS


#: The terrains a vehicle crosses off the road ("very flat terrain").
VERY_FLAT = ("Plains", "Plateaus")
#: Slots of items a beast of burden (a mount) carries, and a vehicle (the seed gives no
#: figure: see the module's readings).
BEAST_SLOTS = 10
VEHICLE_SLOTS = 20
#: Most vehicles one traveller brings.
MAX_VEHICLES = 6


def vehicle_refusal(leg: Leg) -> str:
    """Why a vehicle cannot take ``leg`` (``""``: it can): roads, or very flat terrain."""
    if leg.by_water:
        return "a vehicle does not travel by water"
    if leg.path != "Roads" and leg.terrain not in VERY_FLAT:
        return (f"vehicles only travel on roads or very flat terrain "
                f"({', '.join(VERY_FLAT).lower()}), not {leg.path.lower()} through "
                f"{leg.terrain.lower()}")
    return ""


def _choice(value: str, options: dict[str, Any] | tuple[str, ...], what: str, rule: str) -> str:
    for name in options:
        if value.strip().lower() == name.lower():
            return name
    raise RuleError(f"{rule}: the {what} is one of {', '.join(options)}, not “{value[:40]}”")


@dataclass
class Leg:
    """One stretch of a route between two points."""

    path: str = state_field("Roads", max_len=MAX_NAME)
    distance: str = state_field("Short", max_len=MAX_NAME)
    terrain: str = state_field("Plains", max_len=MAX_NAME)
    open_sea: int = state_field(0, min=0, max=OPEN_SEA_MAX)
    by_water: bool = False
    to: str = state_field("", max_len=MAX_NAME)
    #: The party takes a vehicle (a wagon, a cart) on this leg. Legs saved before
    #: vehicles were kept load without one.
    vehicle: bool = False

    def check_state(self) -> None:
        for value, options, name in ((self.path, path_types(), "path"),
                                     (self.distance, distances(), "distance"),
                                     (self.terrain, terrains(), "terrain")):
            if value not in options:
                raise StateError(f"field '{name}': “{value[:40]}” is not on the travel tables")
        if self.vehicle and vehicle_refusal(self):
            raise StateError(f"field 'vehicle': {vehicle_refusal(self)}")


def make_leg(path: str = "Roads", distance: str = "Short", terrain: str = "Plains",
             open_sea: int = 0, by_water: bool = False, to: str = "",
             vehicle: bool = False) -> Leg:
    """A checked leg; names are read case-insensitively (``"trails"``, ``"forests"``).

    ``vehicle``: the party takes a wagon or another vehicle, which only travels on roads
    or very flat terrain (a leg it cannot take is refused); the mounts pulling it add no
    bonus or penalty, so the leg's duration is the same.

    >>> make_leg("Trails", "Short", "Plains", vehicle=True).vehicle
    True
    >>> make_leg("Trails", "Short", "Hills", vehicle=True)
    Traceback (most recent call last):
    ...
    companion.errors.RuleError: Wilderness Travel: vehicles only travel on roads or very flat terrain (plains, plateaus), not trails through hills
    """  # noqa: E501
    rule = "Travel Duration Calculation"
    if not 0 <= open_sea <= OPEN_SEA_MAX:
        raise RuleError(f"{rule}: the open sea adds 0-{OPEN_SEA_MAX} watches, not {open_sea}")
    if len(to.strip()) > MAX_NAME:
        raise RuleError(f"{rule}: a place name has at most {MAX_NAME} characters")
    leg = Leg(_choice(path, path_types(), "path type", rule),
              _choice(distance, distances(), "distance", rule),
              _choice(terrain, terrains(), "terrain", rule), open_sea, by_water, to.strip(),
              bool(vehicle))
    if leg.vehicle and vehicle_refusal(leg):
        raise RuleError(f"Wilderness Travel: {vehicle_refusal(leg)}")
    return leg


@dataclass(frozen=True)
class LegPlan:
    """A leg's duration worked out: each part's watches, the total and the navigation modifier."""

    leg: Leg
    parts: tuple[tuple[str, int], ...]
    watches: int
    navigation: int

    def __str__(self) -> str:
        shown = " + ".join(f"{w} ({what})" for what, w in self.parts if w)
        where = f" to {self.leg.to}" if self.leg.to else ""
        return f"{self.leg.distance} {self.leg.path.lower()}{where}: {shown} = {self.watches} " \
               f"watch{'es' if self.watches != 1 else ''}"


def plan_leg(leg: Leg, night: bool = False) -> LegPlan:
    """The travel duration of ``leg`` (plus the night watch if travelled in the dark).

    >>> plan = plan_leg(make_leg("Wilderness", "Long", "Mountains"), night=True)
    >>> plan.watches, plan.navigation
    (8, -2)
    >>> [w for _, w in plan.parts]
    [2, 3, 2, 0, 1]
    """
    leg.check_state()
    level = terrains()[leg.terrain]
    parts = [(f"{leg.path.lower()} path", path_types()[leg.path][0]),
             (f"{leg.distance.lower()} distance", distances()[leg.distance][1]),
             (f"{level.lower()} terrain", difficulties()[level][0]),
             ("open sea", leg.open_sea), ("night", NIGHT_EXTRA if night else 0)]
    return LegPlan(leg, tuple(parts), sum(w for _, w in parts), path_types()[leg.path][1])


@dataclass(frozen=True)
class RoutePlan:
    legs: tuple[LegPlan, ...]

    @property
    def watches(self) -> int:
        return sum(p.watches for p in self.legs)

    @property
    def days(self) -> int:
        """Days at two travel watches a day (the third spent in camp)."""
        return math.ceil(self.watches / (WATCHES_PER_DAY - 1))

    @property
    def leagues(self) -> int:
        return sum(distances()[p.leg.distance][0] for p in self.legs)

    def __str__(self) -> str:
        lines = [f"{i}. {p}" for i, p in enumerate(self.legs, 1)]
        lines.append(f"Total: {self.watches} watches (about {self.leagues} leagues), "
                     f"{self.days} days at two travel watches a day")
        return "\n".join(lines)


def plan_route(legs: list[Leg], night: bool = False) -> RoutePlan:
    """The duration of every leg of a route and the total."""
    if not 1 <= len(legs) <= MAX_LEGS:
        raise RuleError(f"Travel Duration Calculation: a route has 1-{MAX_LEGS} legs, "
                        f"not {len(legs)}")
    return RoutePlan(tuple(plan_leg(leg, night) for leg in legs))


# -- threats, components, camps -------------------------------------------------------


def threats_for(terrain: str, by_water: bool = False) -> list[tuple[int, str]]:
    """The rows of the threats table that fit ``terrain`` (its number and threat)."""
    name = THREAT_TERRAIN.get(_choice(terrain, terrains(), "terrain", "Threats to Resources"),
                              "")
    fits = {"any", name.lower()} | ({"river"} if by_water else set())
    out = []
    for i, (where, threat) in enumerate(zip(rows(THREAT_TABLE, "Terrain type"),
                                            rows(THREAT_TABLE, "Threat"), strict=True), 1):
        if {w.strip().lower() for w in where.split(",")} & fits:
            out.append((i, threat))
    return out


def threat_odds(terrain: str, by_water: bool = False) -> dict[str, Fraction]:
    """Exact chance of each threat when one is drawn for ``terrain`` (each fitting row alike)."""
    fitting = threats_for(terrain, by_water)
    return {threat: Fraction(1, len(fitting)) for _, threat in fitting}


def roll_threat(terrain: str, by_water: bool = False, *, rng: random.Random | None = None,
                seed: int | None = None) -> str:
    """Draw one threat among those fitting ``terrain`` (a die as large as that list)."""
    fitting = threats_for(terrain, by_water)
    face = dice.roll(f"1d{len(fitting)}", rng=make_rng(seed, rng)).total
    return fitting[face - 1][1]


def foraged_components() -> dict[str, str]:
    """The twelve sample components and their appearance and properties."""
    return dict(zip(rows(COMPONENT_TABLE, "Herb, Fungus"),
                    rows(COMPONENT_TABLE, "Appearance and properties"), strict=True))


def camp_gives_rest(harsh: bool, fire: bool, bedding: bool, shelter: bool) -> bool:
    """Whether a camp allows a proper rest: in winter or foul weather it needs all three."""
    return not harsh or (fire and bedding and shelter)


def navigation_chance(path: str, have: int = 2, modifier: int = 0) -> Fraction:
    """Exact chance the navigator keeps the party on course on ``path`` (``modifier``: maps,
    guides, skills, weather; the reading is
    [Journey.travel][companion.rulesets.cairn_srd.wilderness.Journey.travel]'s).

    >>> [str(navigation_chance(p)) for p in ("Roads", "Trails", "Wilderness")]
    ['1/3', '1/6', '0']
    >>> str(navigation_chance("Wilderness", modifier=1))
    '1/6'
    """

    name = _choice(path, path_types(), "path type", "Wilderness Actions")
    check_modifier(modifier)
    return skill_chance(have, path_types()[name][1] + modifier, natural_six=False)


# -- the watch tracker ---------------------------------------------------------------


@dataclass
class Traveller:
    """One member of the travelling party as the quartermaster counts them."""

    name: str = state_field("Traveller", max_len=MAX_NAME)
    rations: int = state_field(0, min=0, max=MAX_STOCK)
    mounts: int = state_field(0, min=0, max=MAX_PARTY)
    feed: int = state_field(0, min=0, max=MAX_STOCK)
    """Slots of animal feed (one feeds one mount for a night)."""
    fatigue: int = state_field(0, min=0, max=10)
    deprived: bool = False
    #: Vehicles (carts, wagons) the traveller brings.
    vehicles: int = state_field(0, min=0, max=MAX_VEHICLES)
    #: Items carried by the traveller's beasts of burden (mounts) and vehicles.
    cargo: list[Item] = state_field(default_factory=list, max_len=200)

    @property
    def cargo_slots(self) -> int:
        """Slots the beasts of burden and vehicles carry (see the module's Interpretation)."""
        return self.mounts * BEAST_SLOTS + self.vehicles * VEHICLE_SLOTS

    def check_state(self) -> None:
        if slots_used(self.cargo) > self.cargo_slots:
            raise StateError(f"field 'cargo' fills {slots_used(self.cargo)} slots, more than "
                             f"the {self.cargo_slots} the beasts and vehicles carry")


@dataclass(frozen=True)
class WatchEvent:
    roll: int
    kind: str
    text: str
    details: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"event d6 = {self.roll}: {self.text}" + (
            " (" + "; ".join(self.details) + ")" if self.details else "")


def roll_event(leg: Leg | None = None, *, rng: random.Random | None = None,
               seed: int | None = None) -> WatchEvent:
    """The event check: a d6; an encounter rolls its distance, activity, complication and
    disposition, a threat is drawn for ``leg``'s terrain (only the Any threats with no leg).

    Interpretation: "a random encounter; add complications and disposition" rolls the
    dungeon's encounter tables and then the creature's disposition on the NPC disposition
    table (2d6), as a social encounter does when the fiction does not settle it. A
    complication of "Roll NPC" rolls the whole NPC (want and disposition) instead, as in
    the dungeon, so the encounter has one disposition either way.
    """
    r = make_rng(seed, rng)
    res = tables.get(EVENT_TABLE).roll(rng=r)
    face = res.roll if isinstance(res.roll, int) else sum(res.roll)
    details: list[str] = []
    kind = "nothing"
    if face == 1:
        kind = "encounter"
        for tid in ENCOUNTER_TABLES:
            values = tables.get(tid).roll(rng=r).values
            details.append(next(iter(values.values())))
        if details[-1] == "Roll NPC":
            details.append(f"NPC {roll_npc(rng=r)}")
        else:
            disposition = tables.get(DISPOSITION_TABLE).roll(rng=r)
            details.append(f"disposition 2d6 = {disposition.roll}: "
                           f"{disposition.values['Disposition']}")
    elif face == 2:
        kind = "threat"
        terrain, water = (leg.terrain, leg.by_water) if leg else ("Plateaus", False)
        details.append(roll_threat(terrain, water, rng=r))
    elif face == 3:
        kind = "disaster"
    return WatchEvent(face, kind, next(iter(res.values.values())), tuple(details))


@dataclass
class Journey(Tracker):
    """A party's journey watch by watch, following the five-step watch procedure."""

    links = ("Character",)  # the travellers' sheets at its table (``apply_to_sheets``)

    legs: list[Leg] = state_field(default_factory=list, max_len=MAX_LEGS)
    leg: int = state_field(0, min=0, max=MAX_LEGS)
    """The leg being travelled (equal to the number of legs once the route is done)."""
    progress: int = state_field(0, min=0, max=100)
    extra: int = state_field(0, min=0, max=100)
    """Watches added to the current leg on the way (lost, night, weather)."""
    navigated: bool = False
    night_added: bool = False
    winter: bool = False
    day: int = state_field(1, min=1, max=100_000)
    watch: int = state_field(0, min=0, max=WATCHES_PER_DAY - 1)
    step: int = state_field(1, min=1, max=len(STEPS))
    weather: str = state_field("", max_len=MAX_TEXT)
    weather_watches: int = state_field(0, min=0, max=3)
    action: str = state_field("", choices=("", *ACTIONS))
    resolved: bool = False
    lit: bool = False
    lookouts: list[str] = state_field(default_factory=list, max_len=MAX_PARTY)
    suppliers: list[str] = state_field(default_factory=list, max_len=MAX_PARTY)
    travelled_today: int = state_field(0, min=0, max=WATCHES_PER_DAY)
    party: list[Traveller] = state_field(default_factory=list, max_len=MAX_PARTY)
    meat: int = state_field(0, min=0, max=MAX_STOCK)
    forage: int = state_field(0, min=0, max=MAX_STOCK)
    components: list[str] = state_field(default_factory=list, max_len=200)
    last_event: str = state_field("", max_len=400)

    def acting_for(self, move: str, arguments: dict[str, Any]) -> tuple[str, ...] | None:
        """Joining the journey, a lookout and a traveller's hunting, foraging or buying are
        that traveller's (``name``); the route, the watch's action, travel, camp, weather
        and lights are the whole party's, made by the table."""
        return named_actor({"add_traveller": "name", "lookout": "name", "supply": "name",
                            "load_cargo": "name", "unload_cargo": "name",
                            "bring_vehicles": "name"},
                           move, arguments)

    def check_state(self) -> None:
        if self.leg > len(self.legs):
            raise StateError("field 'leg' is past the end of the route")
        names = [t.name for t in self.party]
        if len(set(names)) != len(names):
            raise StateError("field 'party' names a traveller twice")
        if self.step > 2 and not self.action:
            raise StateError("field 'action': past step 2 an action is chosen")

    # -- derived ----------------------------------------------------------------------

    @property
    def dark(self) -> bool:
        return is_dark(self.watch, self.winter)

    @property
    def arrived(self) -> bool:
        return bool(self.legs) and self.leg >= len(self.legs)

    @property
    def current(self) -> Leg | None:
        return self.legs[self.leg] if self.leg < len(self.legs) else None

    @property
    def leg_watches(self) -> int:
        """Watches the current leg takes so far (its plan plus what the way added)."""
        leg = self.current
        return 0 if leg is None else plan_leg(leg).watches + self.extra

    @property
    def watches_left(self) -> int:
        """Watches of travel still ahead on the route as planned (plus what was added)."""
        rest = sum(plan_leg(leg).watches for leg in self.legs[self.leg + 1:])
        return rest + max(0, self.leg_watches - self.progress)

    @property
    def when(self) -> str:
        return f"day {self.day}, {WATCH_NAMES[self.watch]} watch"

    @property
    def next_step(self) -> str:
        return f"step {self.step}: {STEPS[self.step - 1]}"

    def allowed(self, move_name: str) -> bool:
        """Whether the procedure allows ``move_name`` now (for enabling buttons)."""
        wanted = {"set_weather": 1, "choose": 2, "travel": 3, "explore": 3, "supply": 3,
                  "lookout": 3, "make_camp": 3, "mark_light": 3, "event_check": 5}
        if wanted.get(move_name) != self.step:
            return False
        if move_name in ("travel", "explore", "supply", "make_camp"):
            return self.action == move_name.replace("_", " ") and (
                move_name == "supply" or not self.resolved)
        if move_name == "mark_light":
            return self.resolved
        return True

    def _at(self, step: int) -> None:
        if self.step != step:
            raise RuleError(f"Wilderness Watch Procedure: {self.next_step} comes next, "
                            f"not step {step} ({STEPS[step - 1]})")

    def _doing(self, action: str) -> None:
        self._at(3)
        if self.action != action:
            raise RuleError(f"Wilderness Actions: the party chose {self.action} this watch, "
                            f"not {action}")

    def _traveller(self, name: str) -> Traveller:
        for t in self.party:
            if t.name.lower() == name.strip().lower():
                return t
        raise RuleError(f"Wilderness Watches: nobody called “{name[:40]}” travels with the party")

    # -- setting out ------------------------------------------------------------------

    @property
    def has_vehicle(self) -> bool:
        """Whether someone in the party brings a vehicle."""
        return any(t.vehicles for t in self.party)

    @move
    def add_traveller(self, name: str, rations: int = 0, mounts: int = 0, feed: int = 0,
                      fatigue: int = 0, deprived: bool = False, vehicles: int = 0) -> None:
        """Add a member of the party with their Rations, mounts, feed, present Fatigue and
        vehicles (a vehicle joins only a route whose legs ahead it can take)."""
        if not 0 <= vehicles <= MAX_VEHICLES:
            raise RuleError(f"Wilderness Watches: vehicles run 0-{MAX_VEHICLES}, not {vehicles}")
        if vehicles:
            self._route_for_vehicles()
        name = name.strip()
        if not name or len(name) > MAX_NAME:
            raise RuleError(f"Wilderness Watches: a traveller's name has 1-{MAX_NAME} characters")
        if any(t.name.lower() == name.lower() for t in self.party):
            raise RuleError(f"Wilderness Watches: {name} already travels with the party")
        if len(self.party) >= MAX_PARTY:
            raise RuleError(f"Wilderness Watches: at most {MAX_PARTY} travellers")
        for value, what, top in ((rations, "Rations", MAX_STOCK), (mounts, "mounts", MAX_PARTY),
                                 (feed, "feed", MAX_STOCK)):
            if not 0 <= value <= top:
                raise RuleError(f"Wilderness Watches: {what} run 0-{top:,}, not {value}")
        if not 0 <= fatigue <= 10:
            raise RuleError(f"Wilderness Watches: Fatigue runs 0-10, not {fatigue}")
        self.party.append(Traveller(name, rations, mounts, feed, fatigue, deprived, vehicles))
        self.describe(f"{name} joins the party ({rations} Ration{'s' * (rations != 1)}"
                      + (f", {mounts} mount{'s' * (mounts != 1)}, {feed} feed" if mounts else "")
                      + (f", {vehicles} vehicle{'s' * (vehicles != 1)}" if vehicles else "")
                      + ")")

    @move
    def add_leg(self, path: str = "Roads", distance: str = "Short", terrain: str = "Plains",
                open_sea: int = 0, by_water: bool = False, to: str = "",
                vehicle: bool = False) -> LegPlan:
        """Add a leg to the end of the route (its duration is worked out at once).
        ``vehicle``: a vehicle goes along (always so once a traveller brings one), and the
        leg must be one it can take."""
        if len(self.legs) >= MAX_LEGS:
            raise RuleError(f"Travel Duration Calculation: a route has at most {MAX_LEGS} legs")
        leg = make_leg(path, distance, terrain, open_sea, by_water, to,
                       vehicle=vehicle or self.has_vehicle)
        self.legs.append(leg)
        plan = plan_leg(leg)
        self.describe(f"route leg {len(self.legs)}: {plan}")
        return plan

    def _route_for_vehicles(self) -> None:
        """Refuse a vehicle a route it cannot take; mark the legs ahead as taken with one."""
        for i, ahead in enumerate(self.legs[self.leg:], self.leg + 1):
            if vehicle_refusal(ahead):
                raise RuleError(f"Wilderness Travel: leg {i}: {vehicle_refusal(ahead)}")
        for ahead in self.legs[self.leg:]:
            ahead.vehicle = True

    @move(who_may=OWNER)  # the traveller's own (acting_for names them) and the GM's
    def bring_vehicles(self, name: str, vehicles: int) -> None:
        """``name`` now brings ``vehicles`` (0 leaves them behind, refused while their
        cargo would not fit the beasts left); a vehicle joins only a route whose legs
        ahead it can take."""
        who = self._traveller(name)
        if not 0 <= vehicles <= MAX_VEHICLES:
            raise RuleError(f"Wilderness Watches: vehicles run 0-{MAX_VEHICLES}, not {vehicles}")
        if vehicles == who.vehicles:
            raise RuleError(f"Wilderness Watches: {who.name} already brings {vehicles} "
                            f"vehicle{'s' * (vehicles != 1)}")
        if vehicles:
            self._route_for_vehicles()
        room = who.mounts * BEAST_SLOTS + vehicles * VEHICLE_SLOTS
        if slots_used(who.cargo) > room:
            raise RuleError(f"Burden: {who.name}'s cargo fills {slots_used(who.cargo)} slots, "
                            f"more than the {room} left to carry it: unload first")
        who.vehicles = vehicles
        self.describe(f"{who.name} brings {vehicles} vehicle{'s' * (vehicles != 1)}")

    @move(who_may=OWNER)  # the traveller's own (acting_for names them) and the GM's
    def load_cargo(self, name: str, item: str, tag: str = "normal", quantity: int = 1) -> Item:
        """Put an item on ``name``'s beasts of burden or vehicles (refused past the slots
        they carry: 10 a beast, 20 a vehicle)."""
        who = self._traveller(name)
        if not who.cargo_slots:
            raise RuleError(f"Burden: {who.name} has no beast of burden or vehicle to carry "
                            "items")
        thing = make_item(item, tag, quantity)
        needed = slots_used([*who.cargo, thing]) - slots_used(who.cargo)
        free = who.cargo_slots - slots_used(who.cargo)
        if needed > free:
            raise RuleError(f"Burden: {thing.label} needs {needed} slot(s); {who.name}'s "
                            f"beasts and vehicles have {free} free")
        who.cargo.append(thing)
        self.describe(f"{who.name} loads {thing.label} ({slots_used(who.cargo)}/"
                      f"{who.cargo_slots} cargo slots)")
        return thing

    @move(who_may=OWNER)  # the traveller's own (acting_for names them) and the GM's
    def unload_cargo(self, name: str, index: int) -> Item:
        """Take item ``index`` (from 0) off ``name``'s beasts of burden or vehicles."""
        who = self._traveller(name)
        if not 0 <= index < len(who.cargo):
            raise RuleError(f"Burden: {who.name}'s cargo has no entry #{index + 1}")
        thing = who.cargo.pop(index)
        self.describe(f"{who.name} unloads {thing.label}")
        return thing

    @move
    def set_winter(self, winter: bool = True) -> None:
        """Winter: only the first watch of the day has sunlight."""
        self.winter = winter
        self.describe("winter: only the first watch is lit" if winter else "not winter")

    # -- the procedure ----------------------------------------------------------------

    @move
    def set_weather(self, weather: str = "", watches: int = 0) -> None:
        """Step 1: the referee sets the weather and the watches it adds to travel."""
        self._at(1)
        if not 0 <= watches <= 3:
            raise RuleError("Wilderness Watch Procedure: weather adds 0-3 watches of travel")
        if len(weather.strip()) > MAX_TEXT:
            raise RuleError(f"Wilderness Watch Procedure: weather is at most {MAX_TEXT} characters")
        self.weather, self.weather_watches = weather.strip(), watches
        self.step = 2
        added = f" (+{watches} watch{'es' * (watches != 1)} to travel)" if watches else ""
        self.describe(f"{self.when}: weather {self.weather or 'fair'}{added}")

    @move
    def choose(self, action: str, lit: bool = False) -> None:
        """Step 2: the party chooses its action (``lit``: it carries a watch of light)."""
        self._at(2)
        name = _choice(action, ACTIONS, "action", "Wilderness Actions")
        if name == "lookout":
            raise RuleError("Wilderness Actions: lookout goes alongside another action; "
                            "choose that action and post the lookout")
        if name == "travel" and (not self.legs or self.arrived):
            raise RuleError("Wilderness Actions: no route leg is left to travel; add one first")
        if name in ("travel", "explore") and self.dark and not lit:
            raise RuleError(f"Night Travel: the {WATCH_NAMES[self.watch]} watch is dark; "
                            f"{name} needs a watch of light ({LIGHT_HOURS} torches or candles, "
                            f"or {LIGHT_HOURS // OIL_HOURS} uses of oil)")
        self.action, self.lit = name, lit and self.dark
        self.resolved, self.lookouts, self.suppliers = False, [], []
        self.step = 3
        self.describe(f"{self.when}: the party will {name}" + (" by light" if self.lit else ""))

    @move
    def lookout(self, name: str, have: int = 2, modifier: int = 0,
                rng: random.Random | None = None, seed: int | None = None) -> SkillResult:
        """Step 3, beside any action: a lookout tests to spot threats."""
        self._at(3)
        check_modifier(modifier)
        who = self._traveller(name)
        if who.name in self.lookouts:
            raise RuleError(f"Wilderness Actions: {who.name} is already on lookout this watch")
        result = skill_test(have, modifier, rng=make_rng(seed, rng))
        self.lookouts.append(who.name)
        self.describe(f"{who.name} keeps lookout ({result})"
                      + (": threats spotted in time" if result.success else ""))
        return result

    @move
    def travel(self, navigate: bool = True, have: int = 2, modifier: int = 0,
               rng: random.Random | None = None, seed: int | None = None) -> str:
        """Step 3: travel a watch along the route (the navigator tests on a leg's first watch).

        Interpretation: the path's navigation penalty moves the skill test's 5+ target
        like any modifier, and may push it past 6: on a trail (−1) the navigator needs a 6,
        in the wilderness (−2) no face is enough, so with two of skill, time and tools the
        party gets lost unless maps, guides or skills (``modifier``, at most ±6) bring the
        target back to 6 or less; with all three it keeps its course. The seed lets these
        "increase, decrease, or eliminate the odds of getting lost", and −2 must differ
        from −1, which a natural 6 always succeeding would erase.
        """
        check_modifier(modifier)
        self._doing("travel")
        if self.resolved:
            raise RuleError("Wilderness Actions: the party already travelled this watch")
        leg = self.current
        if leg is None:
            raise RuleError("Wilderness Actions: the route is done")
        notes: list[str] = []
        if self.dark and not self.night_added:
            self.extra += NIGHT_EXTRA
            self.night_added = True
            notes.append(f"night: +{NIGHT_EXTRA} watch")
        if self.weather_watches:
            self.extra += self.weather_watches
            notes.append(f"weather: +{self.weather_watches}")
        if navigate and not self.navigated:
            nav = plan_leg(leg).navigation
            result = skill_test(have, nav + modifier, rng=make_rng(seed, rng),
                                natural_six=False)
            self.navigated = True
            if result.success:
                notes.append(f"navigation {result}")
            else:
                self.extra += 1
                notes.append(f"navigation {result}: lost, +1 watch")
        self.progress += 1
        self.travelled_today += 1
        if self.travelled_today == WATCHES_PER_DAY:
            for t in self.party:
                t.deprived = True
                t.fatigue = min(10, t.fatigue + 1)
            notes.append("travelled every watch today: everyone Deprived, +1 Fatigue")
        total = self.leg_watches
        if self.progress >= total:
            place = leg.to or f"the end of leg {self.leg + 1}"
            notes.append(f"reached {place}")
            self.leg += 1
            self.progress = self.extra = 0
            self.navigated = self.night_added = False
        else:
            notes.append(f"leg {self.leg + 1}: {self.progress}/{total} watches")
        self.resolved = True
        text = "travel: " + "; ".join(notes)
        self.describe(text)
        return text

    @move
    def explore(self, found: str = "") -> str:
        """Step 3: explore the area (what was found, if anything)."""
        self._doing("explore")
        if self.resolved:
            raise RuleError("Wilderness Actions: the party already explored this watch")
        if len(found.strip()) > MAX_TEXT:
            raise RuleError(f"Wilderness Actions: at most {MAX_TEXT} characters")
        self.resolved = True
        text = "explore: " + (f"found {found.strip()}" if found.strip() else "nothing found")
        self.describe(text)
        return text

    @move
    def supply(self, name: str, activity: str = "hunt", have: int = 2, steps_up: int = 0,
               component: str = "", bought: int = 0, rng: random.Random | None = None,
               seed: int | None = None) -> str:
        """Step 3: one traveller hunts, fishes, forages, harvests a monster or buys Rations."""
        self._doing("supply")
        who = self._traveller(name)
        if who.name in self.suppliers:
            raise RuleError(f"Wilderness Actions: {who.name} already supplied this watch")
        kind = _choice(activity, SUPPLY_ACTIVITIES, "supply activity", "Wilderness Actions")
        if kind == "buy":
            if not 1 <= bought <= MAX_STOCK - who.rations:
                raise RuleError("Wilderness Actions: buy 1 Ration or more (within what one "
                                "can count)")
            who.rations += bought
            text = f"{who.name} buys {bought} Rations (pay the seller in silver)"
        else:
            if component:
                component = _choice(component, tuple(foraged_components()), "component",
                                    "Example Foraged Components")
                if kind != "forage":
                    raise RuleError("Example Foraged Components: components are foraged")
            r = make_rng(seed, rng)
            result = skill_test(have, 0, rng=r)
            if not result.success:
                text = f"{who.name} tries to {kind} ({result}): nothing"
                if kind == "harvest":
                    text += " (the parts may be ruined, the harvester hurt or changed)"
            else:
                amount = roll_yield(have, steps_up, rng=r)
                if kind == "forage" and component:
                    self.components.append(f"{component} ×{amount}")
                    got = f"{amount} {component}"
                elif kind == "forage":
                    self.forage = min(MAX_STOCK, self.forage + amount)
                    got = f"{amount} portions of foraged food"
                elif kind == "harvest":
                    self.components.append(f"monster parts ×{amount}")
                    got = f"{amount} monster parts"
                else:
                    self.meat = min(MAX_STOCK, self.meat + amount)
                    got = f"{amount} portions of meat"
                text = f"{who.name} goes to {kind} ({result}): yield {got}"
        self.suppliers.append(who.name)
        self.resolved = True
        self.describe(text)
        return text

    @move
    def make_camp(self, sleepless: list[str] | None = None, meal: str = "rations",
                  cook_have: int = 2, cook_modifier: int = 0, graze: bool = False,
                  harsh: bool = False, fire: bool = True, bedding: bool = True,
                  shelter: bool = True, shifts: int = LOOKOUT_SHIFTS,
                  rng: random.Random | None = None, seed: int | None = None) -> str:
        """Step 3: camp: everyone and every mount eats, then rests (or stays awake)."""
        self._doing("make camp")
        if self.resolved:
            raise RuleError("Make Camp: the party already made camp this watch")
        if not self.party:
            raise RuleError("Make Camp: nobody travels with the party yet")
        meal = _choice(meal, MEALS, "meal", "Cooking")
        check_modifier(cook_modifier)
        if not 0 <= shifts <= LOOKOUT_SHIFTS:
            raise RuleError(f"Make Camp: 0-{LOOKOUT_SHIFTS} lookout shifts, not {shifts}")
        awake = {self._traveller(n).name for n in (sleepless or [])}
        size = len(self.party)
        need_meat = size if meal in ("meat", "balanced") else 0
        need_forage = size if meal in ("foraged", "balanced") else 0
        if need_meat > self.meat or need_forage > self.forage:
            raise RuleError(f"Cooking: a {meal} meal for {size} needs {need_meat} meat and "
                            f"{need_forage} foraged portions; the party has {self.meat} and "
                            f"{self.forage}")
        notes: list[str] = []
        self.meat -= need_meat
        self.forage -= need_forage
        cooked = None
        if need_meat:
            cooked = skill_test(cook_have, cook_modifier, rng=make_rng(seed, rng))
            notes.append(f"cooking {cooked}")
        rest = camp_gives_rest(harsh, fire, bedding, shelter)
        if not rest:
            notes.append("no fire, bedding or shelter in harsh weather: no proper rest")
        for t in self.party:
            fed = True
            if meal == "rations":
                if t.rations:
                    t.rations -= 1
                else:
                    fed = False
                    notes.append(f"{t.name} has no Ration: Deprived")
            for m in range(t.mounts):
                if graze:
                    continue
                if t.feed:
                    t.feed -= 1
                elif t.rations >= RATIONS_PER_MOUNT:
                    t.rations -= RATIONS_PER_MOUNT
                else:
                    notes.append(f"{t.name}'s mount {m + 1} goes hungry")
            if t.name in awake:
                t.deprived = True
                t.fatigue = min(10, t.fatigue + 1)
            elif rest:
                t.fatigue = 0
            if not fed:
                t.deprived = True
            elif t.name not in awake:
                t.deprived = False
            if cooked is not None and cooked.success:
                t.fatigue = 0 if meal == "balanced" else max(0, t.fatigue - 1)
        if awake:
            notes.append(f"awake all night: {', '.join(sorted(awake))} (Deprived, +1 Fatigue)")
        if shifts < LOOKOUT_SHIFTS:
            notes.append(f"only {shifts} lookout shift{'s' * (shifts != 1)}: the camp sleeps "
                         "unguarded part of the night")
        if cooked is not None and cooked.success:
            notes.append("balanced meal: all Fatigue gone" if meal == "balanced"
                         else "cooked meat: 1 Fatigue gone each")
        self.resolved = True
        text = f"camp ({meal}): " + "; ".join(notes or ["everyone eats and rests"])
        self.describe(text)
        return text

    @move
    def mark_light(self, torches: int = 0, oil: int = 0) -> str:
        """Step 4: mark the light burnt this watch (a dark watch of travel needs 8 hours)."""
        self._at(3)
        if not self.resolved:
            raise RuleError(f"Wilderness Watch Procedure: resolve the {self.action} first")
        hours = light_hours(torches, oil)
        if self.lit and hours < LIGHT_HOURS:
            raise RuleError(f"Night Travel: a dark watch of {self.action} burns {LIGHT_HOURS} "
                            f"hours of light; {torches} torches and {oil} oil give {hours}")
        self.step = 5
        text = f"light: {torches} torches or candles, {oil} oil" if hours else "no light burnt"
        self.describe(text)
        return text

    @move
    def event_check(self, rng: random.Random | None = None,
                    seed: int | None = None) -> WatchEvent:
        """Step 5: the event die; then the next watch begins."""
        self._at(5)
        event = roll_event(self.current or (self.legs[-1] if self.legs else None),
                           rng=make_rng(seed, rng))
        self.last_event = str(event)[:400]
        self.watch += 1
        if self.watch == WATCHES_PER_DAY:
            self.watch, self.day, self.travelled_today = 0, self.day + 1, 0
        self.step, self.action, self.resolved, self.lit = 1, "", False, False
        self.weather, self.weather_watches = "", 0
        self.describe(str(event))
        return event


def _sheets(journey: Journey, characters: list[Character] | None) -> list[Character]:
    """The sheets given, or those at the journey's table (its declared link)."""
    return list(journey.linked(Character).values()) if characters is None else characters


def join_party(journey: Journey, characters: list[Character] | None = None) -> None:
    """Add every character not yet travelling, with their present Fatigue and Deprived
    (``characters``: by default the sheets at the journey's table)."""
    for c in _sheets(journey, characters):
        if not any(t.name.lower() == c.name.lower() for t in journey.party):
            journey.add_traveller(c.name, fatigue=min(10, c.fatigue), deprived=c.deprived)


def apply_to_sheets(journey: Journey, characters: list[Character] | None = None) -> list[str]:
    """Carry each traveller's Fatigue and Deprived onto the character sheet of that name
    (``characters``: by default the sheets at the journey's table, its declared link).

    More Fatigue is added to the sheet (refused, and said, when no slot is free); Fatigue
    down to none is a night's rest on the sheet (refused, and said, while the sheet is in
    a fight that goes on: rest is taken out of danger); a partial recovery (cooked meat)
    is left for the player to mark, and said. One sheet's refusal stops none of the others.
    """
    notes: list[str] = []
    for c in _sheets(journey, characters):
        t = next((t for t in journey.party if t.name.lower() == c.name.lower()), None)
        if t is None or c.dead:
            continue
        if t.deprived != c.deprived:
            try:  # a Walloped or Out of action scar keeps the sheet Deprived
                c.set_deprived(t.deprived)
                notes.append(f"{c.name}: {'Deprived' if t.deprived else 'no longer Deprived'}")
            except RuleError as exc:
                notes.append(f"{c.name}: {exc}")
        if t.fatigue > c.fatigue:
            more = t.fatigue - c.fatigue
            try:
                c.add_fatigue(more)
                notes.append(f"{c.name}: +{more} Fatigue")
            except RuleError as exc:
                notes.append(f"{c.name}: {exc}")
        elif t.fatigue < c.fatigue:
            if t.fatigue == 0:
                try:  # a sheet still in a fight is not out of danger: it cannot rest
                    c.rest_night()
                    notes.append(f"{c.name}: all Fatigue removed")
                except RuleError as exc:
                    notes.append(f"{c.name}: {exc}")
            else:
                notes.append(f"{c.name}: remove {c.fatigue - t.fatigue} Fatigue on the sheet")
    return notes


# -- table moves: the journey and the party's sheets in one unit (companion.table_moves) --


def _journey_and_sheets(table: TableTrackers, args: dict[str, Any],
                        where: str) -> tuple[Journey, list[Character]]:
    """The journey ``args`` names (``journey``: its member) and the sheets it names
    (``characters``: members; by default the sheets at the journey's table)."""
    journey = table.tracker(argument(args, "journey", str, where), Journey)
    sheets = named_trackers(table, args, "characters", Character, where, most=MAX_PARTY)
    return journey, _sheets(journey, sheets)


def _join_party_move(table: TableTrackers, args: dict[str, Any],
                     _rng: random.Random | None) -> list[str]:
    """Every sheet named not yet travelling joins the journey with its present Fatigue
    and Deprived ([join_party][companion.rulesets.cairn_srd.wilderness.join_party]), all
    or none; returns who joined."""
    journey, sheets = _journey_and_sheets(table, args, "join the journey")
    before = {t.name for t in journey.party}
    join_party(journey, sheets)
    return [t.name for t in journey.party if t.name not in before]


def _apply_to_sheets_move(table: TableTrackers, args: dict[str, Any],
                          _rng: random.Random | None) -> list[str]:
    """Each traveller's Fatigue and Deprived carried onto their sheet
    ([apply_to_sheets][companion.rulesets.cairn_srd.wilderness.apply_to_sheets]): a
    rule's refusal on one sheet is said and stops none of the others, but a seat that
    may not change one of the sheets stores none of them."""
    journey, sheets = _journey_and_sheets(table, args, "copy to sheets")
    return apply_to_sheets(journey, sheets)


declare_table_move("cairn_srd.wilderness.join_party", _join_party_move,
                   text=lambda names: (", ".join(names) or "nobody") + " joins the journey")
declare_table_move("cairn_srd.wilderness.apply_to_sheets", _apply_to_sheets_move,
                   text=lambda notes: "; ".join(notes) or "the sheets are up to date")


LIBRARY_ONLY: dict[str, str] = {
    "threat_odds": "exact threat odds per terrain for the site's travel reference page",
}

__all__ = [
    "ACTIONS",
    "Journey",
    "Leg",
    "LegPlan",
    "RoutePlan",
    "Traveller",
    "WatchEvent",
    "apply_to_sheets",
    "camp_gives_rest",
    "difficulties",
    "distances",
    "foraged_components",
    "is_dark",
    "join_party",
    "light_hours",
    "make_leg",
    "navigation_chance",
    "path_types",
    "plan_leg",
    "plan_route",
    "roll_event",
    "roll_threat",
    "terrains",
    "threat_odds",
    "threats_for",
]

