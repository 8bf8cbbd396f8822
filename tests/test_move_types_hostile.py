"""Every move of every tracker of every ruleset, driven with hostile arguments.

Each tracker class that a campaign may hold ([tracker_kinds][companion.store.registry.
tracker_kinds]) gets random sequences of its own moves (and undo), each argument drawn
from values of the annotated type (small, edge and huge numbers, the ruleset's own words,
odd text) or from values of the wrong type (text for numbers, fractions, booleans,
``None``, infinities, lists). Every call must either be refused with a
[CompanionError][companion.errors.CompanionError] that changes nothing, or leave a state
that saves and loads. ``TC_HOSTILE_EXAMPLES`` raises the number of sequences per class.
"""

from __future__ import annotations

import inspect
import math
import os
import random
import sys
import types
import typing
from fractions import Fraction
from typing import Any, Literal, Union

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import rulesets
from companion.errors import CompanionError
from companion.state import Tracker, is_move
from companion.store.registry import tracker_kinds

KINDS: dict[str, type[Tracker]] = {
    key: cls for r in rulesets.all_rulesets() for key, cls in tracker_kinds(r.name).items()
}

EXAMPLES = int(os.environ.get("TC_HOSTILE_EXAMPLES", "25"))

#: Values of a wrong type (or none at all) for any argument.
HOSTILE: list[Any] = [
    "5", "", "x" * 20_000, 2.5, 1.0, math.nan, math.inf, -math.inf, True, False, None,
    Fraction(1, 2), Fraction(4, 1), [1], ["a"], {"a": 1}, 10 ** 30, -(10 ** 30), (1, 2),
]

#: Numbers a move must cope with: the usual ones, edges and a few huge ones.
EDGES = [-1, 0, 1, 2, 3, 6, 10, 20, 99, 1000, 10 ** 6, 2 ** 63 - 1, 2 ** 63, 2 ** 64,
         -(2 ** 64)]

OMIT = object()


def _moves(cls: type[Tracker]) -> list[str]:
    return sorted(n for n in dir(cls) if is_move(getattr(cls, n, None)))


def _words(cls: type[Tracker]) -> list[str]:
    """Short words the ruleset uses (its constants, their keys and items): the names a
    move accepts are among them, so some drawn moves get past their rule checks."""
    found = {"Vel", "Ash", "Orc", "torch", "lantern", "STR", "DEX", "WIL"}
    package = cls.__module__.rsplit(".", 1)[0]
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith(package):
            continue
        for value in vars(module).values():
            items: list[Any] = [value]
            if isinstance(value, (tuple, list, frozenset, set, dict)):
                items = list(value)
            found.update(v for v in items if isinstance(v, str) and 0 < len(v) <= 24)
    return sorted(found)


def _typed(hint: Any, words: list[str]) -> st.SearchStrategy[Any]:
    """Values of the type ``hint`` (including edge values the rules must refuse)."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint is type(None) or hint is None:
        return st.none()
    if origin in (Union, types.UnionType):
        return st.one_of([_typed(a, words) for a in args])
    if origin is Literal:
        return st.sampled_from([*args, "bogus"])
    if hint is bool:
        return st.booleans()
    if hint is int:
        return st.one_of(st.integers(-3, 25), st.sampled_from(EDGES))
    if hint is float:
        return st.floats(allow_nan=False, allow_infinity=False, width=32)
    if hint is Fraction:
        return st.fractions(max_denominator=12)
    if hint is str:
        return st.one_of(st.sampled_from(words), st.sampled_from(words),
                         st.text(max_size=12), st.just("y" * 300))
    if origin in (list, tuple) and (origin is list or (len(args) == 2 and args[1] is ...)):
        item = _typed(args[0], words) if args else st.integers(0, 6)
        listed = st.lists(item, max_size=4)
        return listed.map(tuple) if origin is tuple else listed
    if origin is tuple:
        return st.tuples(*(_typed(a, words) for a in args))
    if origin is dict:
        return st.dictionaries(_typed(args[0], words), _typed(args[1], words), max_size=3)
    if hint is random.Random:
        return st.integers(0, 2 ** 32).map(random.Random)
    if hint is Any:
        return st.sampled_from([0, 1, "a", [0, 1], None])
    return st.sampled_from(HOSTILE)  # a record (an Attack...): only wrong values here


def _argument(param: inspect.Parameter, hint: Any,
              words: list[str]) -> st.SearchStrategy[Any]:
    typed = _typed(hint, words)
    hostile = st.sampled_from(HOSTILE)
    if param.default is inspect.Parameter.empty:
        return st.one_of(typed, typed, typed, hostile)
    return st.one_of(st.just(OMIT), st.just(OMIT), typed, typed, hostile)


_PLANS: dict[str, dict[str, dict[str, st.SearchStrategy[Any]]]] = {}


def _plan(key: str) -> dict[str, dict[str, st.SearchStrategy[Any]]]:
    """Per move, per argument: the strategy of its values (built once per class)."""
    if key not in _PLANS:
        cls = KINDS[key]
        words = _words(cls)
        plan: dict[str, dict[str, st.SearchStrategy[Any]]] = {}
        for name in _moves(cls):
            fn = inspect.unwrap(getattr(cls, name))
            hints = typing.get_type_hints(fn)
            params = list(inspect.signature(fn).parameters.values())[1:]
            plan[name] = {p.name: _argument(p, hints.get(p.name, Any), words) for p in params
                          if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}
        _PLANS[key] = plan
    return _PLANS[key]


def test_every_ruleset_has_trackers_here() -> None:
    assert {key.partition("/")[0] for key in KINDS} == {r.name for r in rulesets.all_rulesets()}


@pytest.mark.parametrize("key", sorted(KINDS))
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_hostile_moves_are_refused_or_leave_a_saveable_state(key: str, data: st.DataObject) -> None:
    cls = KINDS[key]
    plan = _plan(key)
    tracker = cls()
    for _ in range(data.draw(st.integers(1, 10), label="moves")):
        name = data.draw(st.sampled_from([*plan, "undo"]), label="move")
        before = tracker.to_json()
        if name == "undo":
            if tracker.can_undo:
                tracker.undo()
                cls.from_json(tracker.to_json())
            continue
        kwargs = {arg: value for arg, strategy in plan[name].items()
                  if (value := data.draw(strategy, label=arg)) is not OMIT}
        try:
            getattr(tracker, name)(**kwargs)
        except CompanionError as error:
            assert "\n" not in str(error), f"{name}: a one-line message"
            assert tracker.to_json() == before, f"{name}{kwargs} was refused but changed state"
            continue
        text = tracker.to_json()
        # A move that succeeded must leave a state that loads again: the same state.
        assert cls.from_json(text).to_json() == text, f"{name}{kwargs}"
