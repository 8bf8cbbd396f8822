"""A table session over a wire: a phone's apps without a kernel (issue 44).

A phone runs the apps itself (Pyodide) and joins its table through the server's table
socket (``docs/protocol.md``). Here its Python end: [Remote][companion.table.remote.Remote]
speaks the protocol, and once welcomed holds a
[RemoteSession][companion.table.remote.RemoteSession], a
[Session][companion.table.session.Session] like any other, so the widgets built on it do
not know which they hold. Its campaign is a mirror of the table as this seat may see it:

- **Reading** is local: the mirror campaign
  ([MirrorCampaign][companion.table.remote.MirrorCampaign]) was built from the
  welcome's saves, and follows every event the server sends (its own acts' and the
  others'), applied as facts: the trackers' observers fire and the widgets
  re-render, as on a Voila page when another screen moves.
- **Acting** goes to the table: every move, undo and load made on the mirror's trackers
  (through the session or on the tracker itself: the mirror is their recorder) becomes an
  [Act][companion.table.acts.Act], numbered for this device, kept (the ``keep`` given: the
  browser's storage) until its answer comes, and sent when the socket is up. A move that
  rolls no dice is also made at once on the phone's state, so the tap shows at once (and
  a seat that may not make it, or a rule that refuses it, is said at once: the widget's
  own error line shows it as on a Voila page); that is the phone's guess only: when the
  table's answer comes, the guess is taken back and the table's events applied (a
  refusal comes back as a notice, [Remote.on_notice][companion.table.remote.Remote.on_notice]),
  and the acts still waiting are guessed again on the table's state. A rolled move waits
  for the table's dice: the server judges, the phone follows (a seat that may not make
  it, another's character's, is still said at once, and nothing is sent).
- **Offline**: acts made while the socket is down wait in the queue, in order; on
  reconnect the hello says the last event held, the welcome brings what was missed, and
  the queue is sent again in order (its client id and numbers make a resent act
  idempotent: an act the server judged already is answered again, not made twice). Each
  is judged then, on the table as it is then.

The transport is injected: anything with ``send(text) -> bool`` (a websocket in the
browser, a plain client in the tests) that calls
[Remote.connected][companion.table.remote.Remote.connected],
[Remote.receive][companion.table.remote.Remote.receive] and
[Remote.disconnected][companion.table.remote.Remote.disconnected]. Only the standard
library is used here: it runs in Pyodide.

- Interpretation: an act sent from the phone returns at once, before it is judged (a
  browser cannot wait for the wire inside a tap): a move gives ``None``, and
  [perform][companion.table.remote.RemoteSession.perform] an
  [Accepted][companion.table.acts.Accepted] without events, meaning *sent*; its real
  answer is a notice.
- Interpretation: what the phone judges at once is a guess on the state it holds; a move
  the phone allowed may still be refused at the table, which holds the newer state (the
  guess is then taken back and the refusal shown).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import secrets
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from companion.errors import CompanionError
from companion.fairplay import LoggedRoll
from companion.state import Event, Tracker, jsonable
from companion.store.campaign import Campaign
from companion.store.memory import MemoryStore
from companion.store.permissions import SeatError
from companion.store.records import CampaignInfo, NewEvent, StoredEvent, StoreError
from companion.store.registry import decode_args, move_parameters
from companion.store.upcast import MEMBER_FORMAT
from companion.table.acts import (
    MAX_ACT_BYTES,
    TRACKER_ACTS,
    Accepted,
    Act,
    Outcome,
    Refused,
    RollSpec,
)
from companion.table.session import Session

__all__ = ["PHONE_LINE", "PROTOCOL_VERSION", "TOO_BIG_LINE", "Keep", "Link", "MirrorCampaign",
           "MirrorStore", "Remote", "RemoteSession", "storage_key"]

#: The table socket's protocol version this client speaks (``docs/protocol.md``).
PROTOCOL_VERSION = 1

#: What a phone says of anything it would have to store itself.
PHONE_LINE = ("on the phone app every move goes to the table as an act; this one is not "
              "one yet: make it on the GM's page")

#: What a phone says of an act too large for the table (nothing is sent).
TOO_BIG_LINE = (f"that move is larger than {MAX_ACT_BYTES:,} bytes, more than the table "
                "takes: nothing was sent")

#: The chain's head a mirror's snapshot names (the mirror does not follow the chain).
_NO_CHAIN = "0" * 64


class Link(Protocol):
    """The wire under a [Remote][companion.table.remote.Remote]: ``send`` one text frame
    (False when it could not be sent; the frame is then sent again after reconnecting)."""

    def send(self, text: str) -> bool: ...


class Keep(Protocol):
    """Where a phone keeps its device name, its next act's number and its queue of acts
    not yet answered (the browser's storage; ``None`` read: nothing kept yet)."""

    def read(self) -> str | None: ...

    def write(self, text: str) -> None: ...


def storage_key(campaign: str, secret: str) -> str:
    """The name a phone keeps a seat's queue under: the campaign and a digest of the
    secret (the secret itself is never written to storage)."""
    digest = hashlib.sha256(f"{campaign}\n{secret}".encode()).hexdigest()[:16]
    return f"tc-phone:{digest}"


class MirrorStore(MemoryStore):
    """One campaign as its table sent it: the seat's events (already filtered for it) and
    the welcome's saves as the snapshot. Nothing is appended here: a move on the phone is
    an act for the table ([PHONE_LINE][companion.table.remote.PHONE_LINE] otherwise)."""

    keep_snapshots = False

    def __init__(self, name: str, rulesets: Sequence[str], uid: str = "") -> None:
        super().__init__(where="the table (through its socket)")
        self.campaign_info = self.import_campaign(name, rulesets, "", [], uid or None)
        self.received: list[StoredEvent] = []
        self.top = 0
        self.saves: tuple[int, dict[str, Any]] | None = None

    def receive(self, events: Sequence[dict[str, Any]], head: int) -> list[StoredEvent]:
        """Keep the events not held yet (by number); ``head``: the log is held to it."""
        new = []
        for data in events:
            if data["seq"] > self.top:
                event = StoredEvent(**data)
                self.received.append(event)
                new.append(event)
                self.top = event.seq
        self.top = max(self.top, head)
        return new

    def find_campaign(self, name: str) -> CampaignInfo | None:
        found = super().find_campaign(name)
        return dataclasses.replace(found, head=self.top) if found is not None else None

    def head(self, campaign_id: int) -> int:
        return self.top

    def check_count(self, info: CampaignInfo) -> None:
        return None  # the table's events, numbered by the table (a seat's may skip some)

    def check_log(self, info: CampaignInfo) -> None:
        return None

    def events_since(self, campaign_id: int, seq: int = 0, limit: int | None = None,
                     kinds: Sequence[str] = ()) -> list[StoredEvent]:
        out = [e for e in self.received if e.seq > seq and (not kinds or e.kind in kinds)]
        return [dataclasses.replace(e, data=json.loads(json.dumps(e.data)))
                for e in (out[:limit] if limit is not None else out)]

    def latest_snapshot(self, campaign_id: int) -> tuple[int, dict[str, Any]] | None:
        if self.saves is None:
            return None
        seq, state = self.saves
        return seq, json.loads(json.dumps(state))

    def append(self, campaign_id: int, new: Sequence[NewEvent], expected_seq: int, *,
               seat: Any = None) -> list[StoredEvent]:
        raise StoreError(PHONE_LINE)

    def wait_for_change(self, campaign_id: int, seq: int, timeout: float) -> int:
        return self.top  # the socket brings what is new; nothing to wait for here


class MirrorCampaign(Campaign):
    """A campaign as a phone holds it: built from the table's saves, following the
    table's events; every move made on its trackers is handed to its session's
    [Remote][companion.table.remote.Remote] as an act (it is their recorder)."""

    follows_chain = False
    remote: Remote | None = None

    def _member_id(self, tracker: Tracker) -> str:
        for member in self.members.values():
            if member.tracker is tracker:
                return member.id
        raise StoreError(f"that {type(tracker).__name__} is not at this table")

    def _may_send(self) -> None:
        if self.role == "spectator":
            raise SeatError(self.remote.gone if self.remote is not None and self.remote.gone
                            else "you are watching: ask the GM for your seat's link")
        if self.remote is None:
            raise StoreError(PHONE_LINE)

    def _may_add(self, name: str, role: str, owner: str) -> None:
        """The seat's refusal first; then none is added from a phone at all (adding is no
        act): refused before anything is sent, so a record's first move, stored with the
        record as one unit on a Voila page, sends no act for a member the table lacks."""
        super()._may_add(name, role, owner)
        raise StoreError(PHONE_LINE)

    def send_act(self, act: Act) -> None:
        """Hand ``act`` to the table (refused here when this seat only watches)."""
        self._may_send()
        assert self.remote is not None
        self.remote.submit(act)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: The table's word on each tracker a move of this phone changed ahead of its
        #: answer (its save as the table's events left it).
        self.confirmed: dict[str, dict[str, Any]] = {}

    def record_move(self, tracker: Tracker, name: str, arguments: dict[str, Any],
                    perform: Callable[[dict[str, Any]], Any]) -> Any:
        refusal = self.may_move(tracker, name, arguments)
        if refusal is not None:
            raise SeatError(refusal)
        if "rng" in arguments or "seed" in arguments:
            raise SeatError("the table draws every seed: a phone does not choose one")
        self._may_send()
        member = self._member_id(tracker)
        act = Act(member, name, {k: jsonable(v) for k, v in arguments.items()})
        result = None
        if _ahead(type(tracker), name):
            # Made at once on this phone's state (what the widget shows after a tap, and
            # the rules' refusal said at once); the table's answer replaces it.
            fresh = member not in self.confirmed
            if fresh:
                self.confirmed[member] = tracker.to_dict()
            try:
                result = perform(arguments)
            except BaseException:
                if fresh:
                    del self.confirmed[member]
                raise
            try:
                self.send_act(act)
            except BaseException:  # not sent (too large): the guess is taken back
                if fresh:
                    with self._quiet(), contextlib.suppress(CompanionError):
                        tracker.restore_save(self.confirmed.pop(member))
                raise
            return result
        self.send_act(act)
        return result

    def record_undo(self, tracker: Tracker, perform: Callable[[], Event]) -> Event:
        refusal = self.may_undo(tracker)
        if refusal is not None:
            raise SeatError(refusal)
        self.send_act(Act(self._member_id(tracker), "undo"))
        last = tracker.log[-1] if tracker.log else None
        return last if last is not None else Event("undo", {}, "undo (sent)", {})

    def record_load(self, tracker: Tracker, text: str | bytes,
                    perform: Callable[[], None]) -> None:
        type(tracker).from_json(text)  # a file that is no save is said at once
        self.send_act(Act(self._member_id(tracker), "load",
                       {"text": text if isinstance(text, str) else text.decode()}))

    def follow(self) -> bool:
        """Apply what the store holds past this campaign's head (the table's events),
        after taking back every move made ahead of its answer (the table's events hold
        those it accepted); [ahead][companion.table.remote.MirrorCampaign.ahead] then
        makes again those still waiting."""
        with self._quiet():
            confirmed, self.confirmed = self.confirmed, {}
            for member, save in confirmed.items():
                with contextlib.suppress(CompanionError):
                    self.tracker(member).restore_save(save)
            return self.refresh()

    def ahead(self, pending: Sequence[Act]) -> None:
        """Make the acts still waiting for their answer again on this phone's state, in
        order (one the rules now refuse is left to the table, which will say so)."""
        with self._quiet():
            for act in pending:
                if not act.tracker or act.roll is not None or act.move in ("undo", "load"):
                    continue
                try:
                    tracker = self.tracker(act.tracker)
                except CompanionError:
                    continue
                if not _ahead(type(tracker), act.move):
                    continue
                self.confirmed.setdefault(act.tracker, tracker.to_dict())
                tracker.attach(None)  # not a new act: this one is sent already
                try:
                    getattr(tracker, act.move)(**decode_args(type(tracker), act.move,
                                                             dict(act.args)))
                except CompanionError:
                    pass
                finally:
                    tracker.attach(self.keeper if self.keeper is not None else self)


class RemoteSession(Session):
    """A [Session][companion.table.session.Session] whose acts are judged at the table
    (see the module's docstring); opened by [Remote][companion.table.remote.Remote]."""

    def __init__(self, campaign: MirrorCampaign, remote: Remote) -> None:
        super().__init__(campaign)
        self.mirror = campaign
        """The mirror of the table this session acts on (its own to follow the wire)."""
        self.remote = remote
        self.answered: list[Callable[[Outcome], None]] = []
        campaign.remote = remote

    def on_act(self, listener: Callable[[Outcome], None]) -> None:
        """Call ``listener(outcome)`` with the table's answer to each act of this seat."""
        self.answered.append(listener)

    @property
    def kept(self) -> bool:
        return True

    def refresh(self) -> bool:
        return False  # the socket pushes what is new

    def wait(self, timeout: float) -> bool:
        return False

    def act(self, tracker: Tracker | str, move: str, /, *args: Any,
            own_dice: Sequence[int] | None = None, **kwargs: Any) -> Any:
        if own_dice is None:
            return super().act(tracker, move, *args, **kwargs)  # to the mirror's seam
        live = self._resolve(tracker)
        from companion.store.registry import move_signature

        bound = move_signature(type(live), move).bind(live, *args, **kwargs)
        named = {k: jsonable(v) for k, v in list(bound.arguments.items())[1:]}
        self.perform(Act(self.key_of(live), move, named, RollSpec(own_dice=tuple(own_dice))))
        return None

    def perform(self, act: Act, *, page_seed: int | None = None,
                once_after: int | None = None) -> Outcome:
        """Send ``act`` to the table (see the module's Interpretations): refused here
        only when this seat may not act at all, or may not make this move on the tracker
        it names (another seat's character: said at once, as for a move made ahead; the
        table judges the rules on its own state). (The table makes it once: its client
        and seq are this device's.)"""
        if act.tracker and act.move not in TRACKER_ACTS:
            try:
                refusal = self.may_move(act.tracker, act.move, dict(act.args))
            except CompanionError:
                refusal = None  # a tracker this mirror lacks: the table's to say
            if refusal is not None:
                return Refused(act, refusal, SeatError(refusal))
        try:
            self._send(act)
        except CompanionError as exc:
            return Refused(act, str(exc).splitlines()[0], exc)
        return Accepted(act)

    def _send(self, act: Act) -> None:
        self.mirror.send_act(act)

    def roll(self, expr: str, *, mode: str = "public", dice: Sequence[int] | None = None,
             total: int | None = None, chosen_seed: int | None = None,
             seeds: Callable[[], int] | None = None) -> LoggedRoll:
        if total is not None:
            raise SeatError("a total alone is entered on the GM's page; enter the dice")
        own = tuple(dice) if dice is not None else None
        self._send(Act("", "roll", {"expr": expr}, RollSpec(mode, own_dice=own,
                                                            seed=chosen_seed)))
        # Entry 0: not logged yet (the table rolls it; its answer names the entry).
        return LoggedRoll(0, mode, None, self.who, self.role, None)

    def rule_roll(self, label: str, action: Callable[..., Any], text: Callable[[Any], str] = str,
                  *, mode: str = "public", own_dice: Sequence[int] | None = None,
                  chosen_seed: int | None = None, seeds: Callable[[], int] | None = None,
                  table: str | None = None) -> Any:
        from companion.rule_rolls import RuleCall
        from companion.table.session import RuleRoll

        if not isinstance(action, RuleCall):
            raise SeatError(PHONE_LINE)
        spec = RollSpec(mode, label, tuple(own_dice) if own_dice is not None else None,
                        chosen_seed if own_dice is None else None)
        self._send(Act("", "rule", {"name": action.name, "args": dict(action.args),
                                    "lead": action.lead}, spec))
        return RuleRoll(mode, None, None, own_dice is not None, visible=False)

    def reveal(self, entry: int) -> Any:
        self._send(Act("", "reveal", {"entry": entry}))
        return None

    def set_client_seed(self, seed: str | None = None) -> Any:
        self._send(Act("", "client_seed", {"seed": seed}))
        return None


Notice = Callable[[str, str], None]


class Remote:
    """A phone's end of the table socket for one seat (see the module's docstring).

    ``campaign`` and ``secret`` are the seat's link's; ``keep`` where the device name and
    the queue of acts are kept across reloads (``None``: in memory only). The page
    builds its apps on [session][companion.table.remote.Remote.session] once the first
    welcome has come ([ready][companion.table.remote.Remote.ready])."""

    def __init__(self, campaign: str, secret: str, *, keep: Keep | None = None,
                 client: str = "") -> None:
        self.campaign = campaign
        self.secret = secret
        self.keep = keep
        self.link: Link | None = None
        self.welcomed = False
        self.session: RemoteSession | None = None
        self.store: MirrorStore | None = None
        self.gone: str | None = None
        self.refused: str | None = None
        #: The last of this device's acts the table said (in its welcome) it judged.
        self.judged = 0
        self._notices: list[Notice] = []
        kept = self._read()
        self.client = str(kept.get("client") or client or f"phone-{secrets.token_hex(6)}")
        self.next_seq = int(kept.get("next_seq", 1))
        self.queue: list[Act] = [Act.from_dict(a) for a in kept.get("queue", [])]
        #: The seat the kept queue was made by (``[who, role]``, from the last welcome):
        #: under the hub one browser's storage may be shared by two members in turn.
        seat = kept.get("seat")
        self.seat: tuple[str, str] | None = (
            (seat[0], seat[1]) if isinstance(seat, list) and len(seat) == 2
            and all(isinstance(part, str) for part in seat) else None)
        self._save()

    # -- what is kept ------------------------------------------------------------------

    def _read(self) -> dict[str, Any]:
        if self.keep is None:
            return {}
        try:
            data = json.loads(self.keep.read() or "{}")
        except ValueError:
            return {}
        return data if isinstance(data, dict) else {}

    def _save(self) -> None:
        if self.keep is not None:
            kept: dict[str, Any] = {"client": self.client, "next_seq": self.next_seq,
                                    "queue": [a.to_dict() for a in self.queue]}
            if self.seat is not None:
                kept["seat"] = list(self.seat)
            self.keep.write(json.dumps(kept))

    # -- notices -----------------------------------------------------------------------

    def on_notice(self, listener: Notice) -> None:
        """Call ``listener(kind, text)`` on every notice for the page: ``"welcome"``,
        ``"offline"``, ``"waiting"`` (acts queued for the table), ``"accepted"``,
        ``"refused"`` (an act the table refused, its reason), ``"gone"`` (the seat was
        revoked), ``"error"`` (a frame the table refused)."""
        self._notices.append(listener)

    def _tell(self, kind: str, text: str) -> None:
        for listener in list(self._notices):
            listener(kind, text)

    @property
    def ready(self) -> bool:
        return self.session is not None

    # -- the wire ----------------------------------------------------------------------

    def hello(self) -> str:
        last = self.store.top if self.store is not None and self.welcomed else 0
        return json.dumps({"type": "hello", "v": PROTOCOL_VERSION, "campaign": self.campaign,
                           "secret": self.secret, "client": self.client, "last_seen": last})

    def connected(self, link: Link) -> None:
        """The socket is open: say hello (the queue follows the welcome)."""
        self.link = link
        self.welcomed = self.session is not None
        link.send(self.hello())

    def disconnected(self) -> None:
        self.link = None
        self._tell("offline", self._waiting_line())

    def _waiting_line(self) -> str:
        n = len(self.queue)
        return (f"{n} move{'s' if n != 1 else ''} waiting for the table" if n
                else "not connected to the table")

    def submit(self, act: Act) -> None:
        """Number ``act`` for this device, keep it, and send it if the socket is up."""
        if self.gone is not None:
            raise SeatError(self.gone)
        act = dataclasses.replace(act, client=self.client, seq=self.next_seq)
        if len(json.dumps({"type": "act", "act": act.to_dict()})) > MAX_ACT_BYTES:
            # Said now: sent, it would be refused without its number (or close the
            # socket), and stay in the queue, sent again on every reconnect.
            raise CompanionError(TOO_BIG_LINE)
        self.next_seq += 1
        self.queue.append(act)
        self._save()
        if not (self.link is not None and self.session is not None and self.welcomed
                and self._send_act(act)):
            self._tell("waiting", self._waiting_line())

    def _send_act(self, act: Act) -> bool:
        assert self.link is not None
        return self.link.send(json.dumps({"type": "act", "act": act.to_dict()}))

    def receive(self, text: str) -> None:
        """One frame from the table."""
        try:
            frame = json.loads(text)
        except ValueError:
            return
        if not isinstance(frame, dict):
            return
        kind = frame.get("type")
        if kind == "welcome":
            self._welcome(frame)
        elif kind == "events":
            self._follow(frame.get("events", []), int(frame.get("head", 0)))
        elif kind in ("accepted", "refused") and "seq" in frame:
            self._answer(frame)
        elif kind == "refused":
            self.refused = str(frame.get("reason", ""))
            self._tell("error", self.refused)
        elif kind == "gone":
            self.gone = str(frame.get("reason", ""))
            if self.session is not None:
                self.session.lose_seat()
            self._tell("gone", self.gone)

    def _welcome(self, frame: dict[str, Any]) -> None:
        if not self._same_seat(str(frame.get("who", "")), str(frame.get("role", ""))):
            return
        head = int(frame.get("head", 0))
        judged = frame.get("judged", 0)
        # Acts the table judged already (their answers lost with the last socket): their
        # events are in this welcome, so they are not made again here on top of them.
        self.judged = judged if type(judged) is int else 0
        members = frame.get("members", [])
        state = {"members": [{**m, "member_format": MEMBER_FORMAT} for m in members],
                 "chain": _NO_CHAIN}
        if self.session is None:
            store = self.store = MirrorStore(str(frame.get("campaign", self.campaign)),
                                             list(frame.get("rulesets", [])),
                                             str(frame.get("uid", "")))
            store.receive(frame.get("events", []), head)
            store.saves = (head, state)
            campaign = MirrorCampaign.open(store, store.campaign_info.name,
                                           who=str(frame["who"]), role=str(frame["role"]))
            assert isinstance(campaign, MirrorCampaign)
            self.session = RemoteSession(campaign, self)
        else:
            self._follow(frame.get("events", []), head, saves=members)
        self.welcomed = True
        self._tell("welcome", f"at the table as {frame.get('who')} ({frame.get('role')})")
        for act in list(self.queue):  # in order; each answered by its seq
            if self.link is None or not self._send_act(act):
                break

    def _same_seat(self, who: str, role: str) -> bool:
        """Keep the queue only for the seat that made it. The table decides who this
        device is (the hub's login, or the link's secret): when a welcome names another
        seat than the one the kept acts were made by (two members signing in on one
        browser in turn), those acts are dropped unsent, never made as the new seat, and
        the player is told. A page already built for the old seat stops acting."""
        kept = self.seat
        self.seat = (who, role)
        if kept is None or (kept[0].casefold(), kept[1]) == (who.casefold(), role):
            self._save()
            return True
        dropped = len(self.queue)
        self.queue, self.next_seq, self.judged = [], 1, 0
        self.client = f"phone-{secrets.token_hex(6)}"
        self._save()
        if dropped:
            self._tell("refused", f"{dropped} move{'s' if dropped != 1 else ''} made on "
                       f"this device as {kept[0]} {'were' if dropped != 1 else 'was'} not "
                       f"sent: the table knows this device as {who} now")
        if self.session is None:
            return True
        # The sheets on this page are the old seat's: it acts no more (a reload opens
        # the new seat's).
        self.gone = (f"this device is at the table as {who} now, not {kept[0]}: reload "
                     "the page")
        self.session.lose_seat()
        self._tell("gone", self.gone)
        return False

    def _follow(self, events: Sequence[dict[str, Any]], head: int,
                saves: Sequence[dict[str, Any]] | None = None) -> None:
        """Apply the table's events (any not held yet); with ``saves`` (a welcome after a
        drop), end with each tracker equal to the table's save of it."""
        if self.store is None or self.session is None:
            return
        campaign = self.session.mirror
        self.store.receive(events, head)
        try:
            campaign.follow()
        except CompanionError:
            # An event this mirror cannot apply (another seat's hidden value left out):
            # the saves of the next welcome are the table's word, so the socket is
            # opened again (a transport that cannot close is left to its next drop).
            closing = getattr(self.link, "close", None)
            if saves is None and callable(closing):
                closing()
            campaign.head = self.store.top
        if saves is not None:
            for member in saves:
                try:
                    tracker = campaign.tracker(str(member["id"]))
                except CompanionError:
                    continue
                if tracker.to_dict() != member["save"]:
                    tracker.restore_save(member["save"])
        campaign.head = max(campaign.head, self.store.top)
        campaign.ahead([a for a in self.queue if a.seq > self.judged])

    def _answer(self, frame: dict[str, Any]) -> None:
        seq = frame.get("seq")
        act = next((a for a in self.queue if a.seq == seq), None)
        if act is None:
            return  # answered already (a replay after a resend)
        self.queue.remove(act)
        self._save()
        events = frame.get("events", [])
        # Accepted: its events replace what the phone made ahead; refused: that is taken
        # back (the others still waiting are made again on the table's state).
        self._follow(events, int(frame.get("head", 0)))
        if frame["type"] == "accepted":
            outcome: Outcome = Accepted(act, tuple(events), frame.get("result"),
                                        frame.get("roll"))
            self._tell("accepted", str(act))
        else:
            reason = str(frame.get("reason", ""))
            outcome = Refused(act, reason)
            self._tell("refused", f"{_act_name(act)}: {reason}")
        if self.session is not None:
            for listener in list(self.session.answered):
                listener(outcome)


def _ahead(cls: type[Tracker], move: str) -> bool:
    """Whether a phone makes ``move`` at once, ahead of its answer: a move that rolls no
    dice (the table's dice are the table's)."""
    params = move_parameters(cls, move)
    return "rng" not in params and "seed" not in params


def _act_name(act: Act) -> str:
    return act.move.replace("_", " ")
