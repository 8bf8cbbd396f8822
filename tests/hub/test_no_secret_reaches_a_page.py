"""No secret of the table service reaches a player's browser (issue 48).

The club's hub runs the table as a service (``club`` in ``conftest.py``). The secrets are
read where the service holds them, not listed by hand: its process environment
(``/proc/<pid>/environ``: the hub's API token, which is also its OAuth client secret, and
the database's address with its password) and its runtime folder (jupyter_server's cookie
secret; the server's own token, if it has one). A player, Ash, then plays a short session
in Chromium -- the hub's login, the start app, the Cairn sheet, a move, the dice tray, a
roll, the phone app and a move there, and the addresses a curious member types (the file
tree, a missing page, the service's APIs) -- while every response (body and headers) and
every websocket frame her browser receives is recorded. None may hold any of the secrets,
in any of the forms a page could carry it (as is, URL-quoted, HTML- or JSON-escaped,
inside base64).

The session's only websockets are its pages' kernel channels and the table socket of the
phone app she visits and moves on (issue 44: the service serves both behind the hub's
login, ``companion.app.hub_table``), each one recorded and every frame searched.

The check is known to catch a leak on each channel it reads, by the same ``leaks``:

- a page and a header: the hub's token planted in the service's error page (the browser
  is handed the real page with the token added), where it did leak before the fix, and
  the cookie secret in a header of another;
- real leaks made by the server itself, with no hook in the service's code: a notebook no
  club has, added to the folder the test hub serves, whose kernel prints the database's
  address (its own environment's) into the page it renders and, at a tap, sends the hub's
  token in a widget update, a websocket frame the page's kernel channel receives; and a
  kernel spec added to the service's ``JUPYTER_PATH`` whose metadata holds the cookie
  secret, which the kernel specs API answers a member with (its ``env``, holding the
  database's password, is left out of that answer: not found there).
"""

from __future__ import annotations

import base64
import contextlib
import html
import json
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlsplit

import pytest
from playwright.sync_api import expect

from tests.hub.conftest import (
    CAMPAIGN,
    KERNEL_IN_URL,
    TABLE_SOCKET,
    Club,
    environ_of,
    login,
    open_app,
    open_phone,
)

pytestmark = pytest.mark.timeout(300)

QUERY = f"campaign={CAMPAIGN}"
SHEET = ".tc-stats"
#: Names of environment variables that hold a credential, whatever the product.
SECRET_NAME = re.compile(r"TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|(^|_)KEY($|_)")
#: Shorter values are not credentials (flags, ports, names) and would match by chance.
SHORTEST = 8
#: The phone app the session visits (issue 44: no kernel; its table socket's frames are
#: recorded beside the kernels').
PHONE_APP = "cairn_character"
#: What a curious member types after the service's prefix: pages and APIs that are not
#: the apps (each answers something, a refusal or an error page included).
CURIOUS = ["", "tree", "lab", "nope", "voila/tree", "voila/render/nope.ipynb",
           "api", "api/status", "api/me", "api/kernels", "api/contents", "api/kernelspecs",
           "api/sessions", "api/terminals", "files/table.ipynb", "voila/api/shutdown/x",
           "login", "static/nope.js", "voila/static/nope.js", "oauth_callback",
           "table/ws", "phone/nope.html"]


def service_secrets(club: Club) -> dict[str, str]:
    """Every secret the table service holds, by where it is: its environment's
    credentials, the password of any address in it, and its runtime folder's cookie
    secret and server token."""
    env = environ_of(club.service_pid())
    found: dict[str, str] = {}
    for name, value in env.items():
        if SECRET_NAME.search(name) and len(value) >= SHORTEST:
            found[name] = value
        if "://" in value:
            password = urlsplit(value).password
            if password:
                found[f"the password in {name}"] = unquote(password)
    runtime = Path(env.get("JUPYTER_RUNTIME_DIR", club.runtime_dir))
    cookie = runtime / "jupyter_cookie_secret"
    if cookie.exists():
        found["the cookie secret"] = cookie.read_text().strip()
    for info in runtime.glob("jpserver-*.json"):
        token = str(json.loads(info.read_text()).get("token") or "")
        if token:
            found[f"the server's token ({info.name})"] = token
    # One secret held under several names (the hub passes its token twice) is one entry.
    names: dict[str, list[str]] = {}
    for name, value in found.items():
        names.setdefault(value, []).append(name)
    return {" = ".join(sorted(held)): value for value, held in names.items()}


def forms(secret: str) -> set[str]:
    """The ways a page could carry ``secret``."""
    return {secret, quote(secret, safe=""), html.escape(secret),
            json.dumps(secret)[1:-1], json.dumps(secret, ensure_ascii=True)[1:-1]}


def _base64_pieces(text: str) -> list[str]:
    pieces = []
    for chunk in re.findall(r"[A-Za-z0-9+/_-]{24,}={0,2}", text):
        for decode in (base64.b64decode, base64.urlsafe_b64decode):
            try:
                pieces.append(decode(chunk + "=" * (-len(chunk) % 4)).decode("utf-8",
                                                                              "replace"))
            except ValueError:
                continue
    return pieces


def _header_lines(headers: list[dict[str, str]]) -> str:
    """A response's headers as it received them, one ``name: value`` line each."""
    return "\n".join(f"{header['name']}: {header['value']}" for header in headers)


@dataclass
class Received:
    """Everything one browser page received: ``(what, text)`` records."""

    records: list[tuple[str, str]] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)  # responses with no body to read
    #: Responses being read (a body is handed over when it has all arrived, which can be
    #: after the navigation that asked for it returned): id -> address.
    reading: dict[int, str] = field(default_factory=dict)

    def watch(self, page: Any) -> None:
        page.on("response", self._response)
        page.on("websocket", self._websocket)

    def _response(self, response: Any) -> None:
        where = f"{response.status} {response.url}"
        self.reading[id(response)] = where
        try:
            headers = _header_lines(response.headers_array())
            body = b"" if 300 <= response.status < 400 else response.body()
        except Exception as exc:  # the page moved on (or closed) before it was read
            self.unread.append(f"{where}: {str(exc).splitlines()[0][:120]}")
            return
        finally:
            self.reading.pop(id(response), None)
        self.records.append((f"headers of {where}", headers))
        if body:  # a redirect has none: its Location is in the headers
            self.records.append((f"body of {where}", body.decode("utf-8", "replace")))

    def _websocket(self, ws: Any) -> None:
        self.records.append((f"websocket {ws.url}", ws.url))

        def frame(payload: str | bytes) -> None:
            text = payload.decode("utf-8", "replace") if isinstance(payload, bytes) \
                else payload
            self.records.append((f"frame from {ws.url}", text))

        ws.on("framereceived", frame)

    def settle(self, page: Any, seconds: float = 20.0) -> None:
        """Let every response the page has had finish being read (a test must not move
        on, or close the page, while one is: its body would be lost unread)."""
        page.wait_for_timeout(100)  # the events already on their way are handed over
        deadline = time.monotonic() + seconds
        while self.reading and time.monotonic() < deadline:
            page.wait_for_timeout(50)

    def read_again(self, page: Any) -> None:
        """What the browser could not hand over in time (a page left, a cached file, a
        body still not read after ``settle``): asked for again with the page's own
        cookies, as her browser would."""
        self.settle(page)
        for where in [*self.unread, *self.reading.values()]:
            url = where.split(" ", 2)[1].rstrip(":")
            answer = page.request.get(url, max_redirects=0)
            headers = _header_lines(answer.headers_array)
            self.records.append((f"headers of {answer.status} {url}", headers))
            self.records.append((f"body of {answer.status} {url}",
                                 answer.body().decode("utf-8", "replace")))
        self.unread.clear()
        self.reading.clear()

    def add_cookies(self, page: Any) -> None:
        for cookie in page.context.cookies():
            self.records.append((f"cookie {cookie['name']}", str(cookie["value"])))

    def read_urls(self) -> set[str]:
        return {what.split(" ", 3)[-1] for what, _ in self.records
                if what.startswith("body of ")}

    def leaks(self, secrets: dict[str, str]) -> list[str]:
        """Where any secret is, one line each (empty: nowhere)."""
        found = []
        for what, text in self.records:
            texts = [text, *_base64_pieces(text)]
            for name, secret in secrets.items():
                for form in forms(secret):
                    at = next((t.find(form) for t in texts if form in t), -1)
                    if at >= 0:
                        piece = next(t for t in texts if form in t)
                        before = " ".join(piece[max(0, at - 120):at].split())
                        found.append(f"{name} in the {what}: ...{before}[SECRET]...")
                        break
        return found


@contextlib.contextmanager
def signed_in_ash(browser: Any, club: Club) -> Iterator[tuple[Any, Received]]:
    """Ash's browser, signed in, everything it receives recorded from its first page."""
    received = Received()
    ash = login(browser, club, "ash", watch=received.watch)
    try:
        yield ash, received
        received.read_again(ash)  # what her last pages still had on their way
    finally:
        ash.context.close()
        club.pages.remove(ash)


def _play(ash: Any, club: Club, received: Received) -> list[str]:
    """Ash's session: the start app, two apps, a move, a roll, the curious addresses; the
    three apps' kernels."""
    kernels = [open_app(ash, club, "table", QUERY, ".tc-identity")]
    expect(ash.locator(".tc-identity")).to_contain_text("You are ash (player)")
    kernels.append(open_app(ash, club, "cairn_character", QUERY, SHEET))
    ash.locator(".tc-btn-fatigue").click()
    ash.wait_for_selector(f"{SHEET}:has-text('Fatigue 1')")
    kernels.append(open_app(ash, club, "dice_tray", QUERY, ".tc-roll-log-panel"))
    ash.locator(".tc-text-expr input").fill("2d6+1")
    ash.locator(".tc-btn-roll").click()
    expect(ash.locator(".tc-roll-log").first).to_contain_text("2d6+1", timeout=30_000)
    # The phone app (no kernel): its table socket seats her by her hub login; a move.
    open_phone(ash, club, PHONE_APP, QUERY)
    expect(ash.get_by_text("Fatigue 1 · Dooms").first).to_be_visible()
    ash.get_by_role("button", name="+ Fatigue").click()
    expect(ash.get_by_text("Fatigue 2 · Dooms").first).to_be_visible()
    ash.wait_for_function("document.documentElement.dataset.tcPhone === 'online'")
    service = f"{club.url}/services/table"
    for path in CURIOUS:
        ash.goto(f"{service}/{path}", wait_until="load")
    ash.goto(f"{club.url}/hub/home", wait_until="load")
    received.read_again(ash)
    received.add_cookies(ash)
    ash.goto(f"{service}/logout", wait_until="load")  # last: it signs her out
    return kernels


def test_a_players_session_receives_no_secret_of_the_service(browser: Any,
                                                             club: Club) -> None:
    secrets = service_secrets(club)
    # The search is over the secrets that matter: the service's hub token (also its OAuth
    # client secret), the database's password and the cookie secret are all found.
    held = " = ".join(secrets)
    for name in ("JUPYTERHUB_API_TOKEN", "the password in COMPANION_DB", "the cookie secret"):
        assert name in held, sorted(secrets)
    assert urlsplit(club.db).password in secrets.values()
    with signed_in_ash(browser, club) as (ash, received):
        kernels = _play(ash, club, received)
    # Everything was read: every app page and the curious addresses' answers.
    read = received.read_urls()
    for notebook in ("table", "cairn_character", "dice_tray"):
        assert any(f"/voila/render/{notebook}.ipynb" in url for url in read), notebook
    assert any(url.endswith("/services/table/tree") for url in read), sorted(read)
    assert sum(what.startswith("frame ") for what, _ in received.records) > 50
    # Every websocket her pages opened was recorded, and every one is a kernel's channel
    # or the table socket: the three apps' kernels and the phone app's table socket (each
    # heard from, the table socket's welcome and its answer to her move among its frames)
    # and any the start app opened before she moved on from the service's root.
    sockets = [text for what, text in received.records if what.startswith("websocket ")]
    assert all(KERNEL_IN_URL.search(url) or TABLE_SOCKET.search(url) for url in sockets), \
        sockets
    heard = {what.removeprefix("frame from ") for what, _ in received.records
             if what.startswith("frame from ")}
    for kernel in kernels:
        assert any(kernel in url for url in heard), (kernel, sockets)
    table = [json.loads(text) for what, text in received.records
             if what.startswith("frame from ") and TABLE_SOCKET.search(what)]
    assert {"welcome", "accepted"} <= {frame["type"] for frame in table}, table
    assert any(f["type"] == "welcome" and f["who"] == "ash" for f in table), table
    assert any(url.endswith(f"/services/table/phone/{PHONE_APP}.html?{QUERY}")
               for url in read), sorted(read)
    leaks = received.leaks(secrets)
    assert not leaks, "\n".join(leaks)
    print(f"\n{len(received.records)} responses, headers and frames received, "
          f"{len(secrets)} secrets ({', '.join(sorted(secrets))})")


def plant(page: Any, url_part: str, secret: str, *, header: str = "") -> None:
    """Hand ``page`` the real answer of any address holding ``url_part`` with ``secret``
    added, as a leaking server would: to its body, or as the value of ``header``."""
    def leak(route: Any) -> None:
        answer = route.fetch()
        if header:
            route.fulfill(response=answer, headers={**answer.headers, header: secret})
        else:
            route.fulfill(status=answer.status, content_type="text/html",
                          body=answer.text() + f"<!-- {secret} -->")

    page.route(re.compile(re.escape(url_part)), leak)


def test_a_planted_secret_is_caught(browser: Any, club: Club) -> None:
    secrets = service_secrets(club)
    token = next(name for name in secrets if "JUPYTERHUB_API_TOKEN" in name)
    cookie = "the cookie secret"
    with signed_in_ash(browser, club) as (ash, received):
        # Where it did leak before the fix: the service's error page for a signed-in
        # member (jupyter_server's page.html wrote it into data-jupyter-api-token).
        plant(ash, "/services/table/tree", secrets[token])
        # And a header: the check reads every response's headers too.
        plant(ash, "/services/table/nope", secrets[cookie], header="X-Table-Note")
        # Each answer read before the next address (a planted answer is made once: one
        # the next navigation cut off unread was asked for again without its plant, and
        # under load the header's leak went unseen).
        ash.goto(f"{club.url}/services/table/tree", wait_until="load")
        received.settle(ash)
        ash.goto(f"{club.url}/services/table/nope", wait_until="load")
        received.settle(ash)
        ash.goto(f"{club.url}/services/table/api/status", wait_until="load")
    leaks = received.leaks(secrets)
    assert len(leaks) == 2, leaks
    assert leaks[0].startswith(f"{token} in the body of 404 "), leaks
    assert "/services/table/tree:" in leaks[0], leaks
    assert leaks[1].startswith(f"{cookie} in the headers of 404 "), leaks
    assert "/services/table/nope:" in leaks[1], leaks
    assert re.search(r"x-table-note: ?\[SECRET\]", leaks[1], re.IGNORECASE), leaks


#: The notebook the leak test adds to the served apps (no club has it).
LEAK_APP = "planted_leak"
LEAK_BUTTON = ".tc-planted-leak"


def leaking_notebook(token: str) -> dict[str, Any]:
    """A notebook whose kernel leaks as a careless app would: the database's address (read
    from the kernel's own environment, as every page's kernel has it) printed into the
    page Voila renders, and ``token`` sent in a widget update when its button is tapped.
    The token is in the source reversed (Voila strips the sources from a page anyway):
    as is, it exists only in the kernel's update, a frame of the page's websocket."""
    page_leak = 'import os\nprint("Campaigns kept in", os.environ["COMPANION_DB"])'
    frame_leak = "\n".join([
        "import ipywidgets as widgets",
        'shown = widgets.Label("")',
        'button = widgets.Button(description="Show the token")',
        f'button.add_class("{LEAK_BUTTON[1:]}")',
        f'button.on_click(lambda _: setattr(shown, "value", {token[::-1]!r}[::-1]))',
        "widgets.VBox([button, shown])"])
    return {"cells": [{"cell_type": "code", "execution_count": None, "id": f"leak-{n}",
                       "metadata": {}, "outputs": [], "source": source}
                      for n, source in enumerate([page_leak, frame_leak])],
            "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)",
                                        "language": "python", "name": "python3"}},
            "nbformat": 4, "nbformat_minor": 5}


def leaking_kernel_spec(secret: str, in_env: str) -> dict[str, Any]:
    """An admin's careless kernel spec: ``secret`` in its metadata, which the kernel specs
    API (a member may read it) answers with the spec, and ``in_env`` in its environment,
    which the service leaves out of the answer (``_hide_kernel_spec_env``)."""
    return {"argv": ["python", "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": "Planted", "language": "python",
            "metadata": {"table_note": secret}, "env": {"TABLE_SETTING": in_env}}


def test_real_leaks_are_caught_in_a_page_a_frame_and_an_api_answer(browser: Any,
                                                                   club: Club) -> None:
    secrets = service_secrets(club)
    token = next(name for name in secrets if "JUPYTERHUB_API_TOKEN" in name)
    database, cookie = "the password in COMPANION_DB", "the cookie secret"
    notebook = club.apps_dir / f"{LEAK_APP}.ipynb"
    spec = club.jupyter_dir / "kernels" / "planted" / "kernel.json"
    notebook.write_text(json.dumps(leaking_notebook(secrets[token])), encoding="utf-8")
    spec.parent.mkdir()
    spec.write_text(json.dumps(leaking_kernel_spec(secrets[cookie], secrets[database])),
                    encoding="utf-8")
    try:
        with signed_in_ash(browser, club) as (ash, received):
            open_app(ash, club, LEAK_APP, "", LEAK_BUTTON)
            ash.locator(LEAK_BUTTON).click()
            expect(ash.get_by_text(secrets[token])).to_be_visible()
            ash.goto(f"{club.url}/services/table/api/kernelspecs", wait_until="load")
            received.read_again(ash)
    finally:
        notebook.unlink()
        spec.unlink()
        spec.parent.rmdir()
    page = next(url for url in received.read_urls() if f"/{LEAK_APP}.ipynb" in url)
    sockets = {what.removeprefix("frame from ") for what, _ in received.records
               if what.startswith("frame from ")}
    assert len(sockets) == 1, sockets
    (socket,) = sockets
    assert KERNEL_IN_URL.search(socket), socket
    # Each secret where it was leaked, and nowhere else: the rendered page, a frame (or
    # more) of the kernel's channel, the API's answer (the spec's metadata). The spec's
    # env is not answered: its secret (the database's password) is only in the page.
    specs = f"{club.url}/services/table/api/kernelspecs"
    planted = {(database, f"body of 200 {page}"), (token, f"frame from {socket}"),
               (cookie, f"body of 200 {specs}")}
    answer = next(json.loads(text) for what, text in received.records
                  if what == f"body of 200 {specs}")
    assert answer["kernelspecs"]["planted"]["spec"]["display_name"] == "Planted", answer
    assert "env" not in answer["kernelspecs"]["planted"]["spec"], answer
    leaks = received.leaks(secrets)

    def where(line: str) -> tuple[str, str] | None:
        return next((p for p in planted if line.startswith(f"{p[0]} in the {p[1]}: ")), None)

    assert {where(line) for line in leaks} == planted, "\n".join(leaks)
