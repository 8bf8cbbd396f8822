"""An Undo button that says which move it takes back, and is off when this seat may not.

The campaign decides who may undo what (its seam: a seat takes back only its own newest
move, a player never a roll); this keeps the button in step with that decision, so a
player is not offered an Undo the table would refuse. The refusal's reason is the button's
tooltip, and the move it would take back is named on it.
"""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as widgets

from companion.state import Tracker

__all__ = ["follow_undo", "show_undo", "undo_refusal"]

#: Longest move summary an Undo button names.
_NAMED = 60


def undo_refusal(tracker: Tracker) -> str | None:
    """Why ``tracker``'s newest move cannot be taken back here (``None``: it can)."""
    if not tracker.can_undo:
        return "nothing to undo yet"
    may_undo: Callable[[Tracker], str | None] | None = getattr(tracker.recorder, "may_undo",
                                                               None)
    return may_undo(tracker) if may_undo is not None else None


def show_undo(button: widgets.Button, tracker: Tracker) -> None:
    """Set ``button`` (an Undo button) as ``tracker`` stands now: its tooltip names the
    move it takes back or says why not; it is disabled when this seat may not undo."""
    why = undo_refusal(tracker)
    last = tracker.log[-1].summary if tracker.log else ""
    button.disabled = why is not None
    named = last if len(last) <= _NAMED else last[:_NAMED - 1] + "…"
    button.tooltip = why or f"Undo: {named}"


def follow_undo(button: widgets.Button, tracker: Tracker) -> Callable[[], None]:
    """Keep ``button`` in step with ``tracker`` ([show_undo][companion.widgets.undo.show_undo]
    after every change); returns a function that stops following."""
    show_undo(button, tracker)
    return tracker.on_change(lambda _t: show_undo(button, tracker))
