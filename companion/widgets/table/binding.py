"""The campaign binding: who is at which table, read from the page's URL, kept live.

A Voila page passes its query string to the kernel in the ``QUERY_STRING`` environment
variable. [PageContext][companion.widgets.table.binding.PageContext] reads from it
``campaign`` (the campaign's name), ``seat`` (the secret of the person's seat) and ``app``,
and builds the same query for links to other apps, so another device opens the same table
as the same person.

Who the person is comes from their seat alone ([companion.store.seats][]):
[seated][companion.widgets.table.binding.seated] looks the secret up and gives the seat's
name and role (``gm`` or ``player``). ``who=`` and ``role=`` in the address grant nothing;
a page with no seat, a forged one or a revoked one is a *spectator* (role
``"spectator"``): the public rolls and the public state of the table, no moves, and
[JOIN_LINE][companion.widgets.table.binding.JOIN_LINE] saying how to join.

On a club's JupyterHub, the hub already knows who each person is: the club's table
service (``companion.app.hub``) starts each page's kernel with ``JUPYTERHUB_USER`` set to
the hub user of the page's request (and ``COMPANION_HUB=1``). There a page with no valid
``seat=`` is the seat *named* like the hub user (``same_name``), with no secret link: the
GM makes the seats with the hub names (``campaign seat NAME ash --role player``, or the
start app's Invite, which then says to sign in to the hub instead of showing a link). A
hub user without a seat is a spectator.

In the serverless apps ([serverless][companion.widgets.table.binding.serverless]: the
page's own Python, the campaign kept in this browser) there are no seats to prove:
[device_holder][companion.widgets.table.binding.device_holder] makes whoever holds the
device the campaign's GM, and players join by passing the phone.

[page_session][companion.widgets.table.binding.page_session] opens the seat's session
([shared_session][companion.table.session.shared_session]: one per seat per kernel,
so every app shown in this kernel shares the same trackers) and starts
[LiveSync][companion.widgets.table.binding.LiveSync]: ONE background thread per kernel that
waits for another screen's move through the store's port (``wait_for_change``: SQLite
looks at ``PRAGMA data_version``, a few microseconds five times a second; PostgreSQL waits
on ``LISTEN``/``NOTIFY``), applies it, and lets the
trackers' observers re-render the apps. Nothing polls the browser.

[connection_banner][companion.widgets.table.binding.connection_banner] is a small piece of
page script and CSS: when the browser goes offline, the server stops answering, or the
kernel's websocket closes, a red banner says so and taps are blocked (a tap made offline
would otherwise show nothing and run later); when the server answers again the banner
asks for a reload. In the serverless apps ([serverless][companion.widgets.table.binding.serverless])
there is no server to lose: the page keeps the campaign itself, and its own banner speaks
only of a storage failure (``tools/static_apps/runtime.mjs``).
"""

from __future__ import annotations

import json
import logging
import os
import sys
import threading
import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlencode

import ipywidgets as widgets

from companion.widgets.markup import Markup, el, frag
from companion.widgets.messages import not_a_move

if TYPE_CHECKING:
    from companion.table.opening import SeatKey, Store
    from companion.table.session import Session

__all__ = [
    "DEVICE_GM",
    "DEVICE_LINE",
    "HUB_USER",
    "JOIN_LINE",
    "PAGE_SHOWN",
    "ROLES",
    "SEAT_CHECK_SECONDS",
    "SPECTATOR",
    "STATES_SENT",
    "WIDGET_LOCK",
    "LiveSync",
    "PageContext",
    "catch_up",
    "connection_banner",
    "database_where",
    "device_holder",
    "guard_state_requests",
    "hub_admin",
    "hub_service",
    "hub_user",
    "join_line",
    "join_text",
    "live",
    "notebook_link",
    "open_table",
    "page_address",
    "page_session",
    "page_shown_signal",
    "page_store",
    "plug_session",
    "seat_key_of",
    "seated",
    "serverless",
    "url_script",
    "wait_for_page",
]

log = logging.getLogger(__name__)

#: The roles a seat gives (a page without one is a spectator).
ROLES = ("gm", "player")

#: The role of a page without a (valid) seat: it watches, it makes no move.
SPECTATOR = "spectator"

#: What a spectator's page says, once.
JOIN_LINE = ("You are watching: the public rolls and the table as everyone sees it. To "
             "play, open the link (or scan the QR code) your GM gives you for your seat.")

#: What a spectator's page says on the club's hub (``companion.app.hub``): no links there.
HUB_JOIN_LINE = ("You are watching: the public rolls and the table as everyone sees it. To "
                 "play, ask your GM for a seat under your hub name ({name}).")

#: The variable JupyterHub sets to the hub user's name in each user's notebook server
#: (and the club's table service, ``companion.app.hub``, in each page's kernel).
HUB_USER = "JUPYTERHUB_USER"

#: Set to "1" by the club's table service (``companion.app.hub``) in every page's kernel;
#: ``COMPANION_HUB_ADMIN`` is "1" there when the page's hub user is a hub admin.
HUB_SERVICE = "COMPANION_HUB"
HUB_ADMIN = "COMPANION_HUB_ADMIN"

MAX_WHO = 40

#: A ``seat=`` longer than this, or with other characters than a secret's, is dropped.
MAX_SEAT = 200

#: How often an open page's seat is checked again, to show it as a spectator's. (Its
#: moves are refused at once anyway: the store reads the seat in every write, issue 28.)
SEAT_CHECK_SECONDS = 5.0
MAX_QUERY = 2_000


@dataclass(frozen=True)
class PageContext:
    """Where the page is: the campaign, the app to open, the seat's secret from the URL,
    and who the seat proved the person to be (``who``, ``role``).

    ``who`` and ``role`` are never read from the URL:
    [seated][companion.widgets.table.binding.seated] sets them from the seat. A context
    built in Python with a role and no seat (tests, a notebook of the database's holder)
    is taken as it says.
    """

    campaign: str = ""
    who: str = ""
    role: str = ""
    app: str = ""
    seat: str = field(default="", repr=False)  # a secret: never in a repr or a message

    @classmethod
    def from_query(cls, query: str | None = None) -> PageContext:
        """Read ``?campaign=..&seat=..&app=..`` (default: this kernel's ``QUERY_STRING``).
        ``who``, ``role`` and unknown keys are ignored; a bad value is dropped, never
        raised."""
        text = os.environ.get("QUERY_STRING", "") if query is None else query
        values = parse_qs(text[:MAX_QUERY], keep_blank_values=False)

        def one(key: str, limit: int) -> str:
            raw = values.get(key, [""])[0]
            clean = " ".join("".join(c for c in raw if c.isprintable()).split())
            return clean[:limit]

        seat = values.get("seat", [""])[0]
        if len(seat) > MAX_SEAT or not all(c.isascii() and (c.isalnum() or c in "-_")
                                           for c in seat):
            seat = ""
        return cls(campaign=one("campaign", 80), app=one("app", 40), seat=seat)

    def with_(self, **changes: str) -> PageContext:
        return replace(self, **changes)

    def query(self, *, app: bool = False) -> str:
        """The query string for this context (``app`` included only when asked): the
        campaign and the seat, never who or role (they come from the seat)."""
        pairs = [(k, getattr(self, k)) for k in ("campaign", "seat")]
        if app:
            pairs.append(("app", self.app))
        return urlencode([(k, v) for k, v in pairs if v])

    def app_url(self, notebook: str) -> str:
        """A relative link to an app's own notebook page for this campaign and person."""
        return notebook_link(notebook, self.query())


def notebook_link(notebook: str, query: str = "") -> str:
    """A relative link to the page of ``notebook`` (``table``, ``dice_tray``): Voila's
    ``<notebook>.ipynb``, in the serverless apps the site's ``<notebook>.html`` (an
    ``.ipynb`` there is a 404 in a new tab: the page's click handler that rewrites it never
    sees a long-press's *Open in new tab*, issue 45)."""
    page = f"{notebook}.html" if serverless() else f"{notebook}.ipynb"
    return page + (f"?{query}" if query else "")


def page_store() -> Store:
    """The store of this page's kernel ([process_store][companion.store.opening.process_store]:
    the plugged-in one, else the one ``COMPANION_DB`` names, opened once per kernel)."""
    from companion.table.opening import process_store

    return process_store()


def database_where() -> str:
    """Where the campaigns are kept, for people (a file path, or a URL without password)."""
    return str(page_store().where)


#: Set by ``companion app``: "0" when it serves beyond this machine without ``--open-table``.
OPEN_TABLE = "COMPANION_OPEN_TABLE"


def open_table() -> bool:
    """Whether a page with no GM seat may create campaigns and see where they are kept.

    ``companion app`` says no ("0") when it listens beyond this machine, unless its
    operator passed ``--open-table``: on a shared network a visitor would otherwise make
    look-alike campaigns and learn the database's path. Unset (a notebook, the tests, the
    hub, ``companion app`` on 127.0.0.1) the table is open, as it always was."""
    return os.environ.get(OPEN_TABLE, "1").strip() != "0"


def hub_user() -> str:
    """The JupyterHub user this page is for ("" when not under a hub): set by the hub in a
    user's own server, or by the club's table service from the page request's hub login
    (``companion.app.hub``), never from anything the page sends."""
    return " ".join(os.environ.get(HUB_USER, "").split())[:MAX_WHO]


def hub_service() -> bool:
    """Whether this page is served by the club's table service on JupyterHub: seats are
    hub names, and invitations say to sign in to the hub (no secret links; a player's
    phone app address, which carries none, where the service serves the phone apps)."""
    return os.environ.get(HUB_SERVICE, "").strip() == "1" and bool(hub_user())


def hub_admin() -> bool:
    """Whether the club's table service says this page's hub user is a hub admin (who
    may create campaigns on a closed table)."""
    return hub_service() and os.environ.get(HUB_ADMIN, "").strip() == "1"


def seated(context: PageContext) -> PageContext:
    """``context`` with ``who`` and ``role`` proven: from the seat its secret opens, else
    (under JupyterHub) the seat named like the hub user; else a spectator (no name).

    A context that code built with a role and no secret is kept as it is (the URL can
    never give one: [from_query][companion.widgets.table.binding.PageContext.from_query]
    reads no role)."""
    if not context.campaign:
        return context
    if serverless():
        return device_holder(context)
    if context.role in ROLES and not context.seat:
        return context
    from companion.table.opening import seat_for_secret, seat_named

    store = page_store()
    seat = seat_for_secret(store, context.campaign, context.seat) if context.seat else None
    if seat is None and hub_user():
        seat = seat_named(store, context.campaign, hub_user())
    if seat is None:  # a dead secret is not carried on in links either
        return context.with_(who="", role=SPECTATOR, seat="")
    return context.with_(who=seat.who, role=seat.role)


#: Who holds the device when the campaign has no GM seat (one imported from a server's
#: export: seats and their secrets never leave the database).
DEVICE_GM = "GM"

#: What the start app says of a campaign in the serverless apps.
DEVICE_LINE = ("This campaign lives on this device: whoever holds it is its GM, and "
               "players join by passing the phone.")


def device_holder(context: PageContext) -> PageContext:
    """In the serverless apps, ``context`` as its campaign's GM: the campaign lives on
    this device, so whoever holds the device runs it (players take the phone in turn).
    The GM is named as the campaign's first GM seat (its creator), else
    [DEVICE_GM][companion.widgets.table.binding.DEVICE_GM]. No secret: a link carries
    nothing another device could open, and reopening from the site's own pages (no
    ``seat=`` in their links) gives back the same GM."""
    from companion.table.opening import StoreError, list_seats

    try:
        seats = list_seats(page_store(), context.campaign)
    except StoreError:  # no such campaign: opening it says so, in one line
        seats = []
    gm = next((s.who for s in seats if s.role == "gm"), DEVICE_GM)
    return context.with_(who=gm, role="gm", seat="")


def seat_key_of(context: PageContext) -> SeatKey | None:
    """How a [seated][companion.widgets.table.binding.seated] context's seat was proven,
    for the campaign to check it again in the store on every write (issue 28): its
    secret, else (under JupyterHub) the hub login's name; ``None`` for a spectator and a
    context built in code (taken at its word, as ``seated`` takes it)."""
    from companion.names import same_name
    from companion.table.opening import seat_key

    if context.role not in ROLES:
        return None
    if context.seat:
        return seat_key(context.who, context.role, context.seat)
    if hub_user() and same_name(hub_user(), context.who):
        return seat_key(context.who, context.role)
    return None


def page_address() -> str:
    """This page's own address without its query, for links another device opens:
    ``COMPANION_URL`` if set (a server behind a proxy), else what the browser asked Voila
    for (``SERVER_NAME``, ``SERVER_PORT``, ``SCRIPT_NAME``)."""
    configured = os.environ.get("COMPANION_URL", "").strip()
    if configured:
        return configured
    host = os.environ.get("SERVER_NAME", "") or "127.0.0.1"
    port = os.environ.get("SERVER_PORT", "")
    path = os.environ.get("SCRIPT_NAME", "") or "/voila/render/table.ipynb"
    if not path.endswith(".ipynb"):
        path = "/voila/render/table.ipynb"
    return f"http://{host}{':' + port if port else ''}{path}"


def join_text() -> str:
    """How a spectator joins: the GM's link, or on the club's hub a seat by hub name."""
    return HUB_JOIN_LINE.format(name=hub_user()) if hub_service() else JOIN_LINE


def join_line() -> widgets.HTML:
    """The one plain line a spectator's page shows: how to join (``.tc-join``)."""
    return widgets.HTML(el("div", join_text(), class_="tc-join", role="note"))


def page_session(context: PageContext | None = None) -> Session | None:
    """The table session of the page's URL: its campaign opened as the seat the page
    proves (see [seated][companion.widgets.table.binding.seated]), one per seat in this
    kernel, its seat fixed for its life and checked again by the store on every write;
    kept live. ``None`` when the URL names no campaign."""
    from companion.table.session import shared_session

    context = context or PageContext.from_query()
    if not context.campaign:
        return None
    if _PLUGGED and _PLUGGED[0].name == context.campaign:
        return _PLUGGED[0]  # the phone app's: its seat is the table's (the link's secret)
    page_store()  # one clear error for a damaged or foreign database file
    context = seated(context)
    # A spectator's session has no name; another seat is another session (never this
    # one's seat rewritten).
    session = shared_session(context.campaign, who=context.who, role=context.role,
                             seat_key=seat_key_of(context))
    live(session, context)
    return session


#: The session a phone app's page plugged in (``plug_session``), if any.
_PLUGGED: list[Session] = []


def plug_session(session: Session) -> None:
    """The phone apps (issue 44): this page's session is ``session``, a
    [RemoteSession][companion.table.remote.RemoteSession] whose acts the table judges;
    every app of the page opens its campaign through it, whatever the address says of
    who is who (the table said so when it welcomed the seat's secret)."""
    _PLUGGED[:] = [session]


def catch_up(session: Session) -> bool:
    """Apply the moves other screens stored since (True if there were any), as
    [not_a_move][companion.widgets.messages.not_a_move]: the apps re-render, and a
    refusal this page shows stays until its own next successful move."""
    with not_a_move():
        return session.refresh()


class LiveSync:
    """The kernel's one watcher thread: applies other screens' moves to the open session.

    It waits (up to ``timeout`` seconds at a time, so a switch to another campaign is
    seen within that time) for a change, through the store's own ``wait_for_change``
    (the widget layer opens no database of its own). Observers then fire in this thread;
    ipywidgets sends the updated values to the browser at once. A database error
    is logged and retried after a pause; it never kills the thread.
    """

    _instance: LiveSync | None = None
    _lock = threading.Lock()

    def __init__(self, timeout: float = 1.0) -> None:
        self.timeout = timeout
        self.session: Session | None = None
        self.applied = 0
        self.error = ""
        self.seat: PageContext | None = None
        """The page's seat (its context with the secret), checked again every
        ``SEAT_CHECK_SECONDS``: a seat revoked or renewed meanwhile makes the open page a
        spectator's (its moves are refused from then on)."""
        self._seat_due = 0.0
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="table-live-sync", daemon=True)

    @classmethod
    def get(cls) -> LiveSync:
        with cls._lock:
            if cls._instance is None or not cls._instance.thread.is_alive():
                cls._instance = cls()
                cls._instance.thread.start()
            return cls._instance

    def watch(self, session: Session | None) -> None:
        """Follow ``session`` from now on (``None``: follow nothing)."""
        self.session = session

    def stop(self) -> None:
        self._stop.set()

    def check_seat(self, session: Session, *, now: bool = False) -> None:
        """Demote ``session``'s page to a spectator's if its seat no longer opens (checked
        at most every ``SEAT_CHECK_SECONDS`` unless ``now``); never promotes."""
        context = self.seat
        if context is None or context.campaign != session.name or (
                not now and time.monotonic() < self._seat_due):
            return
        self._seat_due = time.monotonic() + SEAT_CHECK_SECONDS
        if seated(context).role == SPECTATOR and not session.watching:
            with WIDGET_LOCK:
                # The page may have moved to a new seat while the old one was read (the GM
                # renewing their own link, under this lock): only the seat read demotes.
                if self.seat is not context:
                    return
                with not_a_move():  # not this seat's move: its refusals stay
                    session.lose_seat()
            log.info("this page's seat was revoked or renewed: it watches from now on")

    def in_thread(self) -> bool:
        """True when called from this watcher (a change that came from another screen)."""
        return threading.current_thread() is self.thread

    def _run(self) -> None:
        while not self._stop.is_set():
            session = self.session
            if session is None:
                self._stop.wait(self.timeout)
                continue
            try:
                if self._wait(session):
                    self.applied += 1
                self.check_seat(session)
                self.error = ""
            except Exception as exc:  # a lost database: said in the log, tried again
                self.error = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                log.warning("live updates paused: %s", self.error)
                self._stop.wait(2.0)


    def _wait(self, session: Session) -> bool:
        """Wait up to ``timeout`` for another screen's move; apply it; True if there was one.

        The store's own wait
        ([Session.wait_for_change][companion.table.session.Session.wait_for_change]):
        SQLite looks at ``PRAGMA data_version`` five times a second, PostgreSQL waits on
        ``LISTEN``/``NOTIFY``; a store of this process alone has nothing to wait for."""
        if not session.wait_for_change(self.timeout):
            return False
        with WIDGET_LOCK:
            return catch_up(session)


#: Held while a background thread builds or re-renders widgets, and while the kernel
#: answers the page's request for every widget's state: ipywidgets walks its table of
#: widgets for that answer, and a widget born in another thread at that moment would
#: break the walk (the page then shows "Loading widget..." for ever).
WIDGET_LOCK = threading.RLock()


#: Set once the page has been sent every widget's state. Work that makes many widgets in
#: the background waits for it: the page builds its models from that one answer, and with
#: thousands in it (every app of a campaign built ahead), the widget manager sometimes
#: reads a child before it has registered it ("widget model not found") and the page
#: shows "Loading widget..." for ever. Widgets made afterwards reach it one by one.
STATES_SENT = threading.Event()


#: Set when the page has built its widgets from that answer and shown them (see
#: [page_shown_signal][companion.widgets.table.binding.page_shown_signal]). Being sent the
#: states is not enough: the page builds its models from them asynchronously, and a flood
#: of new widgets arriving meanwhile (the campaign's apps built ahead: thousands) left the
#: start app at "Error displaying widget: model not found" after a reload, about one
#: reload in five on a loaded machine.
PAGE_SHOWN = threading.Event()

# Run by the page once the signal's view is on screen (an image's onerror: ipywidgets HTML
# runs no <script>); views are made only after the page has every model, so this is the
# page saying "shown". It types into the hidden box below, which sends its value.
_SHOWN_JS = (
    "(function f(n){var i=document.querySelector('.tc-page-shown input');"
    "if(i){if(!i.value){i.value='shown';"
    "i.dispatchEvent(new Event('input',{bubbles:true}));"
    "i.dispatchEvent(new Event('change',{bubbles:true}));}}"
    "else if(n<600){setTimeout(function(){f(n+1);},100);}})(0)")


def page_shown_signal() -> widgets.Widget:
    """A hidden widget through which the page says it has shown its widgets: it sets
    [PAGE_SHOWN][companion.widgets.table.binding.PAGE_SHOWN]. The value only tells the
    kernel when to start background work; nothing is decided on it."""
    box = widgets.Text(value="", layout=widgets.Layout(display="none"),
                       _dom_classes=("tc-page-shown",))

    def shown(change: dict[str, Any]) -> None:
        if change["new"]:
            PAGE_SHOWN.set()

    box.observe(shown, names="value")
    script = widgets.HTML(el("img", alt="", style="display:none", src="data:,", onerror=_SHOWN_JS),
                          layout=widgets.Layout(display="none"))
    return widgets.VBox([box, script], layout=widgets.Layout(display="none"))


def wait_for_page(timeout: float = 60.0) -> None:
    """In a kernel with a page to serve, wait until the page has shown its widgets (see
    [PAGE_SHOWN][companion.widgets.table.binding.PAGE_SHOWN]; at most ``timeout`` seconds,
    after which the work goes ahead); elsewhere (plain Python, the tests) return at once."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - ipywidgets brings IPython
        return
    shell = get_ipython()
    if shell is not None and getattr(shell, "kernel", None) is not None:
        deadline = time.monotonic() + timeout
        STATES_SENT.wait(timeout)
        PAGE_SHOWN.wait(max(0.0, deadline - time.monotonic()))


def guard_state_requests() -> None:
    """Make ipywidgets answer the page's state request under
    [WIDGET_LOCK][companion.widgets.table.binding.WIDGET_LOCK] (once per process)."""
    from ipywidgets.widgets.widget import Widget

    found = Widget.__dict__.get("_handle_control_comm_msg")
    current = getattr(found, "__func__", None)
    if current is None or getattr(current, "table_guarded", False):
        return  # another ipywidgets: nothing to guard (or guarded already)

    def guarded(cls: Any, msg: Any) -> Any:
        with WIDGET_LOCK:
            answer = current(cls, msg)
            content = msg.get("content", {}) if isinstance(msg, dict) else {}
            if content.get("data", {}).get("method") == "request_states":
                STATES_SENT.set()
            return answer

    guarded.table_guarded = True  # type: ignore[attr-defined]
    Widget._handle_control_comm_msg = classmethod(guarded)


def live(session: Session, context: PageContext | None = None) -> LiveSync | None:
    """Keep ``session`` live in this kernel (the one watcher thread follows it); with the
    page's ``context``, its seat is checked again now and then (see
    [LiveSync.check_seat][companion.widgets.table.binding.LiveSync.check_seat]).

    ``None`` for a store only this process writes (``store.shared`` False: memory, the
    browser's): every move there is this page's own and re-renders at once, so there is
    nothing to watch (and the browser runs no threads)."""
    if not session.watched:
        return None
    guard_state_requests()
    sync = LiveSync.get()
    sync.watch(session)
    if context is not None:
        sync.seat = context if context.seat and context.campaign == session.name else None
    return sync


# --- page script ------------------------------------------------------------------------

# The page runs this once (an image that fails to load runs its onerror: ipywidgets HTML
# has no <script>). It watches the browser's online state, the kernel's websocket (found
# on its first send) and, every 5 s, a tiny HEAD request to the server's static files.
_BANNER_JS = r"""
(function () {
  if (window.tcConnection) { return; }
  var state = {down: false, wasDown: false};
  window.tcConnection = state;
  var bar = document.createElement('div');
  bar.className = 'tc-offline';
  bar.setAttribute('role', 'alert');
  bar.style.display = 'none';
  document.body.appendChild(bar);
  function show(text) {
    state.down = true; state.wasDown = true;
    bar.textContent = text; bar.style.display = 'block';
    document.body.classList.add('tc-disconnected');
  }
  function up() {
    if (!state.down) { return; }
    state.down = false;
    bar.innerHTML = 'Connection back. <a href="" onclick="location.reload();return false">'
      + 'Reload the page</a> to see the table as it is now.';
    document.body.classList.remove('tc-disconnected');
    document.body.classList.add('tc-reconnected');
  }
  var lost = 'Connection lost: nothing you tap now is saved. Waiting for the table to answer...';
  window.addEventListener('offline', function () { show('You are offline: ' + lost); });
  window.addEventListener('online', function () { check(); });
  var send = WebSocket.prototype.send;
  WebSocket.prototype.send = function () {
    if (!this.tcWatched) {
      this.tcWatched = true;
      this.addEventListener('close', function () { show(lost); });
    }
    return send.apply(this, arguments);
  };
  var base = (document.body.getAttribute('data-base-url') || '/voila/');
  function check() {
    fetch(base + 'static/voila.js', {method: 'HEAD', cache: 'no-store'}).then(function (r) {
      if (r.ok) { up(); } else { show(lost); }
    }, function () { show(lost); });
  }
  setInterval(check, 5000);
})();
"""

_BANNER_CSS = """
.tc-offline { position: fixed; top: 0; left: 0; right: 0; z-index: 10000; padding: 12px 16px;
  background: #b00020; color: #fff; font-size: 18px; font-weight: bold; text-align: center; }
.tc-offline a { color: #fff; text-decoration: underline; }
body.tc-reconnected .tc-offline { background: #8a5a00; }
body.tc-disconnected #rendered_cells { pointer-events: none; opacity: 0.5; }
"""


def _run_once(js: str) -> Markup:
    """An HTML fragment that runs ``js`` when the page shows it."""
    return el("img", alt="", style="display:none", src="data:image/gif;base64,AA==", onerror=js)


def serverless() -> bool:
    """Whether this Python is the page's own (the static apps, Pyodide in the browser):
    no server, no seats on other devices; the campaign lives in this browser."""
    return sys.platform == "emscripten"


def connection_banner() -> widgets.HTML:
    """The lost-connection banner (see the module docs); show it once per page. In the
    serverless apps an empty place: there is no server whose loss it could report (its
    check would ask the site for Voila's files, find none, and say so falsely)."""
    banner = widgets.HTML("" if serverless()  # the style sheet is trusted markup
                          else frag(el("style", Markup(_BANNER_CSS)), _run_once(_BANNER_JS)))
    banner.add_class("tc-connection")
    banner.layout.height = "0px"
    banner.layout.overflow = "hidden"
    return banner


def url_script(context: PageContext) -> Markup:
    """HTML that puts ``context`` into the page's address (no reload): the name and role
    chosen on the first visit stay in the URL, so a reload or a bookmark keeps them."""
    query = json.dumps("?" + context.query(app=bool(context.app)))
    return _run_once(f"history.replaceState(null, '', location.pathname + {query});")

