"""``campaign export`` written as a stream: the same bytes as the whole document, a page of
events at a time.

[Campaign.export][companion.store.campaign.Campaign.export] builds the document whole: for
a 200,000-event campaign (the most a store keeps) that is every event as an object, then as
a 100 MB string, over a gigabyte at its peak (issue 49). Here the chain is walked first,
a page of events at a time, up to the head the campaign recorded (a damaged log is refused
before a byte is written), then the document is written page by page, each event checked
again against the hash the walk gave it: memory stays about one page's.

The text is byte for byte [document_text][companion.store.document.document_text]'s
(sorted keys, two-space indent), so a file exported either way is the same file.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, TextIO

from companion.store.chain import ChainError, check_chain, event_hash
from companion.store.document import DOCUMENT_FORMAT, DOCUMENT_VERSION

if TYPE_CHECKING:
    from companion.store.campaign import Campaign
    from companion.store.port import Store
    from companion.store.records import StoredEvent

__all__ = ["PAGE", "write_export"]

#: Events read from the store at a time.
PAGE = 2000
_EVENTS_AT = '"events": []'


def _pages(store: Store, campaign: Campaign, head: int) -> Iterator[list[StoredEvent]]:
    seq = 0
    while seq < head:
        page = store.events_since(campaign.info.id, seq, limit=min(PAGE, head - seq))
        if not page:
            return
        yield page
        seq = page[-1].seq


def _events(store: Store, campaign: Campaign, head: int) -> Iterator[StoredEvent]:
    for page in _pages(store, campaign, head):
        yield from page


def write_export(store: Store, campaign: Campaign, out: TextIO) -> None:
    """Write ``campaign``'s export document (``store``: where it was opened) to ``out``,
    then a newline (as the CLI prints it). Raises
    [ChainError][companion.store.chain.ChainError] before writing anything when the log is
    broken, and after (the output then incomplete) only when the log changed under the
    write."""
    head, chain, uid = campaign.head, campaign.chain, campaign.info.uid
    where = store.where
    try:
        check_chain(uid, _events(store, campaign, head), head=(head, chain))
    except ChainError as exc:
        raise ChainError(f"{where} is damaged: campaign {campaign.name!r}: {exc}") from None
    header = {"format": DOCUMENT_FORMAT, "version": DOCUMENT_VERSION, "name": campaign.name,
              "rulesets": list(campaign.rulesets), "created": campaign.info.created,
              "campaign": uid, "chain": chain, "events": []}
    text = json.dumps(header, ensure_ascii=False, sort_keys=True, indent=2)
    before, after = text.split(_EVENTS_AT, 1)
    if head == 0:
        out.write(text + "\n")
        return
    out.write(before + '"events": [')
    prev, first = "", True
    for page in _pages(store, campaign, head):
        pieces = []
        for event in page:
            if event.prev != prev:
                raise ChainError(f"{where}: campaign {campaign.name!r} changed while it was "
                                 f"exported (event {event.seq}); export it again")
            prev = event_hash(uid, event)
            body = json.dumps(event.to_dict(), ensure_ascii=False, sort_keys=True, indent=2)
            pieces.append(("\n" if first else ",\n") + "    " + body.replace("\n", "\n    "))
            first = False
        out.write("".join(pieces))
    if prev != chain:
        raise ChainError(f"{where}: campaign {campaign.name!r} changed while it was exported; "
                         "export it again")
    out.write("\n  ]" + after + "\n")
