"""A folder served on a free port of 127.0.0.1 for the tests that open the built site or
its apps in Chromium: plain ``http.server`` file answers (no compression or cache headers,
so a test sees the files as they are), quiet, and untroubled by a browser that drops a
connection mid-file (``tools/serve_site.SiteServer``)."""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path
from typing import Any, ClassVar

from tools.serve_site import SiteServer

__all__ = ["FolderServer"]


class _QuietFiles(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
        ".json": "application/json", ".whl": "application/zip", ".zip": "application/zip",
    }

    def log_message(self, format: str, *args: Any) -> None:
        pass


class FolderServer:
    """``folder`` served until [stop][tests.served.FolderServer.stop] (or the ``with``
    block ends); ``url`` ends with ``/``."""

    def __init__(self, folder: Path) -> None:
        handler = functools.partial(_QuietFiles, directory=str(folder))
        self.server = SiteServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.running = True

    def stop(self) -> None:
        if self.running:
            self.running = False
            self.server.shutdown()
            self.server.server_close()

    def __enter__(self) -> FolderServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
