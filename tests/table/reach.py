"""Everything a face can reach from what it holds: the whole object graph, walked.

Issue 28: a player's session never holds another seat's hidden values. ``reachable``
walks every object reachable from some roots (attributes, ``__slots__``, containers, the
cells and defaults of functions, bound methods' objects, partials, weak references, and
an ipywidget's trait values, which live in its ``__dict__``), and ``leaks`` says which
of some secret values appear there: as a value, inside a string (a repr, JSON text, a
widget's markup) or, for a list of dice, as an equal list.

The walk stops at the seat's keeper (the objects of ``boundary``: the
[Session][companion.table.session.Session] and the campaign under it, whose private
state is the kernel's to hold; what they *hand out* is walked from the reads a test
makes) and at the kernel's own machinery (comms, threads, loggers), which holds no game.
"""

from __future__ import annotations

import contextlib
import functools
import json
import types
import weakref
from collections.abc import Iterable, Iterator
from typing import Any

#: Modules whose objects are the process's machinery, not a page's state.
MACHINERY = ("comm", "ipykernel", "zmq", "logging", "threading", "jupyter_client",
             "tornado", "asyncio", "sqlite3", "sqlalchemy", "psycopg", "_thread", "queue",
             "concurrent", "selectors", "socket", "traitlets.traitlets")

#: Most objects one walk visits (a runaway graph fails the test instead of hanging it).
MAX_OBJECTS = 400_000


def _children(obj: Any) -> Iterator[Any]:
    if isinstance(obj, dict):
        for k, v in list(obj.items()):
            yield k
            yield v
    elif isinstance(obj, (list, tuple, set, frozenset)):
        yield from list(obj)
    elif isinstance(obj, functools.partial):
        yield obj.func
        yield from obj.args
        yield from obj.keywords.values()
    elif isinstance(obj, types.MethodType):
        yield obj.__self__
        yield obj.__func__
    elif isinstance(obj, types.FunctionType):
        for cell in obj.__closure__ or ():
            with contextlib.suppress(ValueError):  # an empty cell has no contents
                yield cell.cell_contents
        yield from obj.__defaults__ or ()
        yield from (obj.__kwdefaults__ or {}).values()
    elif isinstance(obj, weakref.ref):
        target = obj()
        if target is not None:
            yield target
    else:
        state = getattr(obj, "__dict__", None)
        if isinstance(state, dict):
            yield state
        for cls in type(obj).__mro__:
            for slot in getattr(cls, "__slots__", ()) or ():
                if isinstance(slot, str) and hasattr(obj, slot):
                    yield getattr(obj, slot)


def _machinery(obj: Any) -> bool:
    module = type(obj).__module__ or ""
    return module.startswith(MACHINERY) or isinstance(
        obj, (type, types.ModuleType, types.CodeType, types.FrameType))


def reachable(roots: Iterable[Any], boundary: tuple[type, ...] = ()) -> list[Any]:
    """Every object reachable from ``roots`` (see the module's docstring)."""
    seen: set[int] = set()
    out: list[Any] = []
    stack = list(roots)
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if len(seen) > MAX_OBJECTS:
            raise AssertionError(f"more than {MAX_OBJECTS} objects reachable: a runaway walk")
        if (boundary and isinstance(obj, boundary)) or _machinery(obj):
            continue
        out.append(obj)
        if isinstance(obj, (str, bytes, int, float, bool, type(None))):
            continue
        stack.extend(_children(obj))
    return out


def leaks(objects: list[Any], *, ints: Iterable[int] = (), texts: Iterable[str] = (),
          dice: Iterable[list[int]] = ()) -> set[str]:
    """Which secrets appear among ``objects``: an int as a value or in a string (its
    digits); a text inside a string; a list of dice as an equal list or tuple, or as
    JSON text in a string."""
    ints, texts, dice = list(ints), list(texts), [list(d) for d in dice]
    strings = [o for o in objects if isinstance(o, str)]
    found: set[str] = set()
    for n in ints:
        if any(type(o) is int and o == n for o in objects) \
                or any(str(n) in s for s in strings):
            found.add(f"int {n}")
    for text in texts:
        if any(text in s for s in strings):
            found.add(f"text {text!r}")
    for roll in dice:
        forms = (json.dumps(roll), json.dumps(roll, separators=(",", ":")), str(tuple(roll)))
        if any(isinstance(o, (list, tuple)) and list(o) == roll for o in objects) \
                or any(f in s for s in strings for f in forms):
            found.add(f"dice {roll}")
    return found
