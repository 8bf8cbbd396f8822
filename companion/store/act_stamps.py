"""An act's stamp on the events it stored (issue 44): a phone resends an act whose answer
it lost, maybe to another server process of the same database, and the stamp (its
device's ``client`` and ``seq``) lets any process find the act stored already, so it is
stored once. Used by the campaign's unit of work
([Campaign.stamping][companion.store.campaign.Campaign.stamping]) and the table socket.

The stamp also holds the act's ``digest`` ([act_digest][companion.store.act_stamps.act_digest]:
its tracker, move, arguments and roll, not its number): a device that numbers another act
with a ``seq`` it used already (a phone whose storage was restored from an older copy) is
refused ([ActNumberTaken][companion.store.act_stamps.ActNumberTaken]), never answered with
the first act's events as if it were that act. Interpretation: a stamp stored before the
digest was kept (``client`` and ``seq`` alone) cannot tell; a resend meeting one is
answered from it, as then.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.store.records import StoreError

__all__ = ["ACT_STAMP", "ActGuard", "ActNumberTaken", "ActStoredAlready", "act_digest",
           "same_act"]


#: The key of a stored event's data naming the act it was stored for (a device's
#: ``client`` and its ``seq``; see [Campaign.stamping][companion.store.campaign.Campaign.stamping]).
ACT_STAMP = "act"


class ActStoredAlready(Exception):
    """The act being stored was stored before (its events carry its client and seq):
    nothing is stored again. ``seqs``: the numbers of the events it stored then. Not a
    CompanionError, so no face mistakes it for a refusal."""

    def __init__(self, seqs: Sequence[int]) -> None:
        super().__init__(f"stored already as events {list(seqs)}")
        self.seqs = tuple(seqs)


class ActNumberTaken(StoreError):
    """The act's ``client`` and ``seq`` are those of another act this seat stored: it is
    refused (one line), nothing is stored."""

    def __init__(self, client: str, seq: int, seqs: Sequence[int]) -> None:
        entries = ", ".join(str(n) for n in seqs)
        super().__init__(f"act {seq} of {client} was another act, stored already (entr"
                         f"{'ies' if len(seqs) != 1 else 'y'} {entries}): number a new act "
                         "after the last")
        self.seqs = tuple(seqs)


#: How many hex digits of the act's SHA-256 a stamp keeps (128 bits: no two acts of one
#: device meet by chance; a device forging a match only fools itself).
DIGEST_DIGITS = 32


def act_digest(act: Mapping[str, Any]) -> str:
    """What an act is, for its stamp: the SHA-256 (its first ``DIGEST_DIGITS`` hex
    digits) of its plain form (``Act.to_dict()``: tracker, move, arguments, roll) without
    its ``client`` and ``seq``, as sorted ASCII JSON (one spelling for one act)."""
    what = {k: v for k, v in act.items() if k not in ("client", "seq")}
    text = json.dumps(what, ensure_ascii=True, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:DIGEST_DIGITS]


def same_act(stamp: Any, digest: str) -> bool:
    """Whether a stored ``stamp`` (with the same client and seq) is of the act whose
    digest is ``digest``: yes when the stamp holds none (stored before digests were)."""
    kept = stamp.get("digest") if isinstance(stamp, dict) else None
    return kept is None or kept == digest


@dataclass
class ActGuard:
    """The act a [stamping][companion.store.campaign.Campaign.stamping] block stores:
    its device's ``client`` and ``seq``, the act's ``digest``
    ([act_digest][companion.store.act_stamps.act_digest]), and the last event already
    searched for them (``after``: the caller's search of the log up to there)."""

    client: str
    seq: int
    after: int
    digest: str = ""

    def stamp(self) -> dict[str, Any]:
        out: dict[str, Any] = {"client": self.client, "seq": self.seq}
        if self.digest:
            out["digest"] = self.digest
        return out

    def numbers(self, stamp: Any) -> bool:
        """Whether a stored ``stamp`` names this act's client and seq (whatever act)."""
        return (isinstance(stamp, dict) and stamp.get("client") == self.client
                and stamp.get("seq") == self.seq and type(stamp.get("seq")) is int)
