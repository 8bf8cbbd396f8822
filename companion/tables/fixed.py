"""Fixed data: the looked-up (never rolled) TOML files beside the rulesets, read one way.

A seed's table that is read, not rolled (Cairn's attack matrix, the 5e mentality costs, the
Miasma psychosis levels, the Dice Monarchs hands...) lives once as TOML beside the module
that uses it. Every such file is read by [load_fixed][companion.tables.fixed.load_fixed],
which refuses, as one [TableError][companion.errors.TableError] line naming the file:

- a file over `MAX_FILE_BYTES` (checked before it is read), not UTF-8, not valid TOML, or
  nested too deeply to read;
- a file that does not match its *schema*: the keys the module needs and their types.

A schema is written as plain Python values:

- a type (``str``, ``int``, ``float``, ``bool``, ``dict``, ``list``; ``object`` for any
  value): the value is one (a ``bool`` is never an ``int``; a ``float`` may be written
  as a whole number);
- a dict ``{"key": schema}``: a TOML table holding every key listed (a key written
  ``"key?"`` may be left out); ``"*"`` is the schema of every other key; keys the schema
  does not name are allowed (comments and printed figures kept beside the data);
- a list ``[schema]``: a non-empty array whose every item matches;
- a tuple ``(schema, ...)``: an array of exactly that many items, each matching its own
  (a row such as ``[5, "Meager tags"]`` is ``(int, str)``).

What a schema cannot say (levels 1 to 6 in order, a matrix as wide as it is tall) the
module checks after loading, with the same kind of message.

>>> check_fixed({"levels": [{"level": 1, "effect": "dizzy"}]},
...             {"levels": [{"level": int, "effect": str}]}, "psychosis.toml")
>>> check_fixed({"levels": [{"level": "one"}]}, {"levels": [{"level": int, "effect": str}]},
...             "psychosis.toml")
Traceback (most recent call last):
companion.errors.TableError: psychosis.toml: levels[0].level must be a whole number, not text
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeAlias

from companion.errors import TableError

__all__ = ["MAX_FILE_BYTES", "Schema", "check_fixed", "load_fixed", "read_toml"]

#: The largest data or table file read (the largest seed file is about ten kilobytes).
MAX_FILE_BYTES = 1_000_000

#: A schema, as described in the module docstring.
Schema: TypeAlias = type | dict[str, "Schema"] | list["Schema"] | tuple["Schema", ...]

_PACKAGE = Path(__file__).resolve().parents[1]

_WORDS: dict[type, str] = {
    str: "text", int: "a whole number", float: "a number", bool: "true or false",
    dict: "a table", list: "an array", object: "any value",
}


def read_toml(path: Path, where: str) -> dict[str, Any]:
    """The TOML document at ``path``; any problem is a `TableError` starting ``where:``."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise TableError(f"{where}: {size:,} bytes, over the limit of {MAX_FILE_BYTES:,}")
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise TableError(f"{where}: cannot be read ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise TableError(f"{where}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise TableError(f"{where}: not valid TOML ({exc})") from None
    except RecursionError:
        raise TableError(f"{where}: arrays or tables nested too deeply") from None
    except ValueError:  # e.g. an integer of thousands of digits
        raise TableError(f"{where}: a value too large to read") from None


def load_fixed(path: Path, schema: Mapping[str, Schema], *, where: str | None = None
               ) -> dict[str, Any]:
    """Read the fixed-data file at ``path`` and check it against ``schema``.

    ``where`` names the file in messages (default: its path inside the package, such as
    ``rulesets/miasma/psychosis.toml``, else its name).
    """
    where = where or _name(path)
    data = read_toml(path, where)
    check_fixed(data, dict(schema), where)
    return data


def check_fixed(data: Any, schema: Schema, where: str) -> None:
    """Raise `TableError` ``"<where>: <key> must be ..."`` at the first value not matching."""
    problem = _problem(data, schema, "")
    if problem is not None:
        raise TableError(f"{where}: {problem}")


def _name(path: Path) -> str:
    try:
        return path.resolve().relative_to(_PACKAGE).as_posix()
    except ValueError:
        return path.name


def _problem(value: Any, schema: Schema, at: str) -> str | None:
    """What is wrong with ``value`` at key path ``at``, or ``None``. An explicit walk of the
    schema, which is code, not data: its depth is the schema's, never the file's."""
    if isinstance(schema, type):
        wanted = (int, float) if schema is float else schema  # TOML writes 2.0 as 2 too
        ok = isinstance(value, wanted) and (schema in (bool, object)
                                            or not isinstance(value, bool))
        return None if ok else f"{at or 'the file'} must be {_WORDS[schema]}, not {_kind(value)}"
    if isinstance(schema, dict):
        if not isinstance(value, dict):
            return f"{at or 'the file'} must be a table, not {_kind(value)}"
        named = {key.rstrip("?") for key in schema if key != "*"}
        for key, inner in schema.items():
            name = key.rstrip("?")
            if key == "*":
                for other in [k for k in value if k not in named]:  # file order
                    if (problem := _problem(value[other], inner, _join(at, other))) is not None:
                        return problem
            elif name not in value:
                if not key.endswith("?"):
                    return f"missing {_join(at, name)}"
            elif (problem := _problem(value[name], inner, _join(at, name))) is not None:
                return problem
        return None
    if not isinstance(value, list):
        return f"{at} must be an array, not {_kind(value)}"
    if isinstance(schema, list):
        if not value:
            return f"{at} must not be empty"
        items = [(value[i], schema[0]) for i in range(len(value))]
    else:
        if len(value) != len(schema):
            return f"{at} must hold {len(schema)} items, not {len(value)}"
        items = list(zip(value, schema, strict=True))
    for i, (item, inner) in enumerate(items):
        if (problem := _problem(item, inner, f"{at}[{i}]")) is not None:
            return problem
    return None


def _join(at: str, key: str) -> str:
    shown = key if key.isidentifier() else repr(key)
    return f"{at}.{shown}" if at else shown


def _kind(value: Any) -> str:
    for kind in (bool, int, float, str, dict, list):
        if isinstance(value, kind):
            return _WORDS[kind]
    return type(value).__name__
