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


def rechain_view(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` (a seat's view, ``log NAME --json``) with every row's ``prev`` and ``hash``
    and its ``chain`` recomputed over its rows as they now are (a placeholder keeps its
    stated hash: the forger cannot compute it either); changed in place and returned."""
    prev = ""
    for row in doc["events"]:
        row["prev"] = prev
        if row.get("placeholder") is not True:
            data = row["roll"] if row["kind"] in ("roll", "reveal") else row["event_data"]
            event = StoredEvent(row["seq"], row["time"], row["who"], row["role"],
                                row["kind"], row["tracker"], row["move"], row["seed"],
                                data, prev)
            row["hash"] = event_hash(doc["campaign_id"], event)
        prev = row["hash"]
    doc["chain"] = prev
    return doc
