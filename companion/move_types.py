"""The checked argument layer at the rules' door: every move refuses a wrong type.

[argument_check][companion.move_types.argument_check] reads a move's annotations once and
returns a function that checks a call's bound arguments before the move runs; a wrong type
(text for a number, a fraction for a count, a boolean for a number, nothing where
something is needed, a line break in text, a list holding the wrong things, an infinite
number) is a [RuleError][companion.errors.RuleError] naming the move and the argument. Beyond the
types, the door keeps every argument within sizes no rule needs to exceed
(``MAX_NUMBER``, ``MAX_TEXT``, ``MAX_ITEMS``); the rules' own bounds (a modifier of at
most ±10, a cast of at most 6 dice) are the moves' business.
"""

from __future__ import annotations

import collections.abc
import inspect
import math
import re
import types
import typing
from collections.abc import Callable
from fractions import Fraction
from typing import Any, Literal, Union

from companion.errors import RuleError, quoted

__all__ = ["MAX_ITEMS", "MAX_NUMBER", "MAX_TEXT", "argument_check", "check_value"]

#: The largest whole number (either sign) any move takes: a 64-bit seed fits, and no rule
#: counts further; a larger one could not even be written into a save quickly.
MAX_NUMBER = 2 ** 64

#: The longest text any move takes (names, notes, a turn's description).
MAX_TEXT = 10_000

#: The most items a list or table argument may hold.
MAX_ITEMS = 1_000


def argument_check(fn: Callable[..., Any]) -> Callable[[inspect.BoundArguments], None]:
    """The check of ``fn``'s arguments (``self`` excluded), built once per move.

    The annotations are read on the first call, not at decoration: a move may name its
    own class, which does not exist yet while its body is being decorated.
    """
    hints: list[dict[str, Any]] = []
    rule = fn.__name__.replace("_", " ").strip()

    def check(bound: inspect.BoundArguments) -> None:
        if not hints:
            hints.append(_annotations(fn))
        kinds = hints[0]
        for name, value in list(bound.arguments.items())[1:]:
            hint = kinds.get(name, Any)
            kind = bound.signature.parameters[name].kind
            if kind is inspect.Parameter.VAR_POSITIONAL:
                for item in value:
                    check_value(item, hint, rule, name)
            elif kind is inspect.Parameter.VAR_KEYWORD:
                for key, item in value.items():
                    check_value(item, hint, rule, key)
            else:
                check_value(value, hint, rule, name)

    return check


def _annotations(fn: Callable[..., Any]) -> dict[str, Any]:
    plain = inspect.unwrap(fn)
    try:
        return typing.get_type_hints(plain)
    except (NameError, TypeError):
        # An annotation naming something not importable here: leave those unchecked
        # rather than refuse every call of the move.
        return {k: v for k, v in getattr(plain, "__annotations__", {}).items()
                if not isinstance(v, str)}


def check_value(value: Any, hint: Any, rule: str, name: str) -> None:
    """Refuse ``value`` for the argument ``name`` of ``rule`` unless it has the type ``hint``
    (a [RuleError][companion.errors.RuleError] saying what was expected and what came).

    >>> check_value(3, int, "take damage", "amount")
    >>> check_value("3", int, "take damage", "amount")
    Traceback (most recent call last):
    ...
    companion.errors.RuleError: take damage: 'amount' must be a whole number, not the text '3'
    >>> check_value(True, int | None, "travel", "modifier")
    Traceback (most recent call last):
    ...
    companion.errors.RuleError: travel: 'modifier' must be a whole number or nothing, not a yes/no
    """
    problem = _problem(value, hint, 0)
    if problem is not None:
        raise RuleError(f"{rule}: {name!r} must be {_expected(hint)}, not {_shown(value)}"
                        + (f" ({problem})" if problem else ""))


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")

#: How deep lists of lists are looked into (deeper is refused: no move takes more).
_MAX_DEPTH = 8


def _problem(value: Any, hint: Any, depth: int) -> str | None:
    """``None`` when ``value`` fits ``hint``; else a reason ("" when the type says it all)."""
    if hint is Any or hint is object:
        return None
    if depth > _MAX_DEPTH:
        return "nested too deep"
    if hint is None or hint is type(None):
        return None if value is None else ""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (Union, types.UnionType):
        reasons = [_problem(value, option, depth) for option in args]
        if any(r is None for r in reasons):
            return None
        return next((r for r in reasons if r), "")
    if origin is Literal:
        # Compare types too: True == 1 and 1.0 == 1 must not pass for a literal 1.
        if any(type(value) is type(a) and value == a for a in args):
            return None
        # Text outside the choices is for the move to refuse, naming its rule.
        return None if type(value) is str and str in map(type, args) else ""
    if origin is typing.Annotated:
        return _problem(value, args[0], depth)
    if hint is bool:
        return None if type(value) is bool else ""
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            return ""
        return _size_problem(value)
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return ""
        return None if math.isfinite(value) else "it is not a finite number"
    if hint is Fraction:
        if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
            return ""
        value = Fraction(value)
        return _size_problem(value.numerator) or _size_problem(value.denominator)
    if hint is str:
        if not isinstance(value, str):
            return ""
        if len(value) > MAX_TEXT:
            return f"it is {len(value):,} characters long"
        # Every text a move takes is one line (a name, a note): a line break or a control
        # character would only break the history and the one-line error messages.
        bad = _CONTROL.search(value)
        return None if bad is None else f"it holds the control character {bad.group()!r}"
    if origin in (list, collections.abc.Sequence, collections.abc.Iterable,
                  collections.abc.Collection, collections.abc.MutableSequence):
        # A tuple is a fine list of choices; text is not a list of anything.
        if not isinstance(value, (list, tuple)):
            return ""
        if len(value) > MAX_ITEMS:
            return f"it has {len(value):,} items"
        item = args[0] if args else Any
        return _items_problem(value, [item] * len(value), depth)
    if origin is tuple:
        if not isinstance(value, (list, tuple)):
            return ""
        if len(args) == 2 and args[1] is Ellipsis:
            return _items_problem(value, [args[0]] * len(value), depth)
        if args and len(value) != len(args):
            return f"it has {len(value)} items, not {len(args)}"
        return _items_problem(value, list(args) if args else [Any] * len(value), depth)
    if origin in (dict, collections.abc.Mapping, collections.abc.MutableMapping):
        if not isinstance(value, dict):
            return ""
        if len(value) > MAX_ITEMS:
            return f"it has {len(value):,} items"
        key, item = args if args else (Any, Any)
        for k, v in value.items():
            for part, tp in ((k, key), (v, item)):
                reason = _problem(part, tp, depth + 1)
                if reason is not None:
                    return reason or f"{_shown(k)} holds {_shown(v)}"
        return None
    if origin is not None:
        return None if isinstance(value, origin) else ""
    if isinstance(hint, type):
        if isinstance(value, hint) and not (hint is not bool and isinstance(value, bool)
                                            and issubclass(hint, int)):
            return None
        return ""
    return None  # a TypeVar, a string left unresolved...: not ours to judge


def _size_problem(number: int) -> str | None:
    if -MAX_NUMBER <= number <= MAX_NUMBER:
        return None
    return f"it is beyond ±{MAX_NUMBER:,}"


def _items_problem(value: Any, item_hints: list[Any], depth: int) -> str | None:
    for index, (item, tp) in enumerate(zip(value, item_hints, strict=True)):
        reason = _problem(item, tp, depth + 1)
        if reason is not None:
            return f"item {index + 1} is {_shown(item)}" + (f": {reason}" if reason else "")
    return None


_WORDS: dict[Any, str] = {
    int: "a whole number", float: "a number", bool: "yes or no (True/False)",
    str: "text", Fraction: "a whole number or fraction", type(None): "nothing",
}


def _expected(hint: Any) -> str:
    """What ``hint`` asks for, in words."""
    if hint in _WORDS:
        return _WORDS[hint]
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (Union, types.UnionType):
        return " or ".join(_expected(a) for a in args)
    if origin is Literal:
        return "one of " + ", ".join(repr(a) for a in args)
    if origin is typing.Annotated:
        return _expected(args[0])
    if origin in (list, tuple, collections.abc.Sequence, collections.abc.Iterable):
        inner = [a for a in args if a is not Ellipsis]
        if origin is tuple and len(inner) > 1:
            return f"{len(inner)} items (" + ", ".join(_expected(a) for a in inner) + ")"
        return "a list" + (f" of {_plural(_expected(inner[0]))}" if inner else "")
    if origin in (dict, collections.abc.Mapping):
        return "a table of " + (_plural(_expected(args[1])) if args else "values")
    if isinstance(hint, type):
        return "a " + hint.__name__
    return str(hint)


def _plural(words: str) -> str:
    """"a whole number" -> "whole numbers" (words without an article stay as they are)."""
    if words.startswith("a ") and " or " not in words:
        return words[2:] + "s"
    return words


def _shown(value: Any) -> str:
    """``value`` as a player reads it in the message (long text clipped)."""
    if value is None:
        return "nothing (None)"
    if isinstance(value, bool):
        return "a yes/no"
    if isinstance(value, str):
        return f"the text {quoted(value)}"
    if isinstance(value, float):
        return f"the number {value!r}" if math.isfinite(value) else f"{value!r}"
    if isinstance(value, Fraction):
        return f"the fraction {value}"
    if isinstance(value, int):
        if abs(value) > 10 ** 30:  # str() of a huge int is slow or refused outright
            return f"a {value.bit_length()}-bit number"
        return f"the number {value}"
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return f"a table of {len(value)}"
    return f"a {type(value).__name__}"
