"""The app list (``/voila/tree``) asks no other host: Voila's stock page linked Font
Awesome from cdn.jsdelivr.net; the server's page template (``table/page.html``) does not,
so a table with no internet shows the same list (issue 33)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import expect

from tests.browser.conftest import LOCAL_HOSTS


def test_app_list_requests_only_this_server(browser: Any, voila_server: Any) -> None:
    context = browser.new_context()
    requested: list[str] = []

    def guard(route: Any) -> None:
        requested.append(route.request.url)
        host = urlsplit(route.request.url).hostname or ""
        if host in LOCAL_HOSTS or route.request.url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            route.abort()

    context.route("**/*", guard)
    # What the page asked and got, said if the list never shows (this test opens its own
    # context, which the failure dump of tests/browser/conftest.py does not see): the
    # list is drawn from a request of the tree's script to the server.
    answers: list[str] = []
    try:
        page = context.new_page()
        page.on("response", lambda r: answers.append(f"{r.status} {r.url}"))
        page.on("requestfailed", lambda r: answers.append(f"failed {r.url}: {r.failure}"))
        page.on("console", lambda m: answers.append(f"console {m.type}: {m.text}")
                if m.type in ("error", "warning") else None)
        page.goto(f"{voila_server.base_url}/voila/tree", wait_until="load")
        # The list itself (drawn by Voila's tree script) names the start app.
        try:
            expect(page.get_by_text("table.ipynb", exact=True).first).to_be_visible(
                timeout=30_000)
        except AssertionError as exc:
            raise AssertionError(f"{exc}\nthe page's requests and console:\n"
                                 + "\n".join(answers[-40:])) from None
        page.wait_for_load_state("networkidle")
    finally:
        context.close()
    assert requested, "no request was seen: the guard did not run"
    elsewhere = [u for u in requested
                 if (urlsplit(u).hostname or "") not in {"127.0.0.1"}
                 and not u.startswith(("data:", "blob:"))]
    assert not elsewhere, f"the app list asked other hosts: {elsewhere}"
