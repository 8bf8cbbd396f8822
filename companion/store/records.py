"""What the campaign store holds and says, without a database: its records and errors.

[CampaignInfo][companion.store.records.CampaignInfo], [NewEvent][companion.store.records.NewEvent]
and [StoredEvent][companion.store.records.StoredEvent] are what every store hands out (the SQL
store of ``companion.store.db`` and the browser's ``companion.store.memory``); the errors and the
name rules are shared by both. Standard library only, so the static apps (Pyodide, no SQLAlchemy)
use them too; ``companion.store.db`` re-exports every name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from companion.errors import CompanionError

__all__ = [
    "MAX_DEPTH",
    "MAX_NAME",
    "CampaignInfo",
    "ConflictError",
    "NameTakenError",
    "NewEvent",
    "NoDatabaseError",
    "StoreError",
    "StoredEvent",
    "check_campaign_name",
    "json_depth",
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


def now_text() -> str:
    """The current UTC time as stored: ISO 8601 with milliseconds and ``Z``."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class CampaignInfo:
    """A campaign's row: its name, rulesets, creation time and head (last event number)."""

    id: int
    name: str
    rulesets: tuple[str, ...]
    created: str
    head: int

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "rulesets": list(self.rulesets), "created": self.created,
                "events": self.head}


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
    """An appended event: its number in the campaign (``seq``, from 1) and time."""

    seq: int
    at: str
    who: str
    role: str
    kind: str
    tracker: str | None
    move: str | None
    seed: int | None
    data: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "at": self.at, "who": self.who, "role": self.role,
                "kind": self.kind, "tracker": self.tracker, "move": self.move,
                "seed": self.seed, "data": self.data}


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
