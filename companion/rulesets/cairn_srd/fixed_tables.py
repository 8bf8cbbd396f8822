"""This ruleset's fixed (looked-up, never rolled) data, read once from ``data/rules.toml``.

The random tables are not read here: they are ``tables/*.toml``, loaded, validated and
rolled by [companion.tables][companion.tables] like every other ruleset's, so the rules,
the CLI, the apps and the site roll the same row for the same seed.
[read_row][companion.rulesets.cairn_srd.fixed_tables.read_row] reads a row of one of those
tables by a value a rule computed (the damage Guard took, a doubled face).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from companion import tables
from companion.errors import TableError
from companion.tables.fixed import Schema, load_fixed

DATA_FILE = Path(__file__).parent / "data" / "rules.toml"

# Named texts under a ``section`` heading (and an optional ``note``).
_TEXTS: dict[str, Schema] = {"section": str, "note?": str, "*": str}

RULES_SCHEMA: dict[str, Schema] = {
    "magic_dice_chances": {"printed": [(int, int, int)]},
    "dooms": {"effects": [str]},
    "attack_matrix": {"section": str, "note": str, "scales": [str], "*": [str]},
    "time_scales": _TEXTS, "ranges": _TEXTS, "player_roles": _TEXTS,
    "environmental_damage": _TEXTS, "returning_from_death": _TEXTS,
    "gambits": {"min": int, "automatic": int, "options": [str]},
    "maneuvers": {"examples": [str]},
    "blaze_of_glory": {"options": [str], "final_words": [str]},
}
"""The keys and types of ``data/rules.toml``; `check_rules_data` checks what types cannot."""

DATA_SCHEMAS: dict[str, dict[str, Schema]] = {
    "downtime": {
        "cycles": {"per_season": int},
        "lifestyles": {"section": str, "*": (int, str)},
        "bank_fees": {"section": str, "*": (int, int)},
        "petty_crime": {"bust": int},
        "costs": _TEXTS,
        "activities": {"examples": [str], "max_milestones": int},
        "factions": {"one_step": int, "two_steps": int, "max_interference": int},
        "conditions": _TEXTS,
    },
    "wilderness": {
        "watches": {"per_day": int, "names": [str], "lit": [int], "lit_in_winter": [int]},
        "actions": _TEXTS,
        "night_travel": {"extra_watches": int, "light_hours_per_watch": int,
                         "hours_per_torch": int, "hours_per_oil_use": int},
        "path_types": {"section": str, "*": (int, int)},
        "distances": {"section": str, "*": (int, int)},
        "difficulty": {"section": str, "*": (int, str, str)},
        "open_sea": {"max_extra_watches": int},
        "camp": {"rations_per_person": int, "rations_per_mount": int, "lookout_shifts": int},
    },
}
"""The keys and types of each other fixed-data file ``data/<name>.toml``."""


def read_row(table_id: str, value: int) -> dict[str, str]:
    """The columns of the row of random table ``table_id`` that covers ``value``."""
    return dict(tables.get(table_id).row_for(value).values)


def rows(table_id: str, column: str) -> list[str]:
    """One column of every row of random table ``table_id``, in the table's order."""
    return [row.values[column] for row in tables.get(table_id).rows]


@functools.cache
def rules_data() -> dict[str, Any]:
    """The fixed (non-random) tables of ``data/rules.toml``, checked on load."""
    data = load_fixed(DATA_FILE, RULES_SCHEMA, where="cairn_srd data/rules.toml")
    check_rules_data(data)
    return data


@functools.cache
def data_file(name: str) -> dict[str, Any]:
    """Another fixed-data file, ``data/<name>.toml``, checked against its `DATA_SCHEMAS` entry."""
    path = DATA_FILE.parent / f"{name}.toml"
    if name not in DATA_SCHEMAS or not path.is_file():
        raise TableError(f"cairn_srd: no fixed-data file data/{name}.toml")
    return load_fixed(path, DATA_SCHEMAS[name], where=f"cairn_srd data/{name}.toml")


def check_rules_data(data: dict[str, Any]) -> None:
    """Raise [TableError][companion.errors.TableError] naming the first malformed fixed table."""
    where = "cairn_srd data/rules.toml"

    def bad(what: str) -> TableError:
        return TableError(f"{where}: {what}")

    printed = data.get("magic_dice_chances", {}).get("printed")
    if not isinstance(printed, list) or not printed:
        raise bad("magic_dice_chances.printed must be a list of [dice, mishap %, doom %]")
    for i, entry in enumerate(printed):
        ok = (isinstance(entry, list) and len(entry) == 3
              and all(isinstance(v, int) for v in entry) and entry[0] == i + 1
              and all(0 <= v <= 100 for v in entry[1:]))
        if not ok:
            raise bad(f"magic_dice_chances.printed[{i}] must be [{i + 1}, 0-100, 0-100]")
    effects = data.get("dooms", {}).get("effects")
    if not isinstance(effects, list) or len(effects) != 3:
        raise bad("dooms.effects must list the 1st, 2nd and 3rd doom")
    matrix = data.get("attack_matrix", {})
    scales = matrix.get("scales")
    if not isinstance(scales, list) or len(scales) < 2:
        raise bad("attack_matrix.scales must list the scales")
    for scale in scales:
        cells = matrix.get(scale)
        if not isinstance(cells, list) or len(cells) != len(scales):
            raise bad(f"attack_matrix.{scale} must have one cell per scale")
    for key in ("time_scales", "ranges", "player_roles", "environmental_damage",
                "returning_from_death"):
        section = data.get(key)
        if not isinstance(section, dict) or not all(
                isinstance(v, str) for v in section.values()):
            raise bad(f"{key} must map names to text")
    gambits = data.get("gambits", {})
    low, auto = gambits.get("min"), gambits.get("automatic")
    if not (isinstance(low, int) and isinstance(auto, int) and 1 <= low < auto <= 12):
        raise bad("gambits.min and gambits.automatic must be faces with min < automatic")
    for key, field in (("gambits", "options"), ("maneuvers", "examples"),
                       ("blaze_of_glory", "options"), ("blaze_of_glory", "final_words")):
        items = data.get(key, {}).get(field)
        if not isinstance(items, list) or not all(isinstance(v, str) for v in items):
            raise bad(f"{key}.{field} must be a list of text")
