"""Typed inputs that refuse bad values visibly, under the box, before any move runs.

An ipywidgets number box clamps or reverts what a player types (``-5`` silently becomes
``0`` and the action still runs). An [InputField][companion.widgets.inputs.InputField] is a
text box with its own error line beneath it:
[InputField.read][companion.widgets.inputs.InputField.read] parses the text, and on a bad
value shows why under the box and returns ``None``, so the action that wanted it does not
run. The refusal goes away as soon as the text is fixed.

Usage in a component::

    self.amount = InputField("Chips", "1", name="amount", parse=whole_number(1, 10**9, "Chips"))
    ...
    def _bet(self) -> None:
        amount = self.amount.read()
        if amount is None:
            return          # refused under the box; nothing happens
        self.game.bet(player, amount)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

import ipywidgets as widgets

from companion.errors import CompanionError
from companion.widgets.base import ErrorLine, row, text_box

__all__ = ["InputField", "name_text", "read_all", "whole_number"]

T = TypeVar("T")

ECHO = 20
"""Characters of a refused input quoted back in its error."""


def _quoted(text: str) -> str:
    text = text.strip()
    return f'"{text[:ECHO]}…"' if len(text) > ECHO else f'"{text}"'


def whole_number(low: int, high: int, what: str) -> Callable[[str], int]:
    """A parser for a whole number from ``low`` to ``high``; refusals name ``what``."""

    def parse(text: str) -> int:
        raw = text.strip().replace("−", "-")
        span = f"from {low:,} to {high:,}"
        if not raw:
            raise CompanionError(f"{what}: enter a whole number {span}")
        try:
            if len(raw) > 20 or not raw.lstrip("+-").isascii():
                raise ValueError
            value = int(raw)
        except ValueError:
            raise CompanionError(
                f"{what}: {_quoted(text)} is not a whole number ({span})") from None
        if not low <= value <= high:
            raise CompanionError(f"{what}: {value:,} is out of range ({span})")
        return value

    return parse


def name_text(max_len: int, what: str) -> Callable[[str], str]:
    """A parser for a name: 1 to ``max_len`` characters once trimmed."""

    def parse(text: str) -> str:
        name = text.strip()
        if not name:
            raise CompanionError(f"{what}: type a name first")
        if len(name) > max_len:
            raise CompanionError(
                f"{what}: at most {max_len} characters ({len(name):,} typed)")
        return name

    return parse


class InputField(widgets.VBox, Generic[T]):
    """A labelled text box with its own error line beneath (``.tc-field-<name>``).

    ``parse`` turns the text into a value or raises a
    [CompanionError][companion.errors.CompanionError] whose one-line message is shown under
    the box. ``on_enter`` runs when Enter (a phone's Go key) is pressed in the box.
    """

    def __init__(self, label: str, value: str = "", *, name: str,
                 parse: Callable[[str], T], placeholder: str = "", width: str | None = None,
                 on_enter: Callable[[], Any] | None = None,
                 error: ErrorLine | None = None) -> None:
        super().__init__(layout=widgets.Layout(max_width="100%"))
        self.add_class("tc-field")
        self.add_class(f"tc-field-{name}")
        self.parse = parse
        self.box = text_box(placeholder, value=value, name=name, on_enter=on_enter, error=error)
        self.box.continuous_update = True
        if width is not None:
            self.box.layout.flex = f"0 1 {width}"
        self.error = ErrorLine()
        self.label = widgets.HTML(label) if label else None
        parts = [self.label, self.box] if self.label is not None else [self.box]
        self.children = (row(*parts), self.error)
        self.box.observe(self._recheck, names="value")

    @property
    def value(self) -> str:
        """The text in the box."""
        return str(self.box.value)

    @value.setter
    def value(self, text: str) -> None:
        self.box.value = text

    def read(self) -> T | None:
        """The parsed value, or ``None`` after showing the refusal under the box."""
        try:
            value = self.parse(self.box.value)
        except CompanionError as exc:
            self.error.show(exc)
            return None
        self.error.clear()
        return value

    def refuse(self, exc: BaseException | str) -> None:
        """Show a refusal that a move made of this box's value (e.g. a name taken)."""
        self.error.show(exc)

    def _recheck(self, _change: Any = None) -> None:
        # A refusal disappears as soon as the text is fixed (not shown while first typing).
        if self.error.value:
            self.read()


def read_all(*fields: InputField[Any]) -> list[Any] | None:
    """Read every field (so each bad one shows its refusal); ``None`` if any was refused."""
    values = [f.read() for f in fields]
    return None if any(v is None for v in values) else values
