"""The phone apps' end of the table socket, in Pyodide (issue 44).

A phone page (``tools/build_phone_apps.py``, served by ``companion app`` at ``/phone/``)
joins its table instead of keeping a campaign in the browser: ``join`` opens
[Remote][companion.table.remote.Remote] for the seat its link names, over the page's
own websocket (``js.WebSocket``, same origin: ``<base>table/ws``), with the browser's
``localStorage`` keeping the device's name and the acts not yet answered, waits for the
welcome, and plugs the remote session in for the apps
([plug_session][companion.widgets.table.binding.plug_session]). The socket reconnects
by itself (at once when the browser says it is online again, else after a pause that
doubles up to ten seconds); a bar at the foot of the page says what the table said: a
refusal with its reason, acts waiting while offline, a seat revoked.
"""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import parse_qs

from companion.errors import CompanionError
from companion.table.remote import Remote, storage_key

__all__ = ["NO_SEAT", "join"]

NO_SEAT = ("this phone page was opened without its seat's link: open the link (or scan "
           "the QR code) your GM gives you")

#: Reconnecting: the first pause and the longest (seconds).
RETRY_FIRST, RETRY_MOST = 0.5, 10.0


def _js() -> Any:
    import js  # type: ignore[import-not-found]

    return js


def _proxy(fn: Any) -> Any:
    from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

    return create_proxy(fn)


def table_url() -> str:
    """The table socket beside this page: the page is ``<base>phone/<app>.html``."""
    location = _js().location
    base = str(location.pathname).rsplit("/phone/", 1)[0] + "/"
    scheme = "wss:" if str(location.protocol) == "https:" else "ws:"
    return f"{scheme}//{location.host}{base}table/ws"


class BrowserKeep:
    """One seat's queue in ``localStorage`` (a full or blocked storage keeps it in memory)."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.text: str | None = None

    def read(self) -> str | None:
        try:
            value = _js().localStorage.getItem(self.key)
        except Exception:
            return self.text
        return None if value is None else str(value)

    def write(self, text: str) -> None:
        self.text = text
        try:
            _js().localStorage.setItem(self.key, text)
        except Exception as exc:  # said once on the page; the queue stays in memory
            _js().console.warn(f"Table Companion: the queue is not kept: {exc}")


class Socket:
    """The page's websocket to the table, reconnecting (see the module's docstring)."""

    def __init__(self, remote: Remote, url: str) -> None:
        self.remote = remote
        self.url = url
        self.ws: Any = None
        self.open = False
        self.pause = RETRY_FIRST
        self.waiting = False
        self._on_open = _proxy(self._opened)
        self._on_message = _proxy(self._message)
        self._on_close = _proxy(self._closed)
        self._retry = _proxy(self._again)
        _js().window.addEventListener("online", _proxy(lambda _e: self.connect()))

    def connect(self) -> None:
        if self.ws is not None:
            return
        ws = _js().WebSocket.new(self.url)
        ws.onopen = self._on_open
        ws.onmessage = self._on_message
        ws.onclose = self._on_close
        self.ws = ws

    def send(self, text: str) -> bool:
        if not self.open or self.ws is None:
            return False
        try:
            self.ws.send(text)
        except Exception:
            return False
        return True

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()

    def _opened(self, _event: Any) -> None:
        self.open = True
        self.pause = RETRY_FIRST
        self._guarded(lambda: self.remote.connected(self))

    def _message(self, event: Any) -> None:
        self._guarded(lambda: self.remote.receive(str(event.data)))

    def _closed(self, _event: Any) -> None:
        was_open, self.open, self.ws = self.open, False, None
        if was_open:
            self._guarded(self.remote.disconnected)
        if self.remote.gone is None and not self.waiting:
            self.waiting = True
            _js().setTimeout(self._retry, int(self.pause * 1000))
            self.pause = min(self.pause * 2, RETRY_MOST)

    def _again(self) -> None:
        self.waiting = False
        self.connect()

    @staticmethod
    def _guarded(fn: Any) -> None:
        try:
            fn()
        except Exception as exc:  # never into the browser's event loop as a traceback
            _js().console.error(f"Table Companion: {exc}")


class NoticeBar:
    """The line at the foot of the page: what the table said (``.tc-phone-bar``); the
    page's ``data-tc-phone`` says the state (``online``, ``offline``, ``waiting``,
    ``gone``) for whoever looks."""

    def __init__(self) -> None:
        document = _js().document
        bar = document.createElement("div")
        bar.className = "tc-phone-bar"
        bar.setAttribute("role", "status")
        bar.hidden = True
        document.body.appendChild(bar)
        self.bar = bar

    def __call__(self, kind: str, text: str) -> None:
        root = _js().document.documentElement
        bar = self.bar
        if kind in ("welcome", "accepted"):
            root.dataset.tcPhone = "online"
            if not bar.classList.contains("tc-phone-refused"):
                bar.hidden = True
            return
        if kind in ("offline", "waiting"):
            root.dataset.tcPhone = "offline" if kind == "offline" else "waiting"
            bar.className = "tc-phone-bar tc-phone-waiting"
        else:
            if kind == "gone":
                root.dataset.tcPhone = "gone"
            bar.className = "tc-phone-bar tc-phone-refused"
        bar.textContent = text[0].upper() + text[1:] if text else text
        bar.hidden = False


async def join(query: str) -> Remote | None:
    """Join the table the page's address names (``?campaign=..&seat=..``; under the
    club's hub ``seat`` may be left out: the hub login is the seat), wait for the welcome
    and plug its session in for the apps; ``None`` (the apps then say why) when the
    address names no campaign. A refused hello raises its one line."""
    from companion.store import port
    from companion.widgets.table.binding import plug_session

    values = parse_qs(query)
    campaign = values.get("campaign", [""])[0]
    # No secret: the hello says none, and the table decides. Under the club's hub it is
    # the seat of the request's hub login (companion.app.hub_table); elsewhere refused.
    secret = values.get("seat", [""])[0]
    if not campaign:
        port.use(None, refusal=NO_SEAT)
        return None
    remote = Remote(campaign, secret, keep=BrowserKeep(storage_key(campaign, secret)))
    first: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()

    def heard(kind: str, text: str) -> None:
        if not first.done() and kind in ("welcome", "error", "gone"):
            first.set_result(None if kind == "welcome" else text)

    remote.on_notice(heard)
    socket = Socket(remote, table_url())
    socket.connect()
    refusal = await first
    if refusal is not None or remote.session is None:
        socket.remote.gone = refusal or NO_SEAT  # no retrying a refused seat
        socket.close()
        raise CompanionError(refusal or NO_SEAT)
    bar = NoticeBar()
    bar("welcome", "")  # the welcome came before the bar: the page is online from here
    remote.on_notice(bar)
    if remote.store is not None:
        port.use(remote.store)
    plug_session(remote.session)
    return remote
