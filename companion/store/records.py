"""What the campaign store holds and says, without a database: its records and errors.

[CampaignInfo][companion.store.records.CampaignInfo], [NewEvent][companion.store.records.NewEvent]
and [StoredEvent][companion.store.records.StoredEvent] are what every store hands out (the SQL
store of ``companion.store.db`` and the browser's ``companion.store.memory``); the errors and the
name rules are shared by both. Standard library only, so the static apps (Pyodide, no SQLAlchemy)
use them too; ``companion.store.db`` re-exports every name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from companion.errors import CompanionError

__all__ = [
    "LOCK_WAIT",
    "MAX_CONTAINERS",
    "MAX_DEPTH",
    "MAX_NAME",
    "SEED_RANGE",
    "CampaignInfo",
    "ConflictError",
    "LockWaitError",
    "NameTakenError",
    "NewEvent",
    "NoDatabaseError",
    "StoreError",
    "StoredEvent",
    "check_campaign_name",
    "check_json_input",
    "check_seed",
    "json_containers",
    "json_depth",
    "json_too_deep",
    "lock_wait_error",
    "name_problem",
    "now_text",
]

#: Longest campaign name.
MAX_NAME = 80

#: Characters refused in names although printable or joining: the bidirectional controls
#: (an override makes "Ash" read as another name). The zero-width joiner inside an emoji
#: ("🧙‍♀️") and variation selectors are accepted.
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                  "\u2066\u2067\u2068\u2069")
_JOINERS = frozenset("\u200c\u200d")


def name_problem(name: str) -> str | None:
    """Why ``name`` (trimmed) cannot name a campaign or member, or None: control characters
    (a joiner inside an emoji is fine), bidirectional overrides, lone surrogates."""
    for c in name:
        if c in _BIDI:
            return "cannot hold right-to-left or left-to-right override characters"
        if "\ud800" <= c <= "\udfff":
            return "cannot hold lone surrogate characters (not text)"
        if not c.isprintable() and c not in _JOINERS:
            return "cannot hold control characters"
    return None


class StoreError(CompanionError):
    """The campaign store cannot do what was asked (damaged or foreign file, unknown name...)."""


class NoDatabaseError(StoreError):
    """A command that only reads found no database file (and created none)."""

    def __init__(self, message: str, where: str) -> None:
        super().__init__(message)
        self.where = where


class NameTakenError(StoreError):
    """A campaign of that name exists already (an import under its own name): each front
    end says how to choose another in its own words (the CLI: ``--name NEW``)."""


class ConflictError(StoreError):
    """Another writer appended first: the move was made on stale state."""


#: The longest a write waits for the campaign's writer lock (seconds, every backend): a
#: writer that holds it longer is stuck (a process stopped, a lost network), and the wait
#: ends in one line ([LockWaitError][companion.store.records.LockWaitError]).
LOCK_WAIT = 30.0


class LockWaitError(StoreError):
    """The campaign's writer lock stayed taken past the bound: nothing was stored."""


def lock_wait_error(where: str, campaign: str | None, seconds: float) -> LockWaitError:
    """The one line of a wait for the writer lock that did not end, the same everywhere."""
    what = f"campaign {campaign!r}" if campaign is not None else "a campaign"
    return LockWaitError(f"{where}: {what} has been held by another writer for over "
                         f"{seconds:g} s; nothing was stored (try again)")


def check_campaign_name(name: str) -> str:
    """A campaign name as stored (spaces trimmed); refuses an unusable one."""
    clean = " ".join(name.split())
    if not clean:
        raise StoreError("a campaign needs a name")
    if len(clean) > MAX_NAME:
        raise StoreError(f"a campaign name has at most {MAX_NAME} characters")
    problem = name_problem(clean)
    if problem:
        raise StoreError(f"a campaign name {problem}")
    return clean


def name_taken(kind: str, name: str, existing: str) -> NameTakenError:
    """The one line refusing ``name`` because ``existing`` has it or looks like it
    ([looks_alike][companion.names.looks_alike]: case, accents, letters of other scripts)."""
    if existing == name:
        return NameTakenError(f"a {kind} named {name!r} already exists")
    return NameTakenError(f"a {kind} named {existing!r} already exists, and {name!r} looks the "
                      "same (case, accents or look-alike letters): choose another name")


#: Seeds the store keeps: the 64-bit signed range of its ``seed`` column (both databases).
SEED_RANGE = (-2**63, 2**63)


def check_seed(seed: int | None) -> int | None:
    """``seed`` if the store can keep it exactly, else a one-line
    [StoreError][companion.store.records.StoreError] (never a seed silently dropped)."""
    if seed is not None and not SEED_RANGE[0] <= seed < SEED_RANGE[1]:
        text = str(seed) if len(str(seed)) <= 24 else f"{str(seed)[:12]}… ({len(str(seed))} digits)"
        raise StoreError(f"seed {text} is too large for a campaign's log: a seed kept with a "
                         "roll is a whole number from -2^63 to 2^63 - 1")
    return seed


def now_text() -> str:
    """The current UTC time as stored: ISO 8601 with milliseconds and ``Z``."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class CampaignInfo:
    """A campaign's row: its name, rulesets, creation time, head (last event number),
    identity and chain head."""

    id: int
    name: str
    rulesets: tuple[str, ...]
    created: str
    head: int
    #: The campaign's identity (random, made with it) and the hash of its newest event
    #: (``""`` while it has none): see [companion.store.chain][].
    uid: str = ""
    chain: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "rulesets": list(self.rulesets), "created": self.created,
                "events": self.head, "chain": self.chain}


@dataclass(frozen=True)
class NewEvent:
    """An event about to be appended (the store numbers and stamps it)."""

    kind: str
    who: str = ""
    role: str = ""
    tracker: str | None = None
    move: str | None = None
    seed: int | None = None
    data: dict[str, Any] = field(default_factory=dict)
    at: str | None = None


@dataclass(frozen=True)
class StoredEvent:
    """An appended event: its number in the campaign (``seq``, from 1), time, and the
    hash of the event before it (``prev``)."""

    seq: int
    at: str
    who: str
    role: str
    kind: str
    tracker: str | None
    move: str | None
    seed: int | None
    data: dict[str, Any]
    #: The hash of the event before it (``""`` for the first): the chain.
    prev: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "at": self.at, "who": self.who, "role": self.role,
                "kind": self.kind, "tracker": self.tracker, "move": self.move,
                "seed": self.seed, "data": self.data, "prev": self.prev}


#: Deepest nesting of JSON a stored row may have (a row nested deeper is damaged).
MAX_DEPTH = 100


def json_depth(value: Any) -> int:
    """How deeply ``value`` (parsed JSON) nests (a scalar: 0), counted without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            depth += 1
            deepest = max(deepest, depth)
            stack.extend((v, depth) for v in item if isinstance(v, dict | list))
    return deepest


_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"')
_NOT_BRACKETS = bytes(c for c in range(256) if c not in b"[]{}")


def json_too_deep(text: bytes | str, limit: int) -> bool:
    """Whether the JSON ``text`` nests deeper than ``limit``, found *before* decoding it
    (so no decoder recursion and no objects are built): strings are cut out, only the
    brackets kept, and innermost pairs removed ``limit`` times; anything left nests
    deeper. Text that is not JSON is left for the decoder to refuse."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    brackets = _STRINGS.sub(b"", data).translate(None, _NOT_BRACKETS)
    for _ in range(limit):
        if not brackets:
            return False
        shorter = brackets.replace(b"[]", b"").replace(b"{}", b"")
        if len(shorter) == len(brackets):
            # Unbalanced: not JSON (the decoder says so), unless it opens more than
            # ``limit`` levels, which the decoder would follow into a RecursionError.
            return len(brackets) > limit
        brackets = shorter
    return bool(brackets)


def json_containers(text: bytes | str) -> int:
    """How many objects and lists the JSON ``text`` would build, counted before decoding it
    and without copying it: exact above
    [MAX_CONTAINERS][companion.store.records.MAX_CONTAINERS] (brackets inside strings do
    not count), below it an upper bound (they may)."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    count = data.count(b"{") + data.count(b"[")
    if count <= MAX_CONTAINERS:
        return count  # an upper bound already within the limit: the usual case
    for string in _STRINGS.finditer(data):
        count -= string.group().count(b"{") + string.group().count(b"[")
    return count


#: Most objects and lists a campaign file or exported log may hold: checked before it is
#: decoded (100 MB of "{}" would build 33 million objects, 2.5 GB); a campaign of the
#: largest importable length (200,000 events) holds far fewer.
MAX_CONTAINERS = 4_000_000


def check_json_input(data: bytes, name: str, what: str, max_depth: int) -> str:
    """A JSON file's bytes judged by shape *before* decoding (no objects built, no
    recursion): at most ``max_depth`` levels and
    [MAX_CONTAINERS][companion.store.records.MAX_CONTAINERS] objects and lists; returns the
    text. One [StoreError][companion.store.records.StoreError] line naming the file."""
    from companion.files import decode_text, shown_name

    containers = json_containers(data)  # first: it copies nothing
    if containers > MAX_CONTAINERS:
        raise StoreError(f"{shown_name(name)} holds {containers:,} objects and lists, more "
                         f"than {MAX_CONTAINERS:,}: too large to be {what}")
    if json_too_deep(data, max_depth):
        raise StoreError(f"{shown_name(name)} nests more than {max_depth} levels deep: not "
                         f"{what}")
    return decode_text(data, "standard input" if name == "-" else name, what)
