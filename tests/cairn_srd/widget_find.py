"""Finding widgets inside a Cairn app by the class names base.py gives them (tests only)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import ipywidgets as widgets


def walk(root: widgets.Widget) -> Iterator[Any]:
    stack: list[Any] = [root]
    while stack:
        w = stack.pop()
        yield w
        stack.extend(getattr(w, "children", ()))


def find_button(root: widgets.Widget, name: str) -> widgets.Button:
    for w in walk(root):
        if isinstance(w, widgets.Button) and f"tc-btn-{name}" in w._dom_classes:
            return w
    raise AssertionError(f"no button {name}")


def has_button(root: widgets.Widget, name: str) -> bool:
    return any(isinstance(w, widgets.Button) and f"tc-btn-{name}" in w._dom_classes
               for w in walk(root))


def fixed_seeds(*seeds: int) -> Callable[[], int]:
    """A seed source that hands out ``seeds`` in turn (the last one again and again)."""
    queue = list(seeds)

    def source() -> int:
        return queue.pop(0) if len(queue) > 1 else queue[0]

    return source
