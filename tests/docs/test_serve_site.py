"""``make docs-serve`` (``tools/serve_site.py``): the site as a host should serve it (issue 45).

Over a real socket, on a small site of its own: gzip where it helps, a year's cache for a
file named by its digest, ``no-cache`` and a bodiless 304 for the rest, nothing outside
the site.
"""

from __future__ import annotations

import gzip
import http.client
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tools import serve_site

PAGE = "<!doctype html><title>Rules</title>" + "<p>The morale check.</p>" * 200


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, int]]:
    root = tmp_path / "site"
    (root / "rules").mkdir(parents=True)
    (root / "assets").mkdir()
    (root / "index.html").write_text(PAGE)
    (root / "rules" / "index.html").write_text(PAGE)
    (root / "assets" / "main.57a0d79d.min.css").write_text("body{color:red}" * 100)
    (root / "assets" / "1551f4f60c37af51121f.woff2").write_bytes(b"wOF2" + bytes(300))
    (root / "sw.js").write_text("self.addEventListener('fetch', () => {});" * 20)
    (tmp_path / "secret.txt").write_text("not the site's")
    running = serve_site.server(root)
    thread = threading.Thread(target=running.serve_forever, daemon=True)
    thread.start()
    try:
        yield running.server_address[0], running.server_address[1]
    finally:
        running.shutdown()
        running.server_close()


def get(where: tuple[str, int], path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection(*where, timeout=10)
    try:
        conn.request("GET", path, headers=headers)
        answer = conn.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        conn.close()


def test_a_page_is_gzipped_for_a_browser_that_accepts_it(site: tuple[str, int]) -> None:
    status, headers, body = get(site, "/", **{"Accept-Encoding": "gzip, br"})
    assert status == 200 and headers["content-encoding"] == "gzip"
    assert gzip.decompress(body).decode() == PAGE
    assert len(body) < len(PAGE) // 10
    assert headers["cache-control"] == "no-cache" and headers["vary"] == "Accept-Encoding"
    assert headers["content-type"].startswith("text/html")
    status, headers, body = get(site, "/")  # a client that does not accept gzip
    assert status == 200 and "content-encoding" not in headers and body.decode() == PAGE


def test_an_unchanged_file_is_a_bodiless_304(site: tuple[str, int]) -> None:
    _, headers, _ = get(site, "/rules/", **{"Accept-Encoding": "gzip"})
    status, again, body = get(site, "/rules/", **{"Accept-Encoding": "gzip",
                                                  "If-None-Match": headers["etag"]})
    assert status == 304 and body == b"" and again["etag"] == headers["etag"]
    # The plain copy has its own tag: a gzipped one's tag does not stand for it.
    status, _, body = get(site, "/rules/", **{"If-None-Match": headers["etag"]})
    assert status == 200 and body.decode() == PAGE


def test_a_file_named_by_its_digest_is_kept_a_year(site: tuple[str, int]) -> None:
    _, headers, _ = get(site, "/assets/main.57a0d79d.min.css", **{"Accept-Encoding": "gzip"})
    assert headers["cache-control"] == "public, max-age=31536000, immutable"
    assert headers["content-encoding"] == "gzip"
    status, headers, body = get(site, "/assets/1551f4f60c37af51121f.woff2",
                                **{"Accept-Encoding": "gzip"})
    assert status == 200 and body.startswith(b"wOF2")  # compressed already: as it is
    assert "content-encoding" not in headers and headers["content-type"] == "font/woff2"
    assert headers["cache-control"].endswith("immutable")
    _, headers, _ = get(site, "/sw.js")
    assert headers["cache-control"] == "no-cache"  # a new build's worker is seen at once
    assert headers["content-type"] == "text/javascript"


@pytest.mark.parametrize("path", ["/../secret.txt", "/%2e%2e/secret.txt", "/nope.html",
                                  "/rules/../../secret.txt"])
def test_nothing_outside_the_site_and_a_missing_file_is_404(site: tuple[str, int],
                                                           path: str) -> None:
    status, _, body = get(site, path)
    assert status == 404 and b"not the site" not in body


def test_a_folder_without_its_slash_is_sent_there(site: tuple[str, int]) -> None:
    status, headers, _ = get(site, "/rules")
    assert status == 301 and headers["location"] == "/rules/"


def test_files_go_over_http_1_1_on_one_connection(site: tuple[str, int]) -> None:
    # Over http.server's HTTP/1.0 Chromium revalidated nothing and fetched the 9.6 MB
    # engine again on every visit (benchmarks/RESULTS.md); 1.1 also keeps the connection.
    conn = http.client.HTTPConnection(*site, timeout=10)
    try:
        for path in ("/", "/rules/", "/sw.js"):
            conn.request("GET", path, headers={"Accept-Encoding": "gzip"})
            answer = conn.getresponse()
            answer.read()
            assert answer.status == 200 and answer.version == 11
            assert answer.getheader("Connection") != "close"
    finally:
        conn.close()


def test_a_reader_dropping_the_connection_is_no_traceback(
        capsys: pytest.CaptureFixture[str]) -> None:
    # A phone leaving mid-download resets its connection: a quiet event; any other fault
    # of a request still prints as http.server prints it.
    running = serve_site.server(Path("."))
    try:
        for fault, shown in ((ConnectionResetError(104, "Connection reset by peer"), False),
                             (BrokenPipeError(32, "Broken pipe"), False),
                             (ValueError("a real fault"), True)):
            try:
                raise fault
            except Exception:
                running.handle_error(None, ("127.0.0.1", 5))
            printed = capsys.readouterr().err
            assert ("Traceback" in printed) is shown, (fault, printed)
    finally:
        running.server_close()
