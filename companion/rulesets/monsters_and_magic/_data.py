"""This ruleset's TOML data, read once: the fixed tables of ``data/rules.toml``.

The random table (ability check results) is read through [companion.tables][], like
every other ruleset's, so the CLI, the site and the rules share one copy.
"""

from __future__ import annotations

import functools
import tomllib
from pathlib import Path
from typing import Any

from companion.errors import UnknownNameError

DATA_FILE = Path(__file__).parent / "data" / "rules.toml"


@functools.cache
def rules_data() -> dict[str, Any]:
    """Every fixed table and list of ``data/rules.toml``, keyed by section id."""
    with DATA_FILE.open("rb") as fh:
        return tomllib.load(fh)


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
