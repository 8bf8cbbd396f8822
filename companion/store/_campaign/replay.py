"""Replay: a campaign's live state rebuilt from the store's facts. Opening (the newest
snapshot, then the events after it), the snapshots themselves (their digest, when one is
due), applying each stored event after checking that it follows the chain, the undo
marks kept beside each tracker's log, seating each tracker at the table, and following
what other screens store (``changed``, ``refresh``, ``wait``). No rule code runs here: a
stored event is a fact.

Package-private (``companion.store._campaign``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Self

from companion.errors import CompanionError
from companion.sittings import SittingState
from companion.state import Tracker, is_move
from companion.store._campaign.core import (
    TRACKER_ROLES,
    UNDO_LIMIT,
    CampaignCore,
    Mark,
    Member,
    locked,
    trim_marks,
    unknown_marks,
)
from companion.store.chain import ChainError, check_chain, event_hash, is_hash
from companion.store.records import StoredEvent, StoreError
from companion.store.registry import tracker_class
from companion.store.upcast import (
    MEMBER_FORMAT,
    OlderStates,
    convert_store,
    fact_schema,
    needs_upcast,
    upcast_event,
    upcast_member,
)

if TYPE_CHECKING:
    from companion.store.port import Store


#: A snapshot of the whole campaign is stored every this many events.
SNAPSHOT_EVERY = 100


def snapshot_digest(uid: str, state: Mapping[str, Any]) -> str:
    """The SHA-256 a snapshot keeps of itself (issue 49): the campaign's identity and the
    snapshot's JSON (its ``chain`` included, its ``digest`` left out), as a store writes
    it. A snapshot edited by hand (a DEX 10 made 3) no longer matches it and is not used:
    the state is rebuilt from the events, which are the truth. Whoever edits the database
    can compute it again, as they can a chain; an export's ``verify`` still judges the
    events, never the snapshot."""
    body = {k: v for k, v in state.items() if k != "digest"}
    # Through JSON first, as the store keeps it (tuples as lists, keys as text).
    text = json.dumps(json.loads(json.dumps(body, ensure_ascii=False)), ensure_ascii=False,
                      sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(f"{uid}\n{text}".encode()).hexdigest()


class Replay(CampaignCore):
    """The campaign's state from its stored facts (see the module)."""

    # -- opening -------------------------------------------------------------------------

    @classmethod
    def open(cls, store: Store, name: str, *, who: str = "", role: str = "") -> Self:
        """Open the campaign ``name``: newest snapshot plus the events after it.

        A database written before events were facts is converted first, once
        ([convert_store][companion.store.upcast.convert_store])."""
        store.get_campaign(name)  # an unknown name is said before any conversion
        convert_store(store)
        info = store.get_campaign(name)  # as converted (the conversion chains anew)
        # Damage is found before anything is written: a missing event or a count that
        # disagrees (cheap aggregates), then the whole chain (before the snapshot too).
        store.check_log(info)
        campaign = cls(store, info, who=who, role=role)
        snap = store.latest_snapshot(info.id)
        if snap is not None and snap[0] <= info.head and is_hash(snap[1].get("chain")) \
                and snap[1].get("digest") == snapshot_digest(info.uid, snap[1]):
            try:
                campaign._load_state(snap[1])
                campaign.head = campaign._snapshot_seq = snap[0]
                campaign.chain = snap[1]["chain"]
            except (CompanionError, KeyError, TypeError, ValueError):
                campaign = cls(store, info, who=who, role=role)  # not readable: replay all
        recorded = (info.head, info.chain)
        try:
            campaign._apply_all(store.events_since(info.id, campaign.head), recorded)
        except StoreError:
            if not campaign._snapshot_seq:
                raise
            # The snapshot (only a cache) does not match the events, the truth: rebuilt
            # from them (a later snapshot replaces it); real damage is named by the replay.
            campaign = cls(store, info, who=who, role=role)
            campaign._apply_all(store.events_since(info.id, 0), recorded)
        campaign._after_append()  # a long tail (a migrated or imported log): snapshot it now
        return campaign

    def _load_state(self, state: dict[str, Any]) -> None:
        members: dict[str, Member] = {}
        self._older = OlderStates()
        for item in state["members"]:
            cls = tracker_class(item["kind"])
            # History, restored as it was stored: today's invariants judge moves, not it.
            tracker = cls.from_dict(item["save"], checked=False)
            self._older.restored(item["id"], cls, fact_schema(item["save"]),
                                 item["save"]["state"])
            # An older member record (its role, owner) upgraded by its upcasters.
            item = upcast_member(item, [m.name for m in members.values() if m.role == "party"])
            role, owner = item["role"], item.get("owner", "")
            member = Member(item["id"], item["name"], role, item["kind"], tracker, str(owner))
            marks = item.get("marks")
            if isinstance(marks, list) and len(marks) == len(tracker.log):
                member.marks = [Mark(int(m[0]), str(m[1]), str(m[2]), bool(m[3]), int(m[4]))
                                for m in marks]
            else:
                member.marks = unknown_marks(len(tracker.log), len(members) * UNDO_LIMIT)
            members[item["id"]] = self._adopt(member)
        self.members = members
        self.sitting = SittingState.from_dict(state.get("sitting"))

    def snapshot(self) -> dict[str, Any]:
        """What a snapshot keeps: the [state][companion.store.campaign.Campaign.state], the
        chain's head it follows and its [digest][companion.store.campaign.snapshot_digest]."""
        state = {**self.state(), "chain": self.chain}
        state["digest"] = snapshot_digest(self.info.uid, state)
        return state

    def state(self) -> dict[str, Any]:
        """The whole campaign's state (what a snapshot keeps)."""
        for member in self.members.values():
            trim_marks(member)
        return {"members": [{"id": m.id, "name": m.name, "role": m.role, "kind": m.key,
                             "member_format": MEMBER_FORMAT,
                             "save": m.tracker.to_dict(),
                             "marks": [k.to_list() for k in m.marks],
                             **({"owner": m.owner} if m.owner else {})}
                            for m in self.members.values()],
                "sitting": self.sitting.to_dict()}

    # -- following the store -----------------------------------------------------------

    def changed(self) -> bool:
        """Whether someone else appended since this object last looked (one cheap read)."""
        return self._need_store().head(self.info.id) != self.head

    @locked
    def refresh(self) -> bool:
        """Apply the events others appended since; True if there were any."""
        store = self._need_store()
        new = store.events_since(self.info.id, self.head)
        if new:
            self._apply_all(new)
            self._changed()
        return bool(new)

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for another screen's move, then apply it.

        True if something changed. PostgreSQL wakes on ``NOTIFY`` at once; SQLite checks
        the head five times a second (a single indexed read), so neither busy-loops.
        """
        store = self._need_store()
        if store.wait_for_change(self.info.id, self.head, timeout) == self.head:
            return False
        return self.refresh()

    def log(self, kinds: Sequence[str] = ()) -> list[StoredEvent]:
        """Every event of the campaign, oldest first (only ``kinds`` if given)."""
        return self._need_store().events_since(self.info.id, 0, kinds=kinds)

    def checked_log(self) -> list[StoredEvent]:
        """Every event, its whole chain checked up to this campaign's head (a
        [ChainError][companion.store.chain.ChainError] names the first bad event)."""
        events = self.log()
        try:
            check_chain(self.info.uid, events, head=(self.head, self.chain))
        except ChainError as exc:
            raise ChainError(f"{self._need_store().where} is damaged: campaign "
                             f"{self.name!r}: {exc}") from None
        return events

    def _after_append(self) -> None:
        if self.store is not None and self.head - self._snapshot_seq >= SNAPSHOT_EVERY \
                and not self.store.read_only and self.store.keep_snapshots:
            try:  # the chain's head at the snapshot: a snapshot that does not follow is
                # not used (see ``open``)
                self.store.put_snapshot(self.info.id, self.head, self.snapshot())
                self._snapshot_seq = self.head
            except StoreError:
                pass  # a snapshot is only a cache: the events are already safe

    # -- applying stored events ----------------------------------------------------------

    def _apply_all(self, stored: Sequence[StoredEvent],
                   recorded: tuple[int, str] | None = None) -> None:
        """Apply events in order; ``recorded``: the ``(head, hash)`` the campaign's row
        records, which the chain must meet."""
        if not self.follows_chain:
            recorded = None
        for event in stored:
            self._apply(event)
            if recorded is not None and event.seq == recorded[0] and self.chain != recorded[1]:
                raise self._chain_error(ChainError(
                    f"event {event.seq} is not the one the campaign recorded as its newest "
                    "(changed or replaced)"))
        if recorded is not None and self.head < recorded[0]:
            raise self._chain_error(ChainError(
                f"event {self.head + 1} is missing (the campaign records {recorded[0]} "
                "events)"))
        if recorded is not None and self.head == recorded[0] and self.chain != recorded[1]:
            raise self._chain_error(ChainError(
                f"event {self.head} is not the one the campaign recorded as its newest "
                "(changed or replaced)"))

    def _chain_error(self, exc: ChainError) -> ChainError:
        where = self.store.where if self.store is not None else "the campaign file"
        return ChainError(f"{where} is damaged: campaign {self.name!r}: {exc}")

    def _apply(self, event: StoredEvent) -> None:
        """Apply one stored event to the live state (replay), after checking that it
        follows the one before it (the chain)."""
        if self.follows_chain:
            try:
                check_chain(self.info.uid, [event], prev=self.chain, first=self.head + 1)
            except ChainError as exc:
                raise self._chain_error(exc) from None
        try:
            self._apply_unchecked(event)
        except (CompanionError, KeyError, TypeError, ValueError) as exc:
            what = f"{event.kind} {event.move or ''} on {event.tracker}".replace("  ", " ")
            raise StoreError(f"campaign {self.name!r}: event {event.seq} ({what}) cannot be "
                             f"applied: {exc}") from None
        step = event.data.get("step", event.seq) if isinstance(event.data, dict) else event.seq
        self._mark(event, step if type(step) is int else event.seq)
        self._follow_sitting(event)
        self.head = event.seq
        self.chain = event_hash(self.info.uid, event)

    def _follow_sitting(self, event: StoredEvent) -> None:
        if isinstance(event.data, dict):
            number = self.sitting.number
            self.sitting.apply(event.seq, event.kind, event.data)
            if self.sitting.number != number:
                self._next_server_seed = None  # a sitting opened (here or elsewhere)

    def _apply_unchecked(self, event: StoredEvent) -> None:
        data = event.data
        if event.kind == "add":
            # A stored state is a fact: restored as it was (types only), its schema
            # version upgraded by the ruleset's upcasters; no invariant of today judges it.
            cls = tracker_class(data["kind"])
            version = fact_schema(data)
            tracker = cls.from_state(data["state"], schema=version, checked=False)
            if not isinstance(event.tracker, str) or not event.tracker:
                raise StoreError("it adds a tracker with no id")
            # The member record (name, role, owner) of an older format: its upcasters.
            data = upcast_member(data, [m.name for m in self.members.values()
                                        if m.role == "party"])
            role, owner = data["role"], data.get("owner", "")
            if role not in TRACKER_ROLES or not isinstance(owner, str):
                raise StoreError(f"a tracker's role {role!r} or owner {owner!r} is not one "
                                 "this program knows")
            self.members[event.tracker] = self._adopt(
                Member(event.tracker, data["name"], role, data["kind"], tracker, owner))
            self._older.restored(event.tracker, cls, version, data["state"])
        elif event.kind in ("roll", "reveal", "sitting"):
            pass
        else:
            # Facts only: no rule code runs (a move that raises today, or a rule that
            # changed, cannot alter or block a stored past).
            member = self.members[str(event.tracker)]
            tracker = member.tracker
            if event.kind in ("move", "undo") and needs_upcast(event):
                # Written in an older format after the conversion (an older process still
                # running then): upgraded as it is read, never a reason to refuse.
                upcast_event(event, {member.id: tracker})
                tracker.trim_log(UNDO_LIMIT)
                self._older.forget(member.id)
            elif event.kind in ("move", "undo"):
                if event.kind == "move" and self.store is None and not is_move(
                        getattr(type(tracker), str(event.move), None)):
                    # An import (a file from anywhere) names only real moves; an open
                    # database keeps a move a later version renamed as the fact it was.
                    raise StoreError(f"{str(event.move)[:40]!r} is not a move of a "
                                     f"{type(tracker).saved_kind()}")
                self._older.fact(member.id, tracker, event.kind, str(event.move),
                                 data.get("args", {}), str(data.get("summary", "")),
                                 data["change"], fact_schema(data))
                tracker.trim_log(UNDO_LIMIT)
            elif event.kind == "set":
                tracker.restore_save(data["save"])
                tracker.trim_log(UNDO_LIMIT)
                self._older.restored(member.id, type(tracker), fact_schema(data["save"]),
                                     data["save"]["state"])
            elif event.kind == "remove":
                # The object stays attached: a move on it says it left the campaign.
                del self.members[member.id]
                self._older.forget(member.id)
            else:
                raise StoreError(f"unknown event kind {event.kind!r}")

    def _mark(self, event: StoredEvent, group: int) -> None:
        """Keep, beside a tracker's undo log, who made each of its moves (undo rules)."""
        member = self.members.get(str(event.tracker)) if event.tracker else None
        if member is None:
            return
        if event.kind == "move":
            rolled = bool(event.data.get("rolled")) or event.seed is not None
            member.marks.append(Mark(event.seq, event.who, event.role, rolled, group))
            trim_marks(member)
        elif event.kind == "undo" and member.marks:
            member.marks.pop()
        elif event.kind == "set":
            member.marks.clear()

    # -- seating trackers ----------------------------------------------------------------

    def _adopt(self, member: Member) -> Member:
        """Make the campaign the tracker's recorder (its moves, undo and load are stored;
        through its ``keeper``, a table session, when one holds it) and seat it at the
        campaign's table: the links its ruleset declares
        ([Tracker.links][companion.state.Tracker.links]) resolve to the members, by id."""
        member.tracker.attach(self.keeper if self.keeper is not None else self)
        member.tracker.link(self.trackers)
        self._by_tracker[id(member.tracker)] = member
        return member

    def _member_of(self, tracker: Tracker) -> Member:
        member = self._by_tracker.get(id(tracker))
        if member is None or member.tracker is not tracker:
            raise StoreError(f"this {type(tracker).saved_kind()} is not in campaign "
                             f"{self.name!r}")
        return member

    def _check_member(self, member: Member) -> None:
        if self.members.get(member.id) is not member:
            raise StoreError(f"{member.name} is no longer in campaign {self.name!r}")
