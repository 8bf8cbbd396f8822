"""Serving the Voila apps: what ``companion app`` (and ``make app``) runs.

Not core: it starts Voila and reads where the store keeps campaigns, so it lives beside
``companion.widgets`` and ``companion.store`` (it imports only the standard library until
it serves, so a missing ``app`` extra is said in one line, not a traceback).

Where the apps are: a checkout keeps the notebooks in ``widgets/`` and the server settings
(``voila.py``, the page template, the kernel spec) in ``server/``; a wheel carries copies
of both inside this package (``notebooks/``, ``server/``; ``setup.py`` puts them there), so
``app_files()`` looks in the package first, then in the checkout it
sits in (an editable install).

Voila is run as a program of its own, the current Python's ``-m voila``, replacing this
process on POSIX systems: Ctrl-C and SIGTERM reach Voila itself, which shuts its kernels
down. The settings travel as Voila's options and as the environment ``server/voila.py``
reads (``APP_IP``, ``APP_HOSTS``, ``APP_MAX_KERNELS``) and the apps read
(``COMPANION_DB``); a token goes in ``JUPYTER_TOKEN``, never on the command line, where
other users of the machine could read it.
"""

from __future__ import annotations

import importlib.util
import ipaddress
import os
import secrets
import socket
import string
import subprocess
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from companion.errors import CompanionError

PACKAGE_DIR = Path(__file__).resolve().parent
#: The checkout this package sits in, when it is one (an editable install).
CHECKOUT = PACKAGE_DIR.parents[1]
START_APP = "table.ipynb"
DEFAULT_PORT = 8866
DEFAULT_IP = "127.0.0.1"
#: Most app kernels at once (about 60 MB each); server/voila.py's own default too.
DEFAULT_MAX_KERNELS = 16
INSTALL_HINT = 'pip install "table-companion[app]"'
#: What serving imports (module -> the distribution the ``app`` extra installs).
NEEDED = {
    "voila": "voila",
    "ipywidgets": "ipywidgets",
    "ipykernel": "ipykernel",
    "segno": "segno",
    "sqlalchemy": "sqlalchemy",
}
#: A token travels in the page's address: letters, digits and ``-_.~`` only.
TOKEN_CHARACTERS = frozenset(string.ascii_letters + string.digits + "-_.~")
TOKEN_LENGTH = (16, 256)


class AppError(CompanionError):
    """``companion app`` cannot serve: a missing extra, a bad setting."""


@dataclass(frozen=True)
class AppFiles:
    """Where the notebooks and the server settings (``voila.py``) are."""

    notebooks: Path
    server: Path


def app_files() -> AppFiles:
    """The installed copies (a wheel) if present, else the checkout's own folders."""
    for files in (AppFiles(PACKAGE_DIR / "notebooks", PACKAGE_DIR / "server"),
                  AppFiles(CHECKOUT / "widgets", CHECKOUT / "server")):
        if (files.notebooks / START_APP).is_file() and (files.server / "voila.py").is_file():
            return files
    raise AppError(f"this copy of companion has no apps (no {START_APP}): {INSTALL_HINT}")


#: Where the phone apps' build is taken from instead (a folder), when set.
PHONE_DIR_VARIABLE = "COMPANION_PHONE_DIR"


def phone_dir(environ: Mapping[str, str] | None = None) -> Path | None:
    """The built phone apps (issue 44, ``tools/build_phone_apps.py``): the folder
    ``COMPANION_PHONE_DIR`` names, else the wheel's copy (``phone/`` in this package),
    else the checkout's build (``build/phone``, ``make phone-apps``); ``None`` when
    there is none (seat links then open the Voila pages)."""
    env = os.environ if environ is None else environ
    named = env.get(PHONE_DIR_VARIABLE, "").strip()
    for folder in ([Path(named)] if named else [PACKAGE_DIR / "phone",
                                                 CHECKOUT / "build" / "phone"]):
        if folder.is_dir() and any(folder.glob("*.html")):
            return folder
    return None


def missing_extra() -> list[str]:
    """The distributions serving needs that this Python cannot import."""
    return [dist for module, dist in NEEDED.items() if importlib.util.find_spec(module) is None]


def check_extra() -> None:
    """Refuse, in one line naming the fix, when the ``app`` extra is not installed."""
    missing = missing_extra()
    if missing:
        raise AppError(f"serving the apps needs {', '.join(missing)}: {INSTALL_HINT}")


@dataclass(frozen=True)
class Settings:
    """What ``companion app`` serves with (its command-line options)."""

    port: int = DEFAULT_PORT
    ip: str = DEFAULT_IP
    #: ``None``: no token (anyone who reaches the port may use the apps); else the secret.
    token: str | None = None
    #: A file path or ``postgresql://`` URL; ``None``: ``COMPANION_DB``, else the default.
    db: str | None = None
    max_kernels: int = DEFAULT_MAX_KERNELS
    preheat: bool = False
    #: Any page may create campaigns and see the database's location even when the server
    #: listens beyond this machine (on 127.0.0.1 that is always so).
    open_table: bool = False

    @property
    def loopback(self) -> bool:
        return self.ip == "localhost" or ipaddress.ip_address(self.ip).is_loopback

    @property
    def table_is_open(self) -> bool:
        """What ``COMPANION_OPEN_TABLE`` tells the start app (``widgets.table.binding``)."""
        return self.open_table or self.loopback


def check_port(port: int) -> int:
    if not 1 <= port <= 65535:
        raise AppError(f"--port {port}: a port is a number from 1 to 65535")
    return port


def check_ip(ip: str) -> str:
    """An address to listen on: an IP address of this machine's form, or ``localhost``."""
    if ip == "localhost":
        return ip
    try:
        return str(ipaddress.ip_address(ip))
    except ValueError:
        raise AppError("--ip: not an IP address (e.g. 127.0.0.1, or 0.0.0.0 for every "
                       "network)") from None


def check_token(token: str) -> str:
    """A token given by the user; never echoed back (it is a secret)."""
    low, high = TOKEN_LENGTH
    if not low <= len(token) <= high:
        raise AppError(f"--token: a token has {low} to {high} characters (or give --token "
                       "alone for a random one)")
    if not set(token) <= TOKEN_CHARACTERS:
        raise AppError("--token: a token holds letters, digits and - _ . ~ only (it travels "
                       "in the address)")
    return token


def new_token() -> str:
    return secrets.token_urlsafe(24)


def check_max_kernels(n: int) -> int:
    if not 0 <= n <= 1000:
        raise AppError(f"--max-kernels {n}: from 1 to 1000 (0: no cap)")
    return n


def database(db: str | None, environ: Mapping[str, str]) -> str:
    """The database the apps will use, as ``COMPANION_DB`` for the server: a file path made
    absolute (the kernels run in the notebooks' folder, not here), or the URL as given."""
    value = db if db is not None else environ.get("COMPANION_DB", "")
    if db is not None and not db.strip():
        raise AppError("--db is empty: give a file path or a postgresql:// URL")
    if "\0" in value:
        raise AppError("the database name holds a NUL character: not a file path or URL")
    if not value:
        from companion.store.db import default_path

        return str(default_path())
    if "://" in value:
        return value
    return str(Path(value).expanduser().absolute())


def shown_database(value: str) -> str:
    """The database as it can be printed: a URL's password hidden."""
    if "://" not in value:
        return value
    parts = urlsplit(value)
    if parts.password is None:
        return value
    user = parts.username or ""
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return urlunsplit((parts.scheme, f"{user}:***@{host}{port}", parts.path, parts.query,
                       parts.fragment))


def address(settings: Settings) -> str:
    """The start app's URL as another device or this one opens it (token included)."""
    ip = settings.ip
    if ip in ("0.0.0.0", "::"):
        host = socket.gethostname()
    elif ":" in ip:
        host = f"[{ip}]"
    else:
        host = ip
    query = f"?token={settings.token}" if settings.token else ""
    return f"http://{host}:{settings.port}/{query}"


def voila_command(settings: Settings, files: AppFiles) -> list[str]:
    """Voila's command line: the notebooks folder with the settings of ``server/voila.py``."""
    command = [
        sys.executable, "-m", "voila", str(files.notebooks),
        "--no-browser",
        f"--port={settings.port}",
        f"--Voila.ip={settings.ip}",
        f"--Voila.config_file_paths={files.server}",
    ]
    if settings.token:
        command.append("--token")  # the value itself is in the environment (see above)
    if settings.preheat:
        command += ["--preheat_kernel=True", "--pool_size=1"]
    return command


def server_environment(settings: Settings, environ: Mapping[str, str]) -> dict[str, str]:
    """The environment Voila (and so every kernel) runs in."""
    env = dict(environ)
    env["APP_IP"] = settings.ip
    env["APP_MAX_KERNELS"] = str(settings.max_kernels)
    env["COMPANION_DB"] = database(settings.db, environ)
    env["COMPANION_OPEN_TABLE"] = "1" if settings.table_is_open else "0"
    env.pop("JUPYTER_TOKEN", None)
    env.pop("JUPYTER_TOKEN_FILE", None)
    if settings.token:
        env["JUPYTER_TOKEN"] = settings.token
    return env


def banner(settings: Settings, env: Mapping[str, str]) -> str:
    """What ``companion app`` prints before Voila's own log."""
    url = address(settings)
    lines = [
        f"Table Companion: {url}  opens the start app (Ctrl-C stops the server)",
        f"  every app: {url.split('?')[0]}voila/tree",
        f"  campaigns kept in: {shown_database(env['COMPANION_DB'])}",
    ]
    if not settings.loopback and not settings.token:
        lines.append("  no token: anyone who reaches this port can use the apps "
                     "(add --token)")
    if not settings.table_is_open:
        lines.append("  only a GM's page creates campaigns here (--open-table: any page); a "
                     "first GM: companion campaign new NAME --ruleset RULESET, then "
                     "companion campaign seat NAME YOU --role gm")
    return "\n".join(lines)


Runner = Callable[[list[str], dict[str, str]], int]


def run_voila(command: list[str], env: dict[str, str]) -> int:
    """Run Voila in place of this process (POSIX), else as a child until it ends."""
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        if os.name == "posix":
            os.execve(command[0], command, env)
        return subprocess.call(command, env=env)
    except OSError as exc:
        raise AppError(f"cannot start Voila ({exc.strerror or type(exc).__name__})") from None


def serve(settings: Settings, *, environ: Mapping[str, str] | None = None,
          dry_run: bool = False, run: Runner = run_voila) -> int:
    """Check the extra and the settings, print the address, then run Voila."""
    check_extra()
    check_port(settings.port)
    check_ip(settings.ip)
    check_max_kernels(settings.max_kernels)
    if settings.token is not None:
        check_token(settings.token)
    files = app_files()
    env = server_environment(settings, os.environ if environ is None else environ)
    command = voila_command(settings, files)
    print(banner(settings, env))
    if dry_run:
        shown = {k: env[k] for k in ("APP_IP", "APP_MAX_KERNELS", "COMPANION_OPEN_TABLE")}
        shown["COMPANION_DB"] = shown_database(env["COMPANION_DB"])
        print(" ".join([*(f"{k}={v}" for k, v in shown.items()), *command]))
        return 0
    return run(command, env)
