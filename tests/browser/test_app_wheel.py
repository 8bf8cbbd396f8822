"""The wheel as a GM gets it: built from this checkout, installed with the ``app`` extra
into a fresh virtual environment outside the checkout, served by ``companion app`` from an
unrelated folder, and opened in Chromium with every request to another host aborted.

The start app and the dice tray render and a roll lands: the notebooks, ``voila.py``, the
page template and the kernel spec all came out of the installed package (the checkout is
not importable there: the sources are copied to a temporary folder before the build, no
``PYTHONPATH``, ``--system-site-packages`` off). Dependencies come from the package index
through pip's own cache. The same wheel installed alone (no extra) answers ``companion app``
with one line naming ``pip install "table-companion[app]"``.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import _free_port

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

ROOT = Path(__file__).resolve().parents[2]
#: What a wheel is built from (``setup.py`` reads ``widgets/`` and ``server/``).
SOURCES = ("companion", "widgets", "server", "pyproject.toml", "setup.py", "MANIFEST.in",
           "README.md")
READY_TIMEOUT = 90.0


def _run(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, (
        f"{' '.join(command)} exited {done.returncode}:\n{done.stdout[-2000:]}\n"
        f"{done.stderr[-3000:]}")
    return done.stdout


def _clean_env(tmp: Path) -> dict[str, str]:
    """This environment minus anything that would reach the checkout or its venv."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "COMPANION_DB", "JUPYTER_PATH",
                        "JUPYTER_CONFIG_DIR", "PYTHONHOME")}
    env["XDG_DATA_HOME"] = str(tmp / "data")
    return env


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel, built from a copy of the checkout's sources (then deleted)."""
    tmp = tmp_path_factory.mktemp("wheel")
    source = tmp / "source"
    source.mkdir()
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(path, source / name)
    env = _clean_env(tmp)
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp / "dist"),
          str(source)], cwd=tmp, env=env)
    shutil.rmtree(source)  # from here on, only the installed copy exists
    (built,) = (tmp / "dist").glob("table_companion-*.whl")
    return built


def _venv(tmp: Path, env: dict[str, str]) -> Path:
    """A fresh venv's ``bin`` folder."""
    venv = tmp / "venv"
    # The base interpreter, not this venv's: nothing of the checkout's environment leaks in.
    base = getattr(sys, "_base_executable", sys.executable)
    _run([base, "-m", "venv", str(venv)], cwd=tmp, env=env)
    return venv / "bin"


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``bin`` folder of a fresh venv holding the built wheel with its ``app`` extra."""
    tmp = tmp_path_factory.mktemp("installed")
    env = _clean_env(tmp)
    bin_dir = _venv(tmp, env)
    venv = bin_dir.parent
    _run([str(bin_dir / "python"), "-m", "pip", "install", "-q",
          "--disable-pip-version-check", f"{wheel}[app]"], cwd=tmp, env=env)
    where = _run([str(bin_dir / "python"), "-c",
                  "import companion.app as a; print(a.app_files().notebooks)"],
                 cwd=tmp, env=env).strip()
    assert Path(where).is_relative_to(venv), where
    return bin_dir


@pytest.fixture(scope="module")
def served(installed: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``companion app`` run from an unrelated folder; yields its base URL."""
    tmp = tmp_path_factory.mktemp("served")
    elsewhere = tmp / "elsewhere"
    elsewhere.mkdir()
    port = _free_port()
    log_path = tmp / "companion-app.log"
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [str(installed / "companion"), "app", f"--port={port}", "--db", "table.db"],
            cwd=elsewhere, env=_clean_env(tmp), stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            _wait_ready(base, proc, log_path)
            yield base
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)  # Voila itself (exec): kernels shut down
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(timeout=10)
    printed = log_path.read_text(errors="replace")
    assert f"Table Companion: {base}/ " in printed, printed[-2000:]
    assert str(elsewhere / "table.db") in printed


def _wait_ready(base: str, proc: subprocess.Popen[bytes], log_path: Path) -> None:
    # A static file: asking for a notebook would start a kernel just to check readiness.
    deadline = time.monotonic() + READY_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"companion app exited with {proc.returncode}:\n"
                        f"{log_path.read_text(errors='replace')[-3000:]}")
        try:
            with urllib.request.urlopen(f"{base}/voila/static/voila.js", timeout=2) as resp:
                if resp.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    pytest.fail(f"companion app not ready:\n{log_path.read_text(errors='replace')[-3000:]}")


def test_without_the_extra_one_line_says_how_to_get_it(
        wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    tmp = tmp_path_factory.mktemp("bare")
    env = _clean_env(tmp)
    bin_dir = _venv(tmp, env)
    # The wheel alone (no dependencies: the core needs none), as `pip install table-companion`.
    _run([str(bin_dir / "python"), "-m", "pip", "install", "-q", "--no-deps",
          "--disable-pip-version-check", str(wheel)], cwd=tmp, env=env)
    done = subprocess.run([str(bin_dir / "companion"), "app"], cwd=tmp, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert (done.returncode, done.stdout) == (2, "")
    (line,) = done.stderr.splitlines()
    assert line.startswith("error: serving the apps needs voila")
    assert line.endswith('pip install "table-companion[app]"')


def test_the_installed_server_applies_its_settings(served: str) -> None:
    # voila.py came with the wheel: a foreign Host header (DNS rebinding) is refused.
    request = urllib.request.Request(f"{served}/voila/tree",
                                     headers={"Host": "rebind.example:80"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 403


def test_start_app_and_dice_tray_from_the_wheel(served: str, page: Any) -> None:
    page.goto(f"{served}/", wait_until="domcontentloaded")  # redirects to the start app
    expect(page.locator(".tc-app").first).to_be_visible(timeout=90_000)
    assert "/voila/render/table.ipynb" in page.url

    page.goto(f"{served}/voila/render/dice_tray.ipynb", wait_until="domcontentloaded")
    expect(page.locator(".tc-app").first).to_be_visible(timeout=90_000)
    page.locator(".tc-text-expr input").fill("3d6+2")
    page.locator(".tc-btn-roll").click()
    expect(page.locator('.tc-result[data-n="1"]')).to_be_visible()
    total = int(page.locator(".tc-total").inner_text())
    assert 5 <= total <= 20
    expect(page.locator(".tc-history li")).to_have_count(1)
    # Nothing asked of another host at all (not even the stock template's icon fonts).
    assert page.external_requests == []
