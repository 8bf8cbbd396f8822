"""A seat's view of the log, verifiable for completeness (issue 47).

A view (``log NAME --json``, as a seat sees it) leaves out what the seat may not read (a
hidden roll's secret, a game's hidden state), so its entries cannot be hashed again as
the store hashed them. Each row of the view therefore carries its place in the chain:

- ``prev``: the chain hash of the entry before it (``""`` for entry 1), and ``hash``: its
  own ([event_hash][companion.store.chain.event_hash]);
- ``event_data``: what the entry says, when the view shows it whole (a roll's or a
  reveal's is its ``roll``, but for the ``revealed`` a view notes on a revealed roll;
  the fields a row copies from it, such as ``fair`` or
  ``sitting``, must agree with it); its hash is then computed again from the row and the view's
  ``campaign_id``, so an entry changed or taken from another campaign does not hash to
  what it claims;
- ``placeholder: true`` instead, for an entry the view does not show whole: its hash is
  as stated (the seat cannot compute it without the secret), but it keeps its number and
  its link, so it can be neither dropped nor moved unseen.

[ViewChain][companion.store.view_chain.ViewChain] walks the rows: numbers from 1 without
a gap or a repeat, each ``prev`` the hash of the row before, each whole row hashing to its
``hash``, and the last hash the view's ``chain`` (and, with ``--head``, through a head
noted at the table). What it cannot prove, as for an export: whoever holds the database
can compute a new, consistent chain; only a head noted earlier shows it.

Standard library only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol

from companion.store.chain import event_hash, is_campaign_id, is_hash
from companion.store.records import StoredEvent, StoreError

__all__ = ["ViewChain", "ViewChainError", "check_view", "view_link", "view_links"]

#: What a view's row of a kind other than a roll copies from the entry's data (what
#: ``verify`` reads of a move that rolled and of a sitting's news).
COPIED = ("fair", "seed_chosen_by", "hidden", "physical", "sitting")

#: The kinds whose data a view's row carries as ``roll``.
_ROLL_KINDS = ("roll", "reveal")


def _hashed(kind: Any, data: Any) -> Any:
    """What of a row's data its hash covers: a roll's ``revealed`` (the entry of its
    reveal) is the view's note, never stored with the roll (``verify`` checks it against
    the reveal itself)."""
    if kind == "roll" and isinstance(data, dict) and "revealed" in data:
        return {k: v for k, v in data.items() if k != "revealed"}
    return data


def _field(row: dict[str, Any]) -> Callable[[str], Any]:
    """A row's field by name (``None`` when it has none), as the hash reads it."""
    return row.get


class RowVerifier(Protocol):
    """What [check_view][companion.store.view_chain.check_view] asks of the rolls' check
    ([LogVerifier][companion.fairplay.LogVerifier]): each row in order, then how many
    rolls held."""

    def add(self, row: Any) -> None: ...

    def finish(self) -> int: ...


class ViewChainError(StoreError):
    """A seat's view of the log is not whole: an entry deleted, duplicated, moved, changed
    or taken from another campaign."""


def view_links(originals: list[StoredEvent], chain: str, shown: Iterable[StoredEvent]
               ) -> list[dict[str, Any]]:
    """The chain fields of each row of a view: ``originals`` is the whole stored log (its
    head hash ``chain``), ``shown`` the events as the view shows them (the same numbers,
    [visible_to][companion.fairplay.visible_to]'s output). A shown event equal to its
    stored one is whole (its data carried, for a kind other than a roll or a reveal,
    whose ``roll`` is its data already); any other is a placeholder."""
    hashes = [e.prev for e in originals[1:]] + [chain] if originals else []
    by_seq = {e.seq: (e, h) for e, h in zip(originals, hashes, strict=True)}
    out = []
    for event in shown:
        stored, digest = by_seq[event.seq]
        out.append(view_link(stored, digest, event))
    return out


def view_link(stored: StoredEvent, digest: str, event: StoredEvent) -> dict[str, Any]:
    """The chain fields of one row of a view: ``stored`` the entry as the store keeps it,
    ``digest`` its hash, ``event`` the entry as the view shows it (see
    [view_links][companion.store.view_chain.view_links]; a log read a page at a time
    calls it entry by entry)."""
    links: dict[str, Any] = {"prev": stored.prev, "hash": digest}
    if _hashed(event.kind, event.data) != stored.data or event.to_dict() | {
            "data": stored.data} != stored.to_dict():
        links["placeholder"] = True
    elif event.kind not in _ROLL_KINDS:
        links["event_data"] = event.data
    return links


class ViewChain:
    """Walk a view's rows one at a time (``add``, then ``finish``), as a stream."""

    def __init__(self, campaign_id: Any, chain: Any, noted: str | None = None) -> None:
        # Said at the first entry (or the end): a row that is no entry is named first.
        self.campaign_id: str = campaign_id if is_campaign_id(campaign_id) else ""
        self.chain: str = chain if chain == "" or is_hash(chain) else "?"
        self.noted = noted
        self.passed = False  # whether the noted head was met
        self.prev = ""
        self.seq = 0

    def add(self, row: Any) -> None:
        """Check the next row (one line naming the entry if it does not hold): its
        [place][companion.store.view_chain.ViewChain.place], then its
        [hash][companion.store.view_chain.ViewChain.sealed]."""
        self.place(row)
        self.sealed(row)

    def place(self, row: Any) -> None:
        """The next row's number and link: one deleted, repeated, moved or foreign is
        named here, before what it says is checked."""
        if not isinstance(row, dict) or type(row.get("seq")) is not int or row["seq"] < 1:
            raise ViewChainError(f"events[{self.seq}] is not an entry of a log (it has no "
                                 "entry number)")
        self._envelope()
        seq = row["seq"]
        if seq <= self.seq:
            raise ViewChainError(f"entry {seq} comes again after entry {self.seq} "
                                 "(duplicated or out of order)")
        if seq != self.seq + 1:
            raise ViewChainError(f"entry {self.seq + 1} is missing (the view goes from entry "
                                 f"{self.seq} to entry {seq}): deleted or moved")
        prev, digest = row.get("prev"), row.get("hash")
        if not is_hash(digest) or not ((prev == "" and seq == 1) or is_hash(prev)):
            raise ViewChainError(f"entry {seq} carries no place in the chain ('prev' and "
                                 "'hash'): the view cannot be checked for completeness "
                                 "(make it again with 'log NAME --json')")
        if prev != self.prev:
            raise ViewChainError(f"entry {seq} does not follow entry {seq - 1} in the chain "
                                 "(moved, or an entry before it deleted or replaced; or it "
                                 "comes from another campaign)")
        if self.noted is not None and str(digest).startswith(self.noted):
            self.passed = True
        self.prev, self.seq = str(digest), seq

    def sealed(self, row: dict[str, Any]) -> None:
        """The row just placed hashes to its stated hash, unless it is a placeholder
        (checked after the roll checks, which say more precisely what was changed)."""
        seq, prev, digest = row["seq"], row["prev"], row["hash"]
        if row.get("placeholder") is not True:
            kind = row.get("kind")
            data = _hashed(kind, row.get("roll")) if kind in _ROLL_KINDS \
                else row.get("event_data")
            if not isinstance(data, dict):
                raise ViewChainError(f"entry {seq} is neither whole (its data) nor a "
                                     "placeholder: its place cannot be checked")
            if row.get("kind") not in _ROLL_KINDS and any(
                    (k in row, row.get(k)) != (k in data, data.get(k)) for k in COPIED):
                raise ViewChainError(f"entry {seq} says other than the entry its chain "
                                     "hash names (changed)")
            try:
                # As stored: a field of another type gives another hash, so it is refused.
                get = _field(row)
                event = StoredEvent(seq, get("time"), get("who"), get("role"), get("kind"),
                                    get("tracker"), get("move"), get("seed"), data, prev)
                again = event_hash(self.campaign_id, event)
            except (TypeError, ValueError):
                again = ""
            if again != digest:
                raise ViewChainError(f"entry {seq} is not the entry its chain hash names "
                                     "(changed, or taken from another campaign)")

    def _envelope(self) -> None:
        if not self.campaign_id:
            raise ViewChainError("the view does not say its campaign's identity "
                                 "('campaign_id'): its entries' places cannot be checked "
                                 "(make it again with 'log NAME --json')")
        if self.chain == "?":
            raise ViewChainError("the view's 'chain' (its newest entry's hash) is not a "
                                 "chain hash")

    def finish(self) -> None:
        """The view's end: its last hash is the chain it names (and passes a noted head)."""
        self._envelope()
        if self.prev != self.chain:
            raise ViewChainError(f"the view ends at entry {self.seq}, but its chain names "
                                 "another newest entry: an entry after it was deleted, or "
                                 "the view's 'chain' changed")
        if self.noted is not None and not self.passed:
            raise ViewChainError(f"the view's chain does not pass through the head noted "
                                 f"at the table ({self.noted}): the log was rewritten or "
                                 "its newest entries deleted")


def check_view(envelope: dict[str, Any], rows: Iterable[Any], verifier: RowVerifier,
               noted: str | None = None) -> int:
    """A seat's view checked row by row, as ``verify`` and the site's offline verifier
    check it (one code path): each entry's place in the chain first (none missing,
    repeated, moved or foreign), then its rolls (``verifier``), then its hash; then the
    view's end. ``envelope`` is the view's top level (its ``campaign_id`` and ``chain``),
    ``noted`` a chain head noted at the table. Returns how many rolls were checked; the
    first thing that does not hold raises one line naming its entry."""
    walk = ViewChain(envelope.get("campaign_id"), envelope.get("chain"), noted)
    for row in rows:
        walk.place(row)
        verifier.add(row)
        walk.sealed(row)
    checked = verifier.finish()
    walk.finish()
    return checked
