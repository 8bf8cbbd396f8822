"""Fixtures shared by every browser-driving suite (the apps in ``tests/browser``, the site
in ``tests/docs``).

``chromium_launch`` (session)
    Keyword arguments for ``playwright.chromium.launch``: Debian's Chromium
    (``/usr/bin/chromium``, installed with ``apt-get`` when missing, because Playwright's own
    browser download does not work here), headless, with the flags this machine needs. A
    failed install fails the test; nothing is skipped.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
# Without the background-networking flags Chromium keeps dialling Google's hosts, which this
# machine's closed network refuses many at a time.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _install_chromium() -> None:
    apt = ["apt-get"] if os.geteuid() == 0 else ["sudo", "-n", "apt-get"]
    for args in (["update"], ["install", "-y", "chromium"]):
        done = subprocess.run(
            [*apt, *args], capture_output=True, text=True, timeout=900, check=False
        )
        if done.returncode != 0:
            pytest.fail(
                f"could not install chromium ({' '.join(apt + args)} exited "
                f"{done.returncode}): {done.stderr.strip()[-500:]}"
            )


@pytest.fixture(scope="session")
def chromium_launch() -> dict[str, Any]:
    """``playwright.chromium.launch(**chromium_launch)`` starts Debian's Chromium."""
    if not CHROMIUM.exists():
        _install_chromium()
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} still missing after apt-get install chromium")
    return {"executable_path": str(CHROMIUM), "headless": True, "args": list(CHROMIUM_ARGS)}
