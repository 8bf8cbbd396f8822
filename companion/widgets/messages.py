"""Messages a player sees: the one-line error, and the callback wrapper that shows it.

Voila swallows exceptions raised in callbacks into the kernel log, so without
[safe][companion.widgets.messages.safe] a player would see nothing happen.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import html
import logging
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

import ipywidgets as widgets

from companion.errors import CompanionError
from companion.widgets.markup import Markup, el, frag, into_view_html

if TYPE_CHECKING:
    from companion.widgets.inputs import CheckedBox

__all__ = [
    "MAX_MESSAGE",
    "ErrorLine",
    "InputError",
    "not_a_move",
    "one_line",
    "safe",
]

log = logging.getLogger(__name__)


MAX_MESSAGE = 240
"""Longer messages are cut so the error line stays one line on a phone."""


def one_line(exc: BaseException) -> str:
    """The message a player sees: the first line, cut to
    [MAX_MESSAGE][companion.widgets.messages.MAX_MESSAGE] characters.

    Player errors ([CompanionError][companion.errors.CompanionError]) already name the
    problem and where; anything else is a bug, so its type is kept to help the report.
    """
    lines = str(exc).strip().splitlines()
    text = lines[0] if lines else ""
    if not isinstance(exc, CompanionError):
        text = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    if len(text) > MAX_MESSAGE:
        text = text[: MAX_MESSAGE - 1] + "…"
    return text


class ErrorLine(widgets.HTML):
    """A one-line error message shown in the app; empty (and hidden) when all is well.

    A message is scrolled into view when it appears. A refusal already shown under the box
    that caused it is only *carried* here ([echo][companion.widgets.messages.ErrorLine.echo]):
    ``message`` holds it for the code, but a player sees it once, beside its box.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(value="", **kwargs)
        self.add_class("tc-error")
        # The boxes whose refusals this line carries: told when a move succeeds.
        self._carried: list[CheckedBox] = []

    @property
    def message(self) -> str:
        """The plain text this line carries ("" when there is no error)."""
        return html.unescape(_strip_tags(self.value))

    def show(self, exc_or_text: BaseException | str) -> None:
        text = exc_or_text if isinstance(exc_or_text, str) else one_line(exc_or_text)
        self.remove_class("tc-echoed")
        # role=alert makes screen readers announce it; the builder escapes untrusted input.
        # Brought into view as it appears, only as far as needed (a phone shows a small part
        # of an app); a message already on screen does not move the page.
        self.value = frag(el("span", text, role="alert"), into_view_html("nearest"))

    def echo(self, text: str, box: CheckedBox | None = None) -> None:
        """Carry ``text``, shown elsewhere (under ``box``), without showing it again."""
        self.add_class("tc-echoed")
        self.value = el("span", text, class_="tc-echo")
        if box is not None and box not in self._carried:
            self._carried.append(box)

    def clear(self) -> None:
        """No error: the line empties, and the boxes whose refusals it carried drop a
        refusal that was a move's (see
        [CheckedBox.settle][companion.widgets.inputs.CheckedBox.settle])."""
        self.remove_class("tc-echoed")
        self.value = Markup()
        carried, self._carried = self._carried, []
        for box in carried:
            box.settle()


def _strip_tags(value: str) -> str:
    out: list[str] = []
    inside = False
    for ch in value:
        if ch == "<":
            inside = True
        elif ch == ">":
            inside = False
        elif not inside:
            out.append(ch)
    return "".join(out)


F = TypeVar("F", bound=Callable[..., Any])
R = TypeVar("R")


_NOT_A_MOVE: contextvars.ContextVar[bool] = contextvars.ContextVar("tc_not_a_move",
                                                                    default=False)


@contextlib.contextmanager
def not_a_move() -> Iterator[None]:
    """Run the code inside as work that is not this seat's move: another screen's moves
    applied here (the page's live sync,
    [catch_up][companion.widgets.table.binding.catch_up]), apps built ahead in the
    background. Callbacks wrapped by [safe][companion.widgets.messages.safe] that run
    meanwhile clear no refusal: a refusal stays until this seat's own next successful
    move (a live update wiped it before the player could read it)."""
    token = _NOT_A_MOVE.set(True)
    try:
        yield
    finally:
        _NOT_A_MOVE.reset(token)


def safe(error: ErrorLine, *, clear_on_success: bool = True) -> Callable[[F], F]:
    """Decorate a widget callback so that an exception shows on ``error`` instead of vanishing.

    On success the error line is cleared (the player fixed the problem, or made a move that
    worked), with the refusals of moves that its boxes carried; not inside
    [not_a_move][companion.widgets.messages.not_a_move] (another screen's moves applied
    here are not this seat's). Unexpected exceptions are also logged with their traceback, for
    whoever runs the server. An [InputError][companion.widgets.messages.InputError] from a
    checked box is shown once, under the box, and the line clears itself once that box is
    fixed.
    """

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                result = func(*args, **kwargs)
            except InputError as exc:
                if exc.box is None:
                    error.show(exc)
                else:  # shown once: under the box, brought into view
                    exc.box.refusal.show(one_line(exc))
                    error.echo(one_line(exc), exc.box)
                    exc.box.echo_on(error, one_line(exc))
                return None
            except CompanionError as exc:
                error.show(exc)
                return None
            except Exception as exc:
                log.exception("widget callback %s failed", getattr(func, "__name__", func))
                error.show(exc)
                return None
            if clear_on_success and not _NOT_A_MOVE.get():
                error.clear()
            return result

        return wrapper  # type: ignore[return-value]

    return decorate


class InputError(CompanionError):
    """What a player typed into a checked box, refused; the box shows why, under itself.

    ``box`` is the refusing box (``None`` when raised by hand).
    """

    def __init__(self, message: str, box: CheckedBox | None = None) -> None:
        super().__init__(message)
        self.box = box
