"""The club's table: ONE server that JupyterHub runs as a service behind its login.

``companion hub-config`` prints the ``jupyterhub_config.py`` fragment; ``docs/club.md``
walks an admin through it. The service runs ``python -m companion.app.hub``, which starts
``jupyterhub-singleuser`` (jupyter_server with the hub's OAuth) with Voila as its only
extension and the settings of [configure][companion.app.hub.configure]:

**Who a page is comes from the hub, on the server.** The singleuser extension's identity
provider makes ``handler.current_user`` the hub user of the request's OAuth cookie (no
cookie: a redirect to the hub's login). Voila calls
[prelaunch_hook][companion.app.hub.prelaunch_hook] with the request before it starts the
page's kernel; the hook puts the user in a context variable that the kernel manager
([hub_kernel_manager][companion.app.hub.hub_kernel_manager]) reads in the same request to
build the kernel's environment: ``JUPYTERHUB_USER`` is that name (the apps seat the page
by it), and nothing a page sends (an edited address, ``?JUPYTERHUB_USER=``, a header such as
``X-Forwarded-User``) reaches it. The hub's own tokens, which Voila would copy from the
service's environment into every kernel, are removed.

**No secret of the service reaches a page.** jupyter_server takes the hub's API token as
"the server's token" and writes it into the pages of its own templates (its error pages
included); the service empties that token (``_hide_hub_token``): it signs nobody in by it.
The cookie secret stays in the service's runtime folder, the database's password in the
environment of the service and its kernels, and Voila, run inside the service, has no
token of its own. The kernel specs API (which Voila's pages read) answers each spec
without its ``env`` (``_hide_kernel_spec_env``): an admin's kernel spec may hold one.

**No player runs code.** Players reach the apps only: the
authorizer (``TableAuthorizer``, made by ``configure``) answers every jupyter_server API with
403 (contents, files, sessions, terminals, new kernels, listings), except reading and
talking to a kernel *the same hub user's page started*. And
``MappingKernelManager.allowed_message_types`` lets only widget (comm) and
``kernel_info`` messages through a kernel's websocket: an ``execute_request`` a player
sends on her own kernel's socket is dropped (without it, jupyter_server would run it:
Voila's own filter applies only to Voila's standalone server).

**What the kernels hold.** A page's kernel runs the apps, which read and write the store
themselves, so it keeps ``COMPANION_DB`` (the service's database). That is safe only
because of the two rules above: no player can make a kernel run code of theirs. Widget
messages still carry whatever state a page forges, which is why every move's permission
is checked where it is stored (``companion.store.permissions``).

Kernels are culled and capped exactly as under ``companion app`` (the same
``server/voila.py`` is applied), and a page with no seat cannot create campaigns nor see
where they are kept unless the admin opens the table (``COMPANION_OPEN_TABLE=1``); hub
admins may create campaigns (they become the campaign's GM).
"""

from __future__ import annotations

import contextvars
import os
import shlex
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.app import AppError, app_files, check_extra, database, shown_database

__all__ = [
    "ALLOWED_MESSAGES",
    "SERVICE_NAME",
    "HubUser",
    "configure",
    "hub_config",
    "kernel_environment",
    "main",
]

#: The service's name: its pages are at ``/services/table/``.
SERVICE_NAME = "table"

#: The only kernel messages a page's websocket passes on: ipywidgets' comm messages and
#: the kernel_info the page asks first. No execute, inspect, complete, history, shutdown,
#: debug or input request reaches a kernel from a browser.
ALLOWED_MESSAGES = ["comm_open", "comm_msg", "comm_close", "comm_info_request",
                    "kernel_info_request"]

#: Variables of the service never passed to a kernel: the hub's API token, OAuth client
#: and cookie settings (a kernel holding them could act as the service towards the hub).
HUB_PREFIXES = ("JUPYTERHUB_", "JPY_")
SECRET_NAMES = frozenset({"JUPYTER_TOKEN", "JUPYTER_TOKEN_FILE", "CONFIGPROXY_AUTH_TOKEN"})

#: What the apps read: the page's hub user, whether it is a hub admin, and that this is
#: the club's server (``companion.widgets.table.binding``).
HUB_USER = "JUPYTERHUB_USER"
HUB_ADMIN = "COMPANION_HUB_ADMIN"
HUB_SERVICE = "COMPANION_HUB"
OPEN_TABLE = "COMPANION_OPEN_TABLE"


@dataclass(frozen=True)
class HubUser:
    """The hub user a page request was authenticated as."""

    name: str
    admin: bool = False


#: Set by ``prelaunch_hook`` for the request being served; read by ``start_kernel`` in the
#: same request (Voila awaits both in the request's own task).
_page_user: contextvars.ContextVar[HubUser | None] = contextvars.ContextVar(
    "companion_hub_page_user", default=None)


def _user_of(handler: Any) -> HubUser | None:
    user = getattr(handler, "current_user", None)
    name = str(getattr(user, "username", "") or "")
    if not name:
        return None
    model = getattr(user, "hub_user", None)
    admin = bool(model.get("admin")) if isinstance(model, Mapping) else False
    return HubUser(name, admin)


def prelaunch_hook(req: Any, notebook: Any = None, cwd: str = "") -> None:
    """Voila's hook before a page's kernel starts: remember who the request is from."""
    _page_user.set(_user_of(req))


def kernel_environment(env: Mapping[str, str], user: HubUser) -> dict[str, str]:
    """A page kernel's environment: the service's minus the hub's secrets, plus who the
    page is (``JUPYTERHUB_USER``) and the club's settings for the apps."""
    kept = {k: v for k, v in env.items()
            if not k.startswith(HUB_PREFIXES) and k not in SECRET_NAMES}
    kept[HUB_USER] = user.name
    kept[HUB_ADMIN] = "1" if user.admin else "0"
    kept[HUB_SERVICE] = "1"
    # Closed unless the admin opened it: a page with no seat creates no campaign.
    kept[OPEN_TABLE] = os.environ.get(OPEN_TABLE, "0").strip() or "0"
    return kept


def hub_kernel_manager(base: type) -> type:
    """``base`` (the capped, culled kernel manager of ``server/voila.py``) that starts a
    kernel only for a page request with a hub user, in that user's environment, and
    remembers whose it is (the authorizer lets only its owner reach it)."""

    class HubKernelManager(base):  # type: ignore[misc]
        def __init__(self, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.owners: dict[str, str] = {}

        async def start_kernel(self, *args: Any, **kwargs: Any) -> str:
            from tornado import web

            user = _page_user.get()
            if user is None:  # not a Voila page of a signed-in user: no kernel
                raise web.HTTPError(403, "kernels start only for a page of the table")
            kwargs["env"] = kernel_environment(kwargs.get("env") or os.environ, user)
            kernel_id: str = await super().start_kernel(*args, **kwargs)
            self.owners[kernel_id] = user.name
            return kernel_id

        def owner_of(self, kernel_id: str) -> str:
            return self.owners.get(kernel_id, "")

        async def shutdown_kernel(self, kernel_id: str, *args: Any, **kwargs: Any) -> None:
            await super().shutdown_kernel(kernel_id, *args, **kwargs)
            self.owners.pop(kernel_id, None)

    return HubKernelManager


def _authorizer_class() -> type:
    from jupyterhub.singleuser.extension import JupyterHubAuthorizer

    class TableAuthorizer(JupyterHubAuthorizer):  # type: ignore[misc]
        """The hub's check (the user may use the service), then the table's: only the
        page's own kernel (read, and its websocket) and the kernel specs (read)."""

        def is_authorized(self, handler: Any, user: Any, action: str,
                          resource: str) -> bool:
            if not super().is_authorized(handler, user, action, resource):
                return False
            if resource == "kernelspecs" and action == "read":
                return True
            if resource == "table" and action in ("read", "execute"):
                return True  # the table socket and the phone apps (hub_table)
            if resource == "kernels" and action in ("read", "execute"):
                kernel_id = str((getattr(handler, "path_kwargs", None) or {})
                                .get("kernel_id", ""))
                owner_of = getattr(handler.kernel_manager, "owner_of", None)
                name = str(getattr(user, "username", "") or "")
                return bool(kernel_id and owner_of and name and owner_of(kernel_id) == name)
            self.log.warning("Table: refused %s %s to %s", action, resource,
                             getattr(user, "username", "?"))
            return False

    return TableAuthorizer


def _guard_voila_shutdown() -> None:
    """Voila's ``/voila/api/shutdown/<kernel>`` shuts down any kernel for any signed-in
    user; under the hub only the kernel's own page may."""
    from tornado import web
    from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler

    stock = getattr(VoilaShutdownKernelHandler.post, "stock", VoilaShutdownKernelHandler.post)

    async def post(self: Any, kernel_id: str) -> None:
        owner_of = getattr(self.kernel_manager, "owner_of", None)
        name = str(getattr(self.current_user, "username", "") or "")
        if not (owner_of and name and owner_of(kernel_id) == name):
            raise web.HTTPError(403)
        await stock(self, kernel_id)

    post.stock = stock  # type: ignore[attr-defined]
    VoilaShutdownKernelHandler.post = post


def _hide_hub_token() -> None:
    """The service's handlers never hold the hub's API token (issue 48).

    jupyterhub-singleuser's identity provider answers jupyter_server's "the server's
    token" with the service's own hub API token (``HubOAuth.api_token``, which is also its
    OAuth client secret). jupyter_server hands that token to every page it renders from
    its templates: ``page.html`` writes it into ``data-jupyter-api-token`` for a
    signed-in user, and every error page a member can reach (a 403 or 404, e.g.
    ``/services/table/tree``) extends it. The service authenticates nobody by that token
    (users come from the hub's OAuth cookie; the service's own calls to the hub read
    ``hub_auth.api_token`` directly), so here it is empty: no template, page config or
    server-info file can carry it. The singleuser extension forces its own identity
    provider class after the settings are read, hence a property on that class rather
    than a subclass in the settings."""
    from jupyterhub.singleuser.extension import JupyterHubIdentityProvider

    if getattr(JupyterHubIdentityProvider, "companion_token_hidden", False):
        return
    JupyterHubIdentityProvider.token = property(lambda self: "")
    JupyterHubIdentityProvider.companion_token_hidden = True


def _hide_kernel_spec_env() -> None:
    """The kernel specs API answers every spec without its ``env``.

    Members may read the kernel specs (``TableAuthorizer``): Voila's page builds
    JupyterLab's service manager, which asks for them as the page opens. A spec's
    ``env`` is what the kernel is started with, and an admin may put a secret there; the
    page needs none of it (it starts no kernel: Voila does, on the server, from the spec
    itself, which this leaves whole). Both handlers of the API build each answer with
    ``kernelspec_model`` of their module, looked up at each call."""
    from jupyter_server.services.kernelspecs import handlers

    stock = getattr(handlers.kernelspec_model, "stock", handlers.kernelspec_model)

    def kernelspec_model(handler: Any, name: str, spec_dict: Any,
                         resource_dir: str) -> Any:
        model = stock(handler, name, spec_dict, resource_dir)
        spec = model.get("spec") if isinstance(model, dict) else None
        if isinstance(spec, dict) and "env" in spec:
            model["spec"] = {k: v for k, v in spec.items() if k != "env"}
        return model

    kernelspec_model.stock = stock  # type: ignore[attr-defined]
    handlers.kernelspec_model = kernelspec_model


def _voila_settings(c: Any, server_dir: Path) -> dict[str, Any]:
    """Apply ``server/voila.py`` (culling, cap, template, start app) to ``c``; its names."""
    path = server_dir / "voila.py"
    namespace: dict[str, Any] = {"get_config": lambda: c, "__file__": str(path),
                                 "__name__": "companion_hub_voila_settings"}
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), namespace)
    return namespace


def configure(c: Any) -> None:
    """The table service's jupyter_server settings (see the module docs)."""
    files = app_files()
    settings = _voila_settings(c, files.server)
    c.ServerApp.root_dir = str(files.notebooks)
    c.ServerApp.default_url = "/voila/render/table.ipynb"
    # Voila and the table's routes alone: no JupyterLab, notebook UI, terminals or other
    # extensions.
    c.ServerApp.jpserver_extensions = {
        "voila.server_extension": True, "companion.app.hub_table": True,
        "jupyterlab": False, "notebook": False, "jupyter_server_terminals": False,
        "jupyter_lsp": False, "nbclassic": False, "jupyter_server_ydoc": False,
        "jupyter_collaboration": False, "notebook_shim": False}
    c.ServerApp.terminals_enabled = False
    c.ServerApp.authorizer_class = _authorizer_class()
    c.ServerApp.kernel_manager_class = hub_kernel_manager(settings["TableKernelManager"])
    c.MappingKernelManager.allowed_message_types = list(ALLOWED_MESSAGES)
    c.VoilaConfiguration.prelaunch_hook = prelaunch_hook
    if os.environ.get("APP_MAX_KERNELS", "").strip():
        c.TableKernelManager.max_kernels = int(os.environ["APP_MAX_KERNELS"])
    # jupyter_server's Host check: the hub's proxy forwards the browser's Host header.
    c.ServerApp.allow_remote_access = True
    # The service runs as whoever runs the hub (root in a container): no player runs code in
    # it (see above), so jupyter_server's refusal to run as root would only stop the table.
    c.ServerApp.allow_root = True
    # The table socket and the phone apps, built as companion app builds them (one
    # TABLE_SERVER per process), mounted behind the hub's login by our extension.
    from companion.app.hub_table import use_routes

    use_routes(settings["table_routes"])
    _guard_voila_shutdown()
    _hide_hub_token()
    _hide_kernel_spec_env()


CONFIG_FILE = Path(__file__).resolve().parent / "hub_service_config.py"


def service_command(python: str = sys.executable) -> list[str]:
    """What the hub runs: this Python's ``-m companion.app.hub``."""
    return [python, "-m", "companion.app.hub"]


def main(argv: list[str] | None = None) -> None:
    """The service's process: jupyterhub-singleuser with the table's settings."""
    check_extra()
    from jupyterhub.singleuser import main as singleuser

    os.chdir(app_files().notebooks)
    singleuser([f"--config={CONFIG_FILE}", *(argv if argv is not None else sys.argv[1:])])


def hub_config(*, db: str | None, environ: Mapping[str, str], port: int = 8867,
               max_kernels: int = 16, open_table: bool = False,
               python: str = sys.executable) -> str:
    """The ``jupyterhub_config.py`` fragment for the table service (``companion hub-config``)."""
    value = database(db, environ)
    if not 1 <= port <= 65535:
        raise AppError(f"--port {port}: a port is a number from 1 to 65535")
    env = {"COMPANION_DB": value, "APP_MAX_KERNELS": str(max_kernels),
           "COMPANION_OPEN_TABLE": "1" if open_table else "0"}
    env_lines = "".join(f"            {k!r}: {v!r},\n" for k, v in env.items())
    command = service_command(python)
    return f'''# --- Table Companion: the club's table as a JupyterHub service ---------------------
# Made by `companion hub-config`; docs/club.md explains every line. Players open
# <hub>/services/{SERVICE_NAME}/ after signing in. Campaigns kept in: {shown_database(value)}
# The service's environment is the only place the database's address is (keep this file
# readable by the hub's admin only when it holds a password).
c.JupyterHub.services = [
    {{
        "name": {SERVICE_NAME!r},
        "url": "http://127.0.0.1:{port}",
        "command": {command!r},
        "oauth_no_confirm": True,
        "environment": {{
{env_lines}        }},
    }},
]
# Every signed-in user may open the table and tell it their name, and nothing more: no
# "self" scope, so nobody starts a notebook server of their own (where they could run
# any code).
c.JupyterHub.load_roles = [
    {{"name": "user", "scopes": ["access:services!service={SERVICE_NAME}",
                                "read:users:name!user", "read:users:groups!user"]}},
]
# After signing in, land on the table.
c.JupyterHub.default_url = "/services/{SERVICE_NAME}/"
# Command: {shlex.join(command)}
'''


if __name__ == "__main__":
    main()
