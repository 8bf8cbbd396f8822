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
from json.encoder import encode_basestring_ascii
from typing import Any

from companion.store.records import StoredEvent, StoreError

__all__ = ["ChainError", "check_chain", "event_hash", "is_campaign_id", "is_hash",
           "new_campaign_id", "row_hash", "short"]

#: What every hash starts from: the chain's own version (a later layout changes it).
TAG = "table-companion/chain/1"

#: How many hex digits of a chain head people are shown and note (``campaign show``, the
#: end of ``log``), and the fewest ``verify --head`` takes (issue 49). A host who rewrote
#: the log must make some entry's hash start with the noted digits, grinding a nonce into
#: an inserted event: 4 bits a digit, so 2**(4*d) SHA-256 tries on average. 8 digits
#: (2**32) fell in minutes on 2 cores; 12 (2**48) is hours on one graphics card
#: (~10**10 hashes a second). 16 digits (2**64) is ~1.8e19 tries: about 60 years of
#: such a card, and still short enough to read out or photograph.
SHORT = 16

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


#: What ``ensure_ascii=True`` escapes and ``ensure_ascii=False`` does not (DEL included).
_NON_ASCII = re.compile(r"[^\x00-\x7e]")


def _escaped(match: re.Match[str]) -> str:
    """A character beyond ASCII (or DEL) as ``json.dumps(..., ensure_ascii=True)`` spells it."""
    code = ord(match.group())
    if code > 0xFFFF:  # a surrogate pair, as JSON spells characters beyond the BMP
        code -= 0x10000
        return f"\\u{0xD800 | code >> 10:04x}\\u{0xDC00 | code & 0x3FF:04x}"
    return f"\\u{code:04x}"


_text = encode_basestring_ascii  # a string as JSON, quoted (C-accelerated)
_TAG_TEXT = _text(TAG)


def _name(value: str | None) -> str:
    return "null" if value is None else _text(value)


def row_hash(campaign_id: str, seq: int, at: str, who: str, role: str, kind: str,
             tracker: str | None, move: str | None, seed: int | None, data: str,
             prev: str) -> str:
    """[event_hash][companion.store.chain.event_hash] of a stored row, its data spliced in
    as stored instead of decoded and encoded again: about three times faster, which lets
    every open walk the whole chain (issue 29).

    Equal to ``event_hash`` when ``data`` is spelled as the store writes it (sorted keys,
    no spaces); a row spelled otherwise (written by hand) gets another hash, so a caller
    that meets a mismatch computes the exact hash before calling the row changed.
    """
    for text in (at, who, role, kind, data, prev):
        if type(text) is not str:
            raise TypeError("a stored row's field is not text")
    for name in (tracker, move):
        if name is not None and type(name) is not str:
            raise TypeError("a stored row's tracker or move is not text")
    if type(seq) is not int or (seed is not None and type(seed) is not int):
        raise TypeError("a stored row's number or seed is not a whole number")
    # As json.dumps(..., ensure_ascii=True, separators=(",", ":")) spells the list, built
    # by hand: its encoder object costs more than the rest of the hash.
    fields = ",".join((_TAG_TEXT, _text(campaign_id), _text(prev), str(seq), _text(at),
                       _text(who), _text(role), _text(kind), _name(tracker), _name(move),
                       "null" if seed is None else str(seed)))
    body = data if data.isascii() and "\x7f" not in data else _NON_ASCII.sub(_escaped, data)
    return hashlib.sha256(f"[{fields},{body}]".encode("ascii")).hexdigest()


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
