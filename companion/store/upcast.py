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
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from companion.errors import CompanionError
from companion.state import Tracker, state_change
from companion.store.records import StoredEvent, StoreError
from companion.store.registry import decode_args, move_parameters, tracker_class

if TYPE_CHECKING:
    from companion.store.port import Store

__all__ = ["EVENT_FORMAT", "FACTS_MARKER", "chain_events", "chain_store", "convert_store",
           "needs_upcast", "upcast", "upcast_event"]

#: The event format this version writes: moves and undos as facts.
EVENT_FORMAT = 2

#: The marker a converted database carries (``companion_meta``).
FACTS_MARKER = ("event_format", str(EVENT_FORMAT))

#: What a kept copy of a converted SQLite file is called (beside it).
BACKUP_SUFFIX = ".before-facts.bak"

#: Moves each tracker could take back in format 1 (its log kept this many).
_UNDO_LIMIT = 25


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
    out: list[StoredEvent] = []
    for event in events:
        try:
            data = _upcast_one(event, trackers)
        except (CompanionError, KeyError, TypeError, ValueError, AttributeError) as exc:
            what = f"{event.kind} {event.move or ''} on {event.tracker}".replace("  ", " ")
            raise StoreError(f"campaign {campaign!r}: event {event.seq} ({what}) cannot be "
                             f"converted to this version's format: {exc}") from None
        out.append(StoredEvent(event.seq, event.at, event.who, event.role, event.kind,
                               event.tracker, event.move, event.seed, data))
    return out


def _upcast_one(event: StoredEvent, trackers: dict[str, Tracker]) -> dict[str, Any]:
    data = event.data
    if event.kind == "add":
        tracker = tracker_class(data["kind"]).from_state(data["state"])
        trackers[str(event.tracker)] = tracker
        return data
    if event.kind == "remove":
        trackers.pop(str(event.tracker), None)
        return data
    if event.kind == "set":
        tracker = trackers[str(event.tracker)]
        tracker.restore_save(data["save"])
        tracker.trim_log(_UNDO_LIMIT)
        return data
    if event.kind not in ("move", "undo"):
        return data
    tracker = trackers[str(event.tracker)]
    if data.get("v") == EVENT_FORMAT:  # already a fact: apply it
        if event.kind == "move":
            tracker.apply_fact(str(event.move), data.get("args", {}), data.get("summary", ""),
                               data["change"])
        else:
            tracker.apply_undo_fact(data["change"])
        tracker.trim_log(_UNDO_LIMIT)
        return data
    before = tracker.snapshot()
    out: dict[str, Any] = {"v": EVENT_FORMAT}
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
        out["v"] = EVENT_FORMAT
        if event.seed is not None or "hidden" in data or data.get("physical"):
            out["rolled"] = True
    tracker.trim_log(_UNDO_LIMIT)
    out["change"] = state_change(before, tracker.snapshot())
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
