"""Which tracker classes a campaign may hold, and how a move's saved arguments come back.

A tracker is stored under a *kind key* ``"<ruleset>/<kind>"`` (``"cairn_srd/Character"``,
``"monsters_and_magic/MonstersAndMagicAdventurer"``): the ruleset package it lives in and
its saved name ([Tracker.kind][companion.state.Tracker.kind] or the class name). Only the
rulesets' own trackers are accepted, so an imported file can never name arbitrary code.
"""

from __future__ import annotations

import collections.abc
import functools
import importlib
import inspect
import pkgutil
import random
import types
import typing
from typing import Any, Union

from companion import rulesets
from companion.errors import CompanionError, UnknownNameError
from companion.state import Tracker, decode_value, jsonable

__all__ = ["TABLE", "decode_args", "kind_key", "move_signature", "tracker_class", "tracker_kinds"]

_PREFIX = "companion.rulesets."


#: The table's own trackers, no ruleset's: its trust settings (issue 28).
TABLE = "table"


def _table_kinds() -> dict[str, type[Tracker]]:
    from companion.store.permissions import TableTrust

    return {f"{TABLE}/{TableTrust.saved_kind()}": TableTrust}


def kind_key(cls: type[Tracker]) -> str:
    """The key a tracker class is stored under (``"cairn_srd/Character"``; the table's
    own trust settings: ``"table/TableTrust"``)."""
    for key, known in _table_kinds().items():
        if cls is known:
            return key
    module = cls.__module__
    if not module.startswith(_PREFIX):
        raise UnknownNameError(
            f"only the rulesets' trackers can join a campaign, not {cls.__name__}"
        )
    return f"{module[len(_PREFIX):].split('.')[0]}/{cls.saved_kind()}"


def _subclasses(cls: type[Tracker]) -> list[type[Tracker]]:
    out: list[type[Tracker]] = []
    for sub in cls.__subclasses__():
        out.append(sub)
        out.extend(_subclasses(sub))
    return out


@functools.cache
def tracker_kinds(ruleset: str) -> dict[str, type[Tracker]]:
    """Every tracker class of one ruleset, by kind key (imports its modules once)."""
    package = rulesets.get(ruleset).module()
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if info.name.rsplit(".", 1)[-1] in ("cli", "reference"):
            continue
        importlib.import_module(info.name)
    prefix = f"{_PREFIX}{ruleset}"
    kinds: dict[str, type[Tracker]] = {}
    for cls in _subclasses(Tracker):
        if cls.__module__ == prefix or cls.__module__.startswith(prefix + "."):
            kinds[kind_key(cls)] = cls
    return kinds


def tracker_class(key: str) -> type[Tracker]:
    """The tracker class stored under ``key`` (an unknown key is an UnknownNameError)."""
    if not isinstance(key, str):  # a damaged stored event can hold any JSON value
        raise UnknownNameError(f"{str(key)[:40]!r} is not a tracker kind (expected ruleset/Kind)")
    ruleset, _, kind = key.partition("/")
    if not kind:
        raise UnknownNameError(f"{key!r} is not a tracker kind (expected ruleset/Kind)")
    if ruleset == TABLE:
        table = _table_kinds()
        if key not in table:
            raise UnknownNameError(f"the table has no tracker {kind!r}")
        return table[key]
    kinds = tracker_kinds(ruleset)
    if key not in kinds:
        known = ", ".join(sorted(k.partition("/")[2] for k in kinds)) or "none"
        raise UnknownNameError(f"ruleset {ruleset} has no tracker {kind!r} (known: {known})")
    return kinds[key]


class ArgsError(CompanionError):
    """A move's arguments that cannot be read back exactly (then its result is saved)."""


def _plain(tp: Any) -> Any:
    """Abstract collection hints as the concrete ones the state decoder reads."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    generic_list: Any = list
    generic_dict: Any = dict
    if origin in (collections.abc.Sequence, collections.abc.MutableSequence,
                  collections.abc.Iterable, collections.abc.Collection, list):
        return generic_list[_plain(args[0]) if args else Any]
    if origin in (collections.abc.Mapping, collections.abc.MutableMapping, dict):
        return generic_dict[args[0], _plain(args[1])] if args else generic_dict[str, Any]
    if origin in (Union, types.UnionType):
        union: Any = Union
        return union[tuple(_plain(a) for a in args)]
    return tp


_HINTS: dict[tuple[type[Tracker], str], tuple[dict[str, Any], frozenset[str]]] = {}
_SIGNATURES: dict[tuple[type[Tracker], str], inspect.Signature] = {}


def move_signature(cls: type[Tracker], name: str) -> inspect.Signature:
    """The signature of a move (``self`` included), computed once per class."""
    found = _SIGNATURES.get((cls, name))
    if found is None:
        found = _SIGNATURES[(cls, name)] = inspect.signature(getattr(cls, name))
    return found


def _move_hints(cls: type[Tracker], name: str) -> tuple[dict[str, Any], frozenset[str]]:
    found = _HINTS.get((cls, name))
    if found is None:
        fn = inspect.unwrap(getattr(cls, name))
        params = inspect.signature(fn).parameters
        hints = typing.get_type_hints(fn)
        found = ({k: _plain(hints.get(k, Any)) for k in params if k != "self"},
                 frozenset(params) - {"self"})
        _HINTS[(cls, name)] = found
    return found


def move_parameters(cls: type[Tracker], name: str) -> frozenset[str]:
    """The parameter names of a move (``self`` left out)."""
    return _move_hints(cls, name)[1]


def decode_args(cls: type[Tracker], name: str, args: dict[str, Any]) -> dict[str, Any]:
    """A move's logged arguments (JSON values) back as the values the move was called with.

    Raises [ArgsError][companion.store.registry.ArgsError] when they cannot be read back
    exactly (re-encoding them must give the same JSON).
    """
    hints, params = _move_hints(cls, name)
    unknown = set(args) - params
    if unknown:
        raise ArgsError(f"move {name} has no argument {sorted(unknown)[0]!r}")
    out: dict[str, Any] = {}
    for key, value in args.items():
        tp = hints[key]
        if tp is random.Random or key == "rng":
            continue
        try:
            out[key] = decode_value(value, tp, key, f"move {name}")
        except (CompanionError, TypeError, ValueError) as exc:
            raise ArgsError(str(exc)) from None
        if jsonable(out[key]) != value:
            raise ArgsError(f"move {name}: argument {key!r} does not read back exactly")
    return out
