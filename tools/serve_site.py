"""Serve the built site (``site/``, apps included) as a host should: ``make docs-serve``.

Python's plain ``http.server`` sends every file whole and uncached: a phone's first visit
paid for the 9 MB engine uncompressed, and every later page asked for every file again.
This server, standard library only, does what ``docs/play.md`` asks of any host:

- **compression**: a browser that accepts gzip gets text, scripts, styles, JSON and
  WebAssembly gzipped (once per file and version, kept in memory; fonts, images and zips
  are compressed already and go as they are);
- **cache headers**: a file whose name carries its content's digest (``main.57a0d79d.min.css``,
  ``1551f4f60c37af51121f.woff2``) never changes: ``public, max-age=1 year, immutable``;
  everything else (pages, the service worker, the engine's files) is ``no-cache``: the
  browser keeps it and asks again, and an unchanged file is a bodiless ``304``;
- only files under the site: ``..`` and links out of it are not followed (``http.server``'s
  own path handling), a folder is its ``index.html``.

Usage: ``python tools/serve_site.py [--bind 127.0.0.1] [--port 8000] [site]``
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import hashlib
import http.server
import io
import os
import re
import sys
import threading
from email.utils import formatdate
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

YEAR = 365 * 24 * 3600
#: A digest in the file name: 8+ hex digits between dots or before the extension.
DIGEST_NAMED = re.compile(r"(^|[./_-])[0-9a-f]{8,}(\.|$)")
#: Worth compressing (the rest is compressed already).
COMPRESSIBLE = {".html", ".css", ".js", ".mjs", ".json", ".wasm", ".svg", ".txt", ".xml",
                ".map", ".py", ".tar", ".ttf", ".ico"}
#: The most gzipped bytes kept in memory (the largest site files are the engine's).
KEEP_BYTES = 64 * 1024 * 1024


class _Packed:
    """Gzipped copies by (path, size, mtime): a changed file is packed again."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.kept: dict[tuple[str, int, int], bytes] = {}

    def get(self, path: str, stat: os.stat_result) -> bytes:
        key = (path, stat.st_size, stat.st_mtime_ns)
        with self.lock:
            found = self.kept.get(key)
        if found is not None:
            return found
        packed = gzip.compress(Path(path).read_bytes(), compresslevel=6, mtime=0)
        with self.lock:
            if sum(map(len, self.kept.values())) + len(packed) > KEEP_BYTES:
                self.kept.clear()
            self.kept[key] = packed
        return packed


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """One request for a file of the site (see the module's docstring)."""

    # HTTP/1.1: one connection carries a page's files (http.server's default, 1.0, opens
    # one per file).
    protocol_version = "HTTP/1.1"
    packed: ClassVar[_Packed] = _Packed()
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
        ".json": "application/json", ".woff2": "font/woff2",
    }

    def log_message(self, format: str, *args: Any) -> None:
        if os.environ.get("SERVE_SITE_QUIET") != "1":
            super().log_message(format, *args)

    def send_head(self) -> Any:  # the file's answer: headers sent, body left to copy
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            if not self.path.split("?", 1)[0].endswith("/"):
                return super().send_head()  # http.server's redirect to the folder's "/"
            path = os.path.join(path, "index.html")
        site = os.path.realpath(self.directory)
        real = os.path.realpath(path)
        if os.path.commonpath([site, real]) != site or not os.path.isfile(real):
            self.send_error(404, "File not found")
            return None
        stat = os.stat(real)
        suffix = Path(real).suffix
        compress = suffix in COMPRESSIBLE and "gzip" in self.headers.get("Accept-Encoding", "")
        tag = hashlib.sha1(f"{stat.st_size}:{stat.st_mtime_ns}:{compress}".encode()
                           ).hexdigest()[:16]
        etag = f'"{tag}"'
        if etag in {t.strip() for t in self.headers.get("If-None-Match", "").split(",")}:
            self.send_response(304)
            self._cache_headers(real, etag)
            self.end_headers()
            return None
        body = self.packed.get(real, stat) if compress else None
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(real))
        self.send_header("Content-Length", str(len(body) if body is not None else stat.st_size))
        self.send_header("Last-Modified", formatdate(stat.st_mtime, usegmt=True))
        if body is not None:
            self.send_header("Content-Encoding", "gzip")
        self._cache_headers(real, etag)
        self.end_headers()
        if body is not None:
            return io.BytesIO(body)
        return open(real, "rb")

    def _cache_headers(self, real: str, etag: str) -> None:
        self.send_header("ETag", etag)
        self.send_header("Vary", "Accept-Encoding")
        name = os.path.basename(real)
        if DIGEST_NAMED.search(name) and not name.endswith(".html"):
            self.send_header("Cache-Control", f"public, max-age={YEAR}, immutable")
        else:
            self.send_header("Cache-Control", "no-cache")


class SiteServer(http.server.ThreadingHTTPServer):
    """A threading server that takes a reader leaving mid-download in its stride."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A phone closing a tab or dropping off the network resets its connection while a
        # file is still on its way: an everyday event, not a fault worth a traceback.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def server(site: Path, bind: str = "127.0.0.1", port: int = 0) -> SiteServer:
    """A server of ``site`` on ``bind:port`` (``0``: a free port), not yet serving."""
    handler = partial(SiteHandler, directory=str(site))
    return SiteServer((bind, port), handler)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", nargs="?", type=Path,
                        default=Path(__file__).resolve().parents[1] / "site")
    parser.add_argument("--bind", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv[1:])
    if not (args.site / "index.html").is_file():
        print(f"serve_site: {args.site} holds no built site (make docs)", file=sys.stderr)
        return 2
    running = server(args.site, args.bind, args.port)
    print(f"Table Companion site: http://{args.bind}:{running.server_address[1]}/")
    with contextlib.suppress(KeyboardInterrupt):
        running.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
