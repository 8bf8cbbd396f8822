"""State that the rules track: observable models, trackers, moves, undo and saving.

A *tracker* is a plain class holding one rule's state (a plot-point pool, a character's
strain and wounds, a dungeon turn counter...). Its public methods are the rule's *moves*.
Writing one takes three steps:

1. Make it a ``@dataclass`` subclass of [Tracker][companion.state.Tracker]. Every dataclass
   field is saved state; give it a type hint (``int``, ``bool``, ``str``, ``float``,
   ``Fraction``, ``X | None``, ``Literal[...]``, an ``Enum``, ``list[T]``, ``dict[str, T]``
   or a nested dataclass) and, where the rules bound it, limits with
   [state_field][companion.state.state_field].
2. Decorate each move with [move][companion.state.move]. A move checks the rules first and
   raises [RuleError][companion.errors.RuleError] naming the rule; then it changes fields and
   may call [Tracker.describe][companion.state.Tracker.describe] to set the line shown in the
   history.
3. State the rules that tie fields together (``lucky + unlucky == size``) once, as a
   ``check_state()`` method (see *Invariants* below).

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
- **An event log.** Each successful move appends an [Event][companion.state.Event] (move
  name, arguments, summary). A move called from inside another move is part of the outer
  one's event.
- **Undo.** [Tracker.undo][companion.state.Tracker.undo] restores the state before the last
  move. Events keep that snapshot, so undo still works after saving and loading.
- **Lossless JSON.** [Tracker.to_json][companion.state.Tracker.to_json] /
  [Tracker.from_json][companion.state.Tracker.from_json] round-trip state and log exactly.
  Loading checks every field (type, limits, unknown or missing fields), every invariant and
  every snapshot in the log, and builds nothing unless all of it is valid.
- **Old saves keep loading.** A campaign lives for months while its trackers gain fields:
  a field missing from a save (in the tracker, a nested record or an undo snapshot) that
  has a default (``state_field(default)``, ``default_factory``) loads as that default. A
  missing field without a default is still a [StateError][companion.errors.StateError],
  and so is a field the class does not know.
- **Schema versions.** A change that would misread an older state (a field renamed,
  rescaled, or a rule about the state made stricter) raises the class's
  [schema][companion.state.Tracker.schema] and registers one
  [upcaster][companion.state.upcaster] per version step; a save records its version
  (``"schema"``, absent: 1) and is upgraded as it is read. A version newer than the
  class's is refused in one line.
- **History is restored, not judged.** A keeper restoring what it stored (a campaign's
  facts, snapshots, ``set`` events: [from_dict][companion.state.Tracker.from_dict] with
  ``checked=False``, [restore_save][companion.state.Tracker.restore_save],
  [apply_fact][companion.state.Tracker.apply_fact]) checks only that the values are of
  the fields' types: no limit, ``check_state`` or ``__post_init__`` of today's version
  runs, so a stricter rule never keeps an old campaign from opening. Rules judge moves.
- **Links.** A tracker that reads others at its table declares their kinds
  ([links][companion.state.Tracker.links]); whoever seats it there
  ([link][companion.state.Tracker.link]: a campaign, or a plain dict of trackers by id)
  gives it the table, and [linked][companion.state.Tracker.linked] finds them when a move
  needs them. Nothing links trackers by a stored function.
- **Observers.** [Observable.on_change][companion.state.Observable.on_change] callbacks run
  after each move, undo or load into an existing object; the widgets re-render from them.

Invariants (what a save may hold)
---------------------------------

A tracker states each rule about its state once, and loading enforces it; a save the rules
forbid is refused with a [StateError][companion.errors.StateError], never half-loaded:

- **Limits of one value**: ``state_field(default, min=, max=, choices=, max_len=)``. They
  hold wherever the field is: in the tracker, in a nested record (a dataclass held in a
  field, a list or a dict), and in every undo snapshot. On a ``list``/``tuple``/``dict``
  field, ``min``/``max``/``choices`` bound each item and ``max_len`` the number of items;
  on text, ``max_len`` bounds its length.
- **Rules tying fields together**: a method ``check_state(self) -> None`` that raises
  ``StateError("field 'hp' ...")`` (or [RuleError][companion.errors.RuleError]). Write it
  on the tracker *and on any nested record class* (a plain ``@dataclass`` needs no base
  class: loading calls ``check_state()`` on every saved dataclass that has one, innermost
  first). The message is prefixed with where the record is, e.g.
  ``log[2].before.items[3]``. [Tracker.validate][companion.state.Tracker.validate] runs the
  same checks on a live tracker (tests call it after moves).
- A record whose ``__post_init__`` raises ``ValueError``, ``TypeError`` or a project error
  is refused the same way.

>>> @dataclass
... class Stack(Tracker):
...     name: str = state_field("", max_len=40)
...     count: int = state_field(1, min=1, max=99)
...     def check_state(self) -> None:
...         if self.name == "" and self.count > 1:
...             raise StateError("field 'count': an unnamed stack holds one thing")
>>> bad = '{"tracker": "Stack", "format": 1, "log": [],'
>>> bad += ' "state": {"name": "", "count": 3}}'
>>> Stack.from_json(bad)
Traceback (most recent call last):
...
companion.errors.StateError: this stack save: field 'count': an unnamed stack holds one thing

Load errors are written for a player: the tracker's [Tracker.what][companion.state.Tracker.what]
(``"plot point session"``, derived from the class name unless set), the field's path, and
the offending value clipped to a short excerpt; never a class name or the JSON parser's own
words. Saves are bounded: at most ``MAX_SAVE_CHARS`` characters.

For code that keeps trackers elsewhere (the campaign store)
-----------------------------------------------------------

The store replays moves from its own log and persists each move as it is made. It uses only
this public part of the module, never its internals:

- [is_move][companion.state.is_move]: whether a class attribute is a
  [move][companion.state.move] (a logged move name read back from a file must be one);
  [who_may][companion.state.who_may]: who the move declares may make it (``OWNER``,
  ``GM``, ``ANY_SEAT``, ``OWN_NUMBERS``), which the keeper checks at its seam.
- [Tracker.saved_kind][companion.state.Tracker.saved_kind]: the name a save carries.
- [Tracker.from_state][companion.state.Tracker.from_state]: build a tracker from a state
  alone (a fresh log), checked like any load.
- [Tracker.in_move][companion.state.Tracker.in_move]: whether a move is running now (a move
  called from inside another one belongs to that one's event).
- [Tracker.trim_log][companion.state.Tracker.trim_log]: keep only the newest events (undo
  reaches no further back).
- [decode_value][companion.state.decode_value] and [jsonable][companion.state.jsonable]:
  a move argument from its logged JSON value (checked as a saved field is) and back.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import enum
import functools
import inspect
import json
import math
import random
import re
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, Literal, ParamSpec, TypeVar, Union, cast

from companion.errors import CompanionError, RuleError, StateError, clipped

__all__ = [
    "ANY_SEAT",
    "GM",
    "MAX_SAVE_CHARS",
    "OWNER",
    "OWN_NUMBERS",
    "WHO_MAY",
    "Event",
    "Observable",
    "Recorder",
    "Tracker",
    "apply_change",
    "check_schema",
    "decode_value",
    "is_move",
    "jsonable",
    "move",
    "state_change",
    "state_field",
    "upcast_state",
    "upcaster",
    "upcasters_of",
    "who_may",
]

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T", bound="Tracker")

#: Version of the saved-state envelope; bumped if the envelope's shape ever changes.
FORMAT_VERSION = 1

#: The longest save text loading reads (characters); longer is refused before parsing.
#: Loading costs about 0.1 ms per logged move on this machine, so at most a few seconds.
MAX_SAVE_CHARS = 10_000_000

#: The longest history line (event summary) a save may hold.
MAX_SUMMARY_CHARS = 2_000

#: Digits allowed in each part of a saved exact fraction ("123/456").
MAX_FRACTION_DIGITS = 200

#: Non-zero while a state is restored as it was (no limits, invariants or ``__post_init__``
#: judged): a move's rollback, a stored fact, a campaign's history. Per thread (a context
#: variable): a campaign's watcher thread restoring history must not switch off the checks
#: of a file another thread is loading.
_UNCHECKED: contextvars.ContextVar[int] = contextvars.ContextVar("unchecked", default=0)


@contextlib.contextmanager
def _unchecked() -> Iterator[None]:
    token = _UNCHECKED.set(_UNCHECKED.get() + 1)
    try:
        yield
    finally:
        _UNCHECKED.reset(token)


#: Upcasters by (tracker class, the schema version they read): each turns a state of that
#: version into one of the next ([upcaster][companion.state.upcaster]).
_UPCASTERS: dict[tuple[type, int], Callable[[dict[str, Any]], dict[str, Any]]] = {}

_DIGITS = f"[0-9]{{1,{MAX_FRACTION_DIGITS}}}"
_FRACTION_TEXT = re.compile(rf"\s*-?{_DIGITS}(?:/{_DIGITS})?\s*", re.ASCII)


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
        """Tell every observer that this object changed (through its recorder, if one is
        attached: it decides when observers hear of it)."""
        recorder: Recorder | None = self.__dict__.get("_recorder")
        if recorder is not None:
            recorder.tracker_changed(cast(Tracker, self))
        else:
            self.notify_observers()

    def notify_observers(self) -> None:
        """Call every observer now."""
        for callback in list(self._observer_list()):
            callback(self)


class Recorder(typing.Protocol):
    """The one seam between a tracker and whoever keeps it (the campaign's unit of work).

    A tracker with a recorder attached ([Tracker.attach][companion.state.Tracker.attach])
    hands every outermost move, undo and load to it: the recorder checks who may make it,
    runs ``perform`` (which makes the move atomically and logs it) and records the result.
    Nothing replaces a tracker's methods: ``t.move.__func__ is type(t).move`` holds.
    """

    def record_move(self, tracker: Tracker, name: str, arguments: dict[str, Any],
                    perform: Callable[[dict[str, Any]], Any]) -> Any: ...

    def record_undo(self, tracker: Tracker, perform: Callable[[], Event]) -> Event: ...

    def record_load(self, tracker: Tracker, text: str | bytes,
                    perform: Callable[[], None]) -> None: ...

    def tracker_changed(self, tracker: Tracker) -> None: ...


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
    max_len: int | None = None,
    doc: str = "",
) -> Any:
    """A dataclass field with limits that loading and
    [Tracker.validate][companion.state.Tracker.validate] enforce.

    ``min``/``max`` bound a number (inclusive); ``choices`` lists the allowed values;
    ``max_len`` bounds the length of text or the number of items of a list or dict. On a
    list, tuple or dict field, ``min``/``max``/``choices`` apply to each item (value).
    """
    metadata = {"min": min, "max": max, "choices": choices, "max_len": max_len, "doc": doc}
    if default_factory is not None:
        return field(default_factory=default_factory, metadata=metadata)
    return field(default=default, metadata=metadata)


#: Who may make a move at a shared table, as the move declares it (``@move(who_may=...)``);
#: a keeper of trackers (the campaign store) enforces it at its seam.
#: The tracker's owner (the player whose character it is; on a shared tracker, the
#: character [Tracker.acting_for][companion.state.Tracker.acting_for] names) and the GM.
#: The default: a move declared nothing is never anyone else's.
OWNER = "owner"
#: The GM alone, even on a player's own sheet (the table's setup, chips bought).
GM = "gm"
#: Any seat at the table (never a spectator).
ANY_SEAT = "any seat"
#: The owner's only when the GM trusts players to edit their own numbers (maxima, armour,
#: levels: the table's correction of a sheet), else the GM's.
OWN_NUMBERS = "own numbers"
#: Every declaration a move may make.
WHO_MAY = (OWNER, GM, ANY_SEAT, OWN_NUMBERS)

_WHO_MAY_MARK = "who_may"


@typing.overload
def move(fn: Callable[P, R], /) -> Callable[P, R]: ...


@typing.overload
def move(*, who_may: str = OWNER) -> Callable[[Callable[P, R]], Callable[P, R]]: ...


def move(fn: Callable[P, R] | None = None, /, *, who_may: str = OWNER
         ) -> Callable[P, R] | Callable[[Callable[P, R]], Callable[P, R]]:
    """Mark a tracker method as a move of the rules (see the module docs).

    The wrapped method runs atomically: on any exception the state is restored and the
    exception propagates. On success one [Event][companion.state.Event] is logged and
    observers are told.

    ``@move(who_may=GM)`` declares who may make it at a shared table (one of ``WHO_MAY``;
    read back with [who_may][companion.state.who_may]); plain ``@move`` is ``OWNER``.
    """
    if who_may not in WHO_MAY:
        raise ValueError(f"who_may is one of {', '.join(WHO_MAY)}, not {who_may!r}")
    if fn is None:
        return lambda f: _make_move(f, who_may)
    return _make_move(fn, who_may)


def who_may(attribute: Any) -> str:
    """Who may make the [move][companion.state.move] ``attribute`` (a class attribute):
    one of ``WHO_MAY`` (``OWNER`` unless the move declared otherwise)."""
    declared = getattr(attribute, _WHO_MAY_MARK, OWNER)
    return declared if declared in WHO_MAY else OWNER


def _make_move(fn: Callable[P, R], declared: str) -> Callable[P, R]:
    signature = inspect.signature(fn)
    from companion.move_types import argument_check

    check_arguments = argument_check(fn)

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
        bound = signature.bind(*args, **kwargs)
        check_arguments(bound)
        arguments = dict(list(bound.arguments.items())[1:])
        recorder: Recorder | None = self.__dict__.get("_recorder")
        if recorder is None:
            return perform(self, arguments)
        return cast(R, recorder.record_move(self, fn.__name__, arguments,
                                            lambda given: perform(self, given)))

    def perform(self: Tracker, arguments: dict[str, Any]) -> R:
        """Make the move now: atomically, logging one event and telling observers."""
        before = self.snapshot()
        self.__dict__["_move_depth"] = 1
        self.__dict__["_summary"] = None
        try:
            result = cast(Callable[..., R], fn)(self, **arguments)
        except BaseException:
            self._restore(before)
            raise
        finally:
            self.__dict__["_move_depth"] = 0
        bound = signature.bind(self, **arguments)
        bound.apply_defaults()
        # An RNG object is not part of the move's meaning (a seed is); leave it out.
        call_args = {k: jsonable(v) for k, v in list(bound.arguments.items())[1:]
                     if k != "rng" and not isinstance(v, random.Random)}
        summary = self.__dict__.get("_summary") or _default_summary(fn.__name__, call_args)
        self._event_log().append(Event(fn.__name__, call_args, summary, before))
        self._changed()
        return result

    wrapper.__dict__[_MOVE_MARK] = True
    wrapper.__dict__[_WHO_MAY_MARK] = declared
    return wrapper


_MOVE_MARK = "is_move"


def is_move(attribute: Any) -> bool:
    """Whether ``attribute`` (a class attribute, e.g. ``getattr(cls, name, None)``) is a
    [move][companion.state.move]."""
    return bool(getattr(attribute, _MOVE_MARK, False))


class Tracker(Observable):
    """Base class of every rule tracker (see the module docs for how to write one).

    Subclasses are ``@dataclass`` classes; their fields are the saved state.
    """

    #: Name written in saved files; defaults to the class name.
    kind: ClassVar[str] = ""

    #: What a player calls it, in load errors ("this plot point session save: ...");
    #: defaults to the class name in words.
    what: ClassVar[str] = ""

    #: The version of this tracker's saved state (its fields and what they mean). Raise it
    #: when a change would misread an older state, and register an
    #: [upcaster][companion.state.upcaster] from the version before: saves and stored
    #: facts record the version they were written at and are upgraded as they are read.
    schema: ClassVar[int] = 1

    #: The kinds of tracker (their [saved_kind][companion.state.Tracker.saved_kind]
    #: names) this one reads at its table, declared by its ruleset: a Cairn fight reads the
    #: party's ``Character`` sheets, a sheet the ``Encounter`` it may be in. They are
    #: found through [link][companion.state.Tracker.link], never stored in the state.
    links: ClassVar[tuple[str, ...]] = ()

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

    @property
    def in_move(self) -> bool:
        """Whether one of this tracker's moves is running now."""
        return bool(self.__dict__.get("_move_depth", 0))

    def trim_log(self, keep: int) -> None:
        """Forget all but the newest ``keep`` events (undo then reaches no further back)."""
        log = self._event_log()
        if len(log) > keep:
            del log[: len(log) - max(keep, 0)]

    def describe(self, summary: str) -> None:
        """Set the history line of the move being made (call inside a move)."""
        self.__dict__["_summary"] = summary

    @property
    def summary_so_far(self) -> str | None:
        """The history line the move being made has set so far (``None``: none yet)."""
        summary: str | None = self.__dict__.get("_summary") if self.in_move else None
        return summary

    def undo_refusal(self, role: str) -> str | None:
        """Why a seat of ``role`` (``"gm"`` or ``"player"``) may not take back this
        tracker's newest move by the tracker's own rules, or ``None`` (the seam's rules
        alone then decide: a seat its own newest move, the GM any).

        The seam ([Campaign.may_undo][companion.store.campaign.Campaign.may_undo]) asks
        it on every undo, so every face ([Session.undo][companion.table.session.Session.undo])
        keeps the rule; the database's holder (a hot seat once everyone agreed, the
        command line) asks as the GM. A game with hidden information overrides it (only
        the GM decides an undo there; a move that revealed something stays). A plain
        ``undo()`` on a tracker kept nowhere does not ask: replaying history (an old
        campaign's stored undo) runs no rule code."""
        return None

    def undo_as(self, role: str) -> Event:
        """Undo as ``role`` by the tracker's own rule
        ([undo_refusal][companion.state.Tracker.undo_refusal]),
        for code that holds the tracker itself; a face undoes through its session, whose
        seat is the role."""
        refusal = self.undo_refusal(role)
        if refusal is not None:
            raise RuleError(refusal)
        return self.undo()

    def undo(self) -> Event:
        """Take back the last move; returns its event.

        Raises [RuleError][companion.errors.RuleError] if no move has been made.
        """
        recorder: Recorder | None = self.__dict__.get("_recorder")
        if recorder is not None:
            return recorder.record_undo(self, self._undo_now)
        return self._undo_now()

    def _undo_now(self) -> Event:
        log = self._event_log()
        if not log:
            raise RuleError("nothing to undo")
        event = log.pop()
        self._restore(event.before)
        self._changed()
        return event

    # -- saving -----------------------------------------------------------------------

    @classmethod
    def saved_kind(cls) -> str:
        """The name this tracker's saves carry: [kind][companion.state.Tracker.kind] or the
        class name."""
        return cls.kind or cls.__name__

    @classmethod
    def _where(cls) -> str:
        """How load errors name this save: ``"this plot point session save"``."""
        words = cls.what or re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", cls.__name__).lower()
        return f"this {words} save"

    def snapshot(self) -> dict[str, Any]:
        """The state as plain JSON values (a deep copy)."""
        return _encode_dataclass(self)

    def to_dict(self) -> dict[str, Any]:
        """The whole saved form: kind, format version, state and log; the state's
        [schema][companion.state.Tracker.schema] version when it is above 1 (a save
        without one is of version 1)."""
        out = {
            "tracker": self.saved_kind(),
            "format": FORMAT_VERSION,
            "state": self.snapshot(),
            "log": [event.to_dict() for event in self._event_log()],
        }
        if type(self).schema != 1:
            out["schema"] = type(self).schema
        return out

    def to_json(self) -> str:
        """The saved form as JSON text.

        Lossless: [Tracker.from_json][companion.state.Tracker.from_json] gives an equal tracker.
        """
        return json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls: type[T], text: str | bytes) -> T:
        """Load a tracker saved by [Tracker.to_json][companion.state.Tracker.to_json].

        Raises [StateError][companion.errors.StateError] naming the first bad field (or
        why the text is not a save at all); nothing is built then.
        """
        return cls.from_dict(_parse_save(text, cls._where()))

    @classmethod
    def from_dict(cls: type[T], data: Any, *, checked: bool = True) -> T:
        """Build a tracker from the form [Tracker.to_dict][companion.state.Tracker.to_dict]
        gives, checking every field and invariant first; a save of an older
        [schema][companion.state.Tracker.schema] is upgraded by its upcasters first.

        ``checked=False`` restores it as it was stored (history: a campaign's facts): the
        values must still be of the fields' types, but no limit, ``check_state`` or
        ``__post_init__`` of today's version judges them, and a logged move a later
        version renamed stays in the log as the fact it was."""
        where = cls._where()
        try:
            if checked:
                return cls._from_dict(data, where)
            with _unchecked():
                return cls._from_dict(data, where)
        except RecursionError:
            raise StateError(f"{where} is nested too deeply to be a save") from None

    @classmethod
    def from_state(cls: type[T], state: Any, *, schema: int = 1,
                   checked: bool = True) -> T:
        """A tracker holding ``state`` (the form [snapshot][companion.state.Tracker.snapshot]
        gives, of the schema version ``schema``) and an empty log, checked as a load is
        (``checked=False``: restored as stored, see
        [from_dict][companion.state.Tracker.from_dict])."""
        return cls.from_dict({"tracker": cls.saved_kind(), "format": FORMAT_VERSION,
                              "state": state, "log": [], "schema": schema}, checked=checked)

    @classmethod
    def _from_dict(cls: type[T], data: Any, where: str) -> T:
        if not isinstance(data, dict):
            raise StateError(f"{where} is not a saved state (expected an object at the top level)")
        _exact_keys(data, {"tracker", "format", "state", "log", "schema"} if "schema" in data
                    else {"tracker", "format", "state", "log"}, where, "")
        kind = data["tracker"]
        if kind != cls.saved_kind():
            raise StateError(
                f"{where}: field 'tracker' says it saves something else ({_shown(kind)})"
            )
        version = data["format"]
        if type(version) is not int or version != FORMAT_VERSION:
            raise StateError(
                f"{where}: field 'format' must be {FORMAT_VERSION}, got {_shown(version)}"
            )
        schema = data.get("schema", 1)
        state, log = data["state"], data["log"]
        if not isinstance(log, list):
            raise StateError(f"{where}: field 'log' must be a list")
        if check_schema(cls, schema, where) != cls.schema:
            state = upcast_state(cls, state, schema)
            log = [{**raw, "before": upcast_state(cls, raw["before"], schema)}
                   if isinstance(raw, dict) and "before" in raw else raw for raw in log]
        values = cls._decode_state(state, "")
        events = [cls._decode_event(raw, f"log[{i}]") for i, raw in enumerate(log)]
        tracker = cls._build(values)
        tracker.__dict__["_log"] = events
        return tracker

    def load(self, text: str | bytes) -> None:
        """Replace this tracker's state and log with a saved one (observers stay)."""
        recorder: Recorder | None = self.__dict__.get("_recorder")
        if recorder is not None:
            recorder.record_load(self, text, lambda: self._load_now(text))
        else:
            self._load_now(text)

    def _load_now(self, text: str | bytes) -> None:
        self.restore_save(type(self).from_json(text).to_dict())

    def restore_save(self, data: Any) -> None:
        """Replace state and log with the saved form ``data`` (what
        [to_dict][companion.state.Tracker.to_dict] gives), restored as it was stored
        (types only: no limit or invariant judged, see
        [from_dict][companion.state.Tracker.from_dict]), without telling the recorder:
        for the keeper itself (a stored ``set`` fact, putting back what a refused roll
        moved, hiding a hidden roll's dice in the log). A player's file is checked first
        ([load][companion.state.Tracker.load] reads it with ``from_json``)."""
        other = type(self).from_dict(data, checked=False)
        self._restore(other.snapshot())
        self.__dict__["_log"] = list(other._event_log())
        self._changed()

    # -- the seam to a keeper (the campaign) -----------------------------------------------

    def attach(self, recorder: Recorder | None) -> None:
        """Hand this tracker's moves, undo and load to ``recorder`` (``None``: detach)."""
        if recorder is None:
            self.__dict__.pop("_recorder", None)
        else:
            self.__dict__["_recorder"] = recorder

    @property
    def recorder(self) -> Recorder | None:
        """The keeper this tracker reports to, if any."""
        recorder: Recorder | None = self.__dict__.get("_recorder")
        return recorder

    def link(self, table: Mapping[str, Tracker] | None) -> None:
        """Seat this tracker at a table: ``table`` holds the trackers at it by id (a
        campaign's members: the campaign links every tracker it holds as it opens or
        adds it; or a plain dict, ``{"ash": ash, "fight": fight}``). The tracker reads
        the kinds it declares in [links][companion.state.Tracker.links] from it
        ([linked][companion.state.Tracker.linked]), at the moment it needs them: a tracker
        added later is found. ``None``: alone again. Not saved state, and no function is
        kept: only the table, which holds data."""
        if table is None:
            self.__dict__.pop("_table", None)
            return
        if not isinstance(table, Mapping):
            what = "a function" if callable(table) else type(table).__name__
            raise TypeError("link takes the trackers at the table by id (a mapping such as "
                            f"a dict), not {what}")
        self.__dict__["_table"] = table

    def linked(self, kind: type[T]) -> dict[str, T]:
        """The trackers of ``kind`` at this tracker's table, by id (``{}`` when it sits at
        none); ``kind`` must be one it declares in [links][companion.state.Tracker.links]."""
        if kind.saved_kind() not in type(self).links:
            raise TypeError(f"{type(self).__name__} declares no link to {kind.__name__}")
        table: Mapping[str, Tracker] = self.__dict__.get("_table") or {}
        return {key: t for key, t in table.items() if isinstance(t, kind) and t is not self}

    def acting_for(self, move: str, arguments: dict[str, Any]) -> tuple[str, ...] | None:
        """Whose action the move ``move`` with ``arguments`` is, at a shared table: the
        names of the characters it acts for (a player's seat may make it when they are
        all its own character). ``None``: the table's own move, the GM's alone.

        Override on shared trackers (a fight, a minigame); a tracker that belongs to one
        party member (a sheet, a record) is that member's, whatever this says.
        """
        return None

    def save_point(self) -> tuple[dict[str, Any], tuple[Event, ...]]:
        """The state and log as they are now, to [return_to][companion.state.Tracker.return_to]
        (a keeper's undo of moves it did not store: cheaper than a whole save)."""
        return self.snapshot(), tuple(self._event_log())

    def return_to(self, point: tuple[dict[str, Any], tuple[Event, ...]]) -> None:
        """Put the state and log back to a [save_point][companion.state.Tracker.save_point]
        (not told to the recorder; observers hear of it)."""
        state, log = point
        self._restore(state)
        self.__dict__["_log"] = list(log)
        self._changed()

    # -- facts: what a stored move changed ---------------------------------------------

    def apply_fact(self, move: str, args: dict[str, Any], summary: str,
                   change: list[Any]) -> None:
        """Apply a stored move as the fact it is (``change``, from
        [state_change][companion.state.state_change]): no rule code runs, no limit or
        invariant is judged; the move joins the log (so it can be undone)."""
        before = self.snapshot()
        after = apply_change(before, change)
        self._restore_fields(after, _changed_fields(change))
        self._event_log().append(Event(move, args, summary, before))
        self._changed()

    def apply_fact_state(self, move: str | None, args: dict[str, Any], summary: str,
                         after: dict[str, Any]) -> None:
        """Apply a stored move (``move``; ``None``: a stored undo) as the fact it is, given
        the whole state after it (a fact stored at an older schema version, upgraded):
        restored as it is, the move joining the log (an undo leaving it)."""
        before = self.snapshot()
        log = self._event_log()
        self._restore(after)
        if move is None:
            if log:
                log.pop()
        else:
            log.append(Event(move, args, summary, before))
        self._changed()

    def apply_undo_fact(self, change: list[Any]) -> None:
        """Apply a stored undo as the fact it is: the state changes by ``change`` and the
        newest logged move (the one taken back) leaves the log."""
        after = apply_change(self.snapshot(), change, copy=False)
        log = self._event_log()
        if log:
            log.pop()
        self._restore_fields(after, _changed_fields(change))
        self._changed()

    def validate(self) -> None:
        """Check the current state as loading would: types, limits and every ``check_state``."""
        type(self)._decode_state(self.snapshot(), "")

    def check_state(self) -> None:
        """Rules tying several fields together: override, raise
        [StateError][companion.errors.StateError].

        Loading calls it on the built state (and on every undo snapshot); nested record
        classes may define their own ``check_state`` too (see the module docs).
        """

    # -- internals ----------------------------------------------------------------------

    @classmethod
    def _decode_state(cls, raw: Any, prefix: str) -> dict[str, Any]:
        where = cls._where()
        values = _decode_fields(cls, raw, prefix, where)
        _run_check(cls._build(values), prefix.rstrip("."), where)
        return values

    @classmethod
    def _decode_event(cls, raw: Any, path: str) -> Event:
        where = cls._where()
        if not isinstance(raw, dict):
            raise StateError(f"{where}: field '{path}' must be an object")
        _exact_keys(raw, {"move", "args", "summary", "before"}, where, path + ".")
        name, args, summary = raw["move"], raw["args"], raw["summary"]
        method = getattr(cls, name, None) if isinstance(name, str) else None
        if not is_move(method) and not (_UNCHECKED.get() and isinstance(name, str)):
            # (restored history keeps a move a later version renamed as the fact it was)
            raise StateError(f"{where}: field '{path}.move' is not a move: {_shown(name)}")
        if not isinstance(args, dict):
            raise StateError(f"{where}: field '{path}.args' must be an object")
        if not isinstance(summary, str):
            raise StateError(f"{where}: field '{path}.summary' must be text")
        if len(summary) > MAX_SUMMARY_CHARS:
            raise StateError(f"{where}: field '{path}.summary' holds {len(summary):,} "
                             f"characters, at most {MAX_SUMMARY_CHARS:,} allowed")
        cls._decode_state(raw["before"], f"{path}.before.")
        return Event(name, args, summary, raw["before"])

    @classmethod
    def _build(cls: type[T], values: dict[str, Any]) -> T:
        # Bypass __init__: the values are already decoded and complete.
        tracker = cls.__new__(cls)
        for name, value in values.items():
            object.__setattr__(tracker, name, value)
        return tracker

    def _restore_fields(self, snapshot: dict[str, Any], names: set[str] | None) -> None:
        """Restore only the fields ``names`` from ``snapshot`` (``None``: all of them)."""
        if names is None:
            self._restore(snapshot)
            return
        fields = [f for f in dataclasses.fields(cast(Any, self)) if f.name in names]
        if len(fields) != len(names):
            self._restore(snapshot)  # a field this class lacks: the whole check says which
            return
        hints = _hints(cast(Any, type(self)))
        try:
            with _unchecked():
                values = {f.name: _decode(snapshot[f.name], hints[f.name], f.name,
                                          self._where(), f.metadata) for f in fields}
        except KeyError:
            raise StateError(f"{self._where()}: a stored change removed a field") from None
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def _restore(self, snapshot: dict[str, Any]) -> None:
        # The snapshot came from this object: restore it as it was, without judging it
        # (a move's rollback must not fail on a state the constructor allowed).
        with _unchecked():
            values = _decode_fields(type(self), snapshot, "", self._where())
        for name, value in values.items():
            object.__setattr__(self, name, value)


# -- schema versions and upcasters -----------------------------------------------------


def upcaster(cls: type[Tracker], *, from_version: int
             ) -> Callable[[Callable[[dict[str, Any]], dict[str, Any]]],
                           Callable[[dict[str, Any]], dict[str, Any]]]:
    """Register an upcaster: a function from a saved state of ``cls`` at schema version
    ``from_version`` (JSON values, a copy it may change) to the same state at the next
    version. One per version step; a save or stored fact of an older version goes through
    each step in turn as it is read ([upcast_state][companion.state.upcast_state]).

    >>> @dataclass
    ... class Lamp(Tracker):
    ...     schema = 2
    ...     oil: int = 0
    >>> @upcaster(Lamp, from_version=1)
    ... def _pints_to_uses(state):
    ...     state["oil"] = state.pop("pints") * 2
    ...     return state
    >>> Lamp.from_state({"pints": 3}, schema=1).oil
    6
    """
    if type(from_version) is not int or not 1 <= from_version < cls.schema:
        raise ValueError(f"an upcaster of {cls.__name__} reads a version from 1 to "
                         f"{cls.schema - 1} (its schema is {cls.schema}), not {from_version!r}")

    def register(fn: Callable[[dict[str, Any]], dict[str, Any]]
                 ) -> Callable[[dict[str, Any]], dict[str, Any]]:
        if (cls, from_version) in _UPCASTERS:
            raise ValueError(f"{cls.__name__} already has an upcaster from version "
                             f"{from_version}")
        _UPCASTERS[(cls, from_version)] = fn
        return fn

    return register


def upcasters_of(cls: type[Tracker]) -> dict[int, Callable[[dict[str, Any]], dict[str, Any]]]:
    """The upcasters registered for ``cls``, by the version each reads."""
    return {v: fn for (c, v), fn in _UPCASTERS.items() if c is cls}


def check_schema(cls: type[Tracker], version: Any, where: str) -> int:
    """``version`` (a save's or fact's ``schema``) if this program can read it; else a
    one-line [StateError][companion.errors.StateError] (a newer version's, or not one)."""
    if type(version) is not int or version < 1:
        raise StateError(f"{where}: field 'schema' must be a version from 1, "
                         f"got {_shown(version)}")
    if version > cls.schema:
        raise StateError(f"{where} is of schema version {version}, newer than this program "
                         f"reads (up to {cls.schema}): open it with a newer version")
    return version


def upcast_state(cls: type[Tracker], state: Any, version: int) -> Any:
    """``state`` (JSON values of ``cls`` at schema ``version``) upgraded to today's
    version by the registered upcasters, one step at a time (a new value; ``state`` is
    not changed). A missing step or an upcaster that fails on the state is a one-line
    [StateError][companion.errors.StateError]."""
    where = cls._where()
    check_schema(cls, version, where)
    for step in range(version, cls.schema):
        fn = _UPCASTERS.get((cls, step))
        if fn is None:
            raise StateError(f"{where}: this program has no way to read schema version {step} "
                             f"(no upcaster from it)")
        if not isinstance(state, dict):
            raise StateError(f"{where}: field 'state' must be an object")
        try:
            state = fn(json.loads(json.dumps(state)))
        except (CompanionError, KeyError, IndexError, TypeError, ValueError,
                ArithmeticError, AttributeError) as exc:
            raise StateError(f"{where}: its schema version {step} state cannot be upgraded "
                             f"({clipped(str(exc), 120)})") from None
    return state


# -- encoding and decoding fields ------------------------------------------------------


def jsonable(value: Any) -> Any:
    """A move argument as a JSON value (falls back to its text), as a move's event logs it.

    >>> jsonable([Fraction(1, 3), (2, None)])
    ['1/3', [2, None]]
    """
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, enum.Enum):
        return jsonable(value.value)
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _encode_dataclass(value)
    return str(value)


def state_change(before: Any, after: Any) -> list[Any]:
    """The precise change from one saved state (JSON values) to another: a list of
    ``[path, value]`` (set) and ``[path]`` (delete) steps, each path a list of object keys
    and list indices. [apply_change][companion.state.apply_change] replays it.

    >>> state_change({"hp": 5, "tags": ["a"]}, {"hp": 3, "tags": ["a"], "x": 1})
    [[['hp'], 3], [['x'], 1]]
    >>> apply_change({"hp": 5, "tags": ["a"]}, _)
    {'hp': 3, 'tags': ['a'], 'x': 1}
    """
    steps: list[Any] = []
    _diff(before, after, [], steps)
    return steps


def _diff(before: Any, after: Any, path: list[Any], steps: list[Any]) -> None:
    if type(before) is type(after) and before == after:
        return
    if isinstance(before, dict) and isinstance(after, dict):
        for key, value in after.items():
            if key in before:
                _diff(before[key], value, [*path, key], steps)
            else:
                steps.append([[*path, key], value])
        steps.extend([[*path, key]] for key in before if key not in after)
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for i, (old, new) in enumerate(zip(before, after, strict=True)):
            _diff(old, new, [*path, i], steps)
    else:
        steps.append([path, after])


def _changed_fields(change: Any) -> set[str] | None:
    """The top-level fields a change touches (``None``: the whole state, or unreadable)."""
    names: set[str] = set()
    for step in change if isinstance(change, list) else ():
        if not (isinstance(step, list) and step and isinstance(step[0], list) and step[0]
                and isinstance(step[0][0], str)):
            return None
        names.add(step[0][0])
    return names


def apply_change(state: Any, change: list[Any], *, copy: bool = True) -> Any:
    """``state`` (JSON values) with ``change`` applied: a new value (``copy=False``: the
    state itself is changed, for a caller that owns it).

    A change that does not fit the state (a path through a value that is not there) is a
    [StateError][companion.errors.StateError] naming the step.
    """
    out = _shallow(state) if copy else state
    fresh = {id(out)}  # containers copied already (a copy shares what no step touches)
    if not isinstance(change, list):
        raise StateError("a stored change must be a list of steps")
    for n, step in enumerate(change):
        if not isinstance(step, list) or len(step) not in (1, 2) or not isinstance(step[0], list):
            raise StateError(f"stored change step {n} is not [path] or [path, value]")
        path = step[0]
        if not path:
            if len(step) == 1:
                raise StateError(f"stored change step {n} deletes the whole state")
            out = json.loads(json.dumps(step[1]))
            fresh = {id(out)}
            continue
        holder = out
        try:
            for key in path[:-1]:
                child = holder[key]
                if copy and id(child) not in fresh:
                    child = _shallow(child)
                    holder[key] = child
                    fresh.add(id(child))
                holder = child
            last = path[-1]
            if len(step) == 1:
                del holder[last]
            elif isinstance(holder, list) and last == len(holder):
                holder.append(json.loads(json.dumps(step[1])))
            else:
                if isinstance(holder, list) and not (isinstance(last, int)
                                                     and 0 <= last < len(holder)):
                    raise IndexError(last)
                holder[last] = json.loads(json.dumps(step[1]))
        except (KeyError, IndexError, TypeError):
            raise StateError(f"stored change step {n} does not fit the state "
                             f"(at {clipped(str(path), 60)})") from None
    return out


def _shallow(value: Any) -> Any:
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, list):
        return list(value)
    raise TypeError("a stored change goes through a value that holds nothing")


def _default_summary(name: str, args: dict[str, Any]) -> str:
    """A history line for a move that did not describe itself: ``"take damage: amount 3"``."""
    shown = "; ".join(f"{k.replace('_', ' ')} {_plain(v)}" for k, v in args.items())
    return f"{name.replace('_', ' ')}: {shown}" if shown else name.replace("_", " ")


def _plain(value: Any) -> str:
    """A JSON value as a player reads it: no quotes, brackets or Python words."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(_plain(v) for v in value) or "none"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_plain(v)}" for k, v in value.items()) or "none"
    return clipped(str(value), 60)


#: Types saved as they are (checked first: most of a state is these).
_PLAIN = frozenset({str, int, bool, float, type(None)})


def _encode(value: Any) -> Any:
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is list or kind is tuple:
        return [_encode(v) for v in value]
    if kind is dict:
        return {k: _encode(v) for k, v in value.items()}
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


@functools.cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


def _encode_dataclass(obj: Any) -> dict[str, Any]:
    return {name: _encode(getattr(obj, name)) for name in _field_names(cast(Any, type(obj)))}


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _exact_keys(raw: dict[str, Any], expected: set[str], where: str, prefix: str) -> None:
    for key in sorted(expected - raw.keys()):
        raise StateError(f"{where}: missing field '{prefix}{key}'")
    for key in sorted(raw.keys() - expected, key=str):
        raise StateError(f"{where}: unknown field '{prefix}{clipped(str(key))}'")


def _decode_fields(cls: type, raw: Any, prefix: str, where: str) -> dict[str, Any]:
    """Decode a dataclass's fields; ``prefix`` places them in the file (``"log[2].before."``)."""
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"{cls.__name__} must be a dataclass to be saved")
    if not isinstance(raw, dict):
        name = prefix.rstrip(".") or "state"
        raise StateError(f"{where}: field '{name}' must be an object")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    missing = [f for name, f in fields.items() if name not in raw]
    if missing:
        # A field added after the save was written: its default, if it has one.
        raw = dict(raw)
        for f in missing:
            if f.default is not dataclasses.MISSING:
                raw[f.name] = _encode(f.default)
            elif f.default_factory is not dataclasses.MISSING:
                raw[f.name] = _encode(f.default_factory())
    _exact_keys(raw, set(fields), where, prefix)
    hints = _hints(cls)
    return {
        name: _decode(raw[name], hints[name], f"{prefix}{name}", where, f.metadata)
        for name, f in fields.items()
    }


def decode_value(value: Any, tp: Any, path: str, where: str) -> Any:
    """``value`` (a JSON value) read as type ``tp``, checked as a saved field of that type
    is; a bad value raises [StateError][companion.errors.StateError] naming ``path`` and
    ``where``.

    >>> decode_value("1/3", Fraction, "odds", "move roll")
    Fraction(1, 3)
    >>> decode_value("x", int, "amount", "move heal")
    Traceback (most recent call last):
    ...
    companion.errors.StateError: move heal: field 'amount' must be a whole number, got "x"
    """
    return _decode(value, tp, path, where)


def _type_text(tp: Any) -> str:
    return getattr(tp, "__name__", None) or str(tp).replace("typing.", "")


def _decode(value: Any, tp: Any, path: str, where: str, meta: Any = None) -> Any:
    def bad(expected: str) -> StateError:
        return StateError(f"{where}: field '{path}' must be {expected}, got {_shown(value)}")

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
        try:
            out = float(value)
        except OverflowError:
            raise bad("a number of ordinary size") from None
        if not math.isfinite(out):
            raise bad("a finite number")
    elif tp is str:
        if not isinstance(value, str):
            raise bad("text")
        out = value
    elif tp is Fraction:
        # Only "p/q" or "n" with bounded digits: Fraction() itself also reads "1e99999"
        # (a number too long to print) and would take any length.
        ok = isinstance(value, int) and not isinstance(value, bool) and (
            abs(value) < 10**MAX_FRACTION_DIGITS
        )
        ok = ok or (isinstance(value, str) and _FRACTION_TEXT.fullmatch(value) is not None)
        try:
            if not ok:
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
        key, item = typing.get_args(tp) or (str, Any)
        # JSON keys are text: a table keyed by whole numbers reads its keys back as
        # numbers ("1" -> 1), as jsonable wrote them.
        out = {_int_key(k, path, where) if key is int else k:
               _decode(v, item, f"{path}.{k}", where) for k, v in value.items()}
    elif isinstance(tp, type) and dataclasses.is_dataclass(tp):
        values = _decode_fields(tp, value, path + ".", where)
        try:
            # Restored as it was stored: no __post_init__ (today's validation) runs.
            out = _build_record(tp, values) if _UNCHECKED.get() else tp(**values)
        except (ValueError, TypeError, CompanionError) as exc:
            raise StateError(f"{where}: in '{path}': {clipped(str(exc), 120)}") from None
        _run_check(out, path, where)
    else:
        raise TypeError(f"cannot save a field of type {tp!r} ({path})")
    if meta:
        _check_limits(out, path, where, meta)
    return out


def _int_key(key: Any, path: str, where: str) -> int:
    """A JSON object's key read back as the whole number it was written from."""
    if isinstance(key, int) and not isinstance(key, bool):
        return key
    if not isinstance(key, str) or not re.fullmatch(r"-?[0-9]{1,20}", key):
        raise StateError(f"{where}: field '{path}' has the key {_shown(key)}, "
                         "not a whole number")
    return int(key)


def _build_record(cls: Any, values: dict[str, Any]) -> Any:
    """A dataclass holding ``values`` as they are, without ``__init__``/``__post_init__``."""
    record = cls.__new__(cls)
    for name, value in values.items():
        object.__setattr__(record, name, value)
    return record


def _check_limits(value: Any, path: str, where: str, meta: Any) -> None:
    if _UNCHECKED.get():
        return
    longest = meta.get("max_len")
    if (longest is not None and isinstance(value, str | list | tuple | dict)
            and len(value) > longest):
        unit = "characters" if isinstance(value, str) else "items"
        raise StateError(
            f"{where}: field '{path}' holds {len(value)} {unit}, at most {longest} allowed"
        )
    if isinstance(value, list | tuple):
        for i, item in enumerate(value):
            _check_value(item, f"{path}[{i}]", where, meta)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_value(item, f"{path}.{key}", where, meta)
    else:
        _check_value(value, path, where, meta)


def _check_value(value: Any, path: str, where: str, meta: Any) -> None:
    low, high, choices = meta.get("min"), meta.get("max"), meta.get("choices")
    number = isinstance(value, int | float | Fraction) and not isinstance(value, bool)
    if number and ((low is not None and value < low) or (high is not None and value > high)):
        span = (
            f"from {low} to {high}" if low is not None and high is not None
            else f"at least {low}" if low is not None else f"at most {high}"
        )
        raise StateError(f"{where}: field '{path}' must be {span}, got {_shown(value)}")
    if choices is not None and value not in choices:
        allowed = ", ".join(_shown(c) for c in choices)
        raise StateError(f"{where}: field '{path}' must be one of {allowed}, got {_shown(value)}")


# -- parsing and messages ------------------------------------------------------------------


def _reject_constant(name: str) -> Any:
    raise ValueError(f"constant {name}")


def _parse_save(text: Any, where: str) -> Any:
    """The save's JSON value; every way it can fail is one player-readable StateError."""
    if isinstance(text, bytes | bytearray):
        if len(text) > MAX_SAVE_CHARS * 4:
            raise StateError(f"{where} is too long to be a save")
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise StateError(
                f"{where} is not readable: not UTF-8 text at byte {exc.start}"
            ) from None
    if not isinstance(text, str):
        raise StateError(f"{where} is empty" if text is None else f"{where} is not text")
    if not text.strip():
        raise StateError(f"{where} is empty")
    if len(text) > MAX_SAVE_CHARS:
        raise StateError(
            f"{where} is too long to be a save ({len(text):,} characters, "
            f"at most {MAX_SAVE_CHARS:,})"
        )
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise StateError(
            f"{where} is not valid JSON: unreadable at line {exc.lineno} column {exc.colno}"
        ) from None
    except RecursionError:
        raise StateError(f"{where} is nested too deeply to be a save") from None
    except ValueError as exc:
        what = "NaN or Infinity" if "constant" in str(exc) else "a number too long"
        raise StateError(f"{where} is not valid JSON: it holds {what}") from None


def _run_check(record: Any, path: str, where: str) -> None:
    """Call a record's ``check_state()`` (if it has one); failures become a StateError."""
    check = getattr(record, "check_state", None)
    if not callable(check) or _UNCHECKED.get():
        return
    place = f"in '{path}': " if path else ""
    try:
        check()
    except StateError as exc:
        raise StateError(f"{where}: {place}{clipped(_own_text(exc), 160)}") from None
    except (CompanionError, ValueError, TypeError, KeyError, IndexError, ArithmeticError) as exc:
        raise StateError(
            f"{where}: {place}the saved values do not fit together ({clipped(str(exc), 120)})"
        ) from None


def _own_text(exc: StateError) -> str:
    # A nested check's message already starts with "this ... save: "; keep its detail only.
    text = str(exc)
    return text.split(" save: ", 1)[1] if text.startswith("this ") and " save: " in text else text


def _shown(value: Any) -> str:
    """A bad value as an error quotes it: short, JSON-like, never a Python repr."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        digits = value.bit_length() * 0.30103
        if digits > 30:
            return f"a number of about {int(digits):,} digits"
        return str(value)
    if isinstance(value, float | Fraction):
        return str(value)
    if isinstance(value, enum.Enum):
        return _shown(value.value)
    if isinstance(value, str):
        return '"' + clipped(value) + '"'
    if isinstance(value, list | tuple):
        return f"a list of {len(value)} items"
    if isinstance(value, dict):
        return f"an object with {len(value)} fields"
    return clipped(str(value))
