"""An app's frame: rows that wrap on a phone, columns, the outer box, and redrawing on change."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import ipywidgets as widgets

from companion.widgets.controls import button
from companion.widgets.messages import ErrorLine, safe
from companion.widgets.styles import APP_MAX_WIDTH, style_tag

__all__ = [
    "Fold",
    "app_box",
    "bind",
    "column",
    "row",
]

def row(*children: widgets.Widget, **layout: Any) -> widgets.HBox:
    """A horizontal row that wraps onto the next line instead of overflowing a phone."""
    box = widgets.HBox(
        list(children),
        layout=widgets.Layout(flex_flow="row wrap", max_width="100%", **layout),
    )
    box.add_class("tc-row")
    return box


def column(*children: widgets.Widget, **layout: Any) -> widgets.VBox:
    """A vertical stack no wider than its container."""
    return widgets.VBox(list(children), layout=widgets.Layout(max_width="100%", **layout))


def app_box(*children: widgets.Widget, box: widgets.VBox | None = None) -> widgets.VBox:
    """The outer box of an app: adds the phone-width CSS once and the ``tc-app`` class.

    Pass ``box`` to fill an existing VBox (a component that *is* a VBox passes ``self``).
    """
    target = box if box is not None else widgets.VBox()
    target.children = (style_tag(), *children)
    target.layout.max_width = APP_MAX_WIDTH
    target.add_class("tc-app")
    return target


class _Observable(Protocol):
    def on_change(self, callback: Callable[..., Any], /) -> Any: ...


def bind(
    model: _Observable,
    render: Callable[[], Any],
    *,
    error: ErrorLine | None = None,
) -> Any:
    """Call ``render()`` now and after every change of ``model`` (a core ``Observable``).

    The model decides nothing about widgets; it only says "I changed". ``render`` reads the
    model and updates widgets. Whatever arguments the model passes to its callbacks are
    ignored. With ``error``, a failing render shows there instead of breaking the move that
    changed the model. Returns what ``model.on_change`` returns (the unsubscribe function).
    """

    def on_change(*_args: Any, **_kwargs: Any) -> None:
        render()

    callback = safe(error, clear_on_success=False)(on_change) if error else on_change
    unsubscribe = model.on_change(callback)
    callback()
    return unsubscribe


class Fold(widgets.VBox):
    """A part of a sheet that folds: its title is a full-width button (``.tc-btn-fold-<key>``,
    ▾ open, ▸ folded); a folded body is not drawn, so it costs one button's height.

    A sheet as a card: the vital numbers stay on top, the rest in folds (the Monsters &
    Magic sheet's way, for every sheet-like app).
    """

    def __init__(self, key: str, title: str, children: Sequence[widgets.Widget], *,
                 opened: bool = True) -> None:
        super().__init__(layout=widgets.Layout(max_width="100%", margin="4px 0 0 0"))
        self.key, self.title = key, title
        self.add_class("tc-fold")
        self.add_class(f"tc-fold-{key}")
        self.toggle = button(title, self.flip, name=f"fold-{key}")
        self.toggle.layout = widgets.Layout(width="100%", height="auto",
                                            justify_content="flex-start")
        self.toggle.add_class("tc-fold-title")
        self.body = widgets.VBox(list(children), layout=widgets.Layout(max_width="100%"))
        self.body.add_class("tc-fold-body")
        self.children = (self.toggle, self.body)
        self.opened = opened
        self._show()

    def _show(self) -> None:
        self.body.layout.display = None if self.opened else "none"
        self.toggle.description = ("\u25be " if self.opened else "\u25b8 ") + self.title
        self.toggle.tooltip = ("fold " if self.opened else "open ") + self.title

    def flip(self) -> None:
        """Open a folded part, fold an open one."""
        self.opened = not self.opened
        self._show()
