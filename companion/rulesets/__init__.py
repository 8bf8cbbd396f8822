"""The rule documents, one package each, and the registry that lists them.

Each ruleset package's docstring is the rules text in the project's own words (the
reference site shows it). A package may contain:

- ``tables/*.toml`` — its random tables (see [companion.tables][]);
- ``cli.py`` with ``add_commands(subparsers)`` — its own CLI subcommands;
- ``reference.py`` with ``reference_pages() -> dict[str, str]`` — extra generated
  reference pages (relative path -> Markdown), e.g. computed odds tables.

>>> from companion import rulesets
>>> rulesets.get("plot_points").title
'Checks, Plot Points, Strain & Wounds'
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from companion.errors import UnknownNameError
from companion.tables import Table, all_tables, use_folders


@dataclass(frozen=True)
class Ruleset:
    """One rule document implemented as a package under ``companion.rulesets``."""

    name: str
    title: str
    seed: str
    """The seed document's file name (in ``shared/seeds``)."""

    @property
    def module_name(self) -> str:
        return f"{__name__}.{self.name}"

    def module(self) -> ModuleType:
        return importlib.import_module(self.module_name)

    @property
    def path(self) -> Path:
        return Path(__file__).parent / self.name

    @property
    def tables_dir(self) -> Path:
        return self.path / "tables"

    def _optional(self, sub: str) -> ModuleType | None:
        name = f"{self.module_name}.{sub}"
        if importlib.util.find_spec(self.module_name) is None:
            return None
        if not (self.path / f"{sub}.py").exists() and not (self.path / sub).is_dir():
            return None
        return importlib.import_module(name)

    def cli_module(self) -> ModuleType | None:
        """The ruleset's ``cli`` module, if it has one."""
        return self._optional("cli")

    def reference_module(self) -> ModuleType | None:
        """The ruleset's ``reference`` module (extra generated pages), if it has one."""
        return self._optional("reference")

    def tables(self) -> list[Table]:
        """The ruleset's random tables (loaded and validated)."""
        return [t for t in all_tables() if t.ruleset == self.name]

    def is_available(self) -> bool:
        return self.path.is_dir() and (self.path / "__init__.py").exists()


#: Every ruleset, in the order of the seed index.
_RULESETS: tuple[Ruleset, ...] = (
    Ruleset("plot_points", "Checks, Plot Points, Strain & Wounds", "004_e889efa9666bd2cd.txt"),
    Ruleset("cairn_srd", "Cairn-derived SRD", "003_16f7e9f242662ce6.txt"),
    Ruleset("miasma", "Miasma: Earthmotes, Psychosis, Dice Monarchs", "000_7749e11707e67c92.txt"),
    Ruleset("variant5e", "5e Optional Rules", "001_cb17b8de802cca7b.txt"),
    Ruleset("monsters_and_magic", "Monsters & Magic", "002_e4d89be0244218de.txt"),
)


def all_rulesets() -> list[Ruleset]:
    """The rulesets implemented in this installation."""
    return [r for r in _RULESETS if r.is_available()]


def get(name: str) -> Ruleset:
    """The ruleset called ``name`` (e.g. ``"plot_points"``)."""
    for ruleset in all_rulesets():
        if ruleset.name == name:
            return ruleset
    known = ", ".join(r.name for r in all_rulesets()) or "none"
    raise UnknownNameError(f"no ruleset named {name!r} (known: {known})")


def table_folders() -> dict[str, Path]:
    """Each available ruleset's folder of random tables (what [companion.tables][] reads)."""
    return {r.name: r.tables_dir for r in all_rulesets() if r.tables_dir.is_dir()}


# The registry tells the table engine where the tables are (it never imports the registry).
use_folders(table_folders)
