"""The phone apps' files, served by ``companion app`` at ``<base_url>phone/`` (issue 44).

Built by ``tools/build_phone_apps.py`` (``make phone-apps``): small pages (``<app>.html``)
and one folder named by the digest of everything they load. So:

- a file under the digest's folder never changes: ``Cache-Control: public, max-age=1 year,
  immutable`` (a second visit asks the server for nothing but the page);
- a page is checked again on every visit (``no-cache``: a 304 when unchanged), so a new
  build is picked up at once;
- a browser that accepts gzip is sent the ``.gz`` beside a file (built once, not on every
  request), with the original's content type: on plain http as well.

The same origin as the table socket and the Voila pages: no mixed content, no other port.
"""

from __future__ import annotations

import mimetypes
import re
from pathlib import Path
from typing import Any

from tornado import web

from companion.server.hosts import refuse_foreign_host

__all__ = ["PHONE_PATH", "PhoneFiles", "in_build", "phone_handlers"]

#: Where the phone apps are mounted, under the server's base URL.
PHONE_PATH = "phone/"

#: A build's folder: the digest ``tools/build_phone_apps.py`` names it by.
_BUILD = re.compile(r"^[0-9a-f]{12}/")

YEAR = 365 * 24 * 3600


def in_build(url_path: str) -> bool:
    """Whether ``url_path`` (under ``phone/``) is a file of a build's digest folder (one
    that never changes), not a page."""
    return bool(_BUILD.match(url_path))


class PhoneFiles(web.StaticFileHandler):
    """A static file of the phone apps (see the module's docstring)."""

    def initialize(self, path: str, default_filename: str | None = None,
                   allowed_symlink_directory: str | list[str] | None = None) -> None:
        super().initialize(path, default_filename, allowed_symlink_directory)
        self.gzipped = False
        self.original = ""

    def prepare(self) -> None:
        refuse_foreign_host(self)

    def parse_url_path(self, url_path: str) -> str:
        self.original = url_path
        accepts = "gzip" in self.request.headers.get("Accept-Encoding", "")
        packed = Path(self.root, url_path + ".gz")
        if accepts and not url_path.endswith(".gz") and packed.is_file():
            self.gzipped = True
            return url_path + ".gz"
        return url_path

    def get_content_type(self) -> str:
        guessed, _ = mimetypes.guess_type(self.original)
        if self.original.endswith((".mjs", ".js")):
            return "text/javascript"
        if self.original.endswith(".wasm"):
            return "application/wasm"
        return guessed or "application/octet-stream"

    def set_extra_headers(self, path: str) -> None:
        self.set_header("Vary", "Accept-Encoding")
        if self.gzipped:
            self.set_header("Content-Encoding", "gzip")
        if in_build(self.original):
            self.set_header("Cache-Control", f"public, max-age={YEAR}, immutable")
        else:
            self.set_header("Cache-Control", "no-cache")

    def get_cache_time(self, path: str, modified: Any, mime_type: str) -> int:
        return 0  # set_extra_headers says it


def phone_handlers(base_url: str, folder: Path) -> list[tuple[str, type[Any], dict[str, Any]]]:
    """The phone apps' route under ``base_url`` (``folder``: the built apps)."""
    base = base_url if base_url.endswith("/") else base_url + "/"
    return [(f"{base}{PHONE_PATH}(.*)", PhoneFiles, {"path": str(folder)})]
