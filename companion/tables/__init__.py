"""Random tables as data: one TOML file per table, validated, with exact odds.

Each table of a seed lives once, in ``companion/rulesets/<ruleset>/tables/<id>.toml``:

```toml
id = "earthmote_size"            # unique across all rulesets; equals the file stem
title = "Size"
section = "Earthmotes › Size"     # where the table is in the seed
die = "1d6"                       # any dice expression the dice engine reads
read = "total"                    # "total" (default) or "unordered" (see below)
columns = ["Size"]                # result columns (default ["Result"])
notes = "optional rule text, in our own words"

[[rows]]
range = "1"                       # the seed's own key
Size = "Tiny (≤ 1,759 sq. ft.)"
```

Row keys, as the seed writes them:

- ``total`` tables (the die's total picks the row): one roll ``"13"``, a range ``"1-2"``
  (``–`` also works), zero-padded ``"01-50"``, ``"00"`` for the top face of a d100 (``"0"``
  on a d10), an open range ``"11+"`` (to the highest total), or several joined by commas
  (``"2, 12"``).
- ``unordered`` tables (die ``"2dN"``; the two faces, in either order, pick the row): a pair
  ``"1, 2"``, or a single face ``"11"`` with ``reroll = true``: the die showing that face
  is noted (its row adds to the result) and rolled again, until it shows a face of the pairs.

Optional row fields: ``reroll`` (above) and ``printed`` — a chance the seed prints for the
row (``"5%"``, ``"12 in 23,040"``), kept as data and shown beside the computed one, flagged
when they differ. Every other row field is a column and every column must be present.

Result text may hold nested rolls: ``{2d6}`` is replaced by a roll of ``2d6``, and
``{table:other_id}`` by a roll on that table (any ruleset). They are rolled recursively;
loading refuses unknown tables and cycles.

Loading validates every table: every possible roll maps to exactly one row (no gap, no
overlap, no row that can never come up), else a [TableError][companion.errors.TableError]
that names the table and the roll. It also refuses, before any work, what could only fail
later: a key with a number outside the die (``"9+"`` on a d6, ``"1-999999999"``), of more
than `MAX_KEY_DIGITS` digits or in other than ASCII digits (``"١-6"``); a nested dice roll
that can fail on some outcome (``{1d(1d2-1)}``: checked on its exact odds, not on one
roll); nested table rolls more than `MAX_NESTING` tables deep; a file over
`MAX_FILE_BYTES` or nested too deeply to read. The seeds' looked-up (never rolled) data
files are read by the same reader, each checked against its schema
([companion.tables.fixed][]).

Where the tables are is not this module's business: the ruleset registry
([companion.rulesets][]) hands it each ruleset's folder with
[use_folders][companion.tables.use_folders] when it is imported (importing ``companion``
does that), so this module never imports the registry.

>>> from companion import tables
>>> t = tables.get("earthmote_size")
>>> t
<Table earthmote_size: 1d6, 6 rows>
>>> [(row.range, p) for row, p in t.odds()][0]
('1', Fraction(1, 6))
>>> str(t.roll(seed=1))
'Earthmote size [1d6 → 1]: Tiny (≤ 1,759 sq. ft.)'
>>> tables.get("earthmote_size").roll(seed=1).row.range
'1'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

from companion.errors import CompanionError, TableError, UnknownNameError, quoted
from companion.tables.fixed import MAX_FILE_BYTES, read_toml
from companion.tables.model import (
    MAX_KEY_DIGITS,
    MAX_NESTING,
    Read,
    Row,
    Table,
    TableResult,
    parse_key,
    parse_printed,
)

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_KEY_DIGITS",
    "MAX_NESTING",
    "Row",
    "Table",
    "TableResult",
    "all_tables",
    "get",
    "load_directory",
    "load_folders",
    "parse_printed",
    "parse_table",
    "reload",
    "use_folders",
]

_ID = re.compile(r"^[a-z0-9][a-z0-9_]*$")
_TOP_KEYS = {"id", "title", "section", "die", "read", "columns", "notes", "rows"}
_ROW_KEYS = {"range", "reroll", "printed"}

_cache: dict[str, Table] | None = None

#: Where the tables are (ruleset name -> folder of TOML files), as the registry tells it.
_folders: Callable[[], Mapping[str, Path]] | None = None


def use_folders(folders: Callable[[], Mapping[str, Path]]) -> None:
    """Read the tables from ``folders()``: each ruleset's name and its folder of TOML files.

    The ruleset registry calls this when it is imported; a test may point it elsewhere.
    The tables are read again on next use.
    """
    global _folders
    _folders = folders
    reload()


def all_tables() -> list[Table]:
    """Every table of every ruleset, loaded and validated once, sorted by ruleset then id."""
    global _cache
    if _cache is None:
        if _folders is None:
            raise TableError("no tables: the ruleset registry (companion.rulesets) has not "
                             "said where they are")
        _cache = load_folders(_folders())
    return list(_cache.values())


def get(table_id: str) -> Table:
    """The table called ``table_id`` (its id, as in ``python -m companion tables``)."""
    all_tables()
    assert _cache is not None
    try:
        return _cache[table_id]
    except KeyError:
        close = [t for t in _cache if table_id.lower() in t]
        hint = f" (did you mean {', '.join(close[:3])}?)" if close else ""
        raise UnknownNameError(f"no table named {quoted(table_id)}{hint}") from None


def reload() -> None:
    """Forget the loaded tables; the next call reads the TOML files again."""
    global _cache
    _cache = None


def load_directory(root: Path) -> dict[str, Table]:
    """Load ``root/<ruleset>/tables/*.toml`` and check ids and nested references across them."""
    return load_folders({tables.parent.name: tables for tables in sorted(root.glob("*/tables"))})


def load_folders(folders: Mapping[str, Path]) -> dict[str, Table]:
    """Load each ruleset's ``<folder>/*.toml`` and check ids and nested references across them."""
    found: dict[str, Table] = {}
    paths = [(ruleset, path) for ruleset, folder in folders.items()
             for path in sorted(folder.glob("*.toml"))]
    for ruleset, path in sorted(paths, key=lambda rp: rp[1]):
        table = load_file(path, ruleset=ruleset)
        if table.id in found:
            raise TableError(f"table id {table.id!r} is used twice: {found[table.id].source} "
                             f"and {table.source}")
        found[table.id] = table

    def lookup(table_id: str) -> Table:
        try:
            return linked[table_id]
        except KeyError:
            raise UnknownNameError(f"no table named {table_id!r}") from None

    linked = {tid: replace(t, lookup=lookup) for tid, t in found.items()}
    _check_references(linked)
    return dict(sorted(linked.items(), key=lambda kv: (kv[1].ruleset, kv[0])))


def load_file(path: Path, *, ruleset: str = "") -> Table:
    """Read and validate one TOML table file."""
    where = f"{path.parent.parent.name}/tables/{path.name}"
    # The one TOML reader of the package (companion.tables.fixed): same limits, same messages.
    data = read_toml(path, f"table file {where}")
    table = parse_table(data, ruleset=ruleset, source=where)
    if table.id != path.stem:
        raise TableError(f"table {table.id} ({where}): id must equal the file name {path.stem!r}")
    return table


def parse_table(data: dict[str, Any], *, ruleset: str = "", source: str = "") -> Table:
    """Build a [Table][companion.tables.model.Table] from TOML data and validate its coverage."""
    label = str(data.get("id", "?")) + (f" ({source})" if source else "")

    def fail(message: str) -> TableError:
        return TableError(f"table {label}: {message}")

    for key in sorted(_TOP_KEYS - {"read", "columns", "notes"} - data.keys()):
        raise fail(f"missing {key!r}")
    for key in sorted(data.keys() - _TOP_KEYS):
        raise fail(f"unknown field {key!r}")
    for key in ("id", "title", "section", "die", "notes", "read"):
        if key in data and not isinstance(data[key], str):
            raise fail(f"{key!r} must be text")
    if not _ID.match(data["id"]):
        raise fail("id must be lower-case letters, digits and underscores")
    read = data.get("read", "total")
    if read not in ("total", "unordered"):
        raise fail(f"read must be 'total' or 'unordered', got {read!r}")
    columns = data.get("columns", ["Result"])
    if (not isinstance(columns, list) or not columns
            or not all(isinstance(c, str) and c for c in columns)
            or len(set(columns)) != len(columns) or set(columns) & _ROW_KEYS):
        raise fail("columns must be a list of distinct names (not range/reroll/printed)")
    raw_rows = data["rows"]
    if not isinstance(raw_rows, list) or not raw_rows:
        raise fail("rows must be a non-empty list of [[rows]]")

    bounds = _bounds(data["die"], read, fail)
    rows: list[Row] = []
    for n, raw in enumerate(raw_rows, start=1):
        if not isinstance(raw, dict):
            raise fail(f"row {n} must be a table of fields")
        rows.append(_row(raw, n, columns, cast(Read, read), bounds, fail))
    table = Table(
        id=data["id"], title=data["title"], section=data["section"], die=data["die"],
        rows=tuple(rows), ruleset=ruleset, read=cast(Read, read), columns=tuple(columns),
        notes=data.get("notes", ""), source=source,
    )
    if read == "unordered":
        _check_unordered(table, fail)
    else:
        _check_total(table, fail)
    _check_dice_in_text(table, fail)
    return table


def _bounds(die: str, read: str, fail: Any) -> tuple[int, int]:
    """Lowest and highest face (unordered) or total (total) of the die."""
    from companion import dice

    if read == "unordered":
        match = re.match(r"^\s*2\s*d\s*([0-9]+)\s*$", die, re.IGNORECASE | re.ASCII)
        if not match or len(match.group(1)) > 6 or int(match.group(1)) < 2:
            raise fail(f"read = 'unordered' needs die '2dN' (N up to 999,999), got {quoted(die)}")
        return 1, int(match.group(1))
    try:
        dist = dice.odds(die)
    except CompanionError as exc:
        raise fail(f"die {quoted(die)}: {exc}") from None
    return dist.min, dist.max


def _row(raw: dict[str, Any], n: int, columns: list[str], read: Read,
         bounds: tuple[int, int], fail: Any) -> Row:
    key = raw.get("range")
    if isinstance(key, int) and not isinstance(key, bool):
        key = str(key)
    if not isinstance(key, str) or not key.strip():
        raise fail(f"row {n} needs a range")
    where = f"row {n} ({quoted(key)})"
    for extra in sorted(raw.keys() - _ROW_KEYS - set(columns)):
        raise fail(f"{where}: unknown column {extra!r} (columns: {', '.join(columns)})")
    values: dict[str, str] = {}
    for column in columns:
        value = raw.get(column)
        if not isinstance(value, str):
            raise fail(f"{where}: column {column!r} must be text")
        values[column] = value
    reroll = raw.get("reroll", False)
    if not isinstance(reroll, bool):
        raise fail(f"{where}: reroll must be true or false")
    printed = raw.get("printed")
    if printed is not None and not isinstance(printed, str | int | float):
        raise fail(f"{where}: printed must be text or a number")
    try:
        covers = parse_key(key, read, *bounds)
    except ValueError as exc:
        raise fail(f"{where}: {exc}") from None
    return Row(key.strip(), covers, values, reroll, None if printed is None else str(printed))


def _check_total(table: Table, fail: Any) -> None:
    possible = set(table.distribution())
    owner: dict[int, Row] = {}
    for row in table.rows:
        if row.reroll:
            raise fail(f"row {row.range!r}: reroll = true needs read = 'unordered'")
        assert isinstance(row.covers, frozenset)
        for value in sorted(row.covers):
            if value not in possible:
                raise fail(f"roll {value} (row {row.range!r}) cannot come up on {table.die}")
            if value in owner:
                raise fail(f"roll {value} is on two rows: {owner[value].range!r} "
                           f"and {row.range!r}")
            owner[value] = row
    for value in sorted(possible - owner.keys()):
        raise fail(f"roll {value} has no row")
    for row in table.rows:
        if not row.covers:
            raise fail(f"row {quoted(row.range)} covers no roll that can come up")


def _check_unordered(table: Table, fail: Any) -> None:
    sides, _ = table.faces()
    again: set[int] = set()
    for row in table.rows:
        if isinstance(row.covers, frozenset):
            (face,) = row.covers
            if not row.reroll:
                raise fail(f"row {row.range!r}: a single face needs reroll = true")
            if not 1 <= face <= sides:
                raise fail(f"roll {face} (row {row.range!r}) cannot come up on a d{sides}")
            if face in again:
                raise fail(f"roll {face} is on two rows")
            again.add(face)
        elif row.reroll:
            raise fail(f"row {row.range!r}: reroll = true needs a single face")
    if len(again) >= sides:
        raise fail("every face is a reroll face")
    owner: dict[tuple[int, int], Row] = {}
    for row in table.rows:
        if isinstance(row.covers, tuple):
            a, b = row.covers
            if not (1 <= a <= sides and 1 <= b <= sides):
                raise fail(f"roll {a}, {b} (row {row.range!r}) cannot come up on {table.die}")
            if a in again or b in again:
                raise fail(f"roll {a}, {b} (row {row.range!r}) holds a reroll face")
            if (a, b) in owner:
                raise fail(f"roll {a}, {b} is on two rows: {owner[(a, b)].range!r} "
                           f"and {row.range!r}")
            owner[(a, b)] = row
    kept = [f for f in range(1, sides + 1) if f not in again]
    for i, a in enumerate(kept):
        for b in kept[i:]:
            if (a, b) not in owner:
                raise fail(f"roll {a}, {b} has no row")


def _check_dice_in_text(table: Table, fail: Any) -> None:
    """Every nested dice roll can be rolled, whatever its dice show.

    Checked on the exact odds, not on a sample roll: ``{1d(1d2-1)}`` would roll a die of
    no sides half the time, and the engine refuses it statically.
    """
    from companion import dice

    for ref in table.references():
        if ref.startswith("table:"):
            continue
        try:
            dice.odds(ref)
        except CompanionError as exc:
            raise fail(f"nested roll {{{quoted(ref)[1:-1]}}}: {exc}") from None


def _check_references(tables: dict[str, Table]) -> None:
    """Nested table rolls name tables, form no cycle and go at most `MAX_NESTING` deep.

    An explicit stack, not recursion: a chain of thousands of tables is refused, not a
    ``RecursionError``.
    """
    targets = {tid: [r.removeprefix("table:").strip() for r in table.references()
                     if r.startswith("table:")] for tid, table in tables.items()}
    for tid, table in tables.items():
        for name in targets[tid]:
            if name not in tables:
                raise TableError(f"table {tid} ({table.source}): nested roll "
                                 f"{{table:{quoted(name)[1:-1]}}} names no table")
    # Depth-first, iteratively; depth[t] is the longest chain of tables a roll on t makes.
    depth: dict[str, int] = {}
    for start in tables:
        if start in depth:
            continue
        path, on_path, pending = [start], {start}, [iter(targets[start])]
        while pending:
            target: str | None = next(pending[-1], None)
            if target is None:
                done = path.pop()
                on_path.discard(done)
                pending.pop()
                depth[done] = 1 + max((depth[t] for t in targets[done]), default=0)
            elif target in on_path:
                cycle = [*path[path.index(target):], target]
                if len(cycle) > 8:  # name a few, say how many
                    cycle = [*cycle[:3], f"… ({len(cycle) - 1} tables) …", *cycle[-2:]]
                raise TableError(f"table {path[-1]}: nested rolls form a cycle: "
                                 f"{' → '.join(cycle)}")
            elif target not in depth:
                path.append(target)
                on_path.add(target)
                pending.append(iter(targets[target]))
    deepest = max(depth, key=lambda tid: depth[tid], default=None)
    if deepest is not None and depth[deepest] > MAX_NESTING:
        raise TableError(f"table {deepest} ({tables[deepest].source}): nested table rolls go "
                         f"{depth[deepest]} tables deep, over the limit of {MAX_NESTING}")

