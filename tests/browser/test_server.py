"""The Voila server defends itself (issue 11, "The server"), with the settings `make app` uses.

- A request naming another host (DNS rebinding) is refused; our own names are served.
- A kernel whose page is gone is shut down by the culler: 20 reloads leave at most 2.
- The number of kernels is capped: past it, kernels of closed pages are reclaimed, and
  when none can go the page says the table is full.
"""

from __future__ import annotations

import runpy
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.conftest import SERVER_CONFIG, VoilaServer

pytestmark = pytest.mark.timeout(420)

APP = "dice_tray"


def _status(url: str, host: str | None = None) -> tuple[int, str]:
    request = urllib.request.Request(url, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(request, timeout=90) as resp:
            return resp.status, resp.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8", "replace")


def _wait_for_kernels(server: VoilaServer, at_most: int, within: float) -> tuple[int, float]:
    start = time.monotonic()
    while True:
        count = len(server.kernels())
        waited = time.monotonic() - start
        if count <= at_most or waited > within:
            return count, waited
        time.sleep(1)


def test_allowed_host_names_follow_app_ip() -> None:
    from traitlets.config import Config

    settings = runpy.run_path(str(SERVER_CONFIG / "voila.py"),
                              init_globals={"get_config": Config})
    allowed: Callable[..., list[str]] = settings["allowed_hosts"]
    assert allowed("127.0.0.1") == ["127.0.0.1", "::1", "localhost"]
    assert allowed("") == ["127.0.0.1", "::1", "localhost"]
    lan = allowed("192.168.1.20", "table.lan, Other.Example ")
    assert {"192.168.1.20", "table.lan", "other.example", "localhost"} <= set(lan)
    assert "evil.example" not in lan
    # The real timings: a gone page's kernel is culled within two minutes; open pages stay.
    config = settings["c"]
    culler = config.MappingKernelManager
    assert culler.cull_idle_timeout + culler.cull_interval <= 120
    assert culler.cull_connected is False and culler.cull_idle_timeout > 0
    manager = config.VoilaConfiguration.multi_kernel_manager_class
    assert manager is settings["TableKernelManager"] and manager().max_kernels == 16
    assert config.Voila.tornado_settings["allow_remote_access"] is False
    assert config.Voila.tornado_settings["compress_response"] is True
    # The executor Voila makes from this configuration waits for a cell's whole output
    # (the 4 s default dropped an app's display on a loaded machine).
    import nbformat
    from voila.execute import VoilaExecutor

    assert VoilaExecutor(nbformat.v4.new_notebook(), config=config).iopub_timeout >= 30


def _fetched(url: str, gzip_ok: bool) -> tuple[str, bytes]:
    headers = {"Accept-Encoding": "gzip"} if gzip_ok else {}
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers),
                                timeout=90) as resp:
        return resp.headers.get("Content-Encoding", ""), resp.read()


def test_pages_scripts_and_styles_go_gzipped(voila_server: VoilaServer) -> None:
    """Issue 45: what Voila sends a phone is compressed when the browser accepts it (the
    same bytes once unpacked), and sent plain to one that does not."""
    import gzip
    import re

    base = voila_server.base_url
    page = _fetched(f"{base}/voila/render/{APP}.ipynb", gzip_ok=True)
    assert page[0] == "gzip"
    html = gzip.decompress(page[1]).decode("utf-8")
    style = re.search(r'href="(/voila/templates/[^"]+\.css\?v=[^"]+)"', html)
    assert style, html[:2000]
    for path in ("/voila/static/voila.js", style.group(1)):
        packed, plain = _fetched(base + path, gzip_ok=True), _fetched(base + path, False)
        assert packed[0] == "gzip" and plain[0] == "", path
        assert gzip.decompress(packed[1]) == plain[1] and len(packed[1]) < len(plain[1]) / 2


def test_a_foreign_host_header_is_refused(start_voila: Callable[..., Any]) -> None:
    with start_voila(env={"APP_HOSTS": "table.lan"}) as server:
        base = server.base_url
        for host in (f"evil.example:{server.port}", "evil.example", f"192.0.2.7:{server.port}",
                     f"localhost.evil.example:{server.port}"):
            assert _status(f"{base}/", host)[0] == 403, host
            assert _status(f"{base}/voila/render/{APP}.ipynb", host)[0] == 403, host
        assert server.kernels() == []  # a refused page starts no kernel
        # the kernels' websocket is guarded the same way
        channels = f"{base}/api/kernels/00000000-0000-0000-0000-000000000000/channels"
        assert _status(channels, "evil.example")[0] == 403
        assert _status(channels, f"127.0.0.1:{server.port}")[0] == 404  # no such kernel
        for host in (f"127.0.0.1:{server.port}", f"localhost:{server.port}",
                     f"table.lan:{server.port}", f"[::1]:{server.port}"):
            assert _status(f"{base}/", host)[0] == 200, host
        assert "Refused a request for host 'evil.example" in server.log_tail(20_000)


def test_reloads_leave_at_most_two_kernels(
    start_voila: Callable[..., Any], browser: Any
) -> None:
    idle, interval = 6, 3
    with start_voila(f"--MappingKernelManager.cull_idle_timeout={idle}",
                     f"--MappingKernelManager.cull_interval={interval}") as server:
        context = browser.new_context(viewport={"width": 390, "height": 844})
        page = context.new_page()
        page.set_default_timeout(90_000)
        page.goto(server.url(APP), wait_until="domcontentloaded")
        page.wait_for_selector(".tc-app", state="visible")
        most = 0
        # Six reloads, not twenty: each starts a kernel (3-8 s under CI's load), and a leak
        # shows just as plainly (seven kernels left instead of two); the culling is the same.
        for _ in range(6):
            page.reload(wait_until="domcontentloaded")
            page.wait_for_selector(".tc-app", state="visible")
            most = max(most, len(server.kernels()))
        # The open page keeps its kernel; every reloaded-away page's kernel goes.
        count, waited = _wait_for_kernels(server, 2, within=4 * (idle + interval) + 30)
        print(f"6 reloads: at most {most} kernels at once; {count} left after {waited:.0f}s")
        assert count <= 2, f"{count} kernels left after {waited:.0f}s (most seen {most})"
        # the page still works on the kernel it kept
        page.locator(".tc-text-expr input").fill("2d6")
        page.locator(".tc-btn-roll").click()
        page.wait_for_selector('.tc-history[data-count="1"]')
        context.close()
        count, waited = _wait_for_kernels(server, 0, within=4 * (idle + interval) + 30)
        assert count == 0, f"{count} kernels left {waited:.0f}s after the last tab closed"


def test_the_cap_reclaims_closed_pages_then_shows_a_full_page(
    start_voila: Callable[..., Any], browser: Any
) -> None:
    # No culling here: only the cap acts. Kernels never connected stay 10 minutes.
    with start_voila("--MappingKernelManager.cull_idle_timeout=0",
                     "--TableKernelManager.grace=600",
                     env={"APP_MAX_KERNELS": "2"}) as server:
        url = server.url(APP)
        assert _status(url)[0] == 200  # a plain GET: a kernel that never connects
        context = browser.new_context()
        page = context.new_page()
        page.set_default_timeout(90_000)
        page.goto(url, wait_until="domcontentloaded")
        page.wait_for_selector(".tc-app", state="visible")
        assert len(server.kernels()) == 2
        page.close()  # its page is gone: its kernel may be reclaimed
        time.sleep(2)
        assert _status(url)[0] == 200  # the cap made room by shutting the closed page's
        assert len(server.kernels()) == 2
        full = context.new_page()
        response = full.goto(url, wait_until="domcontentloaded")
        assert response is not None and response.status == 503
        heading = full.locator("h1").inner_text()
        assert "The table is full: 2 apps are open" in heading
        assert "Close one you no longer use" in heading and "reload" in heading
        assert len(server.kernels()) == 2
        context.close()
