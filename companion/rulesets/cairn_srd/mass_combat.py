"""Mass combat and naval vessels.

Armies fight as **detachments** set against each other. A **ship** has the stats of any
creature: Guard (damage avoidance), STR (hull: at 0 it starts sinking), DEX (sails and
oars: the fastest moves first; at 0 it cannot move), CTRL (the crew: at 0 they surrender
or panic) and a burden split into a **hold of 4 slots** and **decks of 6**. Any of these
can be targeted; Critical Damage to any of them lets the ship be boarded. Guard returns
at port or once free of threat; ability damage needs repairs: workers plus 5 % of the
vessel's cost per point. Boats and rafts count as detachments, vessels with a crew of 25
or more are ships, and groups of ships are fleets.

Interpretation: a ship open to boarding stays so until a repair; boarding is a move the
referee records (the fight on deck is an ordinary combat). Resting at port while Guard is
already full is refused (nothing to restore).

The **attack matrix** (``data/rules.toml``) says how an attack changes across scales:
the row is the attacker, the column the defender.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar, Literal

from companion.dice.roller import make_rng
from companion.errors import RuleError, StateError
from companion.rulesets.cairn_srd.damage import resolve_hit
from companion.rulesets.cairn_srd.fixed_tables import rules_data
from companion.rulesets.cairn_srd.saves import MAX_SCORE, save
from companion.state import Tracker, move, state_field

Scale = Literal["Individual", "Detachment", "Ship", "Fleet"]
HOLD_SLOTS = 4
DECK_SLOTS = 6
SHIP_CREW = 25


def scales() -> list[str]:
    scale_list: list[str] = rules_data()["attack_matrix"]["scales"]
    return scale_list


def attack_effect(attacker: str, defender: str) -> str:
    """How an attack by ``attacker``'s scale lands on ``defender``'s scale."""
    matrix = rules_data()["attack_matrix"]
    for who in (attacker, defender):
        if who not in matrix["scales"]:
            raise RuleError(f"Mass Combat: unknown scale “{who}” ({', '.join(matrix['scales'])})")
    effect: str = matrix[attacker][matrix["scales"].index(defender)]
    return effect


def vessel_scale(crew: int) -> str:
    """Boats and rafts are detachments; a crew of 25 or more makes a ship."""
    if crew < 1:
        raise RuleError(f"Mass Combat: a vessel needs a crew, got {crew}")
    return "Ship" if crew >= SHIP_CREW else "Detachment"


def sailing_order(dexterity: Mapping[str, int]) -> list[list[str]]:
    """The ships (name -> DEX) in the order they move: the highest DEX first.

    Interpretation: ships of equal DEX move together (one group; the seed orders only by
    DEX, so the referee settles any finer order), and a ship at DEX 0 is immobile and
    left out.

    >>> sailing_order({"Gull": 8, "Wasp": 10, "Hulk": 0, "Kite": 8})
    [['Wasp'], ['Gull', 'Kite']]
    """
    groups: dict[int, list[str]] = {}
    for name, dex in dexterity.items():
        if not 0 <= dex <= MAX_SCORE:
            raise RuleError(f"Naval vessels: DEX runs 0 to {MAX_SCORE}, not {dex} ({name})")
        if dex:
            groups.setdefault(dex, []).append(name)
    return [groups[dex] for dex in sorted(groups, reverse=True)]


def repair_cost(vessel_cost: Fraction | int, points: int = 1) -> Fraction:
    """Repair material for ``points`` ability points: 5 % of the vessel's cost each."""
    if points < 1:
        raise RuleError("Mass Combat: repair at least one point")
    return Fraction(vessel_cost) * Fraction(5, 100) * points


@dataclass
class Vessel(Tracker):
    """A ship: stats like a creature, burden in hold (4) and decks (6)."""

    name: str = state_field("Ship", max_len=40)
    guard_max: int = state_field(6, min=0, max=MAX_SCORE)
    guard: int = state_field(6, min=0, max=MAX_SCORE)
    armor: int = state_field(0, min=0, max=MAX_SCORE)
    hull: int = state_field(10, min=0, max=MAX_SCORE)
    hull_max: int = state_field(10, min=0, max=MAX_SCORE)
    sails: int = state_field(10, min=0, max=MAX_SCORE)
    sails_max: int = state_field(10, min=0, max=MAX_SCORE)
    crew: int = state_field(10, min=0, max=MAX_SCORE)
    crew_max: int = state_field(10, min=0, max=MAX_SCORE)
    hold: list[str] = state_field(default_factory=list, max_len=HOLD_SLOTS)
    decks: list[str] = state_field(default_factory=list, max_len=DECK_SLOTS)
    boardable: bool = False

    _PARTS: ClassVar[dict[str, str]] = {"STR": "hull", "DEX": "sails", "CTRL": "crew"}

    def check_state(self) -> None:
        for cur in ("guard", "hull", "sails", "crew"):
            top = cur + "_max"
            if getattr(self, cur) > getattr(self, top):
                raise StateError(f"field '{cur}' ({getattr(self, cur)}) exceeds '{top}' "
                                 f"({getattr(self, top)})")
        for place in ("hold", "decks"):
            if any(not item.strip() or len(item) > 40 for item in getattr(self, place)):
                raise StateError(f"field '{place}': cargo names of 1-40 characters")

    @move
    def load_cargo(self, cargo: str, place: str = "hold") -> None:
        """Stow cargo in the hold (4 slots) or on the decks (6 slots)."""
        slots = {"hold": (self.hold, HOLD_SLOTS), "decks": (self.decks, DECK_SLOTS)}
        if place not in slots:
            raise RuleError(f"Naval vessels: cargo goes in the hold or on the decks, not “{place}”")
        where, limit = slots[place]
        if not cargo.strip() or len(cargo.strip()) > 40:
            raise RuleError("Naval vessels: name the cargo in 1-40 characters")
        cargo = cargo.strip()
        if len(where) >= limit:
            raise RuleError(f"Naval vessels: the {place} holds {limit} slots and is full")
        where.append(cargo)
        self.describe(f"{self.name} stows {cargo} ({place})")

    @move
    def unload_cargo(self, place: str, index: int) -> str:
        where = {"hold": self.hold, "decks": self.decks}.get(place)
        if where is None or not 0 <= index < len(where):
            raise RuleError(f"Naval vessels: no cargo #{index + 1} in “{place}”")
        cargo = where.pop(index)
        self.describe(f"{self.name} unloads {cargo} ({place})")
        return cargo

    @move
    def take_damage(self, amount: int, target: str = "STR", direct: bool = False,
                    rng: random.Random | None = None, seed: int | None = None) -> str:
        """Damage through armor and Guard into the targeted stat (STR hull, DEX sails,
        CTRL crew); a failed save on it is Critical Damage and the ship may be boarded."""
        part = self._PARTS.get(target.upper())
        if part is None:
            raise RuleError(f"Naval vessels: target STR, DEX or CTRL, not “{target}”")
        if amount < 0:
            raise RuleError(f"Damage: damage cannot be negative, got {amount}")
        hit = resolve_hit(amount, guard=self.guard, strength=getattr(self, part),
                          armor=self.armor, direct=direct)
        self.guard = hit.guard_after
        setattr(self, part, hit.str_after)
        text = f"{self.name}: armor {hit.absorbed}, Guard {hit.to_guard}, {target} {hit.to_str}"
        if hit.to_str:
            result = save(hit.str_after, rng=make_rng(seed, rng))
            text += f"; save {result}"
            if not result.success:
                self.boardable = True
                text += ": Critical Damage, may be boarded"
        if getattr(self, part) == 0:
            text += {"hull": "; sinking", "sails": "; immobile",
                     "crew": "; the crew surrenders or panics"}[part]
        self.describe(text)
        return text

    @property
    def damaged(self) -> list[str]:
        """The damaged parts (STR, DEX, CTRL) that a repair can restore."""
        return [key for key, part in self._PARTS.items()
                if getattr(self, part) < getattr(self, part + "_max")]

    @move
    def board(self, boarders: str) -> str:
        """Board the ship (only after Critical Damage to one of its parts)."""
        who = boarders.strip()
        if not who or len(who) > 40:
            raise RuleError("Naval vessels: name the boarders in 1-40 characters")
        if not self.boardable:
            raise RuleError(f"Naval vessels: {self.name} may be boarded only after Critical "
                            "Damage to its hull, sails or crew")
        text = f"{who} board {self.name}"
        self.describe(text)
        return text

    @move
    def rest_at_port(self) -> None:
        """Guard returns at port or once free from threat."""
        if self.guard >= self.guard_max:
            raise RuleError(f"Naval vessels: {self.name}'s Guard is already full")
        self.guard = self.guard_max
        self.describe(f"{self.name} rests at port: Guard {self.guard}")

    @move
    def repair(self, target: str) -> None:
        """Repair one point of STR, DEX or CTRL (pay
        [repair_cost][companion.rulesets.cairn_srd.mass_combat.repair_cost])."""
        part = self._PARTS.get(target.upper())
        if part is None:
            raise RuleError(f"Naval vessels: repair STR, DEX or CTRL, not “{target}”")
        if getattr(self, part) >= getattr(self, part + "_max"):
            raise RuleError(f"Naval vessels: {target} is not damaged")
        setattr(self, part, getattr(self, part) + 1)
        self.boardable = False
        self.describe(f"{self.name}: {target.upper()} repaired to {getattr(self, part)}")
