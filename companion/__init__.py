"""Table Companion: a tabletop-RPG rules companion.

The core (everything here except [companion.widgets][]) imports the standard library
only, so it runs unchanged in the browser under Pyodide.

Public entry points:

- [companion.dice][] — ``roll``, ``roll_many``, ``odds``, ``simulate``.
- [companion.tables][] — random tables as data, with exact row odds.
- [companion.rulesets][] — one package per rule document.
"""

from __future__ import annotations

__version__ = "0.1.0"
__all__ = ["__version__"]

# The ruleset registry hands the table engine its folders when imported (companion.tables
# never imports the registry), so ``from companion import tables`` finds every table.
from companion import rulesets as rulesets
