"""Voila settings for the Table Companion apps: used by ``companion app`` (so ``make app``)
and the browser tests.

Voila reads this file because both pass ``--Voila.config_file_paths=<this folder>`` (in an
installed wheel the folder is ``companion/app/server``; command-line options still win over
it, which is how the tests shorten the timings). It defends the
server in three ways:

**Only our own host names.** jupyter_server can refuse a request whose ``Host`` header is not
local (``allow_remote_access = False``), which stops a web page the player visits from
reaching the kernels by DNS rebinding, but Voila turns that check off, and the stock check
accepts only loopback addresses and ``local_hostnames``, never a LAN address. So
``tornado_settings`` turns it back on and ``JupyterHandler.check_host`` is replaced by an
exact list: ``localhost``, ``127.0.0.1``, ``::1``, plus, when ``APP_IP`` is set to a
non-loopback address, that address and this machine's name (``name`` and ``name.local``),
plus any names in ``APP_HOSTS`` (comma-separated). Anything else gets ``403``.

**No kernel left behind.** Every page load starts a kernel; the page's own shutdown request
on close is refused by Voila (missing ``_xsrf``, Voila issue #1458), so jupyter_server's
culler shuts down every kernel with no open page (``cull_connected = False``: a page that is
open keeps its kernel however long it idles) after ``cull_idle_timeout`` seconds of silence,
checked every ``cull_interval`` seconds: a closed tab's kernel is gone within 60 + 30 = 90 s.

**A cap.** At most ``TableKernelManager.max_kernels`` kernels run (``APP_MAX_KERNELS``,
default 16, about 60 MB each). When a new page would pass it, kernels whose page is gone
are shut down first (a page that disconnected, then any never-connected kernel older than
``grace`` seconds); if none can go, the page gets ``503`` and a short explanation instead
of a kernel.

**A faster first page.** ``server/jupyter`` is put first on ``JUPYTER_PATH`` (for this
server only): its ``voila/templates/table`` page template announces the page's scripts in
its head (``<link rel="preload">``, the list in ``preload.txt``, kept to the files this
install has) so the browser fetches them while the kernel starts, instead of after the
notebook has run, and drops the Font Awesome links to a CDN; its ``kernels/python3`` spec
starts ipykernel without the debugger (``debugpy``), without IPython's history file and
with garbage collection held off for its first seconds.
The ``jupyterlab_pygments`` page extension (code highlighting: the apps show no code) is
not loaded, and the page templates are compiled once per server, not once per page.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import re
import socket
import time
from pathlib import Path
from typing import Any

from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from traitlets import Float, Integer

c = get_config()  # type: ignore[name-defined]  # noqa: F821

# --- allowed host names ---------------------------------------------------------------


def _is_loopback(ip: str) -> bool:
    try:
        return ipaddress.ip_address(ip).is_loopback
    except ValueError:
        return ip == "localhost"


def allowed_hosts(app_ip: str = "", extra: str = "") -> list[str]:
    """The host names (without port) the server answers to."""
    hosts = {"localhost", "127.0.0.1", "::1"}
    app_ip = app_ip.strip()
    if app_ip and not _is_loopback(app_ip):
        if app_ip not in ("0.0.0.0", "::"):
            hosts.add(app_ip.lower())
        name = socket.gethostname().lower()
        hosts.update({name, f"{name}.local"})
        if app_ip in ("0.0.0.0", "::"):
            with contextlib.suppress(OSError):
                hosts.update(socket.gethostbyname_ex(name)[2])
    hosts.update(h.strip().lower() for h in extra.split(",") if h.strip())
    return sorted(hosts)


_PORT = re.compile(r"^(.*?)(:\d+)?$")


def _check_host(self: JupyterHandler) -> bool:
    """True when the request's Host header names this server (see the module docs)."""
    allowed = self.settings.get("table_allowed_hosts")
    if allowed is None:  # not our server: jupyter_server's own rule
        return bool(_stock_check_host(self))
    match = _PORT.match(self.request.host or "")
    host = (match.group(1) if match else "").lower()
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if host in allowed:
        return True
    self.log.warning("Refused a request for host %r (allowed: %s)",
                     self.request.host[:100], ", ".join(allowed))
    return False


# (Read twice in one process, as a test does, the stock check stays the stock one.)
_stock_check_host = getattr(JupyterHandler.check_host, "stock", JupyterHandler.check_host)
_check_host.stock = _stock_check_host  # type: ignore[attr-defined]
JupyterHandler.check_host = _check_host  # type: ignore[method-assign]

c.Voila.tornado_settings = {
    "allow_remote_access": False,
    # Pages, scripts and styles gzipped for a browser that accepts it (issue 45: the
    # widget bundle and the theme's CSS went out whole to every phone on the table's
    # Wi-Fi); Voila's own static files already carry a long cache for their ?v= digests.
    "compress_response": True,
    "table_allowed_hosts": allowed_hosts(os.environ.get("APP_IP", ""),
                                         os.environ.get("APP_HOSTS", "")),
}

# --- rendering: a page's output is never dropped --------------------------------------

# After a cell runs, Voila (nbclient) waits this long for the cell's output to arrive and
# then renders the page without what is still on its way. Its default, 4 s, was too short
# for an app cell on a loaded machine: thousands of widgets' messages come before the
# app's own display, and past 4 s the page showed the app's heading and never the app
# ("Timeout waiting for IOPub output" in the server's log; the open-in-place failure of
# issue 27). The wait ends as soon as the kernel says the cell is done, so a longer bound
# costs nothing on an idle machine.
c.VoilaExecutor.iopub_timeout = 60

# --- kernels: culling and a cap -------------------------------------------------------

c.MappingKernelManager.cull_idle_timeout = 60
c.MappingKernelManager.cull_interval = 30
c.MappingKernelManager.cull_connected = False
c.MappingKernelManager.cull_busy = False

#: The refusal page's heading (Voila's error page shows "503: <this>").
FULL_MESSAGE = (
    "The table is full: {n} apps are open, the most this server runs at once. "
    "Close one you no longer use (on any device) or wait a minute, then reload."
)


class TableKernelManager(AsyncMappingKernelManager):  # type: ignore[misc]
    """Voila's kernel manager with a cap on running kernels (see the module docs)."""

    max_kernels = Integer(16, config=True, help="Most kernels running at once (0: no cap).")
    grace = Float(30.0, config=True,
                  help="Seconds a never-connected kernel is kept before it counts as gone.")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._left_at: dict[str, float] = {}  # kernel id -> when its last page disconnected
        self._started_at: dict[str, float] = {}  # kernel id -> when it started

    def notify_connect(self, kernel_id: str) -> None:
        super().notify_connect(kernel_id)
        self._left_at.pop(kernel_id, None)

    def notify_disconnect(self, kernel_id: str) -> None:
        super().notify_disconnect(kernel_id)
        if self._kernel_connections.get(kernel_id, 0) <= 0:
            self._left_at[kernel_id] = time.monotonic()

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:
        if self.max_kernels > 0 and len(self.list_kernel_ids()) >= self.max_kernels:
            await self._reclaim()
            if len(self.list_kernel_ids()) >= self.max_kernels:
                self.log.warning("Kernel cap %d reached: page refused", self.max_kernels)
                message = FULL_MESSAGE.format(n=self.max_kernels)
                raise web.HTTPError(503, message, reason=message)
        kernel_id: str = await super().start_kernel(*args, **kwargs)
        self._started_at[kernel_id] = time.monotonic()
        return kernel_id

    async def _reclaim(self) -> None:
        """Shut down kernels whose page is gone, oldest departure first, to make room."""
        now = time.monotonic()
        gone = [(t, k) for k, t in self._left_at.items()
                if k in self and self._kernel_connections.get(k, 0) <= 0]
        never = [(t, k) for k, t in self._started_at.items()
                 if k in self and k not in self._left_at
                 and self._kernel_connections.get(k, 0) <= 0 and now - t > self.grace]
        for _when, kernel_id in sorted(gone) + sorted(never):
            if len(self.list_kernel_ids()) < self.max_kernels:
                break
            self.log.info("Kernel cap: shutting down %s (its page is gone)", kernel_id)
            await self.shutdown_kernel(kernel_id)

    async def shutdown_kernel(self, kernel_id: str, *args: Any, **kwargs: Any) -> None:
        self._left_at.pop(kernel_id, None)
        self._started_at.pop(kernel_id, None)
        await super().shutdown_kernel(kernel_id, *args, **kwargs)


c.VoilaConfiguration.multi_kernel_manager_class = TableKernelManager
if os.environ.get("APP_MAX_KERNELS", "").strip():
    c.TableKernelManager.max_kernels = int(os.environ["APP_MAX_KERNELS"])

# --- the start app first ----------------------------------------------------------------

#: What ``/`` opens: the start app (the list of notebooks stays at ``/voila/tree``).
START_APP = "table.ipynb"


async def _tree_get(self: Any, path: str = "") -> Any:
    """``/`` redirects to the start app when it exists; anything else is Voila's own."""
    from jupyter_core.utils import ensure_async
    from tornado.httputil import url_concat

    if (not path.strip("/") and self.request.path.rstrip("/") == self.base_url.rstrip("/")
            and await ensure_async(self.contents_manager.file_exists(START_APP))):
        query = {k: self.get_argument(k) for k in self.request.arguments}
        self.redirect(url_concat(f"{self.base_url}voila/render/{START_APP}", query))
        return None
    return await _stock_tree_get(self, path)


try:
    from voila.tornado.treehandler import TornadoVoilaTreeHandler
except ImportError:  # another Voila layout: its own tree page stays
    pass
else:
    _stock_tree_get = getattr(TornadoVoilaTreeHandler.get, "stock",
                              TornadoVoilaTreeHandler.get)
    _tree_get.stock = _stock_tree_get  # type: ignore[attr-defined]
    TornadoVoilaTreeHandler.get = _tree_get


# --- a faster first page (see the module docs) -------------------------------------------

#: The page template and kernel spec of this server (``voila/templates/table``,
#: ``kernels/python3``), found through ``JUPYTER_PATH``.
JUPYTER_DIR = Path(__file__).resolve().parent / "jupyter"
TEMPLATE = "table"
PRELOAD_LIST = JUPYTER_DIR / "voila" / "templates" / TEMPLATE / "preload.txt"


def _use_jupyter_dir() -> None:
    paths = [p for p in os.environ.get("JUPYTER_PATH", "").split(os.pathsep) if p]
    if str(JUPYTER_DIR) not in paths:
        os.environ["JUPYTER_PATH"] = os.pathsep.join([str(JUPYTER_DIR), *paths])


def preload_paths(listing: Path = PRELOAD_LIST) -> list[str]:
    """The scripts to announce (paths under ``/voila/``): the lines of ``listing`` whose
    file this install has (after an upgrade of Voila or ipywidgets, a stale line is
    dropped rather than fetched for nothing)."""
    from jupyter_core.paths import jupyter_path

    static = [Path(d) for t in (TEMPLATE, "lab", "base")
              for d in jupyter_path("voila", "templates", t, "static")]
    labextensions = [Path(d) for d in [*jupyter_path("labextensions"),
                                       *jupyter_path("voila", "labextensions")]]
    kept = []
    for line in listing.read_text(encoding="utf-8").splitlines():
        path = line.strip()
        if not path or path.startswith("#"):
            continue
        where, _, rest = path.split("?", 1)[0].partition("/")
        roots = {"static": static, "labextensions": labextensions}.get(where, [])
        if rest and ".." not in rest.split("/") and any((r / rest).is_file() for r in roots):
            kept.append(path)
    return kept


def _page_config(page_config: dict[str, Any], *, base_url: str,
                 **_kwargs: Any) -> dict[str, Any]:
    """Voila's page-config hook: hands the template the scripts to announce."""
    return {**page_config, "tablePreload": [f"{base_url}voila/{p}" for p in _PRELOAD]}


class TemplateCache:
    """Compiled page templates kept for the server's life (a jinja2 bytecode cache).

    Voila builds a new template environment for every page, so every page parsed and
    compiled its dozen templates again (about 0.15 s of the server's time per page on
    this machine). Jinja checks each template's source against the cached code's
    checksum, so an edited template is compiled afresh."""

    def __init__(self) -> None:
        from jinja2 import BytecodeCache

        class _Cache(BytecodeCache):  # type: ignore[misc]
            def __init__(self) -> None:
                self.code: dict[str, bytes] = {}

            def load_bytecode(self, bucket: Any) -> None:
                code = self.code.get(bucket.key)
                if code is not None:
                    bucket.bytecode_from_string(code)

            def dump_bytecode(self, bucket: Any) -> None:
                self.code[bucket.key] = bucket.bytecode_to_string()

        self.cache = _Cache()

    def install(self) -> None:
        """Give Voila's page exporter this cache (once per process)."""
        from voila.exporter import VoilaExporter

        stock = getattr(VoilaExporter._create_environment, "stock",
                        VoilaExporter._create_environment)
        cache = self.cache

        def create_environment(exporter: Any) -> Any:
            environment = stock(exporter)
            environment.bytecode_cache = cache
            return environment

        create_environment.stock = stock  # type: ignore[attr-defined]
        VoilaExporter._create_environment = create_environment


# --- the table socket: phones without a kernel (issue 44) ---------------------------------

#: The table socket's shared state (one per server process): its store is the one
#: ``COMPANION_DB`` names, opened at the first hello, off the IOLoop.
TABLE_SERVER: Any = None


def table_routes(base_url: str) -> list[tuple[str, type[Any], dict[str, Any]]]:
    """The table socket at ``<base_url>table/ws`` ([companion.server][]) and, when this
    install has them built, the phone apps at ``<base_url>phone/``, all on this process's
    one ``TABLE_SERVER``. Voila's standalone app mounts them as they are; the club's hub
    service mounts them behind the hub's login (``companion.app.hub_table``)."""
    global TABLE_SERVER
    from companion.app import phone_dir
    from companion.server.phone import phone_handlers
    from companion.server.table import TableServer, table_handlers
    from companion.store.opening import process_store

    if TABLE_SERVER is None:
        TABLE_SERVER = TableServer(process_store)
    phones = phone_dir()
    extra = phone_handlers(base_url, phones) if phones is not None else []
    return [*table_handlers(base_url, TABLE_SERVER), *extra]


def _init_handlers(self: Any) -> list[Any]:
    """Voila's handlers, and the table's (``table_routes``): the same process and origin
    as the apps, so a phone's page served here opens the socket without mixed content or
    another port. And gzip, when ``compress_response`` is set: Voila applies its
    ``tornado_settings`` after making its Application, once tornado has chosen its
    transforms, so the setting alone compressed nothing."""
    from tornado.web import GZipContentEncoding

    app = getattr(self, "app", None)
    if (app is not None and app.settings.get("compress_response")
            and GZipContentEncoding not in app.transforms):
        app.add_transform(GZipContentEncoding)
    return [*table_routes(self.server_url), *_stock_init_handlers(self)]


try:
    from voila.app import Voila
except ImportError:  # no Voila: nothing to mount on
    pass
else:
    _stock_init_handlers = getattr(Voila.init_handlers, "stock", Voila.init_handlers)
    _init_handlers.stock = _stock_init_handlers  # type: ignore[attr-defined]
    Voila.init_handlers = _init_handlers


_use_jupyter_dir()
_PRELOAD = preload_paths()
TemplateCache().install()
c.VoilaConfiguration.template = TEMPLATE
c.VoilaConfiguration.page_config_hook = _page_config
c.VoilaConfiguration.extension_denylist = ["jupyterlab_pygments"]
