"""A table server on a free port in a thread of its own, and a phone that talks to it.

The server thread has its own IOLoop (as a separate ``companion app`` process would); a
test drives its phones from its own loop (``asyncio.run``). Every frame a phone receives is
kept (``phone.frames``), so a test can check all it was ever sent. Waits are for a frame
(bounded by ``WAIT`` only so that a broken server fails the test instead of hanging it).
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from typing import Any

from tornado import httpserver, netutil, web, websocket

from companion.server.table import SOCKET_MAX_BYTES, TableServer, table_handlers
from companion.store.port import Store

#: The longest a phone waits for a frame before the test fails (not a timing check).
WAIT = 60.0

Frame = dict[str, Any]


class Server:
    """A tornado app serving only the table socket, on 127.0.0.1:<free port>."""

    def __init__(self, store: Store, *, seat_check: float = 0.1) -> None:
        self.table = TableServer(store, seat_check=seat_check)
        self.port = 0
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()
        if not self._ready.wait(WAIT):
            raise RuntimeError("the test server did not start")

    def _serve(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)
        app = web.Application(table_handlers("/", self.table))
        sockets = netutil.bind_sockets(0, "127.0.0.1")
        self.port = sockets[0].getsockname()[1]
        server = httpserver.HTTPServer(app)
        server.add_sockets(sockets)
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            server.stop()
            loop.close()

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/table/ws"

    def stop(self) -> None:
        loop = self._loop
        if loop is not None:
            # Pushes still on their way are ended first (not left pending when the loop
            # goes), then the watchers and the pool.
            asyncio.run_coroutine_threadsafe(self._cancel(), loop).result(WAIT)
        self.table.close()
        if loop is not None:
            loop.call_soon_threadsafe(loop.stop)
        self._thread.join(WAIT)

    @staticmethod
    async def _cancel() -> None:
        here = asyncio.current_task()
        tasks = [t for t in asyncio.all_tasks() if t is not here]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


class Phone:
    """One websocket client; ``frames`` holds every frame it was sent."""

    def __init__(self, conn: websocket.WebSocketClientConnection) -> None:
        self.conn = conn
        self.frames: list[Frame] = []
        self._unread: list[Frame] = []
        self.seq = 0

    @classmethod
    async def connect(cls, url: str) -> Phone:
        return cls(await websocket.websocket_connect(url, max_message_size=SOCKET_MAX_BYTES))

    async def send(self, frame: Frame | str) -> None:
        await self.conn.write_message(frame if isinstance(frame, str) else json.dumps(frame))

    async def next(self) -> Frame:
        if self._unread:
            return self._unread.pop(0)
        return await self._read()

    async def _read(self) -> Frame:
        text = await asyncio.wait_for(self.conn.read_message(), WAIT)
        if text is None:
            raise ConnectionError("the server closed this phone's socket")
        assert isinstance(text, str)
        frame = json.loads(text)
        self.frames.append(frame)
        return frame

    async def until(self, wanted: Callable[[Frame], bool]) -> Frame:
        """Read frames until one is ``wanted``; the others stay unread, in order."""
        skipped: list[Frame] = []
        try:
            while True:
                frame = await self.next()
                if wanted(frame):
                    return frame
                skipped.append(frame)
        finally:
            self._unread[:0] = skipped

    async def answer(self) -> Frame:
        """The next answer (accepted or refused), pushes left unread."""
        return await self.until(lambda f: f["type"] in ("accepted", "refused", "welcome"))

    async def hello(self, campaign: str, secret: str, last_seen: int = 0) -> Frame:
        await self.send({"type": "hello", "v": 1, "campaign": campaign, "secret": secret,
                         "last_seen": last_seen})
        return await self.answer()

    async def act(self, tracker: str, move: str, args: Frame | None = None, *,
                  client: str = "phone", seq: int | None = None, **extra: Any) -> Frame:
        """Send an act (numbered after the last unless ``seq``); its answer."""
        if seq is None:
            self.seq += 1
            seq = self.seq
        await self.send({"type": "act", "act": {"tracker": tracker, "move": move,
                                                "args": args or {}, "client": client,
                                                "seq": seq, **extra}})
        return await self.until(lambda f: f["type"] in ("accepted", "refused"))

    def events(self) -> list[Frame]:
        """Every event this phone was sent, in the order sent."""
        return [e for f in self.frames for e in f.get("events", ())]

    def head(self) -> int:
        """The last event this phone holds (what it says as last_seen)."""
        heads = [f["head"] for f in self.frames if "head" in f]
        return heads[-1] if heads else 0

    async def holds(self, seq: int) -> None:
        """Wait until this phone holds the log up to event ``seq``."""
        while self.head() < seq:
            self._unread.append(await self._read())  # left for whoever reads next

    def close(self) -> None:
        self.conn.close()
