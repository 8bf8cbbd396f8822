"""A forger's tool for tests: give a tampered export a consistent chain again.

Tests of the checks *behind* the chain (a fact that does not apply, a roll that does not
verify) re-chain the document they tamper with, as someone who knows the chain's layout
would: the chain alone no longer refuses it, so the deeper check must.
"""

from __future__ import annotations

from typing import Any

from companion.store.chain import event_hash
from companion.store.records import StoredEvent


def rechain(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` (an export of version 3) with every ``prev`` and its ``chain`` recomputed
    over its events as they now are (changed in place and returned)."""
    prev = ""
    for raw in doc["events"]:
        raw["prev"] = prev
        event = StoredEvent(raw["seq"], raw["at"], raw["who"], raw["role"], raw["kind"],
                            raw["tracker"], raw["move"], raw["seed"], raw["data"], prev)
        prev = event_hash(doc["campaign"], event)
    doc["chain"] = prev
    return doc
