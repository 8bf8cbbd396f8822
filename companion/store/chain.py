"""The campaign's chained log: each event carries the hash of the one before it.

An event's hash is the SHA-256 of everything it says (its number, time, who, role, kind,
tracker, move, seed and data), of the hash of the event before it (``prev``; ``""`` for
the first) and of the campaign's identity (a random id made with the campaign). So
the hash of the newest event, the **head**, stands for the whole log: an event deleted,
inserted, duplicated, reordered, renumbered, changed, or taken from another campaign
makes the next link (or the head) disagree, and [check_chain][companion.store.chain.check_chain]
names the first event where it does.

What the chain cannot prove: whoever holds the database can rewrite every event and
compute a new, consistent chain. Only a head someone noted earlier (``campaign show``,
the end of ``log``, an export) shows such a rewrite: it no longer appears in the log.

Standard library only (the static apps' store in the browser uses it too).
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Iterable
from typing import Any

from companion.store.records import StoredEvent, StoreError

__all__ = ["ChainError", "check_chain", "event_hash", "is_campaign_id", "is_hash",
           "new_campaign_id", "short"]

#: What every hash starts from: the chain's own version (a later layout changes it).
TAG = "table-companion/chain/1"

#: How many hex digits of a hash people are shown (48 bits: enough to compare by eye).
SHORT = 12

_HEX64 = re.compile(r"[0-9a-f]{64}")
_HEX32 = re.compile(r"[0-9a-f]{32}")


class ChainError(StoreError):
    """The log's chain does not hold: an event was deleted, inserted, reordered, changed,
    renumbered or taken from another campaign."""


def new_campaign_id() -> str:
    """A new campaign's identity: 128 random bits, as 32 hex digits."""
    return secrets.token_hex(16)


def is_campaign_id(value: Any) -> bool:
    return isinstance(value, str) and _HEX32.fullmatch(value) is not None


def is_hash(value: Any) -> bool:
    return isinstance(value, str) and _HEX64.fullmatch(value) is not None


def short(digest: str) -> str:
    """A hash as people compare it (``"—"`` for an empty log)."""
    return digest[:SHORT] if digest else "—"


def event_hash(campaign_id: str, event: StoredEvent) -> str:
    """The hash of ``event`` in the campaign ``campaign_id`` (its ``prev`` included)."""
    # ASCII JSON with sorted keys: one spelling for any value (lone surrogates included).
    text = json.dumps([TAG, campaign_id, event.prev, event.seq, event.at, event.who,
                       event.role, event.kind, event.tracker, event.move, event.seed,
                       event.data], ensure_ascii=True, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def check_chain(campaign_id: str, events: Iterable[StoredEvent], *, prev: str = "",
                first: int = 1, head: tuple[int, str] | None = None,
                where: str = "event") -> str:
    """Walk ``events`` (numbered from ``first``, the first following ``prev``) and return
    the hash of the last one (``prev`` when there is none).

    ``head``: ``(seq, hash)`` the walk must meet (the campaign's recorded head). Raises
    [ChainError][companion.store.chain.ChainError] naming the first event that breaks
    the chain; ``where`` is how an event is named (``"event"``, ``"entry"``).
    """
    expected = first
    for event in events:
        if event.seq != expected:
            if event.seq < expected:
                raise ChainError(f"{where} {event.seq} comes again after {where} "
                                 f"{expected - 1} (duplicated or out of order)")
            raise ChainError(f"{where} {expected} is missing (the log goes from {where} "
                             f"{expected - 1} to {event.seq}): deleted or renumbered")
        if event.prev != prev:
            what = (f"{where} {event.seq - 1} was changed, or {where} {event.seq} was "
                    "moved, inserted or renumbered" if event.seq > 1 else
                    f"{where} 1 is not the first event of this campaign")
            raise ChainError(f"{where} {event.seq} does not follow the log before it "
                             f"({what}; or it comes from another campaign)")
        prev = event_hash(campaign_id, event)
        if head is not None and event.seq == head[0] and prev != head[1]:
            raise ChainError(f"{where} {event.seq} is not the one the campaign recorded as "
                             "its newest (changed or replaced)")
        expected += 1
    if head is not None and expected <= head[0]:
        raise ChainError(f"{where} {expected} is missing (the campaign records "
                         f"{head[0]} events): deleted")
    return prev
