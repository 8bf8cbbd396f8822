"""The app server's Python kernel: ipykernel without its debugger, collecting garbage only
once the page is up.

``make app`` (``server/voila.py``) puts this kernel spec in front of the stock ``python3``
one. Every page starts a kernel, so its start is part of every first render:

- An app page never uses Jupyter's debugger, yet ipykernel imports ``debugpy`` at start
  whenever it is installed (about 0.1 s, more on a loaded machine); marking it missing
  makes ipykernel start without it.
- Python's cyclic garbage collector runs again and again while the kernel, the notebook's
  imports and the app's widgets create their many long-lived objects (about a fifth of
  the kernel's CPU time for a page, measured here). It is off for the first
  ``GC_AFTER`` seconds; then what exists is frozen (never scanned again: the modules and
  the app live as long as the kernel) and collection resumes as usual.
- The spec turns off IPython's input history (``--HistoryManager.enabled=False``): a
  page's cells are not kept, so no SQLite history file is opened per kernel.

(Named like ipykernel's own launcher, which it replaces: tools that look for kernel
processes by ``ipykernel`` in the command line still find these.)
"""

import gc
import sys
import threading
from pathlib import Path

#: Seconds after the kernel's start when garbage collection resumes.
GC_AFTER = 5.0

gc.disable()


def _collect_from_now_on() -> None:
    threading.Event().wait(GC_AFTER)
    gc.freeze()
    gc.enable()


threading.Thread(target=_collect_from_now_on, name="gc-after-start", daemon=True).start()

# Like ``python -m ipykernel_launcher``: this folder is not importable from the notebook.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    del sys.path[0]
sys.modules["debugpy"] = None  # type: ignore[assignment]  # import debugpy -> ImportError

from ipykernel import kernelapp  # noqa: E402

kernelapp.launch_new_instance()
