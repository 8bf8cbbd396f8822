"""Buttons, checkboxes and text boxes sized for a thumb, and the seed a Roll button draws."""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from companion import dice
from companion.dice import SEED_BOUND
from companion.widgets.messages import ErrorLine, safe
from companion.widgets.styles import MIN_BUTTON_HEIGHT

__all__ = [
    "ANSWER_CLASSES",
    "CONFIRM_GAP",
    "SEED_BOUND",
    "TapButton",
    "button",
    "check_box",
    "confirm_button",
    "disable_for",
    "draw_seed",
    "offer",
    "press_enter",
    "text_box",
]


def draw_seed() -> int:
    """A fresh seed for one roll (below the engine's `SEED_BOUND`); apps record it so any
    roll can be replayed. Marked as drawn for want of one: in a campaign the session draws
    the sitting's seed instead (provably fair seeds, [companion.sittings][])."""
    from companion.dice.roller import DrawnSeed

    return DrawnSeed(dice.draw_seed())


#: The two classes a button's answers to its taps alternate between: the page's tap guard
#: ([companion.widgets.styles][]) waits for the class to change after a tap.
ANSWER_CLASSES = ("tc-answer-0", "tc-answer-1")


class TapButton(widgets.Button):
    """A button that answers each tap once it is handled: after its click handlers have
    run (a move made, or refused), its answer class flips (``ANSWER_CLASSES``), which the
    page sees. The page drops a tap made while the button's last tap is unanswered (the
    same act again, still pending: a double tap, a bounce), and takes any tap after the
    answer, however soon (issue 44: two quick taps on "+1" are two)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class(ANSWER_CLASSES[0])

    def click(self) -> None:
        try:
            super().click()
        finally:
            # Even when a handler raised (its refusal shown): the tap has its answer.
            now = 0 if ANSWER_CLASSES[0] in self._dom_classes else 1
            self.remove_class(ANSWER_CLASSES[now])
            self.add_class(ANSWER_CLASSES[1 - now])


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
    with ``error`` it is wrapped by [safe][companion.widgets.messages.safe]. ``name`` becomes a
    CSS class ``tc-btn-<name>`` so browser tests can find the button.
    """
    btn = TapButton(
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
    then costs nothing, and there is no pop-up dialog to dismiss. The second tap must be
    a separate one, at least [CONFIRM_GAP][companion.widgets.controls.CONFIRM_GAP] after
    the first: a double tap arms the button and no more (and with nothing to lose, makes
    the move once). Call ``disarm()`` on the returned button (the app's render does) to
    put the label back after any other move.
    """
    btn = button(label, None, error=error, name=name, style=style)
    last_tap = [float("-inf")]

    def disarm() -> None:
        btn.description, btn.button_style = label, style

    def clicked() -> Any:
        now = clock()
        if now - last_tap[0] < CONFIRM_GAP:
            # A double tap (or a bounce): its second tap left the finger before the
            # prompt could be read, so it is the same tap, not the confirmation; and when
            # there was nothing to lose (the first tap did the move at once), not the move
            # a second time either.
            return None
        last_tap[0] = now
        if risky() and btn.description != prompt:
            btn.description, btn.button_style = prompt, "danger"
            return None
        disarm()
        return on_confirm()

    btn.on_click(safe(error)(lambda _button: clicked()))
    btn.disarm = disarm
    return btn


#: A confirming tap must come this long (seconds) after the tap that asked for it: a
#: double tap (two taps within about half a second) counts once (issue 31).
CONFIRM_GAP = 0.6

#: The clock the confirmation reads (tests move it on instead of sleeping).
clock: Callable[[], float] = time.monotonic


def check_box(label: str, name: str, value: bool = False) -> widgets.Checkbox:
    """A checkbox whose whole label is the tap target; tests find it by ``.tc-check-<name>``."""
    box = widgets.Checkbox(value=value, description=label, indent=False,
                           layout=widgets.Layout(width="auto"))
    box.add_class(f"tc-check-{name}")
    return box


def offer(choice: widgets.DOMWidget, options: list[Any],
          default: Any = None) -> None:
    """Offer ``options`` (labels, or ``(label, value)`` pairs) in ``choice``, keeping what
    its viewer picked while it is still offered; else ``default`` if offered, else the
    first (or nothing). ``options`` unchanged: nothing is sent.

    Setting a dropdown's options moves its pick to the first (ipywidgets), so a list
    refreshed after another screen's move (a caster joining) took a player's pick away
    unless the pick was read first. On the way, observers may see no pick (``None``),
    never another option."""
    values = [o[1] if isinstance(o, tuple) else o for o in options]
    if isinstance(choice, widgets.SelectMultiple):
        keep = tuple(v for v in choice.value if v in values)
        if list(choice.options) != list(options):
            choice.options = options
        choice.value = keep
        return
    keep = choice.value
    target = keep if keep in values else (default if default in values else
                                          (values[0] if values else None))
    if list(choice.options) != list(options):
        if values and target != values[0] and choice.index is not None:
            # New options move a pick to the first (ipywidgets), unless nothing is picked:
            # its observers would build the first's app for nothing on the way.
            choice.index = None
        choice.options = options
    if values:
        choice.value = target


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


def disable_for(btn: widgets.Button, reason: str | None) -> None:
    """Disable ``btn`` while ``reason`` (why it cannot work now) is not ``None``; its tooltip
    then says why, else it shows the button's label."""
    btn.disabled = reason is not None
    btn.tooltip = reason or btn.description
