"""The panels the apps are built from: one member picked by name, a member's own app, the
party's fight on the party's own sheets, and an app of the whole party that follows it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from companion.state import Tracker
from companion.widgets.base import ErrorLine, button, offer, row, safe
from companion.widgets.markup import el

if TYPE_CHECKING:
    from companion.rulesets.cairn_srd.character import Character
    from companion.rulesets.cairn_srd.combat import Encounter
    from companion.table.session import Session


__all__ = ["CharacterPanel", "MemberPanel", "PartyAppPanel", "PartyFightPanel",
           "follow_campaign"]


def follow_campaign(session: Session, error: ErrorLine,
                    callback: Callable[[], None]) -> None:
    """Run ``callback`` now and after every change of ``campaign`` (a move here or on
    another screen), one run at a time: under the campaign's lock, which the live watcher
    holds while it applies another screen's move. A failure after a change is said on
    ``error``; the first run's failure is raised (the app is not built).

    A page's kernel changes widgets on two threads (the page's messages, the watcher):
    code both reach that checks what is built and then builds (a member's app, a sheet
    seated) runs under this lock, or both threads build (``CONTRIBUTING``)."""

    def locked() -> None:
        with session.lock:
            callback()

    session.on_change(safe(error)(lambda _changed: locked()))
    locked()


class MemberPanel(widgets.VBox):
    """One of the campaign's trackers of a class, picked by name, shown by its own app.

    The list follows the campaign live (a member added on another screen appears); each
    member's app is built once and kept.
    """

    def __init__(self, session: Session, cls: type[Tracker],
                 build: Callable[[Any], widgets.Widget], *, label: str, empty: str,
                 name: str) -> None:
        super().__init__(layout=widgets.Layout(max_width="100%"))
        self.add_class("tc-member-picker")
        self.session = session
        self.cls = cls
        self.build = build
        self.empty = empty
        self.error = ErrorLine()
        self.apps: dict[str, widgets.Widget] = {}
        self.picker = widgets.Dropdown(options=[], description=label,
                                       style={"description_width": "initial"},
                                       layout=widgets.Layout(width="auto", min_height="40px"))
        self.picker.add_class(f"tc-pick-{name}")
        self.body = widgets.VBox(layout=widgets.Layout(max_width="100%"))
        self.picker.observe(safe(self.error)(lambda _c: self._show()), names="value")
        self.children = (row(self.picker), self.error, self.body)
        follow_campaign(session, self.error, self.sync)

    def members(self) -> list[tuple[str, str]]:
        return [(m.name, m.id) for m in self.session.members()
                if issubclass(m.kind, self.cls) and m.role == "party"]

    def sync(self) -> None:
        # Run through follow_campaign: under the campaign's lock, one thread at a time.
        options = self.members()
        if list(self.picker.options) != options:
            mine = _own_first([n for n, _ in options], self.session.who)
            offer(self.picker, options, default=options[mine][1] if options else None)
        self._show()

    def _show(self) -> None:
        # One thread at a time: a pick (the page's message) and another screen's move (the
        # live watcher) both show the member picked. Unlocked, each found no app yet and
        # built one; the page showed both in turn, and a tap on the first said its refusal
        # on a line no longer on the page (a hub test failed in CI). The campaign's lock,
        # not one of the panel's: the watcher holds it already when its notice gets here.
        with self.session.lock:
            ident = self.picker.value
            if ident is None or not self.session.has_member(ident):
                self.body.children = (widgets.HTML(el("p", self.empty, class_="tc-empty")),)
                return
            app = self.apps.get(ident)
            if app is None:
                app = self.apps[ident] = self.build(self.session.view(ident))
            if self.body.children != (app,):
                self.body.children = (app,)


def _own_first(names: list[str], who: str) -> int:
    """Where a picker starts: the viewer's own character (a player's sheet link opened on
    the first of the party, Ash for Bryn), else the first."""
    from companion.names import same_name

    return next((i for i, n in enumerate(names) if who and same_name(n, who)), 0)


class CharacterPanel(widgets.VBox):
    """A party member picked by name and the app over that member's own records.

    ``names()`` lists the members (followed live: one added on another screen appears);
    ``records(name, now)`` hands back the member's trackers (with
    [MemberRecords][companion.widgets.table.members.MemberRecords]: stored on the member's
    first move, or at once when ``now``, when the member is picked by hand; building the
    panel stores nothing); ``build(name, *records)`` makes the app, once per member and
    records (a member who left and came back gets a new one).
    """

    def __init__(self, session: Session, names: Callable[[], list[str]],
                 records: Callable[[str, bool], tuple[Tracker, ...]],
                 build: Callable[..., widgets.Widget], *, label: str, empty: str,
                 name: str) -> None:
        super().__init__(layout=widgets.Layout(max_width="100%"))
        self.add_class("tc-member-picker")
        self.add_class(f"tc-character-{name}")
        self.session = session
        self.names = names
        self.records = records
        self.build = build
        self.empty = empty
        self.error = ErrorLine()
        self.apps: dict[tuple[str, tuple[int, ...]], widgets.Widget] = {}
        self.picker = widgets.Dropdown(options=[], description=label,
                                       style={"description_width": "initial"},
                                       layout=widgets.Layout(width="auto", min_height="40px"))
        self.picker.add_class(f"tc-pick-{name}")
        self.body = widgets.VBox(layout=widgets.Layout(max_width="100%"))
        self._syncing = False  # the list changing under the picker is not a pick
        self.picker.observe(safe(self.error)(lambda _c: self._picked()), names="value")
        self.children = (row(self.picker), self.error, self.body)
        follow_campaign(session, self.error, self.sync)

    @property
    def app(self) -> widgets.Widget | None:
        """The app shown now (``None`` when nobody is picked)."""
        shown = self.body.children
        return shown[0] if shown and not isinstance(shown[0], widgets.HTML) else None

    def sync(self) -> None:
        # Run through follow_campaign: under the campaign's lock, one thread at a time.
        options = self.names()
        if list(self.picker.options) != options:
            self._syncing = True
            try:
                mine = _own_first(options, self.session.who)
                offer(self.picker, options, default=options[mine] if options else None)
            finally:
                self._syncing = False
        self._show()

    def _picked(self) -> None:
        # Read under the lock: a sync on the watcher's thread sets _syncing while it runs,
        # and a pick read meanwhile would not count as a pick (its records not stored).
        with self.session.lock:
            self._show(picked=not self._syncing)

    def _show(self, *, picked: bool = False) -> None:
        with self.session.lock:  # a pick and a live update: one at a time (MemberPanel._show)
            name = self.picker.value
            if name is None or name not in self.names():
                self.body.children = (widgets.HTML(el("p", self.empty, class_="tc-empty")),)
                return
            records = self.records(str(name), picked)
            key = (str(name), tuple(id(r) for r in records))
            app = self.apps.get(key)
            if app is None:
                app = self.apps[key] = self.build(str(name), *records)
            if self.body.children != (app,):
                self.body.children = (app,)


class PartyFightPanel(widgets.VBox):
    """The Cairn fight with the campaign's party in it, linked to the party's own sheets
    ([Tracker.link][companion.state.Tracker.link]): a party member
    in the fight is its sheet, on every screen (see the module's interpretation)."""

    def __init__(self, session: Session, encounter: Encounter) -> None:
        from companion.widgets.cairn_srd import CombatApp

        super().__init__(layout=widgets.Layout(max_width="100%"))
        self.session = session
        self.encounter = encounter
        self.error = ErrorLine()
        # (the campaign seats the fight at its table: its party's sheets are linked)
        self.app = CombatApp(encounter, session=session)
        self.join = button("Party joins the fight", self.party_joins, error=self.error,
                           name="party-joins", style="primary")
        self.note = widgets.HTML()
        self.children = (row(self.join), self.note, self.error, self.app)
        self._shown = self._board()
        self._watched: set[int] = set()
        follow = safe(self.error)(lambda _x: self._follow())
        self._follow_sheet = follow
        session.on_change(follow)
        self._follow()

    def party(self) -> dict[str, Character]:
        from companion.rulesets.cairn_srd.character import Character

        # The seat's views: the fight links them and follows their changes.
        return {m.name: self.session.view(m.id, Character) for m in self.session.party()
                if issubclass(m.kind, Character)}

    def sheet(self, name: str) -> Character | None:
        """The party member ``name``'s own sheet (the fight's link)."""
        return self.party().get(name)

    def _board(self) -> list[tuple[object, ...]]:
        return [(c.name, c.guard, c.guard_max, c.strength, c.dexterity, c.armor, c.status,
                 c.no_guard, c.panicking) for c in self.encounter.fighters]

    def _follow(self) -> None:
        """A sheet changed (here, in another app or on another screen): show the fight as
        the sheets now say, and watch any sheet that joined the party."""
        with self.session.lock:  # the page's thread and the watcher's: one at a time
            for sheet in self.party().values():
                if id(sheet) not in self._watched:
                    self._watched.add(id(sheet))
                    sheet.on_change(self._follow_sheet)
            board = self._board()
            if board != self._shown:
                self._shown = board
                self.app.render()
                self.app.moves.render()
            self._note()

    def _note(self) -> None:
        names = set(self.party())
        fighting = {c.name for c in self.encounter.combatants}
        missing = sorted(names - fighting)
        self.join.disabled = not missing
        self.note.value = (el("span", "Party not in the fight yet: ", ", ".join(missing),
                              class_="tc-side") if missing else "")

    def party_joins(self) -> None:
        from companion.errors import CompanionError
        from companion.widgets.seat_controls import member_key, seat_refusal, table_move

        fighting = {c.name for c in self.encounter.combatants}
        missing = [c for name, c in self.party().items() if name not in fighting]
        # A player's seat brings in their own character (Encounter.acting_for); the GM's,
        # everyone not fighting yet: the ones the seat may bring, in one named table move.
        refusals = [seat_refusal(self.encounter, "add", {"name": c.name, "pc": True})
                    for c in missing]
        joining = [c for c, why in zip(missing, refusals, strict=True) if why is None]
        if missing and not joining:
            raise CompanionError(next(why for why in refusals if why is not None))
        if joining:
            table_move([self.encounter, *joining], "cairn_srd.combat.join_characters", {
                "encounter": member_key(self.encounter),
                "characters": [member_key(c) for c in joining]})
        self._note()


class PartyAppPanel(widgets.VBox):
    """An app that takes the whole Cairn party (``build(party)``), following the campaign:
    when a character joins or leaves the party (here or on another screen) the app is built
    again over the same campaign trackers, so newcomers join the journey, delve or downtime.
    ``app`` is the app shown now."""

    def __init__(self, session: Session, build: Callable[[list[Character]], widgets.Widget],
                 *, name: str) -> None:
        super().__init__(layout=widgets.Layout(max_width="100%"))
        self.add_class(f"tc-party-app-{name}")
        self.session = session
        self.build = build
        self.error = ErrorLine()
        self.app: widgets.Widget = widgets.HTML()
        self._ids: tuple[int, ...] | None = None
        follow_campaign(session, self.error, self.sync)

    def party(self) -> list[Character]:
        """The campaign's Cairn characters (the same sheets the other apps show)."""
        from companion.rulesets.cairn_srd.character import Character

        # The seat's views: the app built on them acts on them.
        return [self.session.view(m.id, Character) for m in self.session.party()
                if issubclass(m.kind, Character)]

    def sync(self) -> None:
        # Run through follow_campaign: under the campaign's lock, one thread at a time.
        party = self.party()
        ids = tuple(id(c) for c in party)
        if ids == self._ids:
            return
        self._ids = ids  # first: building may make moves that notify the campaign again
        self.app = self.build(party)
        self.children = (self.error, self.app)
