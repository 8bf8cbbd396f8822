"""Controls that show only what this page's seat may do.

The campaign decides who may do what (its seam: a player moves their own character, a
seat takes back only its own newest move, a player never a roll); these ask it, so a
player is not offered a move or an Undo the table would refuse. An Undo button names the
move it takes back, or says why not in its tooltip.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import ipywidgets as widgets

from companion.state import Event, Tracker

if TYPE_CHECKING:
    from companion.table.session import Session

K = TypeVar("K", bound=Tracker)

__all__ = [
    "act",
    "act_party",
    "act_seeded",
    "follow_undo",
    "load",
    "member_key",
    "mover",
    "seat_refusal",
    "show_undo",
    "table_move",
    "undo",
    "undo_refusal",
]

#: Longest move summary an Undo button names.
_NAMED = 60


def _session(tracker: Tracker) -> Session | None:
    """The table session that holds ``tracker``
    ([Session.holding][companion.table.session.Session.holding]: its keeper's). ``None``:
    a tracker in no campaign (one a test drives alone, one a form drafts before it is
    added) or a seat's mirror, which acts through its own session already."""
    from companion.table.session import Session

    return Session.holding(tracker)


def act(tracker: Tracker, move: str, /, *args: Any, **kwargs: Any) -> Any:
    """Make ``move`` on ``tracker`` the one way: through the table session of its campaign
    ([Session.act][companion.table.session.Session.act]: the seat fixed, checked against
    the store), or, for a tracker in no campaign, on this screen alone."""
    session = _session(tracker)
    if session is not None:
        return session.act(tracker, move, *args, **kwargs)
    return getattr(tracker, move)(*args, **kwargs)


def act_seeded(tracker: Tracker, move: str, seed: int | None, /, *args: Any,
               **kwargs: Any) -> Any:
    """``move`` on ``tracker`` with a seed the GM typed (``None``: an ordinary
    [act][companion.widgets.seat_controls.act]), through the table session
    ([Session.act_seeded][companion.table.session.Session.act_seeded]: the GM's alone,
    marked in the log), or, for a tracker in no campaign, on this screen alone."""
    session = _session(tracker)
    if session is not None:
        return session.act_seeded(tracker, move, seed, *args, **kwargs)
    if seed is None:
        return getattr(tracker, move)(*args, **kwargs)
    return getattr(tracker, move)(*args, seed=seed, **kwargs)


def act_party(party: Any, move: str, /, *args: Any, **kwargs: Any) -> Any:
    """The table move ``move`` of ``party`` (a Monsters & Magic
    [Party][companion.rulesets.monsters_and_magic.party.Party]: several sheets at once),
    through the table session as one unit of work
    ([Session.act_together][companion.table.session.Session.act_together]: the seat
    judged on the acting sheet's move, the other trackers' moves the ones the party
    declares), or, for sheets in no campaign, on this screen alone. Rolled (``rng=``)
    inside a rule roll, it joins the roll's unit."""
    lead, lead_move, also = party.declared(move, *args, **kwargs)
    session = _session(lead)
    if session is None:
        return getattr(party, move)(*args, **kwargs)
    return session.act_together(lead, lead_move,
                                lambda: getattr(party, move)(*args, **kwargs), also)


def table_move(trackers: Sequence[Tracker], name: str, args: dict[str, Any]) -> Any:
    """The declared table move ``name`` ([companion.table_moves][]: several trackers at
    once) with JSON ``args``, as a named act of the session that keeps ``trackers``
    ([Session.perform][companion.table.session.Session.perform]: one unit of work, each
    move judged for the seat; a refusal raised as it was raised); for trackers in no
    campaign, made on this screen alone. Returns what the move gave."""
    from companion.errors import CompanionError
    from companion.table.acts import Act, Refused

    session = next((s for s in map(_session, trackers) if s is not None), None)
    if session is None:
        from companion import table_moves

        return table_moves.get(name).run(_Alone(trackers), dict(args), None)
    outcome = session.perform(Act("", "table", {"name": name, "args": dict(args)}))
    if isinstance(outcome, Refused):
        raise outcome.error if outcome.error is not None else CompanionError(outcome.reason)
    return outcome.value


def member_key(tracker: Tracker) -> str:
    """How an act names ``tracker``: its member id in its campaign, or for a tracker in
    no campaign its own name."""
    session = _session(tracker)
    if session is not None:
        return session.key_of(tracker)
    return str(getattr(tracker, "name", ""))


class _Alone:
    """Trackers in no campaign as a table move reads them (one screen's own table)."""

    def __init__(self, trackers: Sequence[Tracker]) -> None:
        self._trackers = list(trackers)

    def trackers(self, cls: type[K]) -> list[K]:
        return [t for t in self._trackers if isinstance(t, cls)]

    def tracker(self, id_or_name: str, cls: type[K]) -> K:
        from companion.errors import UnknownNameError

        # Named as member_key names a tracker in no campaign: by its own name (a tracker
        # with none, a journey, by "" when it is the one of its kind here).
        found = [t for t in self.trackers(cls)
                 if str(getattr(t, "name", "")) == id_or_name]
        if len(found) != 1:
            raise UnknownNameError(f"nobody called {id_or_name} is at this table" if not found
                                   else f"two at this table are called {id_or_name}")
        return found[0]


def mover(tracker: Tracker, move: str, /) -> Callable[..., Any]:
    """``move`` on ``tracker`` as a function to hand a button or a box (``act`` later)."""
    def moving(*args: Any, **kwargs: Any) -> Any:
        return act(tracker, move, *args, **kwargs)

    # Named after the move, so a failed callback's log line says which move it was.
    moving.__name__ = moving.__qualname__ = move
    return moving


def undo(tracker: Tracker) -> Event:
    """Take back ``tracker``'s newest move through its session
    ([Session.undo][companion.table.session.Session.undo])."""
    session = _session(tracker)
    if session is not None:
        return session.undo(tracker)
    # A tracker in no campaign is this device's alone: its holder undoes as the GM (the
    # hot seat, once everyone agreed), under the tracker's own undo rule all the same.
    return tracker.undo_as("gm")


def load(model: Any, text: str | bytes) -> None:
    """Load a whole save into ``model`` through its session when it is a kept tracker
    ([Session.load][companion.table.session.Session.load]); any other saveable (a roll
    history) loads itself."""
    session = _session(model) if isinstance(model, Tracker) else None
    if session is not None:
        session.load(model, text)
    else:
        model.load(text)


def gm_screen(session: Session | None, role: str) -> bool:
    """Whether a game's screen is the GM's: the table session's answer; a screen in no
    campaign (the app on its own, a test's twin screens) is as the ``role`` it was given."""
    if session is not None:
        return session.is_gm
    return role == "gm"


def seat_refusal(tracker: Tracker, move: str, arguments: dict[str, Any]) -> str | None:
    """Why this page's seat may not make ``move`` with ``arguments`` on ``tracker``
    (``None``: it may, or no session holds the tracker)."""
    session = _session(tracker)
    return session.may_move(tracker, move, arguments) if session is not None else None


def undo_refusal(tracker: Tracker) -> str | None:
    """Why ``tracker``'s newest move cannot be taken back here (``None``: it can)."""
    if not tracker.can_undo:
        return "nothing to undo yet"
    session = _session(tracker)
    return session.may_undo(tracker) if session is not None else tracker.undo_refusal("gm")


def show_undo(button: widgets.Button, tracker: Tracker) -> None:
    """Set ``button`` (an Undo button) as ``tracker`` stands now: its tooltip names the
    move it takes back or says why not; it is disabled when this seat may not undo."""
    why = undo_refusal(tracker)
    last = tracker.log[-1].summary if tracker.log else ""
    button.disabled = why is not None
    named = last if len(last) <= _NAMED else last[:_NAMED - 1] + "…"
    button.tooltip = why or f"Undo: {named}"


def follow_undo(button: widgets.Button, tracker: Tracker) -> Callable[[], None]:
    """Keep ``button`` in step with ``tracker``
    ([show_undo][companion.widgets.seat_controls.show_undo] after every change); returns a
    function that stops following."""
    show_undo(button, tracker)
    return tracker.on_change(lambda _t: show_undo(button, tracker))
