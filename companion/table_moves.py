"""Table moves: a rule that moves several trackers at once, declared once by name.

Some moves of the rules reach more than one sheet: one travel period marks every
traveller's exhaustion, a loaded sheet must keep a name no other character at the table
has, a fight's newcomer joins from their sheet. A ruleset **declares** each such move
once, by a dotted name (``"monsters_and_magic.party.travel_period"``: the ruleset, the
module that declares it, the move), as a function of the table's trackers, JSON
arguments and (when it rolls) a ``random.Random``. A face asks for it by name, as an act
of plain data ([companion.table.acts][]: tracker empty, move ``table``,
``{"name": ..., "args": {...}}``); the table session runs it as **one unit of work**: every
move it makes on every tracker is judged by the seam for the seat (a player may not move
another's sheet) and stored in one transaction, or, when any of them is refused, none is.

The function reads the table through [TableTrackers][companion.table_moves.TableTrackers]
(the campaign's live trackers as the session holds them); it changes trackers only through
their own moves.

>>> from companion import table_moves
>>> table_moves.get("monsters_and_magic.party.travel_period").name
'monsters_and_magic.party.travel_period'
"""

from __future__ import annotations

import contextlib
import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from companion.errors import CompanionError, clipped
from companion.state import Tracker, jsonable

__all__ = ["TableMove", "TableMoveError", "TableTrackers", "argument", "declare", "get",
           "named_trackers"]

K = TypeVar("K", bound=Tracker)


class TableMoveError(CompanionError):
    """A table move that is not declared, or arguments it cannot read."""


class TableTrackers(Protocol):
    """The table as a table move reads it: its trackers by class, in the order they
    joined, and one by its member's id or name."""

    def trackers(self, cls: type[K]) -> list[K]: ...

    def tracker(self, id_or_name: str, cls: type[K]) -> K: ...


@dataclass(frozen=True)
class TableMove:
    """A declared table move: ``run(table, args, rng)`` makes it (``rng`` is ``None`` for
    a move that rolls nothing), ``result(value)`` is what it gave as JSON, ``text(value)``
    the rule's own line for it (the roll log's, when it rolls; ``None``: the line of the
    first tracker move it made, the one it was made for)."""

    name: str
    run: Callable[[TableTrackers, dict[str, Any], random.Random | None], Any]
    result: Callable[[Any], Any] = jsonable
    text: Callable[[Any], str] | None = str
    rolls: bool = False


_MOVES: dict[str, TableMove] = {}


def declare(name: str,
            run: Callable[[TableTrackers, dict[str, Any], random.Random | None], Any], *,
            result: Callable[[Any], Any] = jsonable,
            text: Callable[[Any], str] | None = str,
            rolls: bool = False) -> TableMove:
    """Declare the table move ``name`` (``"<ruleset>.<module>.<move>"``, the module
    declaring it), once."""
    parts = name.split(".")
    if len(parts) < 3 or not all(part.isidentifier() for part in parts):
        raise TableMoveError(f"a table move's name is '<ruleset>.<module>.<move>', not "
                             f"{name!r}")
    known = _MOVES.get(name)
    if known is not None and known.run.__qualname__ != run.__qualname__:
        raise TableMoveError(f"table move {name!r} is declared twice")
    move = TableMove(name, run, result, text, rolls)
    _MOVES[name] = move
    return move


def get(name: object) -> TableMove:
    """The table move declared as ``name`` (its ruleset's module imported on first use)."""
    if not isinstance(name, str):
        raise TableMoveError(f"a table move's name is text, not {type(name).__name__}")
    if name not in _MOVES:
        where = name.rpartition(".")[0].split(".")
        from companion import rulesets

        if all(part.isidentifier() for part in where) and \
                where[0] in {r.name for r in rulesets.all_rulesets()}:
            with contextlib.suppress(ImportError):
                importlib.import_module("companion.rulesets." + ".".join(where))
    move = _MOVES.get(name)
    if move is None:
        raise TableMoveError(f"no table move is declared as {clipped(name, 40)!r}")
    return move


def argument(args: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str,
             default: Any = ...) -> Any:
    """``args[key]``, checked to be of ``kind`` (a missing one is ``default``, or refused
    when there is none), for a table move's own reading of its JSON arguments."""
    if key not in args:
        if default is ...:
            raise TableMoveError(f"{where}: argument {key!r} is missing")
        return default
    value = args[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        value = None  # a JSON true is not a number here
    if value is None and default is None:
        return None
    if not isinstance(value, kinds):
        names = " or ".join(k.__name__ for k in kinds)
        raise TableMoveError(f"{where}: argument {key!r} must be {names}")
    return value


def named_trackers(table: TableTrackers, args: dict[str, Any], key: str, cls: type[K],
                   where: str, *, most: int) -> list[K] | None:
    """The trackers of ``cls`` that ``args[key]`` names (a list of member ids or names,
    at most ``most``, none twice), for a table move that moves several at once; ``None``
    when the move was not given the list (it then reads the table itself)."""
    keys = argument(args, key, list, where, None)
    if keys is None:
        return None
    if len(keys) > most or not all(isinstance(k, str) for k in keys):
        raise TableMoveError(f"{where}: argument {key!r} names at most {most} members, "
                             "each by its id or name")
    found = [table.tracker(k, cls) for k in keys]
    if len({id(t) for t in found}) != len(found):
        raise TableMoveError(f"{where}: argument {key!r} names a member twice")
    return found
