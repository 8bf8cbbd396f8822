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
    """The fixed (non-random) tables of ``data/rules.toml``."""
    with DATA_FILE.open("rb") as fh:
        return tomllib.load(fh)


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
