"""Table Companion: a tabletop-RPG rules companion.

The core (everything here except :mod:`companion.widgets`) imports the standard library
only, so it runs unchanged in the browser under Pyodide.

Public entry points:

- :mod:`companion.dice` — ``roll``, ``roll_many``, ``odds``, ``simulate``.
- :mod:`companion.tables` — random tables as data, with exact row odds.
- :mod:`companion.rulesets` — one package per rule document.
"""

from __future__ import annotations

__version__ = "0.1.0"
__all__ = ["__version__"]
