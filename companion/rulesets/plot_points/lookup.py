"""The seed's lookup tables, read once from ``lookup_tables.toml`` and checked on load.

Ability dice by strength, the advantage die by net count, and the wound tiers are data,
not code: this module reads them, checks them (every net count from 1 up has one die;
the tiers cover 1-16 wounds without gap or overlap) and exposes them as constants.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import TableError, quoted
from companion.tables.fixed import Schema, load_fixed

#: Where the data lives, beside this module.
LOOKUP_FILE = Path(__file__).with_name("lookup_tables.toml")

LOOKUP_SCHEMA: dict[str, Schema] = {
    "ability_dice": {"title": str, "section": str, "*": str},
    "advantage_dice": {"title": str, "section": str, "rows": [{"net": str, "die": int}]},
    "wound_tiers": {"title": str, "section": str, "rows": [
        {"wounds": str, "name": str, "effect": str, "strain_per_check": int,
         "strain_on_failure": int}]},
}
"""The keys and types of ``lookup_tables.toml``; `parse_lookup_tables` checks the rest."""


@dataclass(frozen=True)
class WoundTier:
    """A band of wounds, its name and what it does to checks.

    ``strain_per_check`` is strain gained whenever the character makes a check,
    ``strain_on_failure`` the strain gained (in addition) when it fails.
    """

    low: int
    high: int
    name: str
    effect: str
    strain_per_check: int = 0
    strain_on_failure: int = 0


@dataclass(frozen=True)
class LookupTables:
    """The three tables; ``advantage_dice`` maps 1..N to sides, N meaning "N or more"."""

    ability_dice: dict[str, str]
    advantage_dice: dict[int, int]
    wound_tiers: tuple[WoundTier, ...]
    titles: dict[str, tuple[str, str]]


def _span(text: str, where: str) -> tuple[int, int]:
    low, _, high = text.partition("-")
    try:
        return int(low), int(high or low)
    except ValueError:
        raise TableError(f"{where}: {quoted(str(text))} is not a number or a range 'a-b'") from None


def parse_lookup_tables(data: dict[str, Any], source: str = "lookup_tables.toml"
                        ) -> LookupTables:
    """Check and convert the TOML data; a problem raises ``TableError`` naming the entry."""
    try:
        abilities = data["ability_dice"]
        ability_dice = {k: v for k, v in abilities.items() if k not in ("title", "section")}
        advantage_rows = data["advantage_dice"]["rows"]
        tier_rows = data["wound_tiers"]["rows"]
        titles = {key: (data[key]["title"], data[key]["section"])
                  for key in ("ability_dice", "advantage_dice", "wound_tiers")}
    except (KeyError, TypeError) as exc:
        raise TableError(f"{source}: missing {exc}") from None

    if not ability_dice or not all(isinstance(k, str) and k.isidentifier()
                                   and isinstance(v, str) and v for k, v in ability_dice.items()):
        raise TableError(f"{source}: ability_dice must name each ability strength and its dice")
    advantage: dict[int, int] = {}
    for i, entry in enumerate(advantage_rows):
        where = f"{source}: advantage_dice row {i + 1}"
        net, die = str(entry.get("net", "")), entry.get("die")
        if not isinstance(die, int) or die < 2:
            raise TableError(f"{where}: die must be a number of sides")
        count, _ = _span(net.rstrip("+"), where)
        if count != i + 1:
            raise TableError(f"{where}: expected net {i + 1}, got {quoted(str(net))}")
        if net.endswith("+") != (i == len(advantage_rows) - 1):
            raise TableError(f"{where}: only the last row is open-ended ('N+')")
        advantage[count] = die

    tiers: list[WoundTier] = []
    expected = 1
    for i, entry in enumerate(tier_rows):
        where = f"{source}: wound_tiers row {i + 1}"
        low, high = _span(str(entry.get("wounds", "")), where)
        if low != expected or high < low:
            raise TableError(f"{where}: wounds {low}-{high} leave a gap or overlap "
                             f"(expected to start at {expected})")
        expected = high + 1
        try:
            tiers.append(WoundTier(low, high, str(entry["name"]), str(entry["effect"]),
                                   int(entry["strain_per_check"]),
                                   int(entry["strain_on_failure"])))
        except (KeyError, ValueError) as exc:
            raise TableError(f"{where}: missing or bad {exc}") from None
    return LookupTables(ability_dice, advantage, tuple(tiers), titles)


def load_lookup_tables(path: Path = LOOKUP_FILE) -> LookupTables:
    """Read ``path`` (checked against `LOOKUP_SCHEMA`) and build the tables."""
    return parse_lookup_tables(load_fixed(path, LOOKUP_SCHEMA, where=path.name), path.name)


TABLES = load_lookup_tables()

#: The d20s each ability strength rolls (step 1 of a check).
ABILITY_DICE: dict[str, str] = TABLES.ability_dice

#: The ability strengths, weakest first, as the data lists them (the one list of them).
ABILITIES: tuple[str, ...] = tuple(ABILITY_DICE)

#: Sides of the advantage/disadvantage die by net count; the highest key means "or more".
ADVANTAGE_DICE: dict[int, int] = TABLES.advantage_dice

#: The wound tiers, mildest first.
WOUND_TIERS: tuple[WoundTier, ...] = TABLES.wound_tiers
