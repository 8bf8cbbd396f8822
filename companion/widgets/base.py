"""Shared pieces for every component, gathered in one import (each lives in its own module).

``from companion.widgets.base import button, int_box, SaveLoad`` keeps working; the pieces
live, by idea, in [companion.widgets.styles][] (CSS and sizes),
[companion.widgets.markup][] (values as HTML), [companion.widgets.messages][] (error
lines, ``safe``), [companion.widgets.controls][] (buttons, checkboxes, text boxes),
[companion.widgets.inputs][] (checked number and name boxes),
[companion.widgets.layout][] (rows, columns, the app box, ``bind``),
[companion.widgets.saving][] (downloads, Save/Load) and [companion.widgets.history][]
(move logs, roll history).

Components in [companion.widgets][] hold no rule logic. They call the core and observe
its plain models ([companion.state.Observable][]). This module gives them:

- [ErrorLine][companion.widgets.messages.ErrorLine] and [safe][companion.widgets.messages.safe]:
  a callback wrapper that turns any exception into a one-line message shown in the app.
  Voila swallows exceptions raised in callbacks into the kernel log, so without this a
  player would see nothing happen.
- [button][companion.widgets.controls.button], [row][companion.widgets.layout.row],
  [column][companion.widgets.layout.column], [text_box][companion.widgets.controls.text_box],
  [app_box][companion.widgets.layout.app_box] and [CSS][companion.widgets.styles.CSS]: layouts
  that wrap at 390 px instead of scrolling sideways, text at least 16 px, buttons,
  checkboxes and list options at least 40 px tall, and text-only labels (Voila loads Font
  Awesome from a CDN, so icon names would show as blanks at an offline table).
- [int_box][companion.widgets.inputs.int_box] and [name_box][companion.widgets.inputs.name_box]:
  boxes that refuse bad input visibly (below).
- [bind][companion.widgets.layout.bind]: render a widget from an ``Observable`` model now and
  after every change.
- [SaveLoad][companion.widgets.saving.SaveLoad]: a tracker's *Save* download link and an
  *Open* file picker (pasting the text is folded away; a player in a campaign gets neither).
  [DownloadLinks][companion.widgets.saving.DownloadLinks] is its link part
  for apps that build their own save file: a long save is not re-sent after every move.
- [log_html][companion.widgets.history.log_html]: a tracker's moves, newest first, bounded.
- [escape][companion.widgets.markup.escape] and [chance_html][companion.widgets.markup.chance_html]:
  any value as HTML text; an exact chance as a percentage with its fraction.
- [disable_for][companion.widgets.controls.disable_for] and
  [first_bad_box][companion.widgets.inputs.first_bad_box]: a button that cannot work now is
  disabled, its tooltip saying why (a rule's refusal, or a box holding a bad number).
- [HistoryView][companion.widgets.history.HistoryView]: a roll history
  ([companion.history.RollHistory][]), newest first, with Clear and CSV/JSON downloads,
  times in the viewer's own zone, and a bounded amount sent to the browser per change.

Usage in a component::

    error = ErrorLine()
    roll_button = button("Roll", on_click=self._roll, error=error)
    app = app_box(row(self.expr, roll_button), error)

Boxes that refuse bad input
---------------------------

A number or a name typed by a player is read through a *checked box*
([NumberBox][companion.widgets.inputs.NumberBox] from ``int_box(...)``,
[NameBox][companion.widgets.inputs.NameBox] from ``name_box(...)``). The box is a small
column: the input, and under it a one-line refusal (``.tc-refusal``, ``role=alert``) that
appears as soon as the typed text is bad (empty, letters, out of range, too long) and
disappears as soon as it is fixed. Nothing is clamped or silently reverted.

Read the box **inside the action**, with ``box.read()`` (or ``box.value``, the same
thing): a bad box raises [InputError][companion.widgets.messages.InputError], a project error,
so the action wrapped by [safe][companion.widgets.messages.safe] (every ``button(...,
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

from companion.widgets.controls import (
    SEED_BOUND,
    button,
    check_box,
    confirm_button,
    disable_for,
    draw_seed,
    offer,
    press_enter,
    text_box,
)
from companion.widgets.history import (
    ENTRY_TEXT_LIMIT,
    HISTORY_SHOWN,
    LOG_SHOWN,
    HistoryView,
    log_html,
)
from companion.widgets.inputs import (
    MAX_NAME_LENGTH,
    CheckedBox,
    NameBox,
    NumberBox,
    first_bad_box,
    int_box,
    name_box,
)
from companion.widgets.layout import Fold, app_box, bind, column, row
from companion.widgets.markup import (
    LOCAL_TIME_SCRIPT,
    chance_html,
    escape,
    into_view_html,
    local_time_html,
    roll_text_html,
    slug,
)
from companion.widgets.messages import MAX_MESSAGE, ErrorLine, InputError, one_line, safe
from companion.widgets.saving import INLINE_DOWNLOAD_LIMIT, DownloadLinks, SaveLoad, data_uri_link
from companion.widgets.styles import APP_MAX_WIDTH, CSS, MIN_BUTTON_HEIGHT, style_tag

__all__ = [
    "APP_MAX_WIDTH",
    "CSS",
    "ENTRY_TEXT_LIMIT",
    "HISTORY_SHOWN",
    "INLINE_DOWNLOAD_LIMIT",
    "LOCAL_TIME_SCRIPT",
    "LOG_SHOWN",
    "MAX_MESSAGE",
    "MAX_NAME_LENGTH",
    "MIN_BUTTON_HEIGHT",
    "SEED_BOUND",
    "CheckedBox",
    "DownloadLinks",
    "ErrorLine",
    "Fold",
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
    "into_view_html",
    "local_time_html",
    "log_html",
    "name_box",
    "offer",
    "one_line",
    "press_enter",
    "roll_text_html",
    "row",
    "safe",
    "slug",
    "style_tag",
    "text_box",
]
