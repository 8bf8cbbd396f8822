"""A real JupyterHub for the club deployment's tests (``companion.app.hub``, issue 33).

``club`` (module) starts JupyterHub 6 with the dummy authenticator (one shared password),
``configurable-http-proxy`` from npm and the table service exactly as ``companion
hub-config`` prints it (plus short kernel-culling timings), on free ports of 127.0.0.1,
over a fresh campaign database reached as a role with a password (as a club's is):
campaign ``Tuesday`` (Cairn) with the GM seat ``gm``, the player seats ``ash`` and
``bryn`` (hub names) and the party members ``Ash`` and ``Bryn``.
It waits until the hub and the service answer, and stops both (service first: it shuts
its kernels down) at the end.

The service also serves the phone apps (issue 44), built afresh from this checkout
(``build_phone_apps``), and the table socket they open, behind the hub's login.

The service serves a copy of the apps' notebooks (``Club.apps_dir``, the same files as
the checkout's ``widgets/``) and has one more, empty, folder on its ``JUPYTER_PATH``
(``Club.jupyter_dir``): a test may add a notebook or a kernel spec of its own there (the
leak test plants real leaks so) without touching the checkout or the service's code.

What the hub needs is installed when missing, never skipped: ``jupyterhub`` and
``jupyterhub-dummyauthenticator`` into this Python with pip, ``configurable-http-proxy``
with npm into ``build/npm-hub/`` (``make hub-deps`` does the same; ``make test`` runs it
first). A failed install fails the tests.

Every test here is marked ``browser`` (Chromium drives the pages; ``make check`` leaves
them out).
"""

from __future__ import annotations

import contextlib
import fcntl
import importlib.util
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.browser.conftest import _free_port
from tests.store.conftest import PostgresServer
from tests.store.conftest import postgres_server as postgres_server  # the fixture, shared

ROOT = Path(__file__).resolve().parents[2]
NPM_DIR = ROOT / "build" / "npm-hub"
PROXY = NPM_DIR / "node_modules" / ".bin" / "configurable-http-proxy"
PASSWORD = "table-test-password"
CAMPAIGN = "Tuesday"
#: Hub name -> (seat role, party member or "").
PEOPLE = {"gm": ("gm", ""), "ash": ("player", "Ash"), "bryn": ("player", "Bryn")}
#: Seconds of silence after which a kernel with no page is culled, and how often checked
#: (not much shorter: under load a page can take several seconds to connect after it
#: rendered, and until it connects its kernel counts as having no page).
CULL_IDLE, CULL_EVERY = 15, 2
READY_TIMEOUT = 90.0


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


def _run(command: list[str], what: str) -> None:
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    if done.returncode != 0:
        pytest.fail(f"installing {what} failed ({' '.join(command)}):\n"
                    f"{done.stdout[-1500:]}\n{done.stderr[-1500:]}")


def ensure_hub_deps() -> None:
    """Install JupyterHub and the proxy when missing (one process at a time)."""
    NPM_DIR.mkdir(parents=True, exist_ok=True)
    with open(NPM_DIR / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if importlib.util.find_spec("jupyterhub") is None:
            _run([sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                  "jupyterhub", "jupyterhub-dummyauthenticator"], "JupyterHub")
            importlib.invalidate_caches()
        if not PROXY.exists():
            _run(["npm", "install", "--prefix", str(NPM_DIR), "--no-audit", "--no-fund",
                  "configurable-http-proxy"], "configurable-http-proxy (npm)")
    if importlib.util.find_spec("jupyterhub") is None or not PROXY.exists():
        pytest.fail("JupyterHub or configurable-http-proxy still missing after installing")


def build_phone_apps(out: Path) -> Path:
    """The phone apps of this checkout as it is (``make phone-apps``'s build, made
    afresh: an older build would test older code; its caches make it seconds)."""
    subprocess.run([sys.executable, str(ROOT / "tools" / "build_phone_apps.py"), str(out)],
                   check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    return out


@dataclass
class Club:
    """A running hub with the table service."""

    url: str  # the hub's public address (the proxy)
    folder: Path
    hub: subprocess.Popen[bytes]
    db: str  # the campaigns' database: a PostgreSQL URL with a password, as a club runs it
    log_path: Path
    probe_dir: Path
    runtime_dir: Path  # the service's JUPYTER_RUNTIME_DIR (its cookie secret, server info)
    apps_dir: Path  # the notebooks the service serves (a copy of the apps')
    jupyter_dir: Path  # first on the service's JUPYTER_PATH (kernels/ is read per request)
    pages: list[Any] = field(default_factory=list)

    def page_url(self, notebook: str, query: str = "") -> str:
        return f"{self.url}/services/table/voila/render/{notebook}.ipynb" + (
            f"?{query}" if query else "")

    def phone_url(self, app: str, query: str = "") -> str:
        """A phone app of the service (issue 44: no kernel, the table socket)."""
        return f"{self.url}/services/table/phone/{app}.html" + (f"?{query}" if query else "")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def service_pid(self) -> int:
        """The table service's process (a child of the hub)."""
        for pid in children(self.hub.pid):
            if "companion.app.hub" in cmdline(pid):
                return pid
        raise AssertionError(f"no table service under the hub:\n{self.log()[-3000:]}")

    def kernels(self) -> list[int]:
        """The kernel processes the service runs."""
        return [p for p in children(self.service_pid()) if "ipykernel" in cmdline(p)]


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(stat[1]) == pid:
            found.append(int(entry.name))
    return found


def environ_of(pid: int) -> dict[str, str]:
    """A process's environment (``/proc``), as the kernels got it."""
    raw = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    return dict(item.decode(errors="replace").split("=", 1) for item in raw if b"=" in item)


def _with_password(server: PostgresServer, db: str) -> str:
    """``db`` reached as a new role with a password, owner of the database. (The test
    cluster trusts local connections, so the password is not checked; it is in the
    service's environment as a club's would be, which is what the leak tests need.)"""
    import psycopg

    parts = urlsplit(db)
    name, role, password = parts.path.lstrip("/"), f"club_{parts.path.lstrip('/')}", \
        secrets.token_hex(16)
    with psycopg.connect(server.url(), autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN PASSWORD '{password}'")
        conn.execute(f"ALTER DATABASE {name} OWNER TO {role}")
    return urlunsplit((parts.scheme, f"{role}:{password}@{parts.hostname}:{parts.port}",
                       parts.path, "", ""))


def _make_campaign(db: str) -> None:
    from companion.rulesets.cairn_srd.character import Character
    from companion.store.campaign import create
    from companion.store.db import Store, database_url
    from companion.store.seats import make_seat

    store = Store(database_url(db))
    gm = create(store, CAMPAIGN, ["cairn_srd"], who="gm", role="gm")
    for name, (role, member) in PEOPLE.items():
        if member:
            gm.add(member, Character(member))
        if name != "gm":
            make_seat(store, CAMPAIGN, name, role)


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=3):
            return True
    except urllib.error.HTTPError as exc:
        return exc.code < 500
    except (OSError, ValueError):
        return False


def _stop(process_id: int, wait: float) -> None:
    try:
        os.kill(process_id, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline and Path(f"/proc/{process_id}").exists():
        stat = Path(f"/proc/{process_id}/stat")
        try:
            if stat.read_text().rsplit(")", 1)[1].split()[0] == "Z":
                return
        except OSError:
            return
        time.sleep(0.1)
    with contextlib.suppress(ProcessLookupError):
        os.kill(process_id, signal.SIGKILL)


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory,
         postgres_server: PostgresServer) -> Iterator[Club]:
    from companion.app import app_files
    from companion.app.hub import hub_config

    ensure_hub_deps()
    folder = tmp_path_factory.mktemp("club")
    # A club's table keeps its campaigns in PostgreSQL (one server for the hub's machine
    # or several); the live watcher then hears moves by LISTEN/NOTIFY, as deployed.
    db = _with_password(postgres_server, postgres_server.new_database())
    _make_campaign(db)
    port, api_port, hub_port, service_port = (_free_port() for _ in range(4))
    config = hub_config(db=str(db), environ={}, port=service_port, max_kernels=16)
    runtime_dir = folder / "runtime"
    apps_dir = folder / "apps"
    apps_dir.mkdir()
    for notebook in app_files().notebooks.glob("*.ipynb"):
        shutil.copy2(notebook, apps_dir / notebook.name)
    jupyter_dir = folder / "jupyter"
    (jupyter_dir / "kernels").mkdir(parents=True)
    phone_dir = build_phone_apps(folder / "phone")
    config += f"""
# Where the service keeps its cookie secret and server info: the leak tests read them.
c.JupyterHub.services[0]["environment"]["JUPYTER_RUNTIME_DIR"] = {str(runtime_dir)!r}
# A folder a test may add kernel specs to (the leak test plants one).
c.JupyterHub.services[0]["environment"]["JUPYTER_PATH"] = {str(jupyter_dir)!r}
# The phone apps of this checkout, served at /services/table/phone/ (issue 44).
c.JupyterHub.services[0]["environment"]["COMPANION_PHONE_DIR"] = {str(phone_dir)!r}
c.JupyterHub.services[0]["command"] += [
    # The apps' notebooks, copied: a test may add one (the command line overrides
    # the service's own root_dir, the checkout's widgets/).
    "--ServerApp.root_dir={apps_dir}",
    "--MappingKernelManager.cull_idle_timeout={CULL_IDLE}",
    "--MappingKernelManager.cull_interval={CULL_EVERY}",
]
c.JupyterHub.authenticator_class = "dummy"
c.DummyAuthenticator.password = {PASSWORD!r}
c.Authenticator.allow_all = True
c.JupyterHub.bind_url = "http://127.0.0.1:{port}"
c.JupyterHub.hub_bind_url = "http://127.0.0.1:{hub_port}"
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{api_port}"
c.ConfigurableHTTPProxy.command = [{str(PROXY)!r}]
c.JupyterHub.db_url = "sqlite:///{folder}/hub.sqlite"
c.JupyterHub.cookie_secret_file = "{folder}/cookie_secret"
c.JupyterHub.pid_file = "{folder}/hub.pid"
"""
    (folder / "jupyterhub_config.py").write_text(config)
    log_path = folder / "hub.log"
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("JUPYTERHUB_", "COMPANION_", "JPY_"))}
    # The service inherits PYTHONPATH (the hub's env_keep): it runs this checkout's code.
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT), *[p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]])
    with open(log_path, "wb") as log:
        hub = subprocess.Popen(
            [sys.executable, "-m", "jupyterhub", "-f", str(folder / "jupyterhub_config.py")],
            cwd=folder, env=env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True)
    club = Club(f"http://127.0.0.1:{port}", folder, hub, db, log_path,
                tmp_path_factory.mktemp("probe"), runtime_dir, apps_dir, jupyter_dir)
    try:
        started = time.monotonic()
        deadline = started + READY_TIMEOUT
        # The service answers (an unauthenticated page is sent to the hub's login)...
        while not (_answers(f"http://127.0.0.1:{service_port}/services/table/api/status")
                   and "JupyterHub is now running" in club.log()):
            if hub.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"JupyterHub did not start:\n{club.log()[-4000:]}")
            time.sleep(0.3)
        print(f"\nhub and table service ready in {time.monotonic() - started:.1f} s")
        yield club
    finally:
        for page in club.pages:
            with contextlib.suppress(Exception):  # already closed by a test
                page.context.close()
        # The service first: it shuts its kernels down (the hub would first send SIGINT,
        # which jupyter_server answers with a prompt, and wait 10 s).
        with contextlib.suppress(AssertionError):
            _stop(club.service_pid(), 15)
        _stop(hub.pid, 15)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(hub.pid, signal.SIGKILL)  # the proxy, if the hub left it
        hub.wait(timeout=10)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Iterator[None]:
    """A failed hub test leaves what each signed-in page showed (its address, text, and
    the console errors and refused requests it met): a flaky failure is read from the
    pages at that moment."""
    outcome = yield
    report = outcome.get_result()
    club = getattr(item, "funcargs", {}).get("club")
    if report.when != "call" or not report.failed or club is None:
        return
    lines = []
    for n, page in enumerate(club.pages):
        try:
            text = page.evaluate("() => document.body.innerText")[-2500:]
            heard = "\n".join(getattr(page, "heard", [])[-20:])
            lines.append(f"--- page {n}: {page.url}\n{text}\n{heard}")
        except Exception as exc:  # the record of a failure must not hide the failure
            lines.append(f"--- page {n}: not recorded ({exc})")
    report.sections.append(("hub pages at the failure", "\n".join(lines)))


def login(chromium: Any, club: Club, who: str, watch: Any = None,
          **context_options: Any) -> Any:
    """A browser context signed in to the hub as ``who`` (the hub's own login form);
    ``watch(page)`` is called before the page loads anything."""
    context = chromium.new_context(**context_options)
    page = context.new_page()
    if watch is not None:
        watch(page)
    page.set_default_timeout(60_000)
    # The page's complaints and refused requests, for the record of a failure (below).
    page.heard = []
    page.on("console", lambda m: page.heard.append(f"[console {m.type}] {m.text[:300]}")
            if m.type == "error" else None)
    page.on("response", lambda r: page.heard.append(f"[{r.status}] {r.url[:200]}")
            if r.status >= 400 else None)

    def frames(ws: Any) -> None:
        # A tap sent and a refusal received, in the kernel's own messages: whether a tap
        # that showed nothing reached the kernel, and what came back.
        def seen(way: str, payload: Any) -> None:
            raw = payload if isinstance(payload, bytes) else str(payload).encode()
            for mark in (b'"click"', b"GM may", b"tc-error"):
                if mark in raw:
                    at = raw.find(mark)
                    page.heard.append(f"[ws {way} {time.monotonic():.2f}] "
                                      f"{raw[max(0, at - 150):at + 150]!r}")
                    break

        ws.on("framesent", lambda payload: seen("sent", payload))
        ws.on("framereceived", lambda payload: seen("received", payload))

    page.on("websocket", frames)
    # next=/hub/api: a page of the hub with no kernel behind it (the default, the table's
    # start app, would start one).
    page.goto(f"{club.url}/hub/login?next=%2Fhub%2Fapi", wait_until="domcontentloaded")
    page.fill("input[name=username]", who)
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.click("#login_submit, input[type=submit], button[type=submit]")
    if not any(c["name"] == "jupyterhub-hub-login" for c in context.cookies()):
        raise AssertionError(f"{who} did not sign in: {page.url}\n{club.log()[-2000:]}")
    club.pages.append(page)
    return page


KERNEL_IN_URL = re.compile(r"/api/kernels/([0-9a-f-]{36})/channels")


def open_apps(pages: dict[str, Any], club: Club, notebook: str, query: str,
              ready: str) -> dict[str, str]:
    """Open ``notebook`` in each page in turn, wait for ``ready``; each page's kernel id.
    (Not all at once: three pages loading side by side in one headless Chromium sat with
    their kernels connected and no widget shown.)"""
    sockets: dict[str, list[str]] = {who: [] for who in pages}
    kernels = {}
    for who, page in pages.items():
        page.on("websocket", lambda ws, seen=sockets[who]: seen.append(ws.url))
        page.goto(club.page_url(notebook, query), wait_until="domcontentloaded")
        page.wait_for_selector(ready, state="visible", timeout=90_000)
        deadline = time.monotonic() + 30
        while not any(KERNEL_IN_URL.search(u) for u in sockets[who]):
            assert time.monotonic() < deadline, f"no kernel websocket on {page.url}"
            page.wait_for_timeout(100)
        match = next(m for m in map(KERNEL_IN_URL.search, sockets[who]) if m)
        kernels[who] = match.group(1)
    return kernels


def open_app(page: Any, club: Club, notebook: str, query: str, ready: str) -> str:
    """Open ``notebook`` in ``page`` and wait for ``ready``; the page's kernel id."""
    return open_apps({"": page}, club, notebook, query, ready)[""]


#: The table socket's address under the service (issue 44: the phone apps open it).
TABLE_SOCKET = re.compile(r"/services/table/table/ws$")


def open_phone(page: Any, club: Club, app: str, query: str) -> None:
    """Open the phone app ``app`` in ``page`` and wait until it is shown (Pyodide on the
    page, the table socket's welcome received)."""
    page.goto(club.phone_url(app, query), wait_until="domcontentloaded")
    page.wait_for_function("document.documentElement.dataset.tcStatic === 'ready'",
                           timeout=120_000)
