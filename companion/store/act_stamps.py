"""An act's stamp on the events it stored (issue 44): a phone resends an act whose answer
it lost, maybe to another server process of the same database, and the stamp (its
device's ``client`` and ``seq``) lets any process find the act stored already, so it is
stored once. Used by the campaign's unit of work
([Campaign.stamping][companion.store.campaign.Campaign.stamping]) and the table socket.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["ACT_STAMP", "ActGuard", "ActStoredAlready"]


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


@dataclass
class ActGuard:
    """The act a [stamping][companion.store.campaign.Campaign.stamping] block stores:
    its device's ``client`` and ``seq``, and the last event already searched for them
    (``after``: the caller's search of the log up to there)."""

    client: str
    seq: int
    after: int

    def stamp(self) -> dict[str, Any]:
        return {"client": self.client, "seq": self.seq}
