"""State that the rules track: observable models, trackers, moves, undo and saving.

A *tracker* is a plain class holding one rule's state (a plot-point pool, a character's
strain and wounds, a dungeon turn counter...). Its public methods are the rule's *moves*.
Writing one takes three steps:

1. Make it a ``@dataclass`` subclass of :class:`Tracker`. Every dataclass field is saved
   state; give it a type hint (``int``, ``bool``, ``str``, ``float``, ``Fraction``,
   ``X | None``, ``Literal[...]``, an ``Enum``, ``list[T]``, ``dict[str, T]`` or a nested
   dataclass) and, where the rules bound it, limits with :func:`state_field`.
2. Decorate each move with :func:`move`. A move checks the rules first and raises
   :class:`~companion.errors.RuleError` naming the rule; then it changes fields and may
   call :meth:`Tracker.describe` to set the line shown in the history.
3. Optionally override :meth:`Tracker.check_state` for rules that tie fields together
   (``lucky + unlucky == size``); it raises :class:`~companion.errors.StateError`.

>>> from dataclasses import dataclass
>>> from companion.errors import RuleError
>>> @dataclass
... class Torches(Tracker):
...     lit: int = state_field(0, min=0, max=3)
...
...     @move
...     def light(self) -> None:
...         if self.lit >= 3:
...             raise RuleError("torches: at most 3 can burn at once")
...         self.lit += 1
...         self.describe(f"lit a torch ({self.lit} burning)")
>>> t = Torches()
>>> t.light(); t.light()
>>> [e.summary for e in t.log]
['lit a torch (1 burning)', 'lit a torch (2 burning)']
>>> t.undo().summary
'lit a torch (2 burning)'
>>> Torches.from_json(t.to_json()) == t
True

What every tracker gets:

- **Atomic moves.** The state is snapshotted before a move; if the move raises anything,
  the snapshot is restored, so a refused move changes nothing.
- **An event log.** Each successful move appends an :class:`Event` (move name, arguments,
  summary). A move called from inside another move is part of the outer one's event.
- **Undo.** :meth:`Tracker.undo` restores the state before the last move. Events keep that
  snapshot, so undo still works after saving and loading.
- **Lossless JSON.** :meth:`Tracker.to_json` / :meth:`Tracker.from_json` round-trip state
  and log exactly. Loading checks every field (type, limits, unknown or missing fields)
  and every snapshot in the log, and builds nothing unless all of it is valid; the
  :class:`~companion.errors.StateError` names the field, e.g. ``log[2].before.strain``.
- **Observers.** :meth:`Observable.on_change` callbacks run after each move, undo or load
  into an existing object; the widgets re-render from them.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import inspect
import json
import math
import random
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, Literal, ParamSpec, TypeVar, Union, cast

from companion.errors import RuleError, StateError

__all__ = [
    "Event",
    "Observable",
    "Tracker",
    "move",
    "state_field",
]

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T", bound="Tracker")

#: Version of the saved-state envelope; bumped if the envelope's shape ever changes.
FORMAT_VERSION = 1


class Observable:
    """A tiny observer list: ``on_change(callback)`` and ``_changed()``.

    Callbacks receive the changed object. The list is created on first use, so dataclass
    subclasses need not call ``Observable.__init__``.
    """

    def _observer_list(self) -> list[Callable[[Any], None]]:
        observers: list[Callable[[Any], None]] | None = self.__dict__.get("_observers")
        if observers is None:
            observers = []
            self.__dict__["_observers"] = observers
        return observers

    def on_change(self, callback: Callable[[Any], None]) -> Callable[[], None]:
        """Call ``callback(self)`` after every change; returns a function that unsubscribes."""
        observers = self._observer_list()
        observers.append(callback)

        def unsubscribe() -> None:
            if callback in observers:
                observers.remove(callback)

        return unsubscribe

    def _changed(self) -> None:
        """Tell every observer that this object changed."""
        for callback in list(self._observer_list()):
            callback(self)


@dataclass(frozen=True)
class Event:
    """One move in a tracker's log.

    ``move`` is the method name, ``args`` its arguments (JSON values), ``summary`` the
    line a player reads; ``before`` is the saved state just before the move (for undo).
    """

    move: str
    args: dict[str, Any]
    summary: str
    before: dict[str, Any] = field(repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {"move": self.move, "args": self.args, "summary": self.summary,
                "before": self.before}

    def __str__(self) -> str:
        return self.summary


def state_field(
    default: Any = dataclasses.MISSING,
    *,
    default_factory: Callable[[], Any] | None = None,
    min: float | None = None,
    max: float | None = None,
    choices: tuple[Any, ...] | None = None,
    doc: str = "",
) -> Any:
    """A dataclass field with limits that loading (and :meth:`Tracker.validate`) enforce.

    ``min``/``max`` bound a number (inclusive); ``choices`` lists the allowed values.
    """
    metadata = {"min": min, "max": max, "choices": choices, "doc": doc}
    if default_factory is not None:
        return field(default_factory=default_factory, metadata=metadata)
    return field(default=default, metadata=metadata)


def move(fn: Callable[P, R]) -> Callable[P, R]:
    """Mark a tracker method as a move of the rules (see the module docs).

    The wrapped method runs atomically: on any exception the state is restored and the
    exception propagates. On success one :class:`Event` is logged and observers are told.
    """
    signature = inspect.signature(fn)

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        self = cast(Tracker, args[0])
        depth = self.__dict__.get("_move_depth", 0)
        if depth:
            # Part of an enclosing move: that move owns the snapshot and the event.
            self.__dict__["_move_depth"] = depth + 1
            try:
                return fn(*args, **kwargs)
            finally:
                self.__dict__["_move_depth"] = depth
        before = self.snapshot()
        self.__dict__["_move_depth"] = 1
        self.__dict__["_summary"] = None
        try:
            result = fn(*args, **kwargs)
        except BaseException:
            self._restore(before)
            raise
        finally:
            self.__dict__["_move_depth"] = 0
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        # An RNG object is not part of the move's meaning (a seed is); leave it out.
        call_args = {k: _jsonable(v) for k, v in list(bound.arguments.items())[1:]
                     if k != "rng" and not isinstance(v, random.Random)}
        summary = self.__dict__.get("_summary") or _default_summary(fn.__name__, call_args)
        self._event_log().append(Event(fn.__name__, call_args, summary, before))
        self._changed()
        return result

    wrapper.__dict__["is_move"] = True
    return wrapper


class Tracker(Observable):
    """Base class of every rule tracker (see the module docs for how to write one).

    Subclasses are ``@dataclass`` classes; their fields are the saved state.
    """

    #: Name written in saved files; defaults to the class name.
    kind: ClassVar[str] = ""

    # -- the log and undo -------------------------------------------------------------

    def _event_log(self) -> list[Event]:
        log: list[Event] | None = self.__dict__.get("_log")
        if log is None:
            log = []
            self.__dict__["_log"] = log
        return log

    @property
    def log(self) -> tuple[Event, ...]:
        """Every move made so far, oldest first."""
        return tuple(self._event_log())

    @property
    def can_undo(self) -> bool:
        return bool(self._event_log())

    def describe(self, summary: str) -> None:
        """Set the history line of the move being made (call inside a move)."""
        self.__dict__["_summary"] = summary

    def undo(self) -> Event:
        """Take back the last move; returns its event.

        Raises :class:`RuleError` if no move has been made.
        """
        log = self._event_log()
        if not log:
            raise RuleError(f"{self._kind()}: nothing to undo")
        event = log.pop()
        self._restore(event.before)
        self._changed()
        return event

    # -- saving -----------------------------------------------------------------------

    @classmethod
    def _kind(cls) -> str:
        return cls.kind or cls.__name__

    def snapshot(self) -> dict[str, Any]:
        """The state as plain JSON values (a deep copy)."""
        return _encode_dataclass(self)

    def to_dict(self) -> dict[str, Any]:
        """The whole saved form: kind, format version, state and log."""
        return {
            "tracker": self._kind(),
            "format": FORMAT_VERSION,
            "state": self.snapshot(),
            "log": [event.to_dict() for event in self._event_log()],
        }

    def to_json(self) -> str:
        """The saved form as JSON text (lossless: :meth:`from_json` gives an equal tracker)."""
        return json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls: type[T], text: str | bytes) -> T:
        """Load a tracker saved by :meth:`to_json`.

        Raises :class:`StateError` naming the first bad field; nothing is built then.
        """
        try:
            data = json.loads(text)
        except (ValueError, UnicodeDecodeError) as exc:
            raise StateError(f"{cls._kind()} state is not valid JSON: {exc}") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls: type[T], data: Any) -> T:
        """Build a tracker from :meth:`to_dict`'s form, checking every field first."""
        where = cls._kind()
        if not isinstance(data, dict):
            raise StateError(f"{where} state: expected a JSON object at the top level")
        _exact_keys(data, {"tracker", "format", "state", "log"}, where, "")
        if data["tracker"] != where:
            raise StateError(
                f"{where} state: field 'tracker' is {data['tracker']!r}, expected {where!r}"
            )
        if data["format"] != FORMAT_VERSION:
            raise StateError(f"{where} state: field 'format' must be {FORMAT_VERSION}")
        values = cls._decode_state(data["state"], "")
        if not isinstance(data["log"], list):
            raise StateError(f"{where} state: field 'log' must be a list")
        events = [cls._decode_event(raw, f"log[{i}]") for i, raw in enumerate(data["log"])]
        tracker = cls._build(values)
        tracker.__dict__["_log"] = events
        return tracker

    def load(self, text: str | bytes) -> None:
        """Replace this tracker's state and log with a saved one (observers stay)."""
        other = type(self).from_json(text)
        self._restore(other.snapshot())
        self.__dict__["_log"] = list(other._event_log())
        self._changed()

    def validate(self) -> None:
        """Check the current state against the field types and limits and :meth:`check_state`."""
        type(self)._decode_state(self.snapshot(), "")

    def check_state(self) -> None:
        """Rules tying several fields together; override and raise :class:`StateError`."""

    # -- internals ----------------------------------------------------------------------

    @classmethod
    def _decode_state(cls, raw: Any, prefix: str) -> dict[str, Any]:
        values = _decode_fields(cls, raw, prefix, cls._kind())
        try:
            cls._build(values).check_state()
        except StateError as exc:
            where = f" in '{prefix.rstrip('.')}'" if prefix else ""
            raise StateError(f"{cls._kind()} state{where}: {exc}") from None
        return values

    @classmethod
    def _decode_event(cls, raw: Any, path: str) -> Event:
        where = cls._kind()
        if not isinstance(raw, dict):
            raise StateError(f"{where} state: field '{path}' must be an object")
        _exact_keys(raw, {"move", "args", "summary", "before"}, where, path + ".")
        name, args, summary = raw["move"], raw["args"], raw["summary"]
        method = getattr(cls, name, None) if isinstance(name, str) else None
        if not getattr(method, "is_move", False):
            raise StateError(f"{where} state: field '{path}.move' is not a move: {name!r}")
        if not isinstance(args, dict):
            raise StateError(f"{where} state: field '{path}.args' must be an object")
        if not isinstance(summary, str):
            raise StateError(f"{where} state: field '{path}.summary' must be text")
        cls._decode_state(raw["before"], f"{path}.before.")
        return Event(name, args, summary, raw["before"])

    @classmethod
    def _build(cls: type[T], values: dict[str, Any]) -> T:
        # Bypass __init__: the values are already decoded and complete.
        tracker = cls.__new__(cls)
        for name, value in values.items():
            object.__setattr__(tracker, name, value)
        return tracker

    def _restore(self, snapshot: dict[str, Any]) -> None:
        values = _decode_fields(type(self), snapshot, "", self._kind())
        for name, value in values.items():
            object.__setattr__(self, name, value)


# -- encoding and decoding fields ------------------------------------------------------


def _jsonable(value: Any) -> Any:
    """A move argument as a JSON value (falls back to its text)."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, enum.Enum):
        return _jsonable(value.value)
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _encode_dataclass(value)
    return str(value)


def _default_summary(name: str, args: dict[str, Any]) -> str:
    shown = ", ".join(f"{k}={v!r}" for k, v in args.items())
    return f"{name.replace('_', ' ')}({shown})" if shown else name.replace("_", " ")


def _encode(value: Any) -> Any:
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, list | tuple):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        return {k: _encode(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _encode_dataclass(value)
    return value


def _encode_dataclass(obj: Any) -> dict[str, Any]:
    return {f.name: _encode(getattr(obj, f.name)) for f in dataclasses.fields(obj)}


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _exact_keys(raw: dict[str, Any], expected: set[str], where: str, prefix: str) -> None:
    for key in sorted(expected - raw.keys()):
        raise StateError(f"{where} state: missing field '{prefix}{key}'")
    for key in sorted(raw.keys() - expected, key=str):
        raise StateError(f"{where} state: unknown field '{prefix}{key}'")


def _decode_fields(cls: type, raw: Any, prefix: str, where: str) -> dict[str, Any]:
    """Decode a dataclass's fields; ``prefix`` places them in the file (``"log[2].before."``)."""
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"{cls.__name__} must be a dataclass to be saved")
    if not isinstance(raw, dict):
        name = prefix.rstrip(".") or "state"
        raise StateError(f"{where} state: field '{name}' must be an object")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    _exact_keys(raw, set(fields), where, prefix)
    hints = _hints(cls)
    return {
        name: _decode(raw[name], hints[name], f"{prefix}{name}", where, f.metadata)
        for name, f in fields.items()
    }


def _type_text(tp: Any) -> str:
    return getattr(tp, "__name__", None) or str(tp).replace("typing.", "")


def _decode(value: Any, tp: Any, path: str, where: str, meta: Any = None) -> Any:
    def bad(expected: str) -> StateError:
        return StateError(f"{where} state: field '{path}' must be {expected}, got {value!r}")

    origin = typing.get_origin(tp)
    out: Any
    if tp is Any:
        out = value
    elif origin in (Union, types.UnionType):
        options = typing.get_args(tp)
        if value is None and type(None) in options:
            return None
        errors: list[StateError] = []
        for option in options:
            if option is type(None):
                continue
            try:
                return _decode(value, option, path, where, meta)
            except StateError as exc:
                errors.append(exc)
        if len(errors) == 1:
            raise errors[0]
        raise bad(" or ".join(_type_text(o) for o in options))
    elif origin is Literal:
        if not any(type(a) is type(value) and a == value for a in typing.get_args(tp)):
            raise bad("one of " + ", ".join(repr(a) for a in typing.get_args(tp)))
        out = value
    elif tp is bool:
        if not isinstance(value, bool):
            raise bad("true or false")
        out = value
    elif tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise bad("a whole number")
        out = value
    elif tp is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise bad("a number")
        out = float(value)
    elif tp is str:
        if not isinstance(value, str):
            raise bad("text")
        out = value
    elif tp is Fraction:
        try:
            if not isinstance(value, str | int) or isinstance(value, bool):
                raise ValueError
            out = Fraction(value)
        except (ValueError, ZeroDivisionError):
            raise bad("an exact fraction like \"1/3\"") from None
    elif isinstance(tp, type) and issubclass(tp, enum.Enum):
        try:
            out = tp(value)
        except ValueError:
            raise bad("one of " + ", ".join(repr(m.value) for m in tp)) from None
    elif origin is list:
        if not isinstance(value, list):
            raise bad("a list")
        (item,) = typing.get_args(tp) or (Any,)
        out = [_decode(v, item, f"{path}[{i}]", where) for i, v in enumerate(value)]
    elif origin is tuple:
        args = typing.get_args(tp)
        if not isinstance(value, list):
            raise bad("a list")
        if len(args) == 2 and args[1] is Ellipsis:
            out = tuple(_decode(v, args[0], f"{path}[{i}]", where) for i, v in enumerate(value))
        else:
            if len(value) != len(args):
                raise bad(f"a list of {len(args)} items")
            out = tuple(
                _decode(v, a, f"{path}[{i}]", where)
                for i, (v, a) in enumerate(zip(value, args, strict=True))
            )
    elif origin is dict:
        if not isinstance(value, dict):
            raise bad("an object")
        _, item = typing.get_args(tp) or (str, Any)
        out = {k: _decode(v, item, f"{path}.{k}", where) for k, v in value.items()}
    elif isinstance(tp, type) and dataclasses.is_dataclass(tp):
        values = _decode_fields(tp, value, path + ".", where)
        out = tp(**values)
    else:
        raise TypeError(f"cannot save a field of type {tp!r} ({path})")
    if meta:
        _check_limits(out, path, where, meta)
    return out


def _check_limits(value: Any, path: str, where: str, meta: Any) -> None:
    low, high, choices = meta.get("min"), meta.get("max"), meta.get("choices")
    number = isinstance(value, int | float | Fraction) and not isinstance(value, bool)
    if number and ((low is not None and value < low) or (high is not None and value > high)):
        span = (
            f"from {low} to {high}" if low is not None and high is not None
            else f"at least {low}" if low is not None else f"at most {high}"
        )
        raise StateError(f"{where} state: field '{path}' must be {span}, got {value!r}")
    if choices is not None and value not in choices:
        allowed = ", ".join(repr(c) for c in choices)
        raise StateError(f"{where} state: field '{path}' must be one of {allowed}, got {value!r}")
