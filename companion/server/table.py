"""The table socket: one websocket per phone, one Session per connected seat, no kernel.

[TableSocket][companion.server.table.TableSocket] is a tornado ``WebSocketHandler``;
[TableServer][companion.server.table.TableServer] is what all sockets of one process share:
the store, a thread pool for every blocking store call (one slow client never holds the
IOLoop), one watcher thread per campaign with connected seats, and the answers already
given (an act's client and seq make it idempotent). The frames are those of
[companion.server.protocol][]; ``docs/protocol.md`` tells a client's author the whole
conversation.

- The seat is the store's: the hello's secret is looked up in the campaign's seat rows and
  the Session is opened by it ([Session.by_secret][companion.table.session.Session.by_secret]);
  no field a page sends names who or what role it is.
- Every act is judged by [Session.perform][companion.table.session.Session.perform], as any
  face's act is.
- New events reach every socket of the campaign through the store's own change notices
  ([Store.wait_for_change][companion.store.port.Store]: PostgreSQL ``LISTEN``/``NOTIFY``,
  SQLite's data version), read once per append and filtered for each seat
  ([Session.visible][companion.table.session.Session.visible]); an act judged in this
  process wakes its campaign's sockets at once rather than at the watcher's next look.
- A seat revoked anywhere is seen by its campaign's watcher (the seat rows read again
  every ``seat_check`` seconds: a revocation changes no event, so no notice wakes it) and
  its sockets are sent ``gone``; their acts are refused from then on (the store refuses
  them anyway: it reads the seat again in every write's transaction).

An act is made once, whichever process a resend reaches: the events of an accepted act
carry its client and seq ([Campaign.stamping][companion.store.campaign.Campaign.stamping]).
Each process reads the stamps of a campaign's log once (at its first hello there, in
pages) and then only what was appended since; an act whose stamp is found is answered
again with the events it stored, nothing made. A resend that meets the same act being
stored by another process at that moment is caught in the write itself: the store's
append is refused on the newer head, and its retry (under the writer lock) finds the
other's stamp ([Session.perform][companion.table.session.Session.perform]).

Interpretation: the full answers (a move's result, a refusal's reason) are kept by this
process, in memory, for the last ``ANSWERS_KEPT`` acts of each (seat, client). After a
restart, or at another process, an accepted act is answered again from its stamped
events, with no result (``"result": null``; the events say what it did); a refused act
stored nothing, so judging it again there cannot make anything twice: it is judged
again as a new act, on the table as it is then (refused again, or out of order after a
later act of the device).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from tornado import iostream, websocket

from companion.names import name_key
from companion.server.hosts import refuse_foreign_host
from companion.server.protocol import (
    MAX_FRAME_BYTES,
    PROTOCOL_VERSION,
    ActFrame,
    Hello,
    ProtocolError,
    read_frame,
)
from companion.state import jsonable
from companion.store.campaign import ACT_STAMP, ActNumberTaken, act_digest
from companion.store.permissions import SEAT_GONE_LINE, SeatKey, seat_gone
from companion.store.port import Store
from companion.store.records import StoredEvent
from companion.table.acts import Accepted, Act, Outcome
from companion.table.session import Session

__all__ = ["ANSWERS_KEPT", "NO_SEAT_LINE", "SOCKET_MAX_BYTES", "SOCKET_PATH", "TOO_BIG_LINE",
           "TableServer", "TableSocket", "table_handlers"]

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Where the socket is mounted, under the server's base URL.
SOCKET_PATH = "table/ws"

#: Answers kept per (seat, client): a phone's offline queue is far shorter.
ANSWERS_KEPT = 1000

#: The one refusal of a hello whose secret opens no seat there: the same line for an
#: unknown campaign, so a guess learns nothing of which campaigns exist.
NO_SEAT_LINE = ("this link opens no seat here (a mistyped, revoked or another table's "
                "secret, or no such campaign): ask the GM for a new link")

#: What a client is told when the server itself failed (the traceback stays in its log).
SERVER_ERROR_LINE = "the table could not answer that (a server error, logged there)"

#: tornado's own cap: a frame larger than this closes only that socket (1009). Between
#: MAX_FRAME_BYTES and this, a frame is refused with one line and the socket stays.
SOCKET_MAX_BYTES = 4 * MAX_FRAME_BYTES

#: The close reason of a frame over SOCKET_MAX_BYTES (websocket code 1009; a close
#: frame's reason holds at most 123 bytes): the project's one line, not tornado's words.
TOO_BIG_LINE = (f"a frame is at most {MAX_FRAME_BYTES:,} bytes: this one was not read "
                "and its socket is closed (open another)")


class _Protocol(websocket.WebSocketProtocol13):
    """tornado's protocol, closing an oversized frame's socket with TOO_BIG_LINE.

    tornado closes the TCP connection at once after its close frame; with the big frame
    still arriving, that resets the connection and the client may never read the close
    frame (nor its reason). Here the rest is read and thrown away (nothing kept) until the
    client closes, or LINGER_SECONDS run out."""

    _lingering = False
    _draining = False

    def close(self, code: int | None = None, reason: str | None = None) -> None:
        if code == 1009:
            reason = TOO_BIG_LINE
            self._lingering = not self.server_terminated
        super().close(code, reason)

    def _abort(self) -> None:
        stream = self.stream
        if not self._lingering or stream is None or stream.closed():
            super()._abort()
            return
        # Every abort meanwhile (the handler's own on its close) waits for the drain.
        self.client_terminated = self.server_terminated = True
        if not self._draining:
            self._draining = True
            task = asyncio.ensure_future(_drain(stream))
            _DRAINS.add(task)  # held until done (a task nobody holds may vanish)
            task.add_done_callback(_DRAINS.discard)


#: The longest an oversized frame's rest is read (and thrown away) before its socket's
#: connection is closed regardless.
LINGER_SECONDS = 5.0

_DRAINS: set[asyncio.Future[None]] = set()


async def _drain(stream: iostream.IOStream) -> None:
    async def rest() -> None:
        while True:
            await stream.read_bytes(65536, partial=True)

    with contextlib.suppress(iostream.StreamClosedError, asyncio.TimeoutError):
        await asyncio.wait_for(rest(), LINGER_SECONDS)
    stream.close()


@dataclass
class _Answers:
    """The answers given to one client of one seat, by seq (the newest kept)."""

    highest: int = 0
    frames: OrderedDict[int, tuple[dict[str, Any], dict[str, Any]]] = field(
        default_factory=OrderedDict)


#: Events read at a time when a campaign's stamps are read from its whole log.
STAMP_PAGE = 2000


class _Stamps:
    """The acts a campaign's log says were stored, by (seat, client) and seq: the event
    numbers each stored and their stamps' digests (what act it was; ``None`` for a stamp
    kept before digests), the newest ``ANSWERS_KEPT`` of each device. Read from the whole
    log once, then from where it was read up to (``upto``)."""

    def __init__(self) -> None:
        self.upto = 0
        self.acts: dict[tuple[str, str, str],
                        OrderedDict[int, list[tuple[int, str | None]]]] = {}
        self.lock = threading.Lock()

    def catch_up(self, store: Store, campaign_id: int) -> int:
        """Read what was appended since the last look (the first time: the whole log, a
        page at a time); the last event read."""
        with self.lock:  # (one reader at a time: events are noted once each)
            while True:
                page = store.events_since(campaign_id, self.upto, limit=STAMP_PAGE)
                for event in page:
                    self._note(event)
                if page:
                    self.upto = page[-1].seq
                if len(page) < STAMP_PAGE:
                    return self.upto

    def _note(self, event: StoredEvent) -> None:
        stamp = event.data.get(ACT_STAMP)
        if not isinstance(stamp, dict):
            return
        client, seq = stamp.get("client"), stamp.get("seq")
        if not isinstance(client, str) or type(seq) is not int:
            return
        digest = stamp.get("digest")
        acts = self.acts.setdefault((name_key(event.who), event.role, client),
                                    OrderedDict())
        acts.setdefault(seq, []).append(
            (event.seq, digest if isinstance(digest, str) else None))
        while len(acts) > ANSWERS_KEPT:
            acts.popitem(last=False)

    def stored(self, who: str, role: str, act: Act) -> list[int] | None:
        """The events ``act`` (its seat's, by its ``client`` and ``seq``) stored (``None``:
        none read). Raises ActNumberTaken when they are another act's (its digest)."""
        with self.lock:
            acts = self.acts.get((name_key(who), role, act.client))
            found = list(acts.get(act.seq) or ()) if acts is not None else []
        if not found:
            return None
        seqs = [n for n, _ in found]
        digest = act_digest(act.to_dict())
        if any(kept is not None and kept != digest for _, kept in found):
            raise ActNumberTaken(act.client, act.seq, seqs)
        return seqs

    def highest(self, who: str, role: str, client: str) -> int:
        """The newest act of that seat's ``client`` the log holds (0: none)."""
        with self.lock:
            acts = self.acts.get((name_key(who), role, client))
            return max(acts) if acts else 0


class _Watch:
    """One campaign's watcher thread: wakes its sockets on every append the store
    notices, and tells a revoked seat's sockets."""

    def __init__(self, server: TableServer, campaign_id: int, head: int) -> None:
        self.server = server
        self.campaign_id = campaign_id
        self.head = head
        self.sockets: set[TableSocket] = set()
        self.stop = threading.Event()
        self.dirty = False
        self.pushing = False
        self.thread = threading.Thread(target=self._run, daemon=True,
                                       name=f"table-watch-{campaign_id}")

    def _run(self) -> None:
        server = self.server
        while not self.stop.is_set():
            try:
                head = server.store.wait_for_change(self.campaign_id, self.head,
                                                    server.seat_check)
                if self.stop.is_set():
                    return
                if head > self.head:
                    self.head = head
                    server.call_soon(self.wake)
                rows = server.store.seat_rows(self.campaign_id)
                for socket in list(self.sockets):
                    key = socket.seat_key
                    if key is not None and socket.gone is None \
                            and seat_gone(rows, key) is not None:
                        server.call_soon(socket.seat_lost)
            except Exception as exc:  # a lost database: logged, tried again
                log.warning("table watcher of campaign %s paused: %s", self.campaign_id,
                            str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
                self.stop.wait(min(2.0, server.seat_check * 4))

    def wake(self) -> None:
        """Push what is new to every socket (coalesced: one push at a time, again if
        something arrived meanwhile)."""
        self.dirty = True
        if not self.pushing:
            self.pushing = True
            self.server.spawn(self._push())

    async def _push(self) -> None:
        try:
            while self.dirty:
                self.dirty = False
                # A socket busy (judging its own act, saying hello) is left out: it wakes
                # this watch again when done, and is pushed then.
                free = [s for s in self.sockets if s.gone is None and not s.lock.locked()]
                if not free:
                    continue
                for s in free:
                    await s.lock.acquire()  # free: returns at once, without yielding
                try:
                    since = min(s.sent for s in free)
                    # One job for every socket (one read of the store, filtered for each
                    # seat), so an act waiting for the pool is not queued behind a hundred.
                    frames = await self.server.run(self._frames, free, since)
                finally:
                    for s in free:
                        s.lock.release()
                for s, frame in frames:
                    s.send(frame)
        finally:
            self.pushing = False

    def _frames(self, sockets: list[TableSocket], since: int
                ) -> list[tuple[TableSocket, dict[str, Any]]]:
        """The events frame of each socket (in the pool); sockets of one seat holding the
        same events share one filtering."""
        raw = self.server.store.events_since(self.campaign_id, since)
        out: list[tuple[TableSocket, dict[str, Any]]] = []
        shared: dict[tuple[str, str, int], dict[str, Any]] = {}
        for s in sockets:
            new = [e for e in raw if e.seq > s.sent]
            if not new or s.session is None:
                continue
            key = (s.session.who.casefold(), s.session.role, s.sent)
            frame = shared.get(key)
            if frame is None:
                frame = shared[key] = s.events_frame(new)
            else:
                s.sent = frame["head"]
            out.append((s, frame))
        return out


class TableServer:
    """What every table socket of one process shares; see the module's docstring.

    ``store``: the store, or a function that opens it (called once, off the IOLoop, at
    the first hello). ``seat_check``: how often (seconds) each campaign's watcher reads
    the seat rows again, and the longest it waits on the store at a time."""

    def __init__(self, store: Store | Callable[[], Store], *, workers: int = 4,
                 seat_check: float = 1.0) -> None:
        self._store = store if not callable(store) else None
        self._open_store = store if callable(store) else None
        self._store_lock = threading.Lock()
        self.seat_check = seat_check
        self.executor = ThreadPoolExecutor(max_workers=workers,
                                           thread_name_prefix="table-socket")
        self.watches: dict[int, _Watch] = {}
        self._answers: dict[tuple[str, str, str, str], _Answers] = {}
        self._answers_lock = threading.Lock()
        self._stamps: dict[int, _Stamps] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set[asyncio.Future[None]] = set()

    @property
    def store(self) -> Store:
        with self._store_lock:
            if self._store is None:
                assert self._open_store is not None
                self._store = self._open_store()
            return self._store

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the pool (every store call: the IOLoop never blocks on one)."""
        self._loop = asyncio.get_running_loop()
        return await self._loop.run_in_executor(self.executor, fn, *args)

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` on the IOLoop, kept until done (a task nobody holds may vanish)."""
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def call_soon(self, fn: Callable[[], None]) -> None:
        """Run ``fn`` on the IOLoop (from a watcher thread)."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(fn)

    def close(self) -> None:
        """Stop the watchers and the pool (a test's server, at its end)."""
        for watch in list(self.watches.values()):
            watch.stop.set()
        self.watches.clear()
        self.executor.shutdown(wait=False, cancel_futures=True)

    # -- sockets of a campaign ---------------------------------------------------------

    def join(self, socket: TableSocket, campaign_id: int) -> None:
        self._loop = asyncio.get_running_loop()
        watch = self.watches.get(campaign_id)
        if watch is None:
            watch = self.watches[campaign_id] = _Watch(self, campaign_id, socket.sent)
            watch.thread.start()
        watch.sockets.add(socket)
        # Whatever was appended between this socket's first read and now.
        watch.wake()

    def leave(self, socket: TableSocket, campaign_id: int) -> None:
        watch = self.watches.get(campaign_id)
        if watch is None:
            return
        watch.sockets.discard(socket)
        if not watch.sockets:
            watch.stop.set()
            del self.watches[campaign_id]

    def wake(self, campaign_id: int) -> None:
        """An act of this process was stored: push it now (the watcher would see it at
        its next look, up to 0.2 s later on SQLite)."""
        watch = self.watches.get(campaign_id)
        if watch is not None:
            watch.wake()

    # -- answers (idempotent acts) -----------------------------------------------------

    def answers(self, uid: str, who: str, role: str, client: str) -> _Answers:
        """The answers this process gave that seat's ``client`` (in memory)."""
        with self._answers_lock:
            return self._answers.setdefault((uid, name_key(who), role, client), _Answers())

    def stamps(self, campaign_id: int) -> tuple[_Stamps, int]:
        """The acts campaign ``campaign_id``'s log says were stored, caught up with the
        store now (in the pool: the first call reads the whole log), and the last event
        read for them (another thread may read further meanwhile: what is searched
        beyond this number is the caller's to search)."""
        with self._answers_lock:
            stamps = self._stamps.setdefault(campaign_id, _Stamps())
        return stamps, stamps.catch_up(self.store, campaign_id)


class TableSocket(websocket.WebSocketHandler):
    """One phone's socket: hello, then acts; pushes every new event it may see."""

    server: TableServer

    def initialize(self, server: TableServer) -> None:
        self.server = server
        self.session: Session | None = None
        self.campaign_id = 0
        self.uid = ""
        self.sent = 0  # the last event (number) this socket holds
        self.gone: str | None = None
        self.lock = asyncio.Lock()

    # -- the door: host and origin -----------------------------------------------------

    def prepare(self) -> None:
        refuse_foreign_host(self)

    @property
    def max_message_size(self) -> int:
        # This socket's own cap (the kernels' sockets keep theirs): past it tornado closes
        # only this socket; below it, past MAX_FRAME_BYTES, one line refuses the frame.
        return SOCKET_MAX_BYTES

    def get_websocket_protocol(self) -> websocket.WebSocketProtocol | None:
        protocol = super().get_websocket_protocol()
        if isinstance(protocol, websocket.WebSocketProtocol13):
            return _Protocol(self, False, protocol.params)
        return protocol

    def get_compression_options(self) -> dict[str, Any] | None:
        return None  # frames are small; compression would cost each socket ~300 kB

    @property
    def seat_key(self) -> SeatKey | None:
        return self.session.seat_key if self.session is not None else None

    # -- frames ------------------------------------------------------------------------

    def send(self, frame: dict[str, Any]) -> None:
        # A phone that went meanwhile resumes with last_seen: nothing to do here.
        with contextlib.suppress(websocket.WebSocketClosedError):
            self.write_message(json.dumps(frame, ensure_ascii=False))

    async def on_message(self, message: str | bytes) -> None:
        try:
            frame = read_frame(message)
        except ProtocolError as exc:
            self.send({"type": "refused", "reason": str(exc)})
            return
        try:
            if isinstance(frame, Hello):
                await self._hello(frame)
            else:
                await self._act(frame)
        except Exception:
            log.exception("table socket: a frame failed")
            self.send({"type": "refused", "reason": SERVER_ERROR_LINE})

    def on_close(self) -> None:
        if self.session is not None:
            self.server.leave(self, self.campaign_id)
            self.session = None

    # -- hello -------------------------------------------------------------------------

    async def _hello(self, hello: Hello) -> None:
        if self.session is not None:
            self.send({"type": "refused", "reason": "this socket is seated already: open "
                                                    "another for another seat"})
            return
        async with self.lock:
            frame = await self.server.run(self._seat, hello)
            self.send(frame)
        if self.session is not None:
            self.server.join(self, self.campaign_id)

    def _seat(self, hello: Hello) -> dict[str, Any]:
        """Open the seat the secret proves (in the pool): the welcome, or the refusal."""
        store = self.server.store
        info = store.find_campaign(hello.campaign)
        if info is None:
            return {"type": "refused", "reason": NO_SEAT_LINE}
        session = self.open_seat(store, info.name, hello.secret)
        if isinstance(session, str):
            return {"type": "refused", "reason": session}
        if session.role == "spectator" or session.seat_key is None:
            return {"type": "refused", "reason": NO_SEAT_LINE}
        head = store.head(info.id)
        if hello.last_seen > head:
            return {"type": "refused", "reason": f"last_seen {hello.last_seen} is past this "
                    f"campaign's last event ({head}): forget it and say hello with 0"}
        raw = store.events_since(info.id, hello.last_seen)
        events = session.visible(raw)
        members = [{**m.to_dict(state=False), "save": session.visible_save(m.id)}
                   for m in session.members()]
        self.session, self.campaign_id, self.uid = session, info.id, info.uid
        self.sent = raw[-1].seq if raw else hello.last_seen
        welcome = {"type": "welcome", "v": PROTOCOL_VERSION, "campaign": info.name,
                   "rulesets": list(info.rulesets),
                   "who": session.who, "role": session.role, "head": self.sent,
                   "members": members, "events": events}
        if hello.client:
            # Its acts judged already (their events are in this welcome): the client
            # does not make them again on its state while their answers come back. The
            # log's stamps say which were stored, here, before a restart or elsewhere.
            book = self.server.answers(info.uid, session.who, session.role, hello.client)
            stamps, _ = self.server.stamps(info.id)
            welcome["judged"] = max(book.highest, stamps.highest(session.who, session.role,
                                                                 hello.client))
        return welcome

    def open_seat(self, store: Store, campaign: str, secret: str) -> Session | str:
        """The seat the hello proves (in the pool), or the refusal's line: here by its
        secret alone. The identity hook: the club's hub service's socket
        (``companion.app.hub_table``) also seats the request's hub login."""
        if not secret:
            return NO_SEAT_LINE
        return Session.by_secret(store, campaign, secret)

    # -- acts --------------------------------------------------------------------------

    async def _act(self, frame: ActFrame) -> None:
        if self.session is None:
            self.send({"type": "refused", "seq": frame.act.seq,
                       "reason": "say hello first (the seat's secret)"})
            return
        async with self.lock:
            frames = await self.server.run(self._judge, frame.act)
            for out in frames:
                self.send(out)
        self.server.wake(self.campaign_id)

    def _judge(self, act: Act) -> list[dict[str, Any]]:
        """Judge ``act`` as this seat (in the pool); the frames to send, in order."""
        session = self.session
        assert session is not None
        book = self.server.answers(self.uid, session.who, session.role, act.client)
        stored = book.frames.get(act.seq)
        if stored is not None:
            judged, given = stored
            if judged != act.to_dict():
                return [{"type": "refused", "seq": act.seq, "reason":
                         f"act {act.seq} of {act.client} was another act, judged already: "
                         "number a new act after the last"}]
            # The answer as given, without the events this socket holds already.
            again = {**given, "replay": True}
            if "events" in again:
                again["events"] = [e for e in given["events"] if e["seq"] > self.sent]
                self.sent = again["head"] = max(self.sent, given.get("head", 0))
            return [again]
        # Stored before a restart or by another process: answered from its stamped events.
        stamps, searched = self.server.stamps(self.campaign_id)
        try:
            done = stamps.stored(session.who, session.role, act)
        except ActNumberTaken as taken:
            # Not kept among the answers: the act stored under this number may still be
            # resent, and is answered from the log then.
            return [{"type": "refused", "seq": act.seq, "reason": str(taken)}]
        if done is not None:
            outcome: Outcome = Accepted(act, tuple(session.events_numbered(done)), again=True)
        else:
            highest = max(book.highest, stamps.highest(session.who, session.role, act.client))
            if act.seq <= highest:
                return [{"type": "refused", "seq": act.seq, "reason":
                         f"act {act.seq} of {act.client} comes after act {highest}: "
                         "number a new act after the last"}]
            if self.gone is not None:
                gone = {"type": "refused", "seq": act.seq, "reason": self.gone}
                self._keep(book, act, gone)
                return [gone]
            session.refresh()
            # The log was searched for this act's stamp up to ``searched``; the store's
            # write searches what came after (another process may be storing it now).
            outcome = session.perform(act, once_after=searched)
        frames: list[dict[str, Any]] = []
        answer: dict[str, Any]
        if isinstance(outcome, Accepted):
            answer = self._accepted(outcome, frames)
            # Kept with all its events (a resend on another socket may hold none of them).
            self._keep(book, act, {**answer, "events": list(outcome.events)})
        else:
            answer = {"type": "refused", "seq": act.seq, "reason": outcome.reason}
            self._keep(book, act, answer)
        frames.append(answer)
        reason = session.gone
        if reason is not None and self.gone is None:
            self.gone = reason
            frames.append({"type": "gone", "reason": reason})
        return frames

    def _accepted(self, outcome: Accepted, frames: list[dict[str, Any]]) -> dict[str, Any]:
        """The answer to an accepted act (``frames`` gets the events before it first)."""
        mine = {e["seq"] for e in outcome.events}
        first = min(mine) if mine else None
        if first is not None and first > self.sent + 1:
            raw = self.server.store.events_since(self.campaign_id, self.sent)
            # Others' events stored before this act's go first, so that events reach the
            # page in their order; its own go in the answer; later ones in the next push.
            before = [e for e in raw if e.seq < first]
            if before:
                frames.append(self.events_frame(before))
        # An act stored before (a resend) may have events this socket holds already.
        events = [e for e in outcome.events if e["seq"] > self.sent]
        # A move's result may be any object (a check's outcome, with its dice): sent as
        # JSON values, as a move's event logs its arguments.
        answer = {"type": "accepted", "seq": outcome.act.seq, "events": events,
                  "result": jsonable(outcome.result)}
        if outcome.roll is not None:
            answer["roll"] = jsonable(outcome.roll)
        if outcome.again:
            answer["replay"] = True
        if mine:
            self.sent = max(self.sent, max(mine))
        answer["head"] = self.sent
        return answer

    def events_frame(self, raw: list[StoredEvent]) -> dict[str, Any]:
        """``raw`` as this seat sees them, in an events frame; this socket holds them then."""
        assert self.session is not None
        self.sent = max(self.sent, raw[-1].seq)
        return {"type": "events", "events": self.session.visible(raw), "head": self.sent}

    @staticmethod
    def _keep(book: _Answers, act: Act, answer: dict[str, Any]) -> None:
        book.highest = max(book.highest, act.seq)
        book.frames[act.seq] = (act.to_dict(), answer)
        while len(book.frames) > ANSWERS_KEPT:
            book.frames.popitem(last=False)

    # -- pushes ------------------------------------------------------------------------

    def seat_lost(self) -> None:
        """The watcher found this seat revoked or renewed: tell the phone at once."""
        if self.gone is not None or self.session is None:
            return
        # Refused from now on, even an act already waiting for the lock.
        self.gone = SEAT_GONE_LINE
        self.send({"type": "gone", "reason": SEAT_GONE_LINE})
        self.server.spawn(self._watch_only())

    async def _watch_only(self) -> None:
        async with self.lock:  # not while an act of this seat is being judged
            if self.session is not None:
                self.session.lose_seat()


def table_handlers(base_url: str, server: TableServer) -> list[tuple[str, type[Any],
                                                                      dict[str, Any]]]:
    """The socket's route under ``base_url``, for ``web.Application.add_handlers``."""
    base = base_url if base_url.endswith("/") else base_url + "/"
    return [(f"{base}{SOCKET_PATH}", TableSocket, {"server": server})]

