"""Work an app does after it is shown: on a thread where Python has threads, else on the
page's event loop.

On a server (Voila, a notebook) loading the campaign list or building a campaign's apps
ahead runs on a daemon thread, so the page shows first. The static apps' Python (Pyodide,
``sys.platform == "emscripten"``) has no threads: the same work runs on the page's event
loop, after the code that asked for it (the page shows first there too).
"""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Callable

__all__ = ["run_in_background", "threads_run"]


def threads_run() -> bool:
    """Whether this Python can start a thread (not in the browser's Pyodide)."""
    return sys.platform != "emscripten"


def run_in_background(work: Callable[[], object], name: str) -> None:
    """Run ``work`` after the caller returns: on a daemon thread called ``name``, or (no
    threads) on the page's event loop (Pyodide's); with neither, now."""
    if threads_run():
        threading.Thread(target=work, name=name, daemon=True).start()
    elif "pyodide" in sys.modules:
        asyncio.get_event_loop().call_soon(work)
    else:
        work()
