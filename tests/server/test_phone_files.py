"""Issue 44: the phone apps' files as ``companion app`` serves them, and the seat links.

- a page is checked again on every visit (``no-cache``), a file of the build's digest
  folder cached for a year (``immutable``), so a second visit downloads the page only;
- a browser that accepts gzip gets the ``.gz`` beside a file, with the original's type;
  one that does not gets the file itself;
- a foreign Host header is refused (403), as the Voila pages and the table socket refuse it;
- a player's seat link opens the phone app when the server has it built; the GM's stays
  the start app's (Voila).
"""

from __future__ import annotations

import asyncio
import gzip
from pathlib import Path

import pytest
from tornado import httpclient, httpserver, netutil, web

from companion.server.phone import phone_handlers


def _build(folder: Path) -> Path:
    (folder / "0123456789ab" / "apps").mkdir(parents=True)
    script = b"console.log('phone');\n" * 200
    (folder / "0123456789ab" / "apps" / "runtime.mjs").write_bytes(script)
    (folder / "0123456789ab" / "apps" / "runtime.mjs.gz").write_bytes(
        gzip.compress(script, mtime=0))
    (folder / "cairn_character.html").write_text("<!doctype html><p>phone</p>")
    return folder


def _fetch(folder: Path, requests: list[httpclient.HTTPRequest | str]
           ) -> list[httpclient.HTTPResponse]:
    async def run() -> list[httpclient.HTTPResponse]:
        app = web.Application(phone_handlers("/", folder),
                              table_allowed_hosts=["127.0.0.1", "localhost"])
        sockets = netutil.bind_sockets(0, "127.0.0.1")
        port = sockets[0].getsockname()[1]
        server = httpserver.HTTPServer(app)
        server.add_sockets(sockets)
        client = httpclient.AsyncHTTPClient()
        out = []
        for request in requests:
            if isinstance(request, str):
                request = httpclient.HTTPRequest(request)
            request.url = f"http://127.0.0.1:{port}{request.url}"
            out.append(await client.fetch(request, raise_error=False))
        server.stop()
        return out

    return asyncio.run(run())


def test_the_build_is_cached_for_good_and_the_page_checked_each_visit(tmp_path: Path) -> None:
    folder = _build(tmp_path)
    page, script = _fetch(folder, ["/phone/cairn_character.html",
                                   "/phone/0123456789ab/apps/runtime.mjs"])
    assert page.code == 200 and page.headers["Cache-Control"] == "no-cache"
    assert script.code == 200
    assert script.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert script.headers["Content-Type"] == "text/javascript"


def test_gzip_is_sent_to_a_browser_that_accepts_it(tmp_path: Path) -> None:
    folder = _build(tmp_path)
    raw = (folder / "0123456789ab" / "apps" / "runtime.mjs").read_bytes()
    url = "/phone/0123456789ab/apps/runtime.mjs"
    packed, plain = _fetch(folder, [
        httpclient.HTTPRequest(url, headers={"Accept-Encoding": "gzip"}, decompress_response=False),
        httpclient.HTTPRequest(url, headers={"Accept-Encoding": "identity"},
                               decompress_response=False)])
    assert packed.headers["Content-Encoding"] == "gzip"
    assert len(packed.body) < len(raw) / 5 and gzip.decompress(packed.body) == raw
    assert packed.headers["Content-Type"] == "text/javascript"
    assert "Content-Encoding" not in plain.headers and plain.body == raw


def test_a_foreign_host_is_refused(tmp_path: Path) -> None:
    (answer,) = _fetch(_build(tmp_path), [httpclient.HTTPRequest(
        "/phone/cairn_character.html", headers={"Host": "evil.example"})])
    assert answer.code == 403


def test_a_player_s_link_opens_the_phone_app_when_it_is_built(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.widgets.table.seats_panel import phone_url

    monkeypatch.setenv("SERVER_NAME", "table.local")
    monkeypatch.setenv("SERVER_PORT", "8866")
    monkeypatch.setenv("SCRIPT_NAME", "/voila/render/table.ipynb")
    monkeypatch.delenv("COMPANION_URL", raising=False)
    monkeypatch.setenv("COMPANION_PHONE_DIR", str(_build(tmp_path)))
    assert phone_url("Tuesday group", "s3cret", ("cairn_srd",)) == (
        "http://table.local:8866/phone/cairn_character.html?campaign=Tuesday+group"
        "&seat=s3cret")
    # Under the hub the address carries no secret (the login decides the seat).
    monkeypatch.setenv("SCRIPT_NAME", "/services/table/voila/render/table.ipynb")
    assert phone_url("T", "", ("cairn_srd",)) == (
        "http://table.local:8866/services/table/phone/cairn_character.html?campaign=T")
    monkeypatch.setenv("SCRIPT_NAME", "/voila/render/table.ipynb")
    # No phone app of the campaign's rulesets, or none built: the start app's link.
    assert phone_url("T", "s3cret", ("miasma",)) is None
    monkeypatch.setenv("COMPANION_PHONE_DIR", str(tmp_path / "nothing"))
    assert phone_url("T", "s3cret", ("cairn_srd",)) is None
