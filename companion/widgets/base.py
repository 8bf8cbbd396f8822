"""Shared pieces for every component: safe callbacks, phone-width layout, model binding.

Components in [companion.widgets][] hold no rule logic. They call the core and observe
its plain models ([companion.state.Observable][]). This module gives them:

- [ErrorLine][companion.widgets.base.ErrorLine] and [safe][companion.widgets.base.safe]: a callback wrapper that turns any exception into a
  one-line message shown in the app. Voila swallows exceptions raised in callbacks into
  the kernel log, so without this a player would see nothing happen.
- [button][companion.widgets.base.button], [row][companion.widgets.base.row], [column][companion.widgets.base.column], [text_box][companion.widgets.base.text_box], [app_box][companion.widgets.base.app_box] and
  [CSS][companion.widgets.base.CSS]: layouts that wrap at 390 px instead of scrolling sideways, buttons at least
  40 px tall, and text-only labels (Voila loads Font Awesome from a CDN, so icon names
  would show as blanks at an offline table).
- [bind][companion.widgets.base.bind]: render a widget from an ``Observable`` model now and after every change.
- [SaveLoad][companion.widgets.base.SaveLoad]: a tracker's *Save* download link and a paste-to-load box.
- [HistoryView][companion.widgets.base.HistoryView]: a roll history ([companion.history.RollHistory][]), newest
  first, with Clear and CSV/JSON downloads.

Usage in a component::

    error = ErrorLine()
    roll_button = button("Roll", on_click=self._roll, error=error)
    app = app_box(row(self.expr, roll_button), error)
"""

from __future__ import annotations

import base64
import functools
import html
import logging
import random
import re
import warnings
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

import ipywidgets as widgets

from companion.errors import CompanionError
from companion.history import RollHistory, RollRecord

__all__ = [
    "CSS",
    "MIN_BUTTON_HEIGHT",
    "ErrorLine",
    "HistoryView",
    "SaveLoad",
    "app_box",
    "bind",
    "button",
    "column",
    "confirm_button",
    "draw_seed",
    "int_box",
    "one_line",
    "press_enter",
    "row",
    "safe",
    "style_tag",
    "text_box",
]

log = logging.getLogger(__name__)

MIN_BUTTON_HEIGHT = "40px"
"""Smallest tap target: a fingertip on a phone at the table."""

SEED_BOUND = 2**53
"""Drawn seeds stay below 2**53 so they survive JSON readers that use doubles (browsers)."""


def draw_seed() -> int:
    """A fresh seed for one roll; apps record it so any roll can be replayed."""
    return random.SystemRandom().randrange(SEED_BOUND)


def int_box(description: str, value: int, name: str, low: int = -99, high: int = 99,
            width: str = "150px") -> widgets.BoundedIntText:
    """A bounded whole-number box, tap-sized, findable in tests as ``.tc-int-<name>``."""
    box = widgets.BoundedIntText(value=value, min=low, max=high, description=description,
                                 layout=widgets.Layout(width=width, min_height=MIN_BUTTON_HEIGHT),
                                 style={"description_width": "initial"})
    box.add_class(f"tc-int-{name}")
    return box

APP_MAX_WIDTH = "760px"
"""Wider apps are hard to read on a laptop; on a phone the screen is the limit."""

MAX_MESSAGE = 240
"""Longer messages are cut so the error line stays one line on a phone."""

CSS = """
.tc-app { box-sizing: border-box; max-width: min(100%, 760px); width: 100%; }
.tc-app * { box-sizing: border-box; }
.tc-app .tc-row { display: flex; flex-flow: row wrap; gap: 6px; align-items: center;
  max-width: 100%; margin: 3px 0; }
.tc-app .tc-row > * { margin: 0; }
.tc-app .tc-btn, .tc-app .tc-btn.jupyter-button { min-height: 40px; height: auto;
  min-width: 44px; width: auto; padding: 4px 10px; font-size: 15px; }
.tc-app .tc-text { max-width: 100%; min-width: 0; flex: 1 1 160px; }
.tc-app .tc-text input { min-height: 40px; font-size: 16px; }
.tc-app .widget-text, .tc-app .widget-dropdown { height: auto; min-height: 40px;
  align-items: center; }
/* 16px: phone browsers zoom the page into smaller text when a box is focused. */
.tc-app .widget-text input, .tc-app .widget-dropdown select { height: 40px; font-size: 16px; }
.tc-app .widget-checkbox { height: auto; min-height: 40px; }
.tc-app .widget-checkbox input { width: 22px; height: 22px; }
.tc-app .tc-error { color: #b00020; font-weight: 600; min-height: 1.4em;
  overflow-wrap: anywhere; }
.tc-app .tc-error:empty { display: none; }
.tc-app .widget-html-content, .tc-app .widget-html { max-width: 100%; overflow-wrap: anywhere; }
.tc-app svg { max-width: 100%; height: auto; }
.tc-app .tc-link { display: inline-flex; align-items: center; min-height: 40px;
  padding: 4px 10px; border: 1px solid #888; border-radius: 4px; text-decoration: none;
  color: inherit; margin: 0 4px 0 0; }
.tc-app .tc-history { margin: 0; padding: 0 0 0 0; list-style: none; max-height: 45vh;
  overflow-y: auto; font-size: 14px; }
.tc-app .tc-history li { padding: 4px 0; border-bottom: 1px solid #ddd; }
.tc-app .tc-history .tc-h-total { font-weight: 700; font-size: 16px; }
.tc-app .tc-history .tc-h-meta { color: #555; font-size: 12px; }
/* A check's total and verdict are read from across the table. */
.tc-app .tc-result span.tc-total { font-size: 30px; font-weight: 800; vertical-align: middle; }
.tc-app .tc-result .tc-verdict { font-size: 18px; vertical-align: middle; }
.tc-app del { text-decoration: line-through; opacity: 0.7; }
"""
"""Phone-width rules, scoped under ``.tc-app`` so they never leak into a notebook."""


def style_tag() -> widgets.HTML:
    """An HTML widget carrying [CSS][companion.widgets.base.CSS]; [app_box][companion.widgets.base.app_box] adds it once per app."""
    return widgets.HTML(f"<style>{CSS}</style>", layout=widgets.Layout(display="none"))


def one_line(exc: BaseException) -> str:
    """The message a player sees: the first line, cut to [MAX_MESSAGE][companion.widgets.base.MAX_MESSAGE] characters.

    Player errors ([CompanionError][companion.errors.CompanionError]) already name the problem and
    where; anything else is a bug, so its type is kept to help the report.
    """
    lines = str(exc).strip().splitlines()
    text = lines[0] if lines else ""
    if not isinstance(exc, CompanionError):
        text = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    if len(text) > MAX_MESSAGE:
        text = text[: MAX_MESSAGE - 1] + "…"
    return text


class ErrorLine(widgets.HTML):
    """A one-line error message shown in the app; empty (and hidden) when all is well."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(value="", **kwargs)
        self.add_class("tc-error")

    @property
    def message(self) -> str:
        """The plain text currently shown ("" when there is no error)."""
        return html.unescape(_strip_tags(self.value))

    def show(self, exc_or_text: BaseException | str) -> None:
        text = exc_or_text if isinstance(exc_or_text, str) else one_line(exc_or_text)
        # role=alert makes screen readers announce it; escaping because inputs are untrusted.
        self.value = f'<span role="alert">{html.escape(text)}</span>'

    def clear(self) -> None:
        self.value = ""


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


def safe(error: ErrorLine, *, clear_on_success: bool = True) -> Callable[[F], F]:
    """Decorate a widget callback so that an exception shows on ``error`` instead of vanishing.

    On success the error line is cleared (the player fixed the problem). Unexpected
    exceptions are also logged with their traceback, for whoever runs the server.
    """

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                result = func(*args, **kwargs)
            except CompanionError as exc:
                error.show(exc)
                return None
            except Exception as exc:
                log.exception("widget callback %s failed", getattr(func, "__name__", func))
                error.show(exc)
                return None
            if clear_on_success:
                error.clear()
            return result

        return wrapper  # type: ignore[return-value]

    return decorate


def button(
    label: str,
    on_click: Callable[[], Any] | None = None,
    *,
    error: ErrorLine | None = None,
    tooltip: str | None = None,
    style: str = "",
    name: str | None = None,
) -> widgets.Button:
    """A text-labelled button at least 40 px tall.

    ``on_click`` takes no arguments (the clicked Button is not needed by our callbacks);
    with ``error`` it is wrapped by [safe][companion.widgets.base.safe]. ``name`` becomes a CSS class
    ``tc-btn-<name>`` so browser tests can find the button.
    """
    btn = widgets.Button(
        description=label,
        tooltip=tooltip or label,
        button_style=style,
        layout=widgets.Layout(width="auto", height="auto", min_height=MIN_BUTTON_HEIGHT),
    )
    btn.add_class("tc-btn")
    if name:
        btn.add_class(f"tc-btn-{name}")
    if on_click is not None:
        action = on_click

        def clicked(_button: widgets.Button) -> Any:
            return action()

        btn.on_click(safe(error)(clicked) if error is not None else clicked)
    return btn


def confirm_button(
    label: str,
    on_confirm: Callable[[], Any],
    *,
    risky: Callable[[], bool],
    prompt: str,
    error: ErrorLine,
    name: str,
    style: str = "",
) -> widgets.Button:
    """A button whose move throws away the current state (a new caster, a new creature).

    While ``risky()`` is true (there is something to lose) the first tap only turns the
    button red with ``prompt`` as its label; a second tap does it. A stray tap on a phone
    then costs nothing, and there is no pop-up dialog to dismiss. Call ``disarm()`` on the
    returned button (the app's render does) to put the label back after any other move.
    """
    btn = button(label, None, error=error, name=name, style=style)

    def disarm() -> None:
        btn.description, btn.button_style = label, style

    def clicked() -> Any:
        if risky() and btn.description != prompt:
            btn.description, btn.button_style = prompt, "danger"
            return None
        disarm()
        return on_confirm()

    btn.on_click(safe(error)(lambda _button: clicked()))
    btn.disarm = disarm
    return btn


def text_box(
    placeholder: str = "",
    *,
    value: str = "",
    description: str = "",
    name: str | None = None,
    on_enter: Callable[[], Any] | None = None,
    error: ErrorLine | None = None,
) -> widgets.Text:
    """A text box that shrinks to the screen; ``on_enter`` runs when the player presses Enter.

    Without ``on_enter`` the value syncs only on Enter or blur (``continuous_update=False``);
    observe ``value`` to act on it.

    With ``on_enter``: ipywidgets 8 deprecates ``Text.on_submit`` in favour of observing
    ``value`` with ``continuous_update=False``, but that also fires on blur (tapping the Roll
    button after typing would roll twice) and not at all when Enter is pressed on an
    unchanged value (a second roll of the same expression). So the value syncs on every
    keystroke and the frontend's Enter message, still sent by ipywidgets 8, does the work;
    keystrokes are sent before the Enter message, so the callback sees what was typed.
    """
    box = widgets.Text(
        value=value,
        placeholder=placeholder,
        description=description,
        continuous_update=on_enter is not None,
        layout=widgets.Layout(width="auto", max_width="100%", min_width="0"),
    )
    box.add_class("tc-text")
    if name:
        box.add_class(f"tc-text-{name}")
    if on_enter is not None:
        action = on_enter

        def submitted(_box: widgets.Text) -> Any:
            return action()

        callback = safe(error)(submitted) if error is not None else submitted
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            box.on_submit(callback)
    return box


def press_enter(box: widgets.Text) -> None:
    """Do in-process what the browser does when Enter is pressed in ``box`` (for tests)."""
    box._handle_string_msg(None, {"event": "submit"}, None)


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


_STRUCK = re.compile(r"~~(.+?)~~")


def roll_text_html(text: str) -> str:
    """The engine's one-line roll text as HTML: ``~~1~~`` (a dropped die) becomes ``<del>``."""
    return _STRUCK.sub(r"<del>\1</del>", html.escape(text))


def data_uri_link(label: str, filename: str, mime: str, content: str) -> str:
    """A download link that carries its file inline (works offline, no server route)."""
    payload = base64.b64encode(content.encode("utf-8")).decode("ascii")
    return (
        f'<a class="tc-link tc-download-{html.escape(filename.rsplit(".", 1)[-1])}" '
        f'download="{html.escape(filename)}" '
        f'href="data:{mime};charset=utf-8;base64,{payload}">{html.escape(label)}</a>'
    )


class HistoryView(widgets.VBox):
    """Shows a [RollHistory][companion.history.RollHistory] (newest first) with Clear and exports.

    It only observes the model: whoever adds rolls to the history (this browser or, later,
    another one sharing the model) makes the list update. The ``<ol>`` carries
    ``data-count`` (rolls ever made) so browser tests can wait for the next roll.
    """

    def __init__(self, history: RollHistory, *, error: ErrorLine | None = None) -> None:
        super().__init__(layout=widgets.Layout(max_width="100%"))
        self.add_class("tc-history-view")
        self.history = history
        self.error = error if error is not None else ErrorLine()
        self.title = widgets.HTML()
        self.clear_button = button(
            "Clear history", history.clear, error=self.error, name="clear-history"
        )
        self.downloads = widgets.HTML()
        self.list = widgets.HTML()
        self.children = (
            row(self.title, self.clear_button, self.downloads),
            self.list,
        )
        self.unsubscribe = history.on_change(lambda _model: self.render())
        self.render()

    def render(self) -> None:
        h = self.history
        n = len(h)
        self.title.value = f"<b>History</b> ({n} roll{'s' if n != 1 else ''}, newest first)"
        self.clear_button.disabled = n == 0
        if n:
            self.downloads.value = data_uri_link(
                "CSV", "rolls.csv", "text/csv", h.to_csv()
            ) + data_uri_link("JSON", "rolls.json", "application/json", h.to_json())
        else:
            self.downloads.value = ""
        items = "".join(self._item(r) for r in h)
        self.list.value = f'<ol class="tc-history" data-count="{h.count}">{items}</ol>'

    @staticmethod
    def _item(r: RollRecord) -> str:
        clock = r.time[11:19] if len(r.time) >= 19 else r.time
        return (
            f'<li data-n="{r.n}"><span class="tc-h-total">{r.total}</span> '
            f'<span class="tc-h-text">{roll_text_html(r.text)}</span><br>'
            f'<span class="tc-h-meta">#{r.n} · <time datetime="{html.escape(r.time)}">'
            f"{html.escape(clock)} UTC</time> · seed {r.seed}</span></li>"
        )


class _Saveable(Protocol):
    def on_change(self, callback: Callable[..., Any], /) -> Any: ...
    def to_json(self) -> str: ...
    def load(self, text: str) -> None: ...


class SaveLoad(widgets.VBox):
    """*Save* (a download of ``model.to_json()``) and a box to paste a saved file into.

    *Load* calls ``model.load``, which checks every field before changing anything: a bad
    paste shows the one-line ``StateError`` and leaves both the model and the paste as they
    were, so the player can fix it. Observers of the model stay attached.
    """

    def __init__(self, model: _Saveable, filename: str, *, what: str,
                 error: ErrorLine | None = None) -> None:
        super().__init__(layout=widgets.Layout(max_width="100%"))
        self.add_class("tc-save-load")
        self.model = model
        self.filename = filename
        self.what = what
        self.error = error if error is not None else ErrorLine()
        self.save = widgets.HTML()
        self.save.add_class("tc-save")
        self.load_box = widgets.Textarea(placeholder=f"Paste a saved {what} (JSON) to load it",
                                         layout=widgets.Layout(width="100%", height="60px"))
        self.load_box.add_class("tc-load")
        self.load_button = button("Load", self.load, error=self.error, name="load")
        own_error = [self.error] if error is None else []
        self.children = (row(self.save), row(self.load_box, self.load_button), *own_error)
        bind(model, self.render, error=self.error)

    def load(self) -> None:
        text = self.load_box.value
        if not text.strip():
            raise CompanionError(f"Load: paste a saved {self.what} into the box first")
        self.model.load(text)
        self.load_box.value = ""

    def render(self) -> None:
        self.save.value = data_uri_link(f"Save {self.what}", self.filename, "application/json",
                                        self.model.to_json())
