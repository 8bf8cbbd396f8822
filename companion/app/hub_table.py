"""The table socket and the phone apps under the club's hub (issue 44): behind its login.

``companion app`` mounts the table's routes (``table_routes`` of ``server/voila.py``: the
socket at ``table/ws``, the phone apps at ``phone/``) in Voila's own application. The hub
service runs Voila as a jupyter_server extension, which has no such hook, so this module
is a second, tiny extension ([configure][companion.app.hub.configure] enables it) that
mounts the very same routes, on the same ``TABLE_SERVER``, under the service's base URL
(``/services/table/``), each handler made a jupyter_server handler first:

- **Who a socket is comes from the request, on the server.** Its ``current_user`` is the
  hub user of the request's OAuth cookie (the singleuser extension's identity provider,
  as for every page of the service); a request without one gets no socket (403) and a
  phone page without one is sent to the hub's login, as any page of the service is (the
  files of a build's digest folder are static files, served as the service's others are:
  see [HubPhoneFiles][companion.app.hub_table.HubPhoneFiles]). The table's authorizer
  then lets a member through (``TableAuthorizer``: resource ``"table"``).
- **The hello's hub form.** A hello may carry no secret: the socket is then the seat
  *named* like the request's hub login (``seat_named``: the rule the Voila pages follow
  under the hub, ``companion.widgets.table.binding.seated``), opened by name (its
  ``SeatKey`` has no secret's hash, so the store checks the seat by name on every
  write). A hello with a seat's secret opens that seat, as on ``companion app``; a secret
  that opens nothing falls back to the login's own seat, as a page's does. No field of a
  hello names who it is (the protocol refuses one), so a crafted hello can only be its
  own login's seat, a secret's, or refused.

A route this module does not know how to put behind the login stops the service from
starting rather than being served open.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jupyter_core.utils import ensure_async
from jupyter_server.auth.decorator import ws_authenticated
from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.base.websocket import WebSocketMixin
from tornado import web

from companion.server.hosts import refuse_foreign_host
from companion.server.phone import PhoneFiles, in_build
from companion.server.table import TableSocket
from companion.store.port import Store
from companion.table.session import Session

__all__ = ["AUTH_RESOURCE", "HubPhoneFiles", "HubTableSocket", "hub_login_line",
           "hub_routes", "use_routes"]

#: What the table's authorizer is asked about for the socket and the phone files.
AUTH_RESOURCE = "table"

#: The longest seat name (``companion.store.seats.MAX_WHO``): a hub login is read as the
#: Voila pages read it (``binding.hub_user``: spaces folded, cut to this).
MAX_WHO = 40

Route = tuple[str, type[Any], dict[str, Any]]

#: ``table_routes`` of ``server/voila.py`` (set by ``configure``, read at the extension's
#: load): the one builder of the table's routes and of its ``TABLE_SERVER``.
_routes: Callable[[str], list[Route]] | None = None


def use_routes(routes: Callable[[str], list[Route]]) -> None:
    """Mount ``routes(base_url)`` when the extension loads (``configure`` passes
    ``server/voila.py``'s ``table_routes``)."""
    global _routes
    _routes = routes


def hub_login_line(login: str) -> str:
    """The refusal of a hello whose hub login has no seat at the campaign."""
    return (f"no seat here is named {login}, your hub name: ask your GM for a seat under "
            "your hub name")


def _login_of(user: Any) -> str:
    return " ".join(str(getattr(user, "username", "") or "").split())[:MAX_WHO]


class HubTableSocket(WebSocketMixin, TableSocket, JupyterHandler):
    """The table socket behind the hub's login (see the module's docstring)."""

    hub_login = ""

    def set_default_headers(self) -> None:
        """No page headers on a websocket's answer (as jupyter_server's kernel socket)."""

    # tornado awaits a prepare that returns an awaitable; TableSocket's needs none.
    async def prepare(self, *args: Any, **kwargs: Any) -> None:  # type: ignore[override]
        refuse_foreign_host(self)
        # The request's hub user (no redirect: a socket is refused, 403, without one).
        await JupyterHandler.prepare(self, _redirect_to_login=False)

    @ws_authenticated
    async def get(self, *args: Any, **kwargs: Any) -> None:
        user = self.current_user
        if not await ensure_async(self.authorizer.is_authorized(
                self, user, "execute", AUTH_RESOURCE)):
            raise web.HTTPError(403)
        self.hub_login = _login_of(user)
        await super().get(*args, **kwargs)

    def open_seat(self, store: Store, campaign: str, secret: str) -> Session | str:
        """The secret's seat, else the seat named like the request's hub login."""
        from companion.store.seats import seat_key, seat_named

        if secret:
            session = super().open_seat(store, campaign, secret)
            if isinstance(session, Session) and session.seat_key is not None \
                    and session.role != "spectator":
                return session
        # (get() refused a request without a login: hub_login is never empty here.)
        seat = seat_named(store, campaign, self.hub_login) if self.hub_login else None
        if seat is None:
            return hub_login_line(self.hub_login)
        return Session.open(store, campaign, who=seat.who, role=seat.role,
                            seat_key=seat_key(seat))


class HubPhoneFiles(JupyterHandler, PhoneFiles):  # type: ignore[misc]
    """The phone apps' files under the hub: a page (``<app>.html``) behind the hub's
    login (without it, a visit is sent to the hub's login, as any page of the service
    is); the files of a build's digest folder (the runtime, the apps' code, the page's
    scripts: the same for everyone, nothing of a campaign or a member) served as the
    service serves its other static files (``/static/``, ``/voila/static/``), to anyone.
    They must be: the page loads them as module scripts and ``fetch`` (CORS mode), and
    the hub accepts its cookie on such a request only with an XSRF token, which a module
    import cannot send."""

    async def get(self, path: str, include_body: bool = True) -> None:
        if in_build(path):
            await PhoneFiles.get(self, path, include_body)
        else:
            page = self._page(path, include_body)
            if page is not None:  # None: redirected to the hub's login
                await page

    # jupyter_server lets a handler without this through (allow_unauthenticated_access):
    # for a GET without the login it redirects to the hub's login.
    @web.authenticated
    async def _page(self, path: str, include_body: bool) -> None:
        if not await ensure_async(self.authorizer.is_authorized(
                self, self.current_user, "read", AUTH_RESOURCE)):
            raise web.HTTPError(403)
        await PhoneFiles.get(self, path, include_body)


#: Each handler of the table's routes and the one served in its place under the hub.
BEHIND_LOGIN: dict[type[Any], type[Any]] = {TableSocket: HubTableSocket,
                                            PhoneFiles: HubPhoneFiles}


def hub_routes(routes: list[Route]) -> list[Route]:
    """``routes`` with each handler behind the hub's login; raises for one it does not
    know (never served open)."""
    out = []
    for pattern, handler, kwargs in routes:
        hub = BEHIND_LOGIN.get(handler)
        if hub is None:
            raise RuntimeError(f"the table route {pattern} ({handler.__name__}) has no "
                               "handler behind the hub's login: add one to "
                               "companion.app.hub_table.BEHIND_LOGIN")
        out.append((pattern, hub, kwargs))
    return out


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "companion.app.hub_table"}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    """Mount the table's routes under the service's base URL, behind the hub's login."""
    if _routes is None:
        raise RuntimeError("companion.app.hub_table is enabled by companion.app.hub's "
                           "configure only (it passes the table's routes)")
    routes = hub_routes(_routes(serverapp.base_url))
    serverapp.web_app.add_handlers(".*$", routes)
    serverapp.log.info("Table: %d table routes under %s, behind the hub's login",
                       len(routes), serverapp.base_url)
