"""This ruleset's TOML data, read once: the fixed tables of ``data/rules.toml``.

The random table (ability check results) is read through [companion.tables][], like
every other ruleset's, so the CLI, the site and the rules share one copy.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from companion import dice
from companion.errors import CompanionError, TableError, UnknownNameError
from companion.tables.fixed import Schema, load_fixed

DATA_FILE = Path(__file__).parent / "data" / "rules.toml"
WHERE = "monsters_and_magic data/rules.toml"

# Named texts under a ``section`` heading (and an optional ``note``).
_TEXTS: dict[str, Schema] = {"section": str, "note?": str, "*": str}
_SPEEDS: Schema = [(str, int, int, int)]  # speed, hexes, group check modifier, exhaustion

RULES_SCHEMA: dict[str, Schema] = {
    "die_scale": {"section": str, "scale": [str]},
    "overland_travel": {"section": str, "columns": [str], "printed": [(str, str, str, str)],
                        "interpreted": _SPEEDS, "last_cell": _SPEEDS,
                        "mount_bonus_hexes": int, "period_hours": int},
    "sea_and_air_travel": {"section": str, "columns": [str], "rows": [(str, str, int, str)]},
    "action_points": {"section": str, "per_turn": int, "reactions": int},
    "basic_techniques": {"section": str, "columns": [str], "rows": [(str, str, str)]},
    "light": _TEXTS, "senses": _TEXTS, "movement": _TEXTS, "statuses": _TEXTS,
    "concealment": {"section": str, "*": {"modifier": int, "effect": str}},
    "cover": {"section": str, "*": {"attack_modifier": int, "ac_bonus": int, "effect": str}},
    "falling": {"section": str, "damage_per_10_feet": str, "printed_feet_by_turn": [int]},
    "conditions": {"section": str, "note": str, "detonate_damage": str, "*": str},
    "rests": {"*": {"section": str, "hours": int, "choose": int, "max_in_a_row?": int,
                    "activities": {"*": str}}},
}
"""The keys and types of ``data/rules.toml``, checked on load like every ruleset's data."""


@functools.cache
def rules_data() -> dict[str, Any]:
    """Every fixed table and list of ``data/rules.toml``, keyed by section id (checked)."""
    data = load_fixed(DATA_FILE, RULES_SCHEMA, where=WHERE)
    check_rules_data(data)
    return data


def check_rules_data(data: dict[str, Any]) -> None:
    """What the schema cannot say: the dice are dice, the three readings of the overland
    table name the same speeds in the same order."""
    written = [("die_scale.scale", e) for e in data["die_scale"]["scale"]] + [
        ("falling.damage_per_10_feet", data["falling"]["damage_per_10_feet"]),
        ("conditions.detonate_damage", data["conditions"]["detonate_damage"])]
    for key, expr in written:
        try:
            dice.parse(expr)
        except CompanionError as exc:
            raise TableError(f"{WHERE}: {key} {expr!r} is not a dice expression ({exc})") from None
    overland = data["overland_travel"]
    speeds = [row[0] for row in overland["printed"]]
    for reading in ("interpreted", "last_cell"):
        if [row[0] for row in overland[reading]] != speeds:
            raise TableError(f"{WHERE}: overland_travel.{reading} must list the speeds "
                             f"{', '.join(speeds)} in order")


def section(name: str) -> dict[str, Any]:
    """One block of the data (``"conditions"``, ``"overland_travel"``...)."""
    data = rules_data()
    if name not in data:
        raise UnknownNameError(f"monsters_and_magic data has no section {name!r}")
    block: dict[str, Any] = data[name]
    return block


def entries(name: str) -> dict[str, Any]:
    """The named entries of a block (``Weakened = "..."``), without its metadata keys."""
    return {k: v for k, v in section(name).items()
            if k not in {"section", "note", "detonate_damage"}}
