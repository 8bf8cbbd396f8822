"""The app server's Python kernel: ipykernel without its debugger.

``make app`` (``server/voila.py``) puts this kernel spec in front of the stock ``python3``
one. An app page never uses Jupyter's debugger, yet ipykernel imports ``debugpy`` at start
whenever it is installed (about 0.1 s of every page's first render, more on a loaded
machine); marking it missing makes ipykernel start without it. The spec also turns off
IPython's input history (``--HistoryManager.enabled=False``): a page's cells are not
kept, so no SQLite history file is opened and no history thread runs per kernel.

(Named like ipykernel's own launcher, which it replaces: tools that look for kernel
processes by ``ipykernel`` in the command line still find these.)
"""

import sys
from pathlib import Path

# Like ``python -m ipykernel_launcher``: this folder is not importable from the notebook.
if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
    del sys.path[0]
sys.modules["debugpy"] = None  # type: ignore[assignment]  # import debugpy -> ImportError

from ipykernel import kernelapp  # noqa: E402

kernelapp.launch_new_instance()
