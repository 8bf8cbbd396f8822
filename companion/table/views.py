"""What a seat may read of a tracker: its saved form projected for one seat (issue 28).

A tracker that holds other seats' hidden values (Dice Monarchs' hole dice and table seed,
a Cairn duel's unrevealed pick, the dice of a hidden roll a sheet keeps, an argument only
the GM knows) is never handed to a player's or a spectator's face as it is: the
[Session][companion.table.session.Session] gives them a *mirror*, a tracker of the same
class rebuilt from [visible_save][companion.table.views.visible_save], whose moves go back
to the live tracker through the session's seam. The GM (and the holder of an unsaved
table) reads the live tracker.

The projection is the ruleset's, declared once on the tracker class (data, not a caller's
filter):

- ``visible_save(save, who, role)`` (a classmethod): the ``to_dict`` save as ``who``
  (``role``) may hold it, in the same format, loadable with ``from_dict(checked=False)``
  (so the page renders it with the tracker's own methods). Dice Monarchs and the duel
  declare one.
- Otherwise the generic rules of [companion.fairplay][]: each roll field a hidden roll
  marked (``ROLL_STATE``) is emptied, in the state and in every logged ``before``; the
  arguments named in ``SECRET_ARGS`` are left out of the log.

Interpretation: a tracker class declaring none of ``visible_save``, ``public_save``,
``ROLL_STATE`` or ``SECRET_ARGS`` holds nothing hidden; a player reads it live.
"""

from __future__ import annotations

from typing import Any

from companion import fairplay

__all__ = ["holds_secrets", "sees_all", "visible_save"]


def holds_secrets(cls: type[Any]) -> bool:
    """Whether a tracker class may hold a value some seat must not read."""
    return (callable(getattr(cls, "visible_save", None))
            or fairplay.hidden_information(cls)
            or bool(fairplay.roll_state_fields(cls))
            or bool(getattr(cls, "SECRET_ARGS", None)))


def sees_all(role: str) -> bool:
    """Whether ``role`` reads every tracker whole: the GM, and the holder (``""``)."""
    return role in ("gm", "")


def visible_save(tracker: Any, who: str, role: str) -> dict[str, Any]:
    """``tracker``'s saved form (``to_dict``) as the seat ``who`` (``role``) may hold it:
    whole for the GM and the holder; else the ruleset's ``visible_save``, or the generic
    rules (see the module's docstring). A fresh copy: changing it changes nothing."""
    cls = type(tracker)
    save: dict[str, Any] = tracker.to_dict()
    if sees_all(role) or not holds_secrets(cls):
        return save
    hook = getattr(cls, "visible_save", None)
    if callable(hook):
        return dict(hook(save, who, role))
    if fairplay.hidden_information(cls):
        # A game with hidden information and no projection of its own: nothing of its
        # state can be shown safely as the class's save (its public form is another
        # format), so the seat holds a fresh table.
        fresh: dict[str, Any] = cls().to_dict()
        return fresh
    save["state"] = fairplay.player_state(cls, save["state"])
    secret = getattr(cls, "SECRET_ARGS", {}) or {}
    for event in save["log"]:
        event["before"] = fairplay.player_state(cls, event.get("before"))
        hidden = set(secret.get(str(event.get("move")), ()))
        if hidden and isinstance(event.get("args"), dict):
            event["args"] = {k: v for k, v in event["args"].items() if k not in hidden}
    return save
