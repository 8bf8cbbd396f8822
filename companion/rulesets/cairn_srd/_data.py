"""Loading this ruleset's TOML data: the random tables (``tables/``) and the fixed ones (``data/``).

The rules read their tables here so every table exists once; the shared
:mod:`companion.tables` loader reads the same files for the CLI and the site.
"""

from __future__ import annotations

import functools
import random
import re
import tomllib
from pathlib import Path
from typing import Any

from companion.errors import TableError, UnknownNameError

_HERE = Path(__file__).parent
TABLES_DIR = _HERE / "tables"
DATA_FILE = _HERE / "data" / "rules.toml"

_DIE = re.compile(r"^(\d+)d(\d+)$")


def resolve_rng(rng: random.Random | None = None, seed: int | None = None) -> random.Random:
    """The generator to roll with: ``rng`` if given, else a new one seeded with ``seed``."""
    return rng if rng is not None else random.Random(seed)


def roll_die(sides: int, rng: random.Random) -> int:
    return rng.randint(1, sides)


@functools.cache
def table(table_id: str) -> dict[str, Any]:
    """The raw TOML of one random table of this ruleset."""
    path = TABLES_DIR / f"{table_id}.toml"
    if not path.exists():
        raise UnknownNameError(f"cairn_srd has no table {table_id!r}")
    with path.open("rb") as fh:
        return tomllib.load(fh)


@functools.cache
def rules_data() -> dict[str, Any]:
    """The fixed (non-random) tables of ``data/rules.toml``, checked on load."""
    with DATA_FILE.open("rb") as fh:
        data = tomllib.load(fh)
    check_rules_data(data)
    return data


def check_rules_data(data: dict[str, Any]) -> None:
    """Raise :class:`TableError` naming the first malformed fixed table."""
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
    for key, field in (("gambits", "options"), ("maneuvers", "examples"),
                       ("blaze_of_glory", "options"), ("blaze_of_glory", "final_words")):
        items = data.get(key, {}).get(field)
        if not isinstance(items, list) or not all(isinstance(v, str) for v in items):
            raise bad(f"{key}.{field} must be a list of text")


def _range(text: str) -> tuple[int, int]:
    low, _, high = text.partition("-")
    return int(low), int(high or low)


def lookup(table_id: str, value: int) -> dict[str, str]:
    """The row of ``table_id`` whose range holds ``value`` (columns only, no ``range``)."""
    for row in table(table_id)["rows"]:
        low, high = _range(row["range"])
        if low <= value <= high:
            return {k: v for k, v in row.items() if k != "range"}
    raise TableError(f"table {table_id}: no row for a roll of {value}")


def die_of(table_id: str) -> tuple[int, int]:
    """``(count, sides)`` of the table's die (all of this ruleset's dice are plain NdS)."""
    match = _DIE.match(table(table_id)["die"])
    if match is None:
        raise TableError(f"table {table_id}: die {table(table_id)['die']!r} is not NdS")
    return int(match.group(1)), int(match.group(2))


def roll_on(table_id: str, rng: random.Random) -> tuple[int, dict[str, str]]:
    """Roll the table's die and return ``(total, row)``."""
    count, sides = die_of(table_id)
    total = sum(roll_die(sides, rng) for _ in range(count))
    return total, lookup(table_id, total)
