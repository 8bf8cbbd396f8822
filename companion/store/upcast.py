"""Upcasters: events stored by older versions, read as today's facts.

A campaign's log is a record of what happened at the table. Since event format 2, a
stored move carries what it changed (``"change"``: the steps from the tracker's state
before to its state after, [state_change][companion.state.state_change]); opening,
refreshing, exporting and importing apply those facts and never call rule code.

Format 1 (the versions before 2026-11-26) stored a move as a command (the move's name,
arguments and seed) that was made again on every open. [upcast][companion.store.upcast.upcast]
turns such a log into facts by making those commands once more, here and only here,
with the rule code of the day of the conversion, and keeping what they changed. A
database is converted once, in one transaction, after a copy of its file is kept beside
it ([convert_store][companion.store.upcast.convert_store]); an exported document of
format 1 is converted as it is imported.

Format 2 events carried no chain. Format 3 (schema version 4) chains them: each event
carries the hash of the one before it and every hash includes the campaign's identity
([companion.store.chain][]). [chain_events][companion.store.upcast.chain_events] gives an
older log its chain as it is (nothing in an event is changed): a database's campaigns are
chained by its migration ([chain_store][companion.store.upcast.chain_store]), an older
export as it is imported (under a new identity). The chain then proves that nothing
changed *since* the conversion; what happened before it, only the copy kept beside an
SQLite file (or an older export someone kept) can show.

Interpretation: a format 1 event that today's rules refuse to make again cannot be
converted; the campaign is then left as it is and opening it says which event and why
(nothing is guessed, nothing is lost).

Schema versions (one per tracker class)
---------------------------------------

Each tracker class carries the version of its state
([Tracker.schema][companion.state.Tracker.schema], 1 unless raised). A stored state (an
``add`` event's ``"state"``, a save in a ``set`` event or a snapshot) and a stored fact
(a move's or undo's ``"change"``) record the version they were written at (``"schema"``;
absent: 1). An older version is upgraded by the upcasters its ruleset registers, one per
version step (``@upcaster(Character, from_version=1)``,
[upcaster][companion.state.upcaster]); replay itself holds no special case of an old
format. A stored change fits the state of its own version, so while a tracker's facts are
of an older version its stored-form state is kept beside it
([OlderStates][companion.store.upcast.OlderStates]): each change is applied to that form,
which is then upgraded. A version newer than this program's is refused in one line.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from companion.errors import CompanionError, StateError
from companion.state import Tracker, apply_change, check_schema, state_change, upcast_state
from companion.store.records import StoredEvent, StoreError
from companion.store.registry import decode_args, move_parameters, tracker_class

if TYPE_CHECKING:
    from companion.store.port import Store

__all__ = [
    "CONVERTED",
    "EVENT_FORMAT",
    "FACTS_MARKER",
    "MEMBER_FORMAT",
    "OlderStates",
    "chain_events",
    "chain_store",
    "convert_store",
    "fact_schema",
    "member_upcaster",
    "needs_upcast",
    "upcast",
    "upcast_event",
    "upcast_member",
]

#: The event format this version writes: moves and undos as facts.
EVENT_FORMAT = 2

#: The mark of a fact an upcaster made from a format 1 command (its format, 1): a replay
#: ([companion.store.recompute][]) names it "logged by an older version", never remakes it.
CONVERTED = "from_format"

#: The marker a converted database carries (``companion_meta``).
FACTS_MARKER = ("event_format", str(EVENT_FORMAT))

#: What a kept copy of a converted SQLite file is called (beside it).
BACKUP_SUFFIX = ".before-facts.bak"

#: Moves each tracker could take back in format 1 (its log kept this many).
_UNDO_LIMIT = 25


#: The format of a campaign's member record (an ``add`` event's or a snapshot's member:
#: name, role, owner) this version writes (``"member_format"``; absent: 1).
MEMBER_FORMAT = 2

#: Upcasters of member records, by the format each reads (one per step).
_MEMBER_UPCASTERS: dict[int, Callable[[dict[str, Any], Sequence[str]], dict[str, Any]]] = {}


def member_upcaster(*, from_version: int
                    ) -> Callable[[Callable[[dict[str, Any], Sequence[str]], dict[str, Any]]],
                                  Callable[[dict[str, Any], Sequence[str]], dict[str, Any]]]:
    """Register the upcaster of a member record from format ``from_version`` to the next:
    a function of the record (a copy) and the party members' names so far."""
    if not 1 <= from_version < MEMBER_FORMAT or from_version in _MEMBER_UPCASTERS:
        raise ValueError(f"a member record's upcaster reads a format from 1 to "
                         f"{MEMBER_FORMAT - 1}, one each, not {from_version!r}")

    def register(fn: Callable[[dict[str, Any], Sequence[str]], dict[str, Any]]
                 ) -> Callable[[dict[str, Any], Sequence[str]], dict[str, Any]]:
        _MEMBER_UPCASTERS[from_version] = fn
        return fn

    return register


def upcast_member(record: dict[str, Any], party: Sequence[str]) -> dict[str, Any]:
    """A stored member record (an ``add`` event's data, a snapshot's member) in today's
    format, by its upcasters; ``party``: the party members' names added before it. A
    newer format is refused in one line."""
    version = record.get("member_format", 1)
    if type(version) is not int or not 1 <= version <= MEMBER_FORMAT:
        raise StoreError(f"a member record of format {str(version)[:20]}: this program "
                         f"reads formats 1 to {MEMBER_FORMAT} (open it with a newer version)")
    for step in range(version, MEMBER_FORMAT):
        record = _MEMBER_UPCASTERS[step](dict(record), party)
    return {**record, "member_format": MEMBER_FORMAT} if version != MEMBER_FORMAT else record


#: How a member's own records were named before they had the role "record" and an owner
#: ("Hit Dice: Ash", "Item: Ash: Wand").
LEGACY_RECORD_PREFIXES = ("Hit Dice: ", "Turn: ", "Reactions: ", "Facing: ", "Item: ")


def record_owner_by_name(name: str, party: Iterable[str]) -> str:
    """The owner a record's name gives it under the naming of member format 1 (see
    ``LEGACY_RECORD_PREFIXES``; ``party``: the party members' names), else "" (a real
    party member's name). Today a party member may not be named so."""
    prefix = next((p for p in LEGACY_RECORD_PREFIXES if name.startswith(p)), None)
    if prefix is None:
        return ""
    rest = name[len(prefix):]
    item = prefix == "Item: "
    owners = [m for m in party if (rest.startswith(m + ": ") if item else rest == m)]
    if owners:
        return max(owners, key=len)
    return rest.partition(": ")[0] if item else rest


@member_upcaster(from_version=1)
def _records_had_no_role(record: dict[str, Any], party: Sequence[str]) -> dict[str, Any]:
    """Format 1 to 2: before records had the role "record" and an owner, a member's
    record was a party tracker named after its owner ("Hit Dice: Ash"): read as Ash's
    record."""
    if record.get("role") == "party" and isinstance(record.get("name"), str):
        owner = record_owner_by_name(record["name"], party)
        if owner:
            record["role"], record["owner"] = "record", owner
    return record


def fact_schema(data: Any) -> Any:
    """The schema version a stored state or fact was written at (absent: 1)."""
    return data.get("schema", 1) if isinstance(data, dict) else 1


class OlderStates:
    """Replay of facts stored at an older schema version than a tracker's today.

    A stored change is the difference between two states *of its own version*; applied
    to a state already upgraded it could miss or misplace a field. So while a tracker's
    facts are of an older version, its state in that version's form is kept here (by the
    tracker's id); each change is applied to it and the result upgraded
    ([upcast_state][companion.state.upcast_state]) and restored on the tracker as it is.
    A fact of today's version ends it (the older form is no longer needed)."""

    def __init__(self) -> None:
        self._older: dict[str, tuple[int, Any]] = {}

    def restored(self, key: str, cls: type[Tracker], version: int, state: Any) -> None:
        """The tracker ``key`` was (re)built from ``state``, stored at ``version``."""
        if version < cls.schema:
            self._older[key] = (version, state)
        else:
            self._older.pop(key, None)

    def forget(self, key: str) -> None:
        self._older.pop(key, None)

    def current(self, key: str) -> bool:
        """Whether the tracker ``key`` is replayed in today's form (no older one kept)."""
        return key not in self._older

    def fact(self, key: str, tracker: Tracker, kind: str, move: str, args: dict[str, Any],
             summary: str, change: Any, version: Any) -> None:
        """Apply a stored move (``kind`` ``"move"``) or undo fact, of schema ``version``,
        to ``tracker`` (the tracker ``key``). No rule code runs."""
        cls = type(tracker)
        check_schema(cls, version, cls._where())
        if version == cls.schema:
            self._older.pop(key, None)
            if kind == "move":
                tracker.apply_fact(move, args, summary, change)
            else:
                tracker.apply_undo_fact(change)
            return
        older = self._older.get(key)
        if older is None or older[0] != version:
            raise StateError(f"a fact of schema version {version} follows one of another "
                             "version (written by an older program after a newer one): "
                             "its change fits a state this program does not keep")
        after = apply_change(older[1], change)
        self._older[key] = (version, after)
        tracker.apply_fact_state(move if kind == "move" else None, args, summary,
                                 upcast_state(cls, after, version))


def chain_events(campaign_id: str, events: Sequence[StoredEvent]) -> list[StoredEvent]:
    """The unchained log ``events`` (format 2 and older) with its chain: each event's
    ``prev`` set to the hash of the one before, in the campaign ``campaign_id``."""
    from companion.store.chain import event_hash

    out: list[StoredEvent] = []
    prev = ""
    for e in events:
        linked = StoredEvent(e.seq, e.at, e.who, e.role, e.kind, e.tracker, e.move, e.seed,
                             e.data, prev)
        prev = event_hash(campaign_id, linked)
        out.append(linked)
    return out


def chain_store(conn: Any) -> None:
    """Chain every campaign of a database being migrated to schema 4 (inside the
    migration's transaction, ``conn``): a new identity for each campaign, every event's
    ``prev``, each campaign's head. A row too damaged to read is chained as it is stored
    (opening the campaign then names it as damaged, as before)."""
    import json

    import sqlalchemy as sa

    from companion.store.chain import event_hash, new_campaign_id
    from companion.store.schema import campaigns, events

    set_prev = (sa.update(events)
                .where(events.c.campaign_id == sa.bindparam("cid"),
                       events.c.seq == sa.bindparam("s"))
                .values(prev=sa.bindparam("p")))
    for (cid,) in conn.execute(sa.select(campaigns.c.id)).all():
        uid = new_campaign_id()
        rows = conn.execute(sa.select(events).where(events.c.campaign_id == cid)
                            .order_by(events.c.seq)).all()
        stored = []
        for row in rows:
            try:
                data = json.loads(row.data)
            except (TypeError, ValueError, RecursionError):
                data = row.data
            stored.append(StoredEvent(row.seq, row.at, row.who, row.role, row.kind,
                                      row.tracker, row.move, row.seed, data))
        chained = chain_events(uid, stored)
        if chained:
            conn.execute(set_prev, [{"cid": cid, "s": e.seq, "p": e.prev} for e in chained])
        # The head is the newest row's hash; a count that disagrees with the rows (a
        # deleted row) is left for opening to report as damage.
        last = event_hash(uid, chained[-1]) if chained else ""
        conn.execute(sa.update(campaigns).where(campaigns.c.id == cid)
                     .values(uid=uid, chain=last))


def needs_upcast(event: StoredEvent) -> bool:
    """Whether ``event`` is a format 1 move or undo (a command, not a fact)."""
    return event.kind in ("move", "undo") and event.data.get("v") != EVENT_FORMAT


def upcast(events: Sequence[StoredEvent], campaign: str) -> list[StoredEvent]:
    """The log ``events`` with every format 1 move and undo made a fact.

    The trackers are rebuilt from the log's own ``add`` events; each command is made once
    on them (the format 1 replay). Raises [StoreError][companion.store.db.StoreError]
    naming the event that cannot be converted.
    """
    trackers: dict[str, Tracker] = {}
    older = OlderStates()
    out: list[StoredEvent] = []
    for event in events:
        try:
            data = _upcast_one(event, trackers, older)
        except (CompanionError, KeyError, TypeError, ValueError, AttributeError) as exc:
            what = f"{event.kind} {event.move or ''} on {event.tracker}".replace("  ", " ")
            raise StoreError(f"campaign {campaign!r}: event {event.seq} ({what}) cannot be "
                             f"converted to this version's format: {exc}") from None
        out.append(StoredEvent(event.seq, event.at, event.who, event.role, event.kind,
                               event.tracker, event.move, event.seed, data))
    return out


def _upcast_one(event: StoredEvent, trackers: dict[str, Tracker],
                older: OlderStates | None = None) -> dict[str, Any]:
    data = event.data
    older = older if older is not None else OlderStates()
    key = str(event.tracker)
    if event.kind == "add":  # a stored state: restored as it is (its version upgraded)
        cls = tracker_class(data["kind"])
        version = fact_schema(data)
        tracker = cls.from_state(data["state"], schema=version, checked=False)
        trackers[key] = tracker
        older.restored(key, cls, version, data["state"])
        return data
    if event.kind == "remove":
        trackers.pop(key, None)
        older.forget(key)
        return data
    if event.kind == "set":
        tracker = trackers[key]
        tracker.restore_save(data["save"])
        tracker.trim_log(_UNDO_LIMIT)
        older.restored(key, type(tracker), fact_schema(data["save"]), data["save"]["state"])
        return data
    if event.kind not in ("move", "undo"):
        return data
    tracker = trackers[key]
    if data.get("v") == EVENT_FORMAT:  # already a fact: apply it
        older.fact(key, tracker, event.kind, str(event.move), data.get("args", {}),
                   str(data.get("summary", "")), data["change"], fact_schema(data))
        tracker.trim_log(_UNDO_LIMIT)
        return data
    older.forget(key)  # a command made again today: its result is of today's version
    before = tracker.snapshot()
    # Marked converted (issue 49): its facts were made here, the upcaster's way (its own
    # generator per move), so verify and an import never judge it again by today's rules.
    out: dict[str, Any] = {"v": EVENT_FORMAT, CONVERTED: 1}
    if event.kind == "undo":
        if tracker.can_undo:
            tracker.undo()
        out["summary"] = data.get("summary", "")
    else:
        cls = type(tracker)
        name = str(event.move)
        if "after" in data:
            tracker.restore_save(data["after"])
        else:
            args = decode_args(cls, name, data["args"])
            if "seed" not in move_parameters(cls, name) and event.seed is not None:
                args["rng"] = random.Random(event.seed)
            getattr(tracker, name)(**args)
        out.update({k: v for k, v in data.items() if k != "after"})
        out["v"], out[CONVERTED] = EVENT_FORMAT, 1
        if event.seed is not None or "hidden" in data or data.get("physical"):
            out["rolled"] = True
    tracker.trim_log(_UNDO_LIMIT)
    out["change"] = state_change(before, tracker.snapshot())
    if type(tracker).schema != 1:
        out["schema"] = type(tracker).schema
    return out


def upcast_event(event: StoredEvent, trackers: dict[str, Tracker]) -> dict[str, Any]:
    """Upgrade one format 1 move or undo as it is read: made once on its tracker (in
    ``trackers``, by id), which it leaves moved; returns the fact it becomes. For an event
    an older process wrote after its database was converted."""
    try:
        return _upcast_one(event, trackers)
    except (CompanionError, KeyError, TypeError, ValueError, AttributeError) as exc:
        raise StoreError(f"event {event.seq} ({event.kind} {event.move or ''} on "
                         f"{event.tracker}) cannot be converted to this version's format: "
                         f"{exc}") from None


def convert_store(store: Store) -> None:
    """Convert every campaign of ``store`` to facts, once (a marker says it is done).

    A copy of an SQLite file is kept beside it first (``…before-facts.bak``); the
    conversion is one transaction. A campaign whose old log cannot be converted stops the
    conversion with a [StoreError][companion.store.db.StoreError] naming the event; the
    database is then left as it was.
    """
    if store.meta_value(FACTS_MARKER[0]) == FACTS_MARKER[1]:
        return
    changed: dict[int, Sequence[StoredEvent]] = {}
    for info in store.list_campaigns():
        events = store.events_since(info.id, 0)
        if any(needs_upcast(e) for e in events):
            changed[info.id] = [e for e in upcast(events, info.name) if needs_upcast_was(e)]
    if changed:
        store.backup_copy(BACKUP_SUFFIX)
    store.rewrite_events(changed, FACTS_MARKER)


def needs_upcast_was(event: StoredEvent) -> bool:
    """Whether an upcast event is one that changed (a move or undo: now a fact)."""
    return event.kind in ("move", "undo")
