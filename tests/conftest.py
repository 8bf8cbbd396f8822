"""Fixtures and helpers shared by every suite.

``find_widget(root, name, kind=None)`` (import it: ``from tests.conftest import find_widget``)
    The one widget finder for tests: the single widget under ``root`` carrying the class
    ``tc-<kind>-<name>`` that the helpers of ``companion.widgets.base`` add (``button(...,
    name=)`` -> ``tc-btn-``, ``text_box(name=)`` -> ``tc-text-``, ``int_box`` -> ``tc-int-``,
    ``name_box`` -> ``tc-name-``, and ``tc-select-``/``tc-check-`` where modules use them).
    Without ``kind`` any of these kinds matches. Fails, listing what is there, when there is
    none or more than one. ``widgets_by_name(root, kind="btn")`` gives them all by name.

``chromium_launch`` (session)
    Keyword arguments for ``playwright.chromium.launch``: Debian's Chromium
    (``/usr/bin/chromium``, installed with ``apt-get`` when missing, because Playwright's own
    browser download does not work here), headless, with the flags this machine needs. A
    failed install fails the test; nothing is skipped.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

#: The kinds of ``tc-<kind>-<name>`` classes the widget helpers add.
WIDGET_KINDS = ("btn", "text", "int", "name", "select", "check")


def _walk(root: Any) -> Iterator[Any]:
    stack = [root]
    seen: set[int] = set()
    while stack:
        widget = stack.pop()
        if id(widget) in seen:
            continue
        seen.add(id(widget))
        yield widget
        stack.extend(reversed(list(getattr(widget, "children", ()) or ())))


def _names(widget: Any, kinds: tuple[str, ...]) -> Iterator[tuple[str, str]]:
    for cls in getattr(widget, "_dom_classes", ()):
        for kind in kinds:
            prefix = f"tc-{kind}-"
            if cls.startswith(prefix):
                yield kind, cls.removeprefix(prefix)


def widgets_by_name(root: Any, kind: str = "btn") -> dict[str, Any]:
    """Every widget under ``root`` with a ``tc-<kind>-<name>`` class, by name."""
    return {name: w for w in _walk(root) for _kind, name in _names(w, (kind,))}


def find_widget(root: Any, name: str, kind: str | None = None) -> Any:
    """The one widget under ``root`` classed ``tc-<kind>-<name>`` (any helper kind if None)."""
    kinds = (kind,) if kind else WIDGET_KINDS
    hits = [w for w in _walk(root) for k, n in _names(w, kinds) if n == name]
    if len(hits) != 1:
        there = sorted({f"tc-{k}-{n}" for w in _walk(root) for k, n in _names(w, kinds)})
        how = "no" if not hits else f"{len(hits)}"
        pytest.fail(f"{how} widget named {name!r} (kind {kind or 'any'}) under "
                    f"{type(root).__name__}; there are: {', '.join(there) or 'none'}")
    return hits[0]

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
