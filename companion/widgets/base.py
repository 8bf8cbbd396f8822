"""Shared pieces for every component: safe callbacks, phone-width layout, model binding.

Components in [companion.widgets][] hold no rule logic. They call the core and observe
its plain models ([companion.state.Observable][]). This module gives them:

- [ErrorLine][companion.widgets.base.ErrorLine] and [safe][companion.widgets.base.safe]:
  a callback wrapper that turns any exception into a one-line message shown in the app.
  Voila swallows exceptions raised in callbacks into the kernel log, so without this a
  player would see nothing happen.
- [button][companion.widgets.base.button], [row][companion.widgets.base.row],
  [column][companion.widgets.base.column], [text_box][companion.widgets.base.text_box],
  [app_box][companion.widgets.base.app_box] and [CSS][companion.widgets.base.CSS]: layouts
  that wrap at 390 px instead of scrolling sideways, text at least 16 px, buttons,
  checkboxes and list options at least 40 px tall, and text-only labels (Voila loads Font
  Awesome from a CDN, so icon names would show as blanks at an offline table).
- [int_box][companion.widgets.base.int_box] and [name_box][companion.widgets.base.name_box]:
  boxes that refuse bad input visibly (below).
- [bind][companion.widgets.base.bind]: render a widget from an ``Observable`` model now and
  after every change.
- [SaveLoad][companion.widgets.base.SaveLoad]: a tracker's *Save* download link and a
  paste-to-load box. [DownloadLinks][companion.widgets.base.DownloadLinks] is its link part
  for apps that build their own save file: a long save is not re-sent after every move.
- [log_html][companion.widgets.base.log_html]: a tracker's moves, newest first, bounded.
- [escape][companion.widgets.base.escape] and [chance_html][companion.widgets.base.chance_html]:
  any value as HTML text; an exact chance as a percentage with its fraction.
- [disable_for][companion.widgets.base.disable_for] and
  [first_bad_box][companion.widgets.base.first_bad_box]: a button that cannot work now is
  disabled, its tooltip saying why (a rule's refusal, or a box holding a bad number).
- [HistoryView][companion.widgets.base.HistoryView]: a roll history
  ([companion.history.RollHistory][]), newest first, with Clear and CSV/JSON downloads,
  times in the viewer's own zone, and a bounded amount sent to the browser per change.

Usage in a component::

    error = ErrorLine()
    roll_button = button("Roll", on_click=self._roll, error=error)
    app = app_box(row(self.expr, roll_button), error)

Boxes that refuse bad input
---------------------------

A number or a name typed by a player is read through a *checked box*
([NumberBox][companion.widgets.base.NumberBox] from ``int_box(...)``,
[NameBox][companion.widgets.base.NameBox] from ``name_box(...)``). The box is a small
column: the input, and under it a one-line refusal (``.tc-refusal``, ``role=alert``) that
appears as soon as the typed text is bad (empty, letters, out of range, too long) and
disappears as soon as it is fixed. Nothing is clamped or silently reverted.

Read the box **inside the action**, with ``box.read()`` (or ``box.value``, the same
thing): a bad box raises [InputError][companion.widgets.base.InputError], a project error,
so the action wrapped by [safe][companion.widgets.base.safe] (every ``button(...,
error=...)``) stops before doing anything and its error line repeats the refusal ("Amount:
-5 is too low: enter a whole number from 1 to 999"). That error line clears itself when the
box is fixed. ``box.valid`` says whether the text is good without raising; ``box.value = 7``
sets it (tests do this); ``box.observe(handler, names="value")`` is called after every
change of the text (``change.new`` is the number, or ``None`` while the text is bad);
``box.disabled``, ``box.min``/``box.max`` (numbers) work as on an ipywidgets box.
``box.on_enter(action, error)`` runs ``action`` when Enter (a phone's Go key) is pressed in
the box; ``box.apply(model_move)`` reads the box and hands the value to a move, showing the
move's refusal (a name already taken) under the box as well::

    self.amount = int_box("Amount", 1, "amount", 1, 999)   # .tc-int-amount
    self.who = name_box("Name", name="who", max_len=40)     # .tc-name-who

    def _apply(self) -> None:            # on a button(..., error=self.error)
        amount = self.amount.read()      # refused? nothing below runs
        self.model.take_damage(amount, self.who.read())
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
import traitlets

from companion.dice.render import fraction_text, percent
from companion.errors import CompanionError, clipped
from companion.history import RollHistory, RollRecord

__all__ = [
    "CSS",
    "ENTRY_TEXT_LIMIT",
    "HISTORY_SHOWN",
    "INLINE_DOWNLOAD_LIMIT",
    "LOCAL_TIME_SCRIPT",
    "LOG_SHOWN",
    "MAX_NAME_LENGTH",
    "MIN_BUTTON_HEIGHT",
    "CheckedBox",
    "DownloadLinks",
    "ErrorLine",
    "HistoryView",
    "InputError",
    "NameBox",
    "NumberBox",
    "SaveLoad",
    "app_box",
    "bind",
    "button",
    "chance_html",
    "check_box",
    "column",
    "confirm_button",
    "data_uri_link",
    "disable_for",
    "draw_seed",
    "escape",
    "first_bad_box",
    "int_box",
    "local_time_html",
    "log_html",
    "name_box",
    "one_line",
    "press_enter",
    "row",
    "safe",
    "slug",
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


APP_MAX_WIDTH = "760px"
"""Wider apps are hard to read on a laptop; on a phone the screen is the limit."""

MAX_MESSAGE = 240
"""Longer messages are cut so the error line stays one line on a phone."""

CSS = """
/* Readable at arm's length on a phone: body text 16px (phone browsers also zoom the page
   into any box whose text is smaller when it is focused). The variables are ipywidgets' and
   JupyterLab's own, so labels, HTML, inputs and selects follow them. */
.tc-app { box-sizing: border-box; max-width: min(100%, 760px); width: 100%;
  font-size: 16px; line-height: 1.4;
  --jp-widgets-font-size: 16px; --jp-ui-font-size1: 16px; --jp-content-font-size1: 16px;
  --jp-widgets-inline-height: 40px; --jp-widgets-inline-label-width: auto; }
.tc-app * { box-sizing: border-box; }
.tc-app .widget-label, .tc-app .widget-label-basic, .tc-app .widget-html-content,
.tc-app .widget-inline-hbox label, .tc-app .widget-html, .tc-app td, .tc-app th,
.tc-app li, .tc-app p { font-size: 16px; }
.tc-app .widget-label, .tc-app .widget-inline-hbox .widget-label { line-height: 1.4;
  height: auto; min-height: 40px; display: flex; align-items: center; }
.tc-app .tc-row { display: flex; flex-flow: row wrap; gap: 6px; align-items: center;
  max-width: 100%; margin: 3px 0; }
.tc-app .tc-row > * { margin: 0; }
.tc-app .tc-btn, .tc-app .tc-btn.jupyter-button, .tc-app .jupyter-button { min-height: 40px;
  height: auto; min-width: 44px; width: auto; padding: 4px 10px; font-size: 16px; }
.tc-app .tc-text { max-width: 100%; min-width: 0; flex: 1 1 160px; }
.tc-app .tc-text input { min-height: 40px; font-size: 16px; }
.tc-app .widget-text, .tc-app .widget-dropdown { height: auto; min-height: 40px;
  align-items: center; }
.tc-app .widget-text input, .tc-app .widget-dropdown select, .tc-app textarea,
.tc-app .widget-select select { min-height: 40px; font-size: 16px; }
.tc-app .widget-text input, .tc-app .widget-dropdown select { height: 40px; }
/* Checkboxes: the whole label is the tap target, 40px tall; the box itself 32px. */
.tc-app .widget-checkbox { height: auto; min-height: 40px; }
.tc-app .widget-checkbox label { min-height: 40px; display: flex; align-items: center;
  gap: 8px; font-size: 16px; cursor: pointer; }
.tc-app .widget-checkbox input { width: 32px; height: 32px; margin: 4px; flex: none; }
/* List options (Select, SelectMultiple, RadioButtons, ToggleButtons) 40px tall. */
.tc-app .widget-select select, .tc-app select[multiple], .tc-app select[size] {
  height: auto; }
.tc-app .widget-select option, .tc-app select[multiple] option, .tc-app select[size] option {
  min-height: 40px; padding: 10px 6px; line-height: 20px; font-size: 16px; }
.tc-app .widget-radio-box label { min-height: 40px; display: flex; align-items: center;
  font-size: 16px; }
.tc-app .widget-radio-box input { width: 24px; height: 24px; margin: 0 8px 0 0; }
.tc-app .widget-toggle-button { min-height: 40px; height: auto; font-size: 16px; }
.tc-app .tc-error { color: #b00020; font-weight: 600; min-height: 1.4em; font-size: 16px;
  overflow-wrap: anywhere; }
.tc-app .tc-error:empty { display: none; }
/* A checked box: the input, and under it its one-line refusal. */
.tc-app .tc-checked { max-width: 100%; min-width: 0; flex: 0 1 auto; }
.tc-app .tc-checked .tc-refusal { min-height: 0; margin: 2px 0 0 0; }
.tc-app .tc-checked.tc-bad input { border: 2px solid #b00020; }
.tc-app .widget-html-content, .tc-app .widget-html { max-width: 100%; overflow-wrap: anywhere; }
.tc-app svg { max-width: 100%; height: auto; }
.tc-app .tc-link { display: inline-flex; align-items: center; min-height: 40px;
  padding: 4px 10px; border: 1px solid #888; border-radius: 4px; text-decoration: none;
  color: inherit; margin: 0 4px 0 0; font-size: 16px; }
.tc-app .tc-history { margin: 0; padding: 0 0 0 0; list-style: none; max-height: 45vh;
  overflow-y: auto; font-size: 16px; }
.tc-app .tc-history li { padding: 4px 0; border-bottom: 1px solid #ddd; font-size: 16px; }
.tc-app .tc-history .tc-h-total { font-weight: 700; font-size: 18px; }
.tc-app .tc-history .tc-h-meta { color: #555; font-size: 16px; }
.tc-app .tc-history-more { color: #555; font-size: 16px; }
/* A check's total and verdict are read from across the table. */
.tc-app .tc-result span.tc-total { font-size: 30px; font-weight: 800; vertical-align: middle; }
.tc-app .tc-result .tc-verdict { font-size: 18px; vertical-align: middle; }
.tc-app del { text-decoration: line-through; opacity: 0.7; }
/* Secondary text (an exact fraction, a note) is read too: 16px, told apart by its colour. */
.tc-app small, .tc-app .tc-note { font-size: 16px; color: #555; }
"""
"""Phone-width rules, scoped under ``.tc-app`` so they never leak into a notebook."""


def style_tag() -> widgets.HTML:
    """An HTML widget carrying [CSS][companion.widgets.base.CSS].

    [app_box][companion.widgets.base.app_box] adds it once per app.
    """
    return widgets.HTML(f"<style>{CSS}</style>", layout=widgets.Layout(display="none"))


def escape(text: object) -> str:
    """Any value as HTML text (what a player typed never becomes markup).

    >>> escape("<b>Ann & Bo</b>")
    '&lt;b&gt;Ann &amp; Bo&lt;/b&gt;'
    """
    return html.escape(str(text))


def slug(text: str) -> str:
    """``text`` as a CSS class or file name part: letters and digits kept, the rest ``-``.

    >>> slug("Ann the Bold")
    'ann-the-bold'
    """
    return "".join(ch if ch.isalnum() else "-" for ch in text.lower())


def chance_html(p: Any) -> str:
    """An exact chance (a ``Fraction``) as a percentage with its exact fraction beside it.

    >>> from fractions import Fraction
    >>> chance_html(Fraction(1, 3))
    '<span class="tc-p">33.33%</span> <small>(1/3)</small>'
    """
    return f'<span class="tc-p">{percent(p)}</span> <small>({fraction_text(p)})</small>'


def disable_for(btn: widgets.Button, reason: str | None) -> None:
    """Disable ``btn`` while ``reason`` (why it cannot work now) is not ``None``; its tooltip
    then says why, else it shows the button's label."""
    btn.disabled = reason is not None
    btn.tooltip = reason or btn.description


def first_bad_box(*boxes: CheckedBox) -> str | None:
    """Why the buttons reading ``boxes`` cannot work: the first box holding bad text (its
    own refusal is under it), or ``None`` when all are good."""
    for box in boxes:
        if not box.valid:
            return f"fix the {box.label.lower()} first"
    return None


def one_line(exc: BaseException) -> str:
    """The message a player sees: the first line, cut to
    [MAX_MESSAGE][companion.widgets.base.MAX_MESSAGE] characters.

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
R = TypeVar("R")


def safe(error: ErrorLine, *, clear_on_success: bool = True) -> Callable[[F], F]:
    """Decorate a widget callback so that an exception shows on ``error`` instead of vanishing.

    On success the error line is cleared (the player fixed the problem). Unexpected
    exceptions are also logged with their traceback, for whoever runs the server. An
    [InputError][companion.widgets.base.InputError] from a checked box is shown too, and the
    line clears itself once that box is fixed.
    """

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                result = func(*args, **kwargs)
            except InputError as exc:
                error.show(exc)
                if exc.box is not None:
                    exc.box._echo_on(error, one_line(exc))
                return None
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
    with ``error`` it is wrapped by [safe][companion.widgets.base.safe]. ``name`` becomes a
    CSS class ``tc-btn-<name>`` so browser tests can find the button.
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


def check_box(label: str, name: str, value: bool = False) -> widgets.Checkbox:
    """A checkbox whose whole label is the tap target; tests find it by ``.tc-check-<name>``."""
    box = widgets.Checkbox(value=value, description=label, indent=False,
                           layout=widgets.Layout(width="auto"))
    box.add_class(f"tc-check-{name}")
    return box


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


class InputError(CompanionError):
    """What a player typed into a checked box, refused; the box shows why, under itself.

    ``box`` is the refusing box (``None`` when raised by hand).
    """

    def __init__(self, message: str, box: CheckedBox | None = None) -> None:
        super().__init__(message)
        self.box = box


MAX_NAME_LENGTH = 40
"""Longest name a [name_box][companion.widgets.base.name_box] takes by default."""

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
        """Same as [read][companion.widgets.base.CheckedBox.read]; setting it writes the box."""
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

    def _echo_on(self, error: ErrorLine, message: str) -> None:
        self._echoes.append((error, message))

    # -- acting -------------------------------------------------------------------------
    def on_enter(self, action: Callable[[], Any], error: ErrorLine) -> None:
        """Run ``action`` (wrapped by [safe][companion.widgets.base.safe] on ``error``) when
        Enter, a phone's Go key, is pressed in the box.

        The box then syncs on every keystroke, so the action reads what was typed (see
        [text_box][companion.widgets.base.text_box] for why Enter is heard this way).
        """
        self.control.continuous_update = True

        def submitted(_control: widgets.Text) -> Any:
            return action()

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            self.control.on_submit(safe(error)(submitted))

    def apply(self, move: Callable[[Any], R]) -> R:
        """Read the box and call ``move(value)``; clear the box when the move is made.

        A bad box raises its [InputError][companion.widgets.base.InputError]; a project error
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

    See [NumberBox][companion.widgets.base.NumberBox]; read it with ``.read()`` (or
    ``.value``) inside the action.
    """
    return NumberBox(description, value, name, low, high, width)


def name_box(description: str = "Name", value: str = "", name: str = "name", *,
             max_len: int = MAX_NAME_LENGTH, required: bool = True, placeholder: str = "",
             width: str = "240px") -> NameBox:
    """A name box with a length limit, findable as ``.tc-name-<name>`` (see
    [NameBox][companion.widgets.base.NameBox])."""
    return NameBox(description, value, name, max_len=max_len, required=required,
                   placeholder=placeholder, width=width)


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


LOG_SHOWN = 50
"""Newest moves [log_html][companion.widgets.base.log_html] lists (the whole log stays in
the tracker and its save)."""


class _Logged(Protocol):
    @property
    def summary(self) -> str: ...


def log_html(log: Any, shown: int = LOG_SHOWN) -> str:
    """A tracker's moves (its ``log``), newest first, as a bounded list.

    The newest ``shown`` lines, each cut to
    [ENTRY_TEXT_LIMIT][companion.widgets.base.ENTRY_TEXT_LIMIT] characters, so what a move
    sends to the browser does not grow with the session; a note counts the earlier ones (in
    the save). The ``<ol class="tc-history tc-log">`` carries ``data-count`` (every move
    made) and each line ``data-n`` (its number), for tests to wait on.
    """
    events: list[_Logged] = list(log)
    first = max(0, len(events) - shown)
    items = "".join(
        f'<li data-n="{i + 1}">{roll_text_html(clipped(events[i].summary, ENTRY_TEXT_LIMIT))}'
        "</li>" for i in range(len(events) - 1, first - 1, -1))
    more = (f'<div class="tc-history-more">… and {first} earlier move'
            f'{"s" if first != 1 else ""} (in the save)</div>') if first else ""
    return f'<ol class="tc-history tc-log" data-count="{len(events)}">{items}</ol>{more}'


INLINE_DOWNLOAD_LIMIT = 32_000
"""Largest file (characters) sent inline as a download link on every change; a bigger one
is prepared only when the player taps *Prepare download* (and dropped at the next change),
so a long session does not re-send its whole save or history after every move."""

HISTORY_SHOWN = 50
"""Rolls a [HistoryView][companion.widgets.base.HistoryView] lists (newest first); all the
kept ones are in its downloads."""

ENTRY_TEXT_LIMIT = 300
"""Characters of a roll's text shown in one history entry (a 1000-die roll is cut)."""

# Browsers do not run <script> put in by innerHTML, but do run an image's onerror: this
# rewrites every <time class="tc-local"> near it in the viewer's own clock and zone.
_LOCAL_TIME_JS = (
    "var r=this.parentNode;r.querySelectorAll('time.tc-local').forEach(function(t){"
    "var d=new Date(t.getAttribute('datetime'));if(!isNaN(d)){"
    "t.textContent=d.toLocaleTimeString([],{hour:'2-digit',minute:'2-digit',"
    "second:'2-digit',timeZoneName:'short'});t.title=d.toLocaleString();}});"
    "this.remove();"
)


def local_time_html(iso: str, shown: str | None = None) -> str:
    """A ``<time>`` the browser rewrites into the viewer's clock and zone.

    ``shown`` is what appears before the rewrite (and in tests): by default the UTC clock
    time, marked "UTC". Put [LOCAL_TIME_SCRIPT][companion.widgets.base.LOCAL_TIME_SCRIPT]
    once after the times in the same HTML value.
    """
    if shown is None:
        shown = (iso[11:19] + " UTC") if len(iso) >= 19 else iso
    return (f'<time class="tc-local" datetime="{html.escape(iso)}">'
            f"{html.escape(shown)}</time>")


LOCAL_TIME_SCRIPT = (
    '<img alt="" src="data:," style="display:none" '
    f'onerror="{html.escape(_LOCAL_TIME_JS)}">'
)
"""Rewrites the ``local_time_html`` times of the HTML value it ends (runs on each render)."""


class DownloadLinks(widgets.HBox):
    """Download links (``data:`` URIs) whose size does not grow what each change sends.

    ``offer(build, size)`` after every change: ``build()`` returns the links' HTML (e.g.
    [data_uri_link][companion.widgets.base.data_uri_link]) and ``size`` estimates the file's
    characters. Up to [INLINE_DOWNLOAD_LIMIT][companion.widgets.base.INLINE_DOWNLOAD_LIMIT]
    the links are sent at once, as before; past it a button (``label``,
    ``.tc-btn-prepare-<name>``) builds them on a tap, and the next ``offer`` takes them back.
    ``.value`` is the links' HTML now shown ("" when none). The button is made the first
    time it is needed, so small apps keep their widget tree::

        self.save = DownloadLinks(self.error, "save", "Save sheet")
        ...  # in render:
        saved = sheet.to_json()
        self.save.offer(lambda: data_uri_link("Save sheet", "sheet.json",
                                              "application/json", saved), len(saved))
    """

    def __init__(self, error: ErrorLine, name: str, label: str = "Prepare download") -> None:
        self.links = widgets.HTML()
        self.links.add_class("tc-save")
        super().__init__([self.links],
                         layout=widgets.Layout(max_width="100%", flex_flow="row wrap"))
        self._error, self._name, self._label = error, name, label
        self.prepare: widgets.Button | None = None
        self._build: Callable[[], str] = str

    def offer(self, build: Callable[[], str], size: int) -> None:
        """``build()`` gives the links' HTML; ``size`` estimates the files' characters."""
        self._build = build
        if size <= INLINE_DOWNLOAD_LIMIT:
            self._show()
            return
        self.links.value = ""
        if self.prepare is None:
            self.prepare = button(self._label, self._show, error=self._error,
                                  name=f"prepare-{self._name}")
            self.children = (self.links, self.prepare)
        self.prepare.layout.display = None

    @property
    def value(self) -> str:
        return str(self.links.value)

    def withdraw(self) -> None:
        self.links.value = ""
        if self.prepare is not None:
            self.prepare.layout.display = "none"

    def _show(self) -> None:
        self.links.value = self._build()
        if self.prepare is not None:
            self.prepare.layout.display = "none"


class HistoryView(widgets.VBox):
    """Shows a [RollHistory][companion.history.RollHistory] (newest first) with Clear and exports.

    It only observes the model: whoever adds rolls to the history (this browser or, later,
    another one sharing the model) makes the list update. The ``<ol>`` carries
    ``data-count`` (rolls ever made) so browser tests can wait for the next roll.

    What each change sends to the browser is bounded: the newest
    [HISTORY_SHOWN][companion.widgets.base.HISTORY_SHOWN] rolls, each cut to
    [ENTRY_TEXT_LIMIT][companion.widgets.base.ENTRY_TEXT_LIMIT] characters, and the CSV/JSON
    downloads inline only while small (else a *Prepare download* button). Times show in the
    viewer's own zone.
    """

    def __init__(self, history: RollHistory, *, error: ErrorLine | None = None,
                 shown: int = HISTORY_SHOWN) -> None:
        super().__init__(layout=widgets.Layout(max_width="100%"))
        self.add_class("tc-history-view")
        self.history = history
        self.shown = shown
        self.error = error if error is not None else ErrorLine()
        self.title = widgets.HTML()
        self.clear_button = button(
            "Clear history", history.clear, error=self.error, name="clear-history"
        )
        self._downloads = DownloadLinks(self.error, "history")
        self._downloads.links.remove_class("tc-save")
        self.downloads = self._downloads.links
        self.list = widgets.HTML()
        self.children = (
            row(self.title, self.clear_button, self._downloads),
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
            size = sum(len(r.text) + 60 * len(r.dice) + 120 for r in h)
            self._downloads.offer(self._links, size)
        else:
            self._downloads.withdraw()
        records = h.records[: self.shown]
        items = "".join(self._item(r) for r in records)
        more = (f'<li class="tc-history-more">… and {n - len(records)} older rolls '
                "(in the downloads)</li>") if n > len(records) else ""
        script = LOCAL_TIME_SCRIPT if records else ""
        self.list.value = (f'<ol class="tc-history" data-count="{h.count}">{items}{more}</ol>'
                           f"{script}")

    def _links(self) -> str:
        h = self.history
        return data_uri_link("CSV", "rolls.csv", "text/csv", h.to_csv()) + data_uri_link(
            "JSON", "rolls.json", "application/json", h.to_json())

    @staticmethod
    def _item(r: RollRecord) -> str:
        return (
            f'<li data-n="{r.n}"><span class="tc-h-total">{r.total}</span> '
            f'<span class="tc-h-text">{roll_text_html(clipped(r.text, ENTRY_TEXT_LIMIT))}'
            "</span><br>"
            f'<span class="tc-h-meta">#{r.n} · {local_time_html(r.time)} · seed {r.seed}</span>'
            "</li>"
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

    The save is sent inline (a download link re-sent after every move) only while it is at
    most [INLINE_DOWNLOAD_LIMIT][companion.widgets.base.INLINE_DOWNLOAD_LIMIT] characters;
    a longer one is built when the player taps *Save* (``.tc-btn-prepare-save``), so a long
    session does not re-send its whole log after each move. A paste longer than the
    tracker's limit is refused before it is read.
    """

    def __init__(self, model: _Saveable, filename: str, *, what: str,
                 error: ErrorLine | None = None) -> None:
        super().__init__(layout=widgets.Layout(max_width="100%"))
        self.add_class("tc-save-load")
        self.model = model
        self.filename = filename
        self.what = what
        self.error = error if error is not None else ErrorLine()
        self._file = DownloadLinks(self.error, "save", f"Save {what}")
        self.save = self._file.links
        self.load_box = widgets.Textarea(placeholder=f"Paste a saved {what} (JSON) to load it",
                                         layout=widgets.Layout(width="100%", height="60px"))
        self.load_box.add_class("tc-load")
        self.load_button = button("Load", self.load, error=self.error, name="load")
        own_error = [self.error] if error is None else []
        self.children = (row(self._file), row(self.load_box, self.load_button), *own_error)
        bind(model, self.render, error=self.error)

    def load(self) -> None:
        text = self.load_box.value
        if not text.strip():
            raise CompanionError(f"Load: paste a saved {self.what} into the box first")
        self.model.load(text)
        self.load_box.value = ""

    def render(self) -> None:
        # A long session: the file is sent only when asked (and again after the next move).
        saved = self.model.to_json()
        self._file.offer(lambda: self._link(saved), len(saved))

    def _link(self, saved: str) -> str:
        return data_uri_link(f"Save {self.what}", self.filename, "application/json", saved)
