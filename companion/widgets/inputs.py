"""Boxes that refuse bad input visibly: numbers and names typed by a player.

See [companion.widgets.base][] for how to read them inside an action.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

import ipywidgets as widgets
import traitlets

from companion.errors import CompanionError, clipped
from companion.widgets.messages import ErrorLine, InputError, one_line, safe
from companion.widgets.styles import MIN_BUTTON_HEIGHT

__all__ = [
    "MAX_NAME_LENGTH",
    "CheckedBox",
    "NameBox",
    "NumberBox",
    "first_bad_box",
    "int_box",
    "name_box",
]

R = TypeVar("R")


MAX_NAME_LENGTH = 40
"""Longest name a [name_box][companion.widgets.inputs.name_box] takes by default."""

_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]{1,12}", re.ASCII)


class CheckedBox(widgets.VBox):
    """A text input with its own one-line refusal under it (see the module docs).

    Subclasses say what good text is in ``_parse`` (raise ``InputError(reason)``) and how a
    value is written back in ``_format``.
    """

    kind = "text"

    def __init__(self, description: str, text: str, name: str, *, width: str,
                 placeholder: str = "") -> None:
        self.label = description.strip().rstrip(":") or name
        self.control = widgets.Text(
            value=text, description=description, placeholder=placeholder,
            continuous_update=False, style={"description_width": "initial"},
            layout=widgets.Layout(width=width, max_width="100%", min_height=MIN_BUTTON_HEIGHT),
        )
        self.refusal = ErrorLine()
        self.refusal.add_class("tc-refusal")
        self.refusal.add_class(f"tc-refusal-{name}")
        super().__init__([self.control, self.refusal],
                         layout=widgets.Layout(max_width="100%", width="auto"))
        self.add_class("tc-checked")
        self.add_class(f"tc-{self.kind}-{name}")
        self.name = name
        self._value_observers: list[Callable[[Any], Any]] = []
        self._echoes: list[tuple[ErrorLine, str]] = []
        self._last: Any = None
        self._current: Any = None
        self.control.observe(self._on_text, names="value")
        self._check()

    # -- the contract ---------------------------------------------------------------
    def _parse(self, text: str) -> Any:
        raise NotImplementedError

    def _format(self, value: Any) -> str:
        return str(value)

    # -- reading ----------------------------------------------------------------------
    @property
    def valid(self) -> bool:
        """Whether the text now in the box is acceptable (never raises)."""
        return self._current is not None

    def read(self) -> Any:
        """The value typed; a bad text shows its refusal and raises InputError."""
        reason = self._check()
        if reason is not None:
            raise InputError(f"{self.label}: {reason}", self)
        return self._current

    @property
    def value(self) -> Any:
        """Same as [read][companion.widgets.inputs.CheckedBox.read]; setting it writes the box."""
        return self.read()

    @value.setter
    def value(self, new: Any) -> None:
        self.control.value = self._format(new)
        self._check()

    @property
    def text(self) -> str:
        """The raw text in the box."""
        return str(self.control.value)

    @text.setter
    def text(self, new: str) -> None:
        self.control.value = new

    @property
    def disabled(self) -> bool:
        return bool(self.control.disabled)

    @disabled.setter
    def disabled(self, flag: bool) -> None:
        self.control.disabled = flag

    @property
    def description(self) -> str:
        return str(self.control.description)

    @description.setter
    def description(self, text: str) -> None:
        self.control.description = text
        self.label = text.strip().rstrip(":") or self.name

    # -- observing ----------------------------------------------------------------------
    def observe(self, handler: Any, names: Any = traitlets.All, type: str = "change") -> None:
        """``observe(handler, names="value")`` hears every change of the text."""
        if names == "value" or (isinstance(names, list | tuple) and list(names) == ["value"]):
            self._value_observers.append(handler)
            return
        super().observe(handler, names=names, type=type)

    def unobserve(self, handler: Any, names: Any = traitlets.All, type: str = "change") -> None:
        if names == "value" or (isinstance(names, list | tuple) and list(names) == ["value"]):
            if handler in self._value_observers:
                self._value_observers.remove(handler)
            return
        super().unobserve(handler, names=names, type=type)

    def echo_on(self, error: ErrorLine, message: str) -> None:
        self._echoes.append((error, message))

    def settle(self) -> None:
        """A move of this app worked: a refusal under the box that was a *move's* (faces
        that do not fit the roll, a name already taken) goes; one about the text still in
        the box (too high, not a number) stays while the text is bad, as the box's red
        border does. Called by the app's error line when it clears
        ([ErrorLine.clear][companion.widgets.messages.ErrorLine.clear]); a refusal seen
        through many later moves misled the table (issue 31)."""
        if self.valid and self.refusal.value:
            self.refusal.clear()

    # -- acting -------------------------------------------------------------------------
    def on_enter(self, action: Callable[[], Any], error: ErrorLine) -> None:
        """Run ``action`` (wrapped by [safe][companion.widgets.messages.safe] on ``error``) when
        Enter, a phone's Go key, is pressed in the box.

        The box then syncs on every keystroke, so the action reads what was typed (see
        [text_box][companion.widgets.controls.text_box] for why Enter is heard this way).
        """
        self.control.continuous_update = True

        def submitted(_control: widgets.Text) -> Any:
            return action()

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            self.control.on_submit(safe(error)(submitted))

    def apply(self, move: Callable[[Any], R]) -> R:
        """Read the box and call ``move(value)``; clear the box when the move is made.

        A bad box raises its [InputError][companion.widgets.messages.InputError]; a project error
        from the move (a name already taken) is shown under the box too and raised as this
        box's InputError, so the app's error line clears once the box is changed.
        """
        value = self.read()
        try:
            result = move(value)
        except InputError:
            raise
        except CompanionError as exc:
            self.refusal.show(exc)
            raise InputError(one_line(exc), self) from None
        self.text = ""
        return result

    # -- internals ----------------------------------------------------------------------
    def _check(self) -> str | None:
        """Parse the text; show or clear the refusal; return the reason or None."""
        try:
            self._current = self._parse(self.text)
        except InputError as exc:
            self._current = None
            reason = str(exc)
            self.refusal.show(f"{self.label}: {reason}")
            self.add_class("tc-bad")
            return reason
        self.refusal.clear()
        self.remove_class("tc-bad")
        for error, message in self._echoes:
            if error.message == message:
                error.clear()
        self._echoes.clear()
        return None

    def _on_text(self, _change: Any) -> None:
        old = self._last
        self._check()
        self._last = self._current
        change = traitlets.Bunch(name="value", old=old, new=self._current, owner=self,
                                 type="change")
        for handler in list(self._value_observers):
            handler(change)


class NumberBox(CheckedBox):
    """A whole number from ``min`` to ``max`` (inclusive), typed; ``.tc-int-<name>``.

    Refuses (under the box) an empty box, anything that is not a whole number, and numbers
    out of range; never clamps. ``read()`` returns an ``int``.
    """

    kind = "int"

    def __init__(self, description: str, value: int, name: str, low: int = -99,
                 high: int = 99, width: str = "150px") -> None:
        if low > high:
            raise ValueError(f"int_box {name!r}: low {low} is above high {high}")
        self._low, self._high = low, high
        super().__init__(description, str(value), name, width=width)

    @property
    def min(self) -> int:
        return self._low

    @min.setter
    def min(self, low: int) -> None:
        self._low = low
        self._check()

    @property
    def max(self) -> int:
        return self._high

    @max.setter
    def max(self, high: int) -> None:
        self._high = high
        self._check()

    def read(self) -> int:
        return int(super().read())

    def _span(self) -> str:
        return f"enter a whole number from {self._low} to {self._high}"

    def _parse(self, text: str) -> int:
        cleaned = text.strip().replace("\u2212", "-").replace(" ", "")
        if not cleaned:
            raise InputError(f"the box is empty: {self._span()}")
        if not _WHOLE_NUMBER.fullmatch(cleaned):
            raise InputError(f"{_quoted(text)} is not a whole number: {self._span()}")
        number = int(cleaned)
        if number < self._low:
            raise InputError(f"{number} is too low: {self._span()}")
        if number > self._high:
            raise InputError(f"{number} is too high: {self._span()}")
        return number


class NameBox(CheckedBox):
    """A name (or other short text) of at most ``max_len`` characters; ``.tc-name-<name>``.

    ``read()`` returns the text without surrounding spaces. Refuses text longer than
    ``max_len``, line breaks and control characters, and an empty box when ``required``.
    """

    kind = "name"

    def __init__(self, description: str = "Name", value: str = "", name: str = "name", *,
                 max_len: int = MAX_NAME_LENGTH, required: bool = True,
                 placeholder: str = "", width: str = "240px") -> None:
        self.max_len, self.required = max_len, required
        super().__init__(description, value, name, width=width, placeholder=placeholder)

    def read(self) -> str:
        return str(super().read())

    def _parse(self, text: str) -> str:
        cleaned = text.strip()
        if len(cleaned) > self.max_len:
            raise InputError(
                f"too long ({len(cleaned):,} characters): at most {self.max_len}"
            )
        if any(ord(ch) < 32 or ord(ch) == 127 for ch in cleaned):
            raise InputError("holds a line break or control character")
        if self.required and not cleaned:
            raise InputError("the box is empty: type a name")
        return cleaned


def _quoted(text: str) -> str:
    shown = clipped(text.strip(), 20)
    return f"\u201c{shown}\u201d"


def int_box(description: str, value: int, name: str, low: int = -99, high: int = 99,
            width: str = "150px") -> NumberBox:
    """A whole-number box that refuses bad input visibly, findable as ``.tc-int-<name>``.

    See [NumberBox][companion.widgets.inputs.NumberBox]; read it with ``.read()`` (or
    ``.value``) inside the action.
    """
    return NumberBox(description, value, name, low, high, width)


def name_box(description: str = "Name", value: str = "", name: str = "name", *,
             max_len: int = MAX_NAME_LENGTH, required: bool = True, placeholder: str = "",
             width: str = "240px") -> NameBox:
    """A name box with a length limit, findable as ``.tc-name-<name>`` (see
    [NameBox][companion.widgets.inputs.NameBox])."""
    return NameBox(description, value, name, max_len=max_len, required=required,
                   placeholder=placeholder, width=width)


def first_bad_box(*boxes: CheckedBox) -> str | None:
    """Why the buttons reading ``boxes`` cannot work: the first box holding bad text (its
    own refusal is under it), or ``None`` when all are good."""
    for box in boxes:
        if not box.valid:
            return f"fix the {box.label.lower()} first"
    return None
