"""The start app, *Table Companion*: who you are, which campaign, its party, its apps.

What ``make app`` opens first (``widgets/table.ipynb``). Who a person is comes from their
seat ([companion.store.seats][]): the link (or QR code) their GM gave them carries the
seat's secret (``seat=``); without one the page is a spectator's, which watches. Anyone
creates a campaign with their name and becomes its GM (the page's address then holds the
GM's own seat: bookmark it). The GM invites players (a link and a QR code per seat), gives
a seat a new link, or revokes it. A seat picks a campaign, edits the party as far as it
may (a player: their own character), and opens any app of that ruleset *in place*: the
app is built in this same kernel over the same campaign objects and swapped into the page
(no new kernel, no reload), with a link to the app's own page for another device.
Campaign, seat and the open app are kept in the page's address, so a reload comes back to
the same table. In the serverless apps a campaign lives on the device: whoever holds it is
its GM (players take the phone), with no seats, links or QR codes.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from companion.widgets.background import run_in_background
from companion.widgets.base import (
    ErrorLine,
    app_box,
    button,
    confirm_button,
    int_box,
    into_view_html,
    name_box,
    row,
    safe,
)
from companion.widgets.markup import Markup, el, frag
from companion.widgets.messages import not_a_move
from companion.widgets.table.apps import apps_for, spec
from companion.widgets.table.binding import (
    DEVICE_LINE,
    SPECTATOR,
    WIDGET_LOCK,
    PageContext,
    connection_banner,
    database_where,
    guard_state_requests,
    hub_admin,
    hub_service,
    hub_user,
    join_text,
    live,
    open_table,
    page_shown_signal,
    page_store,
    seat_key_of,
    seated,
    serverless,
    url_script,
    wait_for_page,
)
from companion.widgets.table.pages import app_heading, campaign_app
from companion.widgets.table.party import RULES, leave, leaving, party_rows
from companion.widgets.table.seats_panel import SeatsPanel
from companion.widgets.table.site import ruleset_title

if TYPE_CHECKING:
    from companion.table.session import Session

__all__ = ["TableApp"]

log = logging.getLogger(__name__)

_NEW = "__new__"

_CSS = """
.tc-app .tc-db { color: var(--tc-muted); font-size: 16px; word-break: break-all; }
.tc-app .tc-app-buttons .tc-btn { margin: 2px; }
.tc-app .tc-open-app { border-top: 2px solid #888; margin-top: 8px; padding-top: 8px; }
.tc-app .tc-seat-link a, .tc-app .tc-gm-link a { word-break: break-all; }
.tc-app .tc-qr svg { width: 200px; height: 200px; background: #fff; }
/* A name is never broken inside a word at 390 px ("Na/me", "Bry/n"): the numbers wrap. */
.tc-app .tc-party th, .tc-app .tc-party td:first-child { overflow-wrap: break-word; }
"""


def _ruleset_options() -> list[tuple[str, str]]:
    from companion import rulesets

    # As a person says them: the title only (the package name is the program's word).
    return [(r.title, r.name) for r in rulesets.all_rulesets()]


class TableApp(widgets.VBox):
    """The start app (see the module docs). ``context`` defaults to the page's URL."""

    def __init__(self, context: PageContext | None = None, *, background: bool = True) -> None:
        """``background``: load the campaigns after the page shows (tests pass False)."""
        super().__init__()
        self.context = context or PageContext.from_query()
        self.session: Session | None = None
        self.opened = ""
        self.open_ms = 0.0
        self.error = ErrorLine()
        self.url = widgets.HTML(layout=widgets.Layout(height="0px", overflow="hidden"))
        self.url.add_class("tc-url")
        # -- who: the seat's (shown), and a name for a campaign one creates ----------------
        self.identity = widgets.HTML()
        self.identity.add_class("tc-identity")
        self.who = name_box("Your name", self.context.who or hub_user(), "who", max_len=40,
                            required=False, placeholder="you are the GM of what you create")
        self.who.disabled = bool(hub_user())  # the hub knows who this is
        # -- campaign --------------------------------------------------------------------
        self.pick = widgets.Dropdown(options=[], description="Campaign",
                                     style={"description_width": "initial"},
                                     layout=widgets.Layout(width="auto", max_width="100%",
                                                           min_height="40px"))
        self.pick.add_class("tc-pick-campaign")
        self.open_button = button("Open", self.open_picked, error=self.error,
                                  name="open-campaign", style="primary")
        self.new_name = name_box("New campaign", "", "campaign", max_len=80, required=False,
                                 placeholder="a name for the table")
        self.ruleset = widgets.Dropdown(tooltip="Rules", options=_ruleset_options(),
                                        layout=widgets.Layout(width="auto", max_width="100%",
                                                              min_height="40px"))
        self.ruleset.add_class("tc-ruleset")
        self.create_button = button("Create", self.create, error=self.error, name="create",
                                    style="primary")
        self.create_row = row(self.new_name, self.who, self.ruleset, self.create_button)
        self.db = widgets.HTML()
        # -- the open campaign -----------------------------------------------------------
        self.heading = widgets.HTML()
        self.party = widgets.HTML()
        self.party_form = widgets.VBox(layout=widgets.Layout(max_width="100%"))
        self.app_buttons = row()
        self.app_buttons.add_class("tc-app-buttons")
        # Every app opened here keeps its box (heading, link, app) in ``app_stack``; the one
        # shown is ``app_area`` (class tc-open-app), the others are hidden, not removed: the
        # page keeps their views, so opening one again only shows it (a removed app's views
        # are built afresh by the page, the slow part of opening it).
        self.app_stack = widgets.VBox(layout=widgets.Layout(max_width="100%"))
        self.app_area = widgets.VBox()
        self._boxes: dict[str, widgets.VBox] = {}
        self._boxes_for = ""  # the campaign and person the boxes were made for
        self.seats = SeatsPanel(self)
        self.back_jump = widgets.HTML(layout=widgets.Layout(width="0px", margin="0"))
        self.campaign_box = widgets.VBox([
            self.back_jump, self.heading, self.seats, widgets.HTML(el("b", "Party")), self.party,
            self.party_form, widgets.HTML(el("b", "Apps")), self.app_buttons, self.app_stack,
        ], layout=widgets.Layout(max_width="100%", display="none"))
        self.pick_row = row(self.pick, self.open_button)
        app_box(
            connection_banner(), self.url,
            widgets.HTML(el("style", Markup(_CSS)), layout=widgets.Layout(display="none")),
            self.identity,
            self.pick_row,
            self.create_row, self.db, self.error, self.campaign_box, page_shown_signal(),
            box=self,
        )
        self.add_class("tc-table")
        self._gm_order: tuple[Any, ...] = tuple(self.children)  # the GM's: forms first
        self._followed: set[int] = set()
        self.warm = threading.Event()
        guard_state_requests()
        self.ready = threading.Event()
        self._background = background
        self.db.value = el("div", "Opening the campaigns...", class_="tc-db")
        self._show_table_rule()
        if background:
            # The database layer takes about half a second to load: the page shows first.
            run_in_background(self._load, "table-load")
        else:
            self._load()

    def _load(self) -> None:
        """List the campaigns, show where they are kept, open the URL's campaign and app."""
        # All under WIDGET_LOCK, the store's loading too: the page's request for every
        # widget's state waits for it and gets the loaded table in one answer. (Loading the
        # store outside the lock let that answer come first; the widgets made next reached
        # the page as new widgets with updates right behind them, and an update that
        # arrives while the page is still creating its widget can be lost.)
        with WIDGET_LOCK:
            self._load_now()

    def _load_now(self) -> None:
        try:
            self.refresh_list()
            try:
                # A closed table never sends the path to the page (hidden is not enough:
                # a hidden widget's value still reaches the browser).
                self.db.value = (el("div", "Campaigns are kept in ",
                                    el("code", database_where()), class_="tc-db")
                                 if open_table() else "")
            except Exception as exc:
                self.error.show(exc)
            if self.context.campaign:
                wanted = self.context.app
                safe(self.error)(self._open)(self.context.campaign)
                if wanted and self.session is not None:
                    if self._background:
                        run_in_background(lambda: self._open_once_shown(wanted), "table-open")
                    else:
                        safe(self.error)(self.open_app)(wanted)
        finally:
            self.ready.set()

    def _open_once_shown(self, key: str) -> None:
        """Open the address's app in place once the page shows the table, as a tap would.

        Not in the loading step: the page asks for every widget's state once and waits 4 s
        for the answer (Voila's widget manager), and the answer waits for WIDGET_LOCK; an
        app built inside the load held it for seconds on a loaded machine, and past 4 s
        the page fetches the widgets one by one instead, the path on which it can meet a
        child it has not registered yet. (The reloads that showed the app as "Click to
        show javascript error." in CI stopped after this and Voila's longer output wait,
        server/voila.py; which of the two caused them was not told apart.)"""
        wait_for_page()
        with WIDGET_LOCK:
            if self.session is not None and not self.opened:
                safe(self.error)(self.open_app)(key)

    # -- who and which campaign ----------------------------------------------------------

    def refresh_list(self) -> None:
        try:
            names = [c.name for c in page_store().list_campaigns()]
        except Exception as exc:
            self.error.show(exc)
            names = []
        self.pick.options = [("choose a campaign", "")] + [(n, n) for n in names]
        self.pick.value = self.context.campaign if self.context.campaign in names else ""
        self.open_button.disabled = not names

    @property
    def role(self) -> str:
        """This page's role at the open campaign: its seat's, else ``spectator``."""
        return self.context.role

    def _set_url(self) -> None:
        self.url.value = url_script(self.context)

    def _show_identity(self) -> None:
        c = self.context
        if c.role == SPECTATOR:
            text = frag(join_text())
        elif c.role and serverless():
            text = frag(f"{DEVICE_LINE} (GM: ", el("b", c.who), ")")
        elif c.role:
            text = frag("You are ", el("b", c.who or "the GM"),
                        f" ({'GM' if c.role == 'gm' else 'player'}).")
        elif self.may_create():
            text = frag("Open a campaign, or create one: you are the GM of what you create.")
        else:
            text = frag(closed_line())
        self.identity.value = el("div", text, class_="tc-identity-line", data_role=c.role)
        # Where the campaigns are kept is the GM's business (a file path means nothing to
        # a player at the table): shown on the GM's page and before a campaign is open.
        self.db.layout.display = "none" if c.role in ("player", SPECTATOR) else None
        self._lead_with_the_campaign(c.role in ("player", SPECTATOR))
        self._show_table_rule()
        if c.who and not hub_user():  # a campaign created next is the same person's
            self.who.value = c.who

    def _lead_with_the_campaign(self, lead: bool) -> None:
        """A player's (and a watcher's) page leads with the open campaign, its party and
        apps; the campaign list and the new-campaign form, the GM's business, follow it
        (they sat above the party on a player's phone). The GM's page keeps them on top."""
        box: Any = self  # ipywidgets is untyped: its children are Any
        order = self._gm_order
        if lead:
            rest = [w for w in order if w not in (self.campaign_box, self.error)]
            at = rest.index(self.pick_row)
            order = (*rest[:at], self.error, self.campaign_box, *rest[at:])
        if tuple(box.children) != order:  # unchanged: nothing sent to the page
            box.children = order

    def may_create(self) -> bool:
        """An open table lets any page create campaigns; a closed one, a GM's page only
        (and on the club's hub, a hub admin's)."""
        return open_table() or self.context.role == "gm" or hub_admin()

    def _show_table_rule(self) -> None:
        self.create_row.layout.display = None if self.may_create() else "none"
        if not open_table():
            self.db.layout.display = "none"
            if not self.context.role:
                self.identity.value = el("div", closed_line(), class_="tc-identity-line",
                                         data_role="")

    def open_picked(self) -> None:
        if not self.pick.value:
            raise _refusal("choose a campaign first (or create one below)")
        self._open(str(self.pick.value))

    def create(self) -> None:
        from companion.table.opening import create_table

        if not self.may_create():
            raise _refusal(HUB_CLOSED_CREATE if hub_service() else CLOSED_CREATE)
        name = self.new_name.read()
        if not name.strip():
            raise _refusal("type a name for the new campaign first")
        who = " ".join((hub_user() or self.who.read()).split())
        if not who:
            raise _refusal("type your name first: you are the GM of the campaign you create")
        made, created = create_table(page_store(), name, [str(self.ruleset.value)], who)
        self.new_name.value = ""
        # The creator's GM seat: its secret goes into this page's address (to bookmark);
        # on the club's hub the hub login is the seat, and no secret is shown.
        secret = "" if hub_service() else created
        self.context = self.context.with_(campaign=made, seat=secret, who="", role="")
        self.refresh_list()
        self._open(self.context.campaign)

    def _open(self, name: str) -> None:
        from companion.table.session import shared_session

        self.context = seated(self.context.with_(campaign=" ".join(name.split())))
        who, role = self.context.who, self.context.role
        # The seat's own session (one per seat in this kernel; a spectator's has no name):
        # its seat is fixed, and the store checks it on every write.
        session = shared_session(name, who=who, role=role,
                                  seat_key=seat_key_of(self.context))
        if session is not self.session:
            self.opened = ""
            self._drop_boxes()
            self.session = session
            session.on_change(safe(self.error)(
                lambda _c, opened=session: self._render() if opened is self.session
                else None))
        live(session, self.context)  # after seated() above: the seat is checked again
        self.context = self.context.with_(campaign=session.name, who=who, role=role,
                                          app=self.opened)
        self._set_url()
        self._show_identity()
        self.seats.render()
        self._build_party_form()
        self._render()
        self.campaign_box.layout.display = ""
        self.warm = _warm_up(session)

    # -- the campaign --------------------------------------------------------------------

    def _render(self) -> None:
        c = self.session
        if c is None:
            return
        with c.lock:  # the page's thread and the watcher's: each member followed once
            self._render_locked(c)

    def _render_locked(self, c: Session) -> None:
        rulesets = ", ".join(ruleset_title(r) for r in c.rulesets)  # names, not ids
        self.heading.value = el("h3", f"{c.name} ", el("small", f"({rulesets})"),
                                class_="tc-campaign", data_campaign=c.name)
        self.party.value = party_rows(c)
        # A move in any app (here or on another screen) shows in the list.
        # Each followed in the seat's view (a player's mirror tells of what they may see).
        for member in c.members():
            seen = c.view(member.id)
            if id(seen) not in self._followed:
                self._followed.add(id(seen))
                seen.on_change(safe(self.error, clear_on_success=False)(
                    lambda _t: self._render_party()))
        if self.app_buttons.children == ():
            self.app_buttons.children = tuple(
                button(a.title, self._opener(a.key), error=self.error, name=f"app-{a.key}")
                for a in apps_for(c.rulesets))
        self._sync_edit_options()

    def _render_party(self) -> None:
        if self.session is not None:
            self.party.value = party_rows(self.session)
            self._sync_edit_options()

    def _opener(self, key: str) -> Any:
        return lambda: self.open_app(key)

    def open_app(self, key: str) -> widgets.Widget:
        """Show the app ``key`` for this campaign in place (built once per kernel)."""
        if self.session is None:
            raise _refusal("open a campaign first")
        start = time.perf_counter()
        app = campaign_app(self.session, key)
        title = spec(key).title
        self.context = self.context.with_(app=key)
        link = self.context.app_url(key)
        if self._boxes_for != self.context.query():  # another campaign or person
            self._drop_boxes()
            self._boxes_for = self.context.query()
        box = self._boxes.get(key)
        if box is not self.app_area:  # the app shown so far hides first
            self.app_area.remove_class("tc-open-app")
            self.app_area.layout.display = "none"
        if box is None:
            # Born with its class and shown: an update right behind a new widget's creation
            # can be lost by the page while it is still creating the widget.
            # Serverless: no other device reaches this browser's campaign (and a second
            # tab of it is refused), so no link to one.
            elsewhere = "" if serverless() else el(
                "div", "On another device: ",
                el("a", f"{title} for this campaign", href=link, target="_blank"),
                class_="tc-app-link")
            box = self._boxes[key] = widgets.VBox([
                app_heading(title, self.context, demo=False),
                widgets.HTML(elsewhere),
                self._top_bar(key),
                app,
            ], layout=widgets.Layout(max_width="100%"), _dom_classes=("tc-open-app",))
            self.app_stack.children = (*self.app_stack.children, box)
        else:
            box.add_class("tc-open-app")
            box.layout.display = ""
            bar = box.children[2]
            bar.children[0].value = into_view_html("start", ".tc-open-app")  # to the top again
            if bar.children[2].value != key:
                bar.children[2].value = key
        self.app_area = box
        self.opened = key
        self._set_url()
        self.open_ms = (time.perf_counter() - start) * 1000
        return app

    def _top_bar(self, key: str) -> widgets.HBox:
        """The compact bar over an app opened in place (under its title): back to the
        table, or another app."""
        assert self.session is not None
        # Opened in place far below the set-up forms: the bar, the title and the first
        # controls come to the top of the screen at once (the jump scrolls there).
        jump = widgets.HTML(into_view_html("start", ".tc-open-app"),
                            layout=widgets.Layout(width="0px", margin="0"))
        back = button("\u2039 Table", self.close_app, error=self.error, name="back-to-table",
                      tooltip="Back to the campaign: party, seats and apps")
        picker = widgets.Dropdown(options=[(a.title, a.key) for a in apps_for(
            self.session.rulesets)], value=key, tooltip="Switch app",
            layout=widgets.Layout(width="auto", max_width="100%"))
        picker.add_class("tc-switch-app")

        def switch(change: Any) -> None:
            if change["new"] and change["new"] != self.opened:
                self.open_app(str(change["new"]))

        picker.observe(safe(self.error)(switch), names="value")
        bar = row(jump, back, picker)
        bar.add_class("tc-top-bar")
        return bar

    def close_app(self) -> None:
        """Back to the campaign from an app opened in place (its box stays, hidden)."""
        self.app_area.remove_class("tc-open-app")
        self.app_area.layout.display = "none"
        self.app_area = widgets.VBox()
        self.opened = ""
        self.context = self.context.with_(app="")
        self._set_url()
        self.back_jump.value = into_view_html("start")

    def _drop_boxes(self) -> None:
        """Forget the opened apps' boxes (the apps themselves stay built in this kernel)."""
        if not self._boxes:
            return
        self.app_stack.children = ()
        for box in self._boxes.values():
            for part in box.children[:3]:  # bar, heading, link: the app is not ours to close
                part.close()
            box.close()
        self._boxes = {}
        self.app_area = widgets.VBox()

    # -- the party form ------------------------------------------------------------------

    def _build_party_form(self) -> None:
        c = self.session
        assert c is not None
        parts: list[widgets.Widget] = []
        self.forms: dict[str, dict[str, Any]] = {}
        for ruleset in c.rulesets:
            rules = RULES.get(ruleset)
            if rules is None:
                continue
            name = name_box("Name", "", f"member-{ruleset}", max_len=40, required=False,
                            placeholder=f"a new {rules.what}'s name")
            boxes = {b.name: int_box(b.label, b.default, f"{ruleset}-{b.name}", b.low, b.high,
                                     width="130px") for b in rules.boxes}
            kind = widgets.Dropdown(tooltip="Kind",
                                    options=list(rules.kinds), layout=widgets.Layout(
                width="auto", min_height="40px")) if rules.kinds else None
            if kind is not None:
                kind.add_class(f"tc-kind-{ruleset}")
            form: dict[str, Any] = {"rules": rules, "name": name, "boxes": boxes,
                                    "kind": kind}
            self.forms[ruleset] = form
            add = button(f"Add {rules.what}", self._adder(ruleset), error=self.error,
                         name=f"add-member-{ruleset}", style="primary")
            form["add"] = add
            parts.append(row(name, *([kind] if kind else []), *boxes.values(), add))
            if rules.edit is not None:
                edit_pick = widgets.Dropdown(options=[], description="Edit",
                                             layout=widgets.Layout(width="auto",
                                                                   min_height="40px"))
                edit_pick.add_class(f"tc-edit-{ruleset}")
                edit_boxes = {b.name: int_box(b.label, b.default, f"edit-{ruleset}-{b.name}",
                                              b.low, b.high, width="130px")
                              for b in rules.boxes}
                form["edit_pick"], form["edit_boxes"] = edit_pick, edit_boxes
                edit_pick.observe(safe(self.error)(lambda _c, r=ruleset: self._fill_edit(r)),
                                  names="value")
                save = button("Save numbers", self._saver(ruleset), error=self.error,
                              name=f"save-member-{ruleset}")
                form["save"] = save
                form["edit_row"] = row(edit_pick, *edit_boxes.values(), save)
                parts.append(form["edit_row"])
            gone = widgets.Dropdown(options=[], description="Leaves",
                                    layout=widgets.Layout(width="auto", max_width="100%",
                                                          min_height="40px"))
            gone.add_class(f"tc-leave-{ruleset}")
            form["leave_pick"] = gone
            form["leave"] = confirm_button(
                "Leaves the party", self._leaver(ruleset), risky=lambda: True,
                prompt="Tap again: leaves the party", error=self.error,
                name=f"leave-{ruleset}")
            if c.may_remove_members() is None:  # by the GM's hand (issue 19)
                parts.append(row(gone, form["leave"]))
            if c.may_add_others() is not None and not c.watching:  # their own only
                name.value, name.disabled = self.context.who, True
        self.party_form.children = tuple(parts)
        # A spectator edits nothing: no form at all.
        self.party_form.layout.display = "none" if c.watching else ""
        self._sync_edit_options()

    def _sync_edit_options(self) -> None:
        c = self.session
        if c is None:
            return
        for form in getattr(self, "forms", {}).values():
            rules = form["rules"]
            if form.get("edit_pick") is not None:
                options = [(shown, key) for shown, key in rules.editable(c)
                           if _may_edit(c, key, shown)]
                _set_options(form["edit_pick"], options)
                # Shown only where the seam would take a save (issue 28: the GM's trust).
                form["edit_row"].layout.display = "" if options or c.sees_all \
                    or c.watching else "none"
            if form.get("leave_pick") is not None:
                _set_options(form["leave_pick"], leaving(c, rules))
                form["leave"].disabled = form["leave_pick"].value is None

    def _fill_edit(self, ruleset: str) -> None:
        form = self.forms[ruleset]
        if self.session is None or form["edit_pick"].value is None:
            return
        values = form["rules"].values(self.session, form["edit_pick"].value)
        for key, box in form["edit_boxes"].items():
            box.value = values[key]

    def _adder(self, ruleset: str) -> Any:
        def add() -> None:
            form = self.forms[ruleset]
            name = form["name"].read()
            if not name.strip():
                raise _refusal(f"type the new {form['rules'].what}'s name first")
            values = {k: box.read() for k, box in form["boxes"].items()}
            kind = str(form["kind"].value) if form["kind"] is not None else ""
            assert self.session is not None
            # Cleared first: the box is empty before the list shows the newcomer, so a
            # name typed next is never wiped by this one's reset.
            form["name"].value = ""
            try:
                form["rules"].add(self.session, " ".join(name.split()), kind, values)
            except BaseException:
                form["name"].value = name
                raise
        return add

    def _leaver(self, ruleset: str) -> Any:
        def go() -> None:
            form = self.forms[ruleset]
            if form["leave_pick"].value is None or self.session is None:
                raise _refusal("nobody to leave")
            leave(self.session, form["rules"], str(form["leave_pick"].value))
            self._render()
        return go

    def _saver(self, ruleset: str) -> Any:
        def save() -> None:
            form = self.forms[ruleset]
            if form["edit_pick"].value is None:
                raise _refusal("nobody to edit yet")
            values = {k: box.read() for k, box in form["edit_boxes"].items()}
            assert self.session is not None and form["rules"].edit is not None
            form["rules"].edit(self.session, form["edit_pick"].value, values)
        return save


def _may_edit(session: Session, key: str, shown: str) -> bool:
    """Whether this page's seat may edit the party entry ``key`` (shown as ``shown``): the
    table session's answer (their own character, when the GM trusts players with their
    numbers)."""

    return session.may_edit_numbers(key, shown) is None


def _set_options(pick: widgets.Dropdown, options: list[tuple[str, str]]) -> None:
    if list(pick.options) != options:
        keep = pick.value
        pick.options = options
        keys = [k for _, k in options]
        pick.value = keep if keep in keys else (keys[0] if keys else None)


#: What a page with no seat reads on a closed table (see ``binding.open_table``).
CLOSED_LINE = ("Open your campaign with the link (or QR code) your GM gave you. On this "
               "server only a GM creates campaigns.")
CLOSED_CREATE = ("only a GM creates campaigns on this server (its operator can allow "
                 "everyone with companion app --open-table)")
#: The same, on the club's hub (``companion.app.hub``).
HUB_CLOSED_LINE = ("Open your campaign from the list: your GM gives you a seat under your hub "
                   "name. On this hub only a GM or a hub admin creates campaigns.")
HUB_CLOSED_CREATE = ("only a GM or a hub admin creates campaigns on this hub (its admin can "
                     "allow everyone: COMPANION_OPEN_TABLE=1 in the service's environment)")


def closed_line() -> str:
    """What a page with no seat reads on a closed table."""
    return HUB_CLOSED_LINE if hub_service() else CLOSED_LINE


def _refusal(text: str) -> Exception:
    from companion.errors import CompanionError

    return CompanionError(text)


def _warm_up(session: Session) -> threading.Event:
    """Build the campaign's apps in the background, so that opening one only swaps it
    into the page (the browser already has its widgets); the event is set when done."""
    done = threading.Event()

    def work() -> None:
        try:
            wait_for_page()  # thousands of new widgets while the page builds: too many
            for app in apps_for(session.rulesets):
                # One app at a time: a tap is not kept waiting long. Not the seat's move
                # (an app adding its shared tracker): a refusal on the page stays.
                with WIDGET_LOCK, not_a_move():
                    campaign_app(session, app.key)
                # Between two apps, out of the locks: a thread waiting on them (a tap's
                # move, the page's state request) gets them now. Python's locks are not
                # fair: released and taken again at once, they let this loop run through
                # every app while a tap waited (a GM's second "Add character" went
                # unanswered for 30 s under CI's load).
                time.sleep(0.05)
        except Exception:  # only a head start: opening the app shows its error
            log.warning("building the apps ahead failed", exc_info=True)
        finally:
            done.set()

    run_in_background(work, "table-warm-up")
    return done
