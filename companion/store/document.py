"""An exported campaign as one JSON document: its format, and the checks an import makes
before anything is written."""

from __future__ import annotations

import json
from typing import Any

from companion import rulesets
from companion.errors import CompanionError
from companion.store.db import StoredEvent, StoreError

#: Most events an imported campaign may hold (replaying them all is the import's cost).
MAX_IMPORT_EVENTS = 200_000

DOCUMENT_FORMAT = "table-companion/campaign"
DOCUMENT_VERSION = 1

_EVENT_KEYS = {"seq", "at", "who", "role", "kind", "tracker", "move", "seed", "data"}


def check_document(doc: Any) -> tuple[dict[str, Any], list[StoredEvent]]:
    """Check an exported campaign's shape; the first problem is one StoreError line."""
    from companion.store.campaign import EVENT_KINDS  # campaign imports this module

    if not isinstance(doc, dict):
        raise StoreError("not a campaign file (expected a JSON object)")
    if doc.get("format") != DOCUMENT_FORMAT:
        raise StoreError("not a campaign file (its 'format' is not table-companion/campaign)")
    if doc.get("version") != DOCUMENT_VERSION:
        raise StoreError(f"campaign file version {doc.get('version')!r} is not one this "
                         f"program reads ({DOCUMENT_VERSION})")
    for key, kind in (("name", str), ("created", str), ("rulesets", list), ("events", list)):
        if not isinstance(doc.get(key), kind):
            raise StoreError(f"campaign file: field {key!r} is missing or of the wrong type")
    if len(doc["events"]) > MAX_IMPORT_EVENTS:
        raise StoreError(f"campaign file: {len(doc['events'])} events, at most "
                         f"{MAX_IMPORT_EVENTS} can be imported")
    if not doc["rulesets"] or not all(isinstance(r, str) for r in doc["rulesets"]):
        raise StoreError("campaign file: field 'rulesets' must list ruleset names")
    for ruleset in doc["rulesets"]:
        try:
            rulesets.get(ruleset)
        except CompanionError as exc:
            raise StoreError(f"campaign file: {exc}") from None
    out: list[StoredEvent] = []
    for i, raw in enumerate(doc["events"]):
        where = f"campaign file: events[{i}]"
        if not isinstance(raw, dict) or set(raw) != _EVENT_KEYS:
            raise StoreError(f"{where} must be an object with the fields "
                             + ", ".join(sorted(_EVENT_KEYS)))
        if raw["seq"] != i + 1:
            raise StoreError(f"{where}: field 'seq' must be {i + 1}")
        for key in ("at", "who", "role", "kind"):
            if not isinstance(raw[key], str):
                raise StoreError(f"{where}: field {key!r} must be text")
        for key in ("tracker", "move"):
            if raw[key] is not None and not isinstance(raw[key], str):
                raise StoreError(f"{where}: field {key!r} must be text or null")
        seed = raw["seed"]
        if seed is not None and (type(seed) is not int or not -2**63 <= seed < 2**63):
            raise StoreError(f"{where}: field 'seed' must be a whole number or null")
        if raw["kind"] not in EVENT_KINDS:
            raise StoreError(f"{where}: unknown kind {raw['kind']!r}")
        if not isinstance(raw["data"], dict):
            raise StoreError(f"{where}: field 'data' must be an object")
        kind_of: Any = raw["data"].get("kind") if raw["kind"] == "add" else None
        if kind_of is not None and (not isinstance(kind_of, str)
                                    or kind_of.partition("/")[0] not in doc["rulesets"]):
            raise StoreError(f"{where}: a tracker of a ruleset the campaign does not play")
        out.append(StoredEvent(raw["seq"], raw["at"], raw["who"], raw["role"], raw["kind"],
                               raw["tracker"], raw["move"], seed, raw["data"]))
    header = {"name": doc["name"], "rulesets": list(doc["rulesets"]),
              "created": doc["created"]}
    return header, out


def document_text(doc: dict[str, Any]) -> str:
    """A campaign document as the CLI prints it (stable: sorted keys, two-space indent)."""
    return json.dumps(doc, ensure_ascii=False, sort_keys=True, indent=2)
