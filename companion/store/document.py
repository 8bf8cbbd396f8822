"""An exported campaign as one JSON document: its format, and the checks an import makes
before anything is written.

[check_document][companion.store.document.check_document] applies to a document the same
checks the live API applies to each call (a name the live API refuses is refused here
too), and more that only a file can get wrong: every string is text (no lone surrogate),
nothing nests deeper than [MAX_DEPTH][companion.store.document.MAX_DEPTH], and every
hidden roll's commitment, every reveal and every public roll is verified
([companion.fairplay.verify][]). Both formats of a move are read: the older one with its
``"args"``, and facts (``"v": 2``, a ``"change"`` list of ``[path, value]``/``[path]``
steps). Since document version 3 every event carries ``prev``, the hash of the event before
it, and the document the campaign's identity (``campaign``) and the hash of its newest
event (``chain``): the whole chain is checked ([companion.store.chain][]), so an event
deleted, duplicated, reordered, renumbered, changed or spliced from another campaign is
refused. The first problem is one line naming the event.
"""

from __future__ import annotations

import json
import math
import re
from datetime import datetime
from typing import Any

from companion import fairplay, rulesets
from companion.errors import CompanionError, clipped
from companion.store.records import StoredEvent, StoreError, name_problem

__all__ = ["DOCUMENT_FORMAT", "DOCUMENT_VERSION", "MAX_DEPTH", "MAX_IMPORT_BYTES",
           "MAX_IMPORT_EVENTS",
           "DocumentChecker", "check_document", "check_member_name", "document_text"]

#: Largest campaign file read whole (standard input, a file of an older version, an
#: upload to the serverless apps); a file on disk is read as a stream.
MAX_IMPORT_BYTES = 100_000_000

#: Most events an imported campaign may hold (replaying them all is the import's cost).
MAX_IMPORT_EVENTS = 200_000

#: Deepest nesting of objects and lists anywhere in a campaign document (a tracker's state
#: nests a few levels; 990 levels of lists would crash the code that reads it).
MAX_DEPTH = 64

DOCUMENT_FORMAT = "table-companion/campaign"
DOCUMENT_VERSION = 3
#: Versions read: 1 stored moves as commands (converted on import by the upcasters of
#: companion.store.upcast), 2 stores them as facts, 3 chains them (older ones are chained
#: as they are imported, under a new identity).
DOCUMENT_VERSIONS = (1, 2, 3)

#: Longest member name (as Campaign.add takes it).
MAX_MEMBER_NAME = 80

_EVENT_KEYS = {"seq", "at", "who", "role", "kind", "tracker", "move", "seed", "data"}


def check_member_name(name: Any, role: Any, owner: Any = "") -> str:
    """A member's name as the campaign keeps it (spaces trimmed), after the live API's
    rules: 1 to 80 characters, no control or bidirectional override characters, a record
    (and only a record) names its owner. Raises a one-line StoreError."""
    from companion.store.campaign import TRACKER_ROLES

    if not isinstance(name, str):
        raise StoreError("a campaign member's name must be text")
    if role not in TRACKER_ROLES:
        raise StoreError(f"a tracker's role is one of {', '.join(TRACKER_ROLES)}, not "
                         f"{clipped(str(role), 20)!r}")
    if not isinstance(owner, str):
        raise StoreError("a record's owner must be a member's name")
    if (role == "record") != bool(" ".join(owner.split())):
        raise StoreError("a record (and only a record) names the party member who owns it")
    clean = " ".join(name.split())
    if not clean or len(clean) > MAX_MEMBER_NAME:
        raise StoreError(f"a campaign member needs a name of 1 to {MAX_MEMBER_NAME} "
                         "characters")
    problem = name_problem(clean)
    if problem:
        raise StoreError(f"a campaign member's name {problem}")
    return clean


def _check_values(doc: Any, where: str = "the file") -> None:
    """Every value of the document (or of one event, ``where``) is plain JSON a store can
    keep: text without lone surrogates (in keys too), finite numbers, nesting at most
    MAX_DEPTH (no recursion)."""
    if _values_hold(doc, 0 if where == "the file" else 2):
        return
    _find_value_problem(doc, where)


def _values_hold(doc: Any, depth: int) -> bool:
    """The same checks as [_check_values][], with no path kept: an import checks every
    value of every event, and naming each value's path up front was a fifth of a 100 MB
    import's time. A file that fails is walked again to say where."""
    stack: list[tuple[Any, int]] = [(doc, depth)]
    pop, push = stack.pop, stack.append
    try:
        while stack:
            value, depth = pop()
            kind = type(value)
            if kind is str:
                if not value.isascii():
                    value.encode("utf-8")
            elif kind is float:
                if not math.isfinite(value):
                    return False
            elif kind is dict:
                if depth >= MAX_DEPTH:
                    return False
                for key, item in value.items():
                    if type(key) is not str:
                        return False
                    if not key.isascii():
                        key.encode("utf-8")
                    push((item, depth + 1))
            elif kind is list:
                if depth >= MAX_DEPTH:
                    return False
                stack.extend((item, depth + 1) for item in value)
            elif isinstance(value, str | float | dict | list):
                return False  # a subclass: the careful walk below judges it
    except UnicodeEncodeError:
        return False
    return True


def _find_value_problem(doc: Any, where: str) -> None:
    """Walk ``doc`` keeping each value's path, and raise on the first problem."""
    stack: list[tuple[Any, int, str]] = [(doc, 0 if where == "the file" else 2,
                                          where.removeprefix("campaign file: "))]
    while stack:
        value, depth, where = stack.pop()
        if isinstance(value, str):
            _check_text(value, where)
        elif isinstance(value, float) and not math.isfinite(value):
            raise StoreError(f"campaign file: {where} holds {value}, which is not a number "
                             "JSON can keep")
        elif isinstance(value, dict | list):
            if depth >= MAX_DEPTH:
                raise StoreError(f"campaign file: {where} is nested more than {MAX_DEPTH} "
                                 "levels deep")
            if isinstance(value, dict):
                for key, item in value.items():
                    _check_text(key, where)
                    stack.append((item, depth + 1, _path(where, key)))
            else:
                stack.extend((item, depth + 1, f"{where}[{i}]")
                             for i, item in enumerate(value))


def _path(where: str, key: str) -> str:
    key = clipped(key, 20)
    return key if where == "the file" else f"{where}.{key}"


def _check_text(text: str, where: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise StoreError(f"campaign file: {where} holds a lone surrogate "
                         f"(\\u{ord(text[exc.start]):04x}), which is not text") from None


#: A time as the store writes it (``now_text``): ISO 8601 in UTC; offsets are read too.
_TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,6})?"
                   r"(Z|[+-][0-9]{2}:[0-9]{2})")

#: A move's name: a Python identifier as a tracker's method is named.
_MOVE = re.compile(r"[a-z_][a-z0-9_]{0,79}")


def is_time(text: Any) -> bool:
    """Whether ``text`` is a time as the store writes one (ISO 8601 with a zone)."""
    if not isinstance(text, str) or not _TIME.fullmatch(text):
        return False
    try:
        datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:  # 2026-02-30 and the like
        return False
    return True


def _check_step(raw: dict[str, Any], where: str) -> None:
    """Who, as whom and when, as the store would have written them (the types are
    checked already)."""
    from companion.store.campaign import ROLES

    if raw["role"] not in ROLES:
        raise StoreError(f"{where}: field 'role' is one of gm, player, spectator or empty, "
                         f"not {clipped(raw['role'], 10)!r}")
    if not is_time(raw["at"]):
        raise StoreError(f"{where}: field 'at' is not a time (ISO 8601, as "
                         "'2026-11-27T19:00:00.000Z')")
    who = raw["who"]
    problem = name_problem(who)
    if problem:
        raise StoreError(f"{where}: field 'who' {problem}")
    if who != " ".join(who.split()):
        raise StoreError(f"{where}: field 'who' is stored trimmed (no leading, trailing or "
                         "double spaces)")
    for key in ("tracker", "move"):
        problem = name_problem(raw[key]) if isinstance(raw[key], str) else None
        if problem:
            raise StoreError(f"{where}: field {key!r} {problem}")
    if raw["move"] is not None and not _MOVE.fullmatch(raw["move"]):
        raise StoreError(f"{where}: field 'move' is not the name of a move")
    if raw["kind"] != "move" and raw["move"] is not None:
        raise StoreError(f"{where}: only a move names a move (this is a "
                         f"{clipped(raw['kind'], 10)!r})")


def check_document(doc: Any) -> tuple[dict[str, Any], list[StoredEvent]]:
    """Check an exported campaign before anything is written: its envelope, every event's
    fields and types, the members its events add, move, set and remove, and every roll's
    commitment and reveal. The first problem is one StoreError line."""
    checker = DocumentChecker(doc)
    for raw in doc["events"]:
        checker.add(raw)
    header = checker.finish()
    _check_rolls(doc["events"])
    return header, checker.events


class DocumentChecker:
    """[check_document][companion.store.document.check_document] one event at a time:
    built on the document's envelope (its fields but ``events``), fed every event in
    order (``add``), then ``finish``. With ``keep=False`` nothing of an event is kept but
    what the next one is checked against (the members present, the chain's hash), so a
    file read as a stream is checked in little memory; the rolls are checked by a
    [LogVerifier][companion.fairplay.LogVerifier] over the same events."""

    def __init__(self, doc: Any, *, count: int | None = None, keep: bool = True) -> None:
        """``doc``: the document (with its events, or, with ``count`` given, without
        them: a stream's envelope, its events counted)."""
        from companion.store.chain import is_campaign_id, is_hash

        if not isinstance(doc, dict):
            raise StoreError("not a campaign file (expected a JSON object)")
        if doc.get("format") != DOCUMENT_FORMAT:
            raise StoreError("not a campaign file (its 'format' is not "
                             "table-companion/campaign)")
        if type(doc.get("version")) is not int or doc.get("version") not in DOCUMENT_VERSIONS:
            raise StoreError(f"campaign file version {clipped(repr(doc.get('version')), 20)} "
                             "is not one this program reads "
                             f"({', '.join(map(str, DOCUMENT_VERSIONS))})")
        streamed = count is not None
        for key, kind in (("name", str), ("created", str), ("rulesets", list),
                          ("events", list)):
            if not isinstance(doc.get(key), kind) and not (streamed and key == "events"):
                raise StoreError(f"campaign file: field {key!r} is missing or of the wrong "
                                 "type")
        total = count if count is not None else len(doc["events"])
        if total > MAX_IMPORT_EVENTS:
            raise StoreError(f"campaign file: {total} events, at most "
                             f"{MAX_IMPORT_EVENTS} can be imported")
        # A stream's events are checked one by one as they come (see ``add``).
        _check_values({k: v for k, v in doc.items() if k != "events"} if streamed else doc)
        if not doc["rulesets"] or not all(isinstance(r, str) for r in doc["rulesets"]):
            raise StoreError("campaign file: field 'rulesets' must list ruleset names")
        for ruleset in doc["rulesets"]:
            try:
                rulesets.get(ruleset)
            except CompanionError as exc:
                raise StoreError(f"campaign file: {exc}") from None
        if len(doc["created"]) > 40 or not is_time(doc["created"]):
            raise StoreError("campaign file: field 'created' is not a time (ISO 8601, as "
                             "'2026-11-27T19:00:00.000Z')")
        self.chained = doc["version"] >= 3
        if self.chained:
            if not is_campaign_id(doc.get("campaign")):
                raise StoreError("campaign file: field 'campaign' (the campaign's identity, "
                                 "32 hex digits) is missing or wrong")
            if not (is_hash(doc.get("chain")) or (doc.get("chain") == "" and not total)):
                raise StoreError("campaign file: field 'chain' (the hash of its newest "
                                 "event, 64 hex digits) is missing or wrong")
        self.doc, self.streamed, self.keep = doc, streamed, keep
        self.keys = _EVENT_KEYS | {"prev"} if self.chained else _EVENT_KEYS
        self.prev = ""
        self.members: dict[str, str] = {}  # tracker id -> name, of the members present
        self.events: list[StoredEvent] = []
        self.count = 0

    def add(self, raw: Any) -> StoredEvent:
        """Check the next event (one StoreError line naming it); returns it as stored."""
        from companion.store.campaign import EVENT_KINDS

        i = self.count
        where = f"campaign file: events[{i}]"
        if self.streamed:
            _check_values(raw, where)
        if not isinstance(raw, dict) or set(raw) != self.keys:
            raise StoreError(f"{where} must be an object with the fields "
                             + ", ".join(sorted(self.keys)))
        if type(raw["seq"]) is not int:
            raise StoreError(f"{where}: field 'seq' must be {i + 1}")
        if raw["seq"] != i + 1:
            raise StoreError(_misplaced(i, raw["seq"]))
        for key, most in (("at", 40), ("who", 80), ("role", 10), ("kind", 10)):
            if not isinstance(raw[key], str) or len(raw[key]) > most:
                raise StoreError(f"{where}: field {key!r} must be text of at most {most} "
                                 "characters")
        for key in ("tracker", "move"):
            if raw[key] is not None and (not isinstance(raw[key], str) or len(raw[key]) > 80):
                raise StoreError(f"{where}: field {key!r} must be text (at most 80 "
                                 "characters) or null")
        seed = raw["seed"]
        if seed is not None and (type(seed) is not int or not -2**63 <= seed < 2**63):
            raise StoreError(f"{where}: field 'seed' must be a whole number or null")
        if raw["kind"] not in EVENT_KINDS:
            raise StoreError(f"{where}: unknown kind {clipped(raw['kind'], 20)!r}")
        _check_step(raw, where)
        if not isinstance(raw["data"], dict):
            raise StoreError(f"{where}: field 'data' must be an object")
        event = StoredEvent(raw["seq"], raw["at"], raw["who"], raw["role"], raw["kind"],
                            raw["tracker"], raw["move"], seed, raw["data"],
                            raw["prev"] if self.chained else "")
        if self.chained:  # the link first: a foreign or moved event is named as such
            self.prev = _link(self.doc["campaign"], event, self.prev)
        try:
            _check_event(event, self.members, self.doc["rulesets"])
        except StoreError as exc:
            raise StoreError(f"{where} ({event.kind}): {exc}") from None
        if self.keep:
            self.events.append(event)
        self.count += 1
        return event

    def finish(self) -> dict[str, Any]:
        """The log's end meets the document's ``chain``; returns the header (name,
        rulesets, created, campaign)."""
        doc = self.doc
        if self.chained and self.prev != doc["chain"]:
            raise StoreError(f"campaign file: its newest event (event {self.count}) is not "
                             "the one its 'chain' names (changed, added or deleted)")
        return {"name": doc["name"], "rulesets": list(doc["rulesets"]),
                "created": doc["created"], "campaign": doc["campaign"] if self.chained
                else ""}


def _misplaced(i: int, seq: int) -> str:
    """The line for the event at index ``i`` numbered ``seq`` (not ``i + 1``): named as the
    chain's walk names it (issue 45: "event 11 is missing", not a field's index)."""
    if seq > i + 1:
        gap = f"goes from event {i} to event {seq}" if i else f"starts at event {seq}"
        return (f"campaign file: event {i + 1} is missing (the file {gap}): "
                "deleted or renumbered")
    return (f"campaign file: event {seq} comes again after event {i} (duplicated or out "
            "of order)")


def _link(campaign: str, event: StoredEvent, prev: str) -> str:
    """``event`` follows the event whose hash is ``prev``: its own hash, else one line."""
    from companion.store.chain import ChainError, check_chain

    try:
        return check_chain(campaign, [event], prev=prev, first=event.seq)
    except ChainError as exc:
        raise StoreError(f"campaign file: {exc}") from None


def _check_event(event: StoredEvent, members: dict[str, str], played: list[str]) -> None:
    """One event's data, as the live API would have made it; ``members`` follows the log."""
    from companion.store.registry import TABLE, tracker_class

    data = event.data
    if event.kind in ("roll", "reveal", "sitting"):
        if event.tracker is not None or event.move is not None:
            raise StoreError(f"a {event.kind} names no tracker and no move")
        return  # checked with the whole log (see _check_rolls)
    if not event.tracker:
        raise StoreError("its field 'tracker' must name the tracker")
    if event.kind == "add":
        kind = data.get("kind")
        # The table's own trust settings are every campaign's (issue 28).
        if not isinstance(kind, str) or kind.partition("/")[0] not in (*played, TABLE):
            raise StoreError("a tracker of a ruleset the campaign does not play")
        if (kind.partition("/")[0] == TABLE) != (data.get("role") == "table"):
            raise StoreError("only the table's own settings have the role 'table'")
        try:
            tracker_class(kind)
        except CompanionError as exc:
            raise StoreError(str(exc)) from None
        name = check_member_name(data.get("name"), data.get("role"), data.get("owner", ""))
        if name != data["name"]:
            raise StoreError("a member's name is stored trimmed (no leading, trailing or "
                             "double spaces)")
        if event.tracker in members:
            raise StoreError(f"tracker {clipped(event.tracker)!r} is already in the campaign")
        if name in members.values():
            raise StoreError(f"the campaign already has {clipped(name)!r}")
        if not isinstance(data.get("state"), dict):
            raise StoreError("its field 'state' must be an object (the tracker's state)")
        members[event.tracker] = name
        return
    if event.tracker not in members:
        raise StoreError(f"tracker {clipped(event.tracker)!r} is not in the campaign then")
    if event.kind == "remove":
        del members[event.tracker]
    elif event.kind == "set":
        if not isinstance(data.get("save"), dict):
            raise StoreError("its field 'save' must be an object (a tracker's save)")
    elif event.kind in ("move", "undo"):
        if event.kind == "move" and not event.move:
            raise StoreError("a move names the move made")
        if "summary" in data and not isinstance(data["summary"], str):
            raise StoreError("its summary must be text")
        if data.get("v") == 2:  # a fact: what the move changed
            change = data.get("change")
            if not isinstance(change, list) or not all(
                    isinstance(step, list) and len(step) in (1, 2) and isinstance(step[0], list)
                    for step in change):
                raise StoreError("its 'change' must be a list of [path, value] or [path] "
                                 "steps")
            if "args" in data and not isinstance(data["args"], dict):
                raise StoreError("its arguments must be an object (name: value)")
        elif "v" in data:
            raise StoreError(f"event format {clipped(repr(data['v']), 20)} is not one this "
                             "program reads (1 or 2)")
        elif event.kind == "move" and not isinstance(data.get("args"), dict) \
                and not isinstance(data.get("after"), dict):  # older moves kept "after"
            raise StoreError("its arguments must be an object (name: value)")


def _check_rolls(events: list[Any]) -> None:
    """Every roll verifies: commitments, reveals, public rolls (before anything is written)."""
    try:
        fairplay.verify({"events": events}, max_entries=MAX_IMPORT_EVENTS)
    except CompanionError as exc:
        raise StoreError(f"campaign file: its rolls do not verify: {exc}") from None


def document_text(doc: dict[str, Any]) -> str:
    """A campaign document as the CLI prints it (stable: sorted keys, two-space indent)."""
    return json.dumps(doc, ensure_ascii=False, sort_keys=True, indent=2)
