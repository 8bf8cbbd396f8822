"""Small helpers for the Cairn app tests: buttons through the suite's finder, seed sources."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import ipywidgets as widgets

from tests.conftest import find_widget


def walk(root: widgets.Widget) -> Iterator[Any]:
    stack: list[Any] = [root]
    while stack:
        w = stack.pop()
        yield w
        stack.extend(getattr(w, "children", ()))


def find_button(root: widgets.Widget, name: str) -> widgets.Button:
    """The button ``button(..., name=name)`` made (through the suite's one finder)."""
    found = find_widget(root, name, "btn")
    assert isinstance(found, widgets.Button)
    return found


def has_button(root: widgets.Widget, name: str) -> bool:
    return any(isinstance(w, widgets.Button) and f"tc-btn-{name}" in w._dom_classes
               for w in walk(root))


def fixed_seeds(*seeds: int) -> Callable[[], int]:
    """A seed source that hands out ``seeds`` in turn (the last one again and again)."""
    queue = list(seeds)

    def source() -> int:
        return queue.pop(0) if len(queue) > 1 else queue[0]

    return source
