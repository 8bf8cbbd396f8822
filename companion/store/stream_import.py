"""``campaign import FILE`` read as a stream (issue 29): a 100 MB export imported without
building a file's worth of objects.

The file is read four times, one event at a time
([JsonDocument][companion.store.stream.JsonDocument]): its shape (before decoding), its
events as an import checks them
([DocumentChecker][companion.store.document.DocumentChecker]), its rolls
([LogVerifier][companion.fairplay.LogVerifier]), then replayed on a scratch campaign (every
step within the rules, as [import_document][companion.store.campaign.Campaign.import_document]
does) while the store writes them, all in one transaction: a refusal at any step writes
nothing. The scratch campaign's state is stored as the new campaign's snapshot, so opening
it does not replay the whole log either.

A document of an older version (no chain, or moves stored as commands) is converted
whole, as before: [import_file][companion.store.stream_import.import_file] returns ``None``
and the caller reads it the older way.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from companion import fairplay
from companion.errors import CompanionError
from companion.store.campaign import Campaign
from companion.store.db import Store
from companion.store.document import MAX_DEPTH, MAX_IMPORT_EVENTS, DocumentChecker
from companion.store.records import CampaignInfo, NameTakenError, NewEvent, StoredEvent, StoreError
from companion.store.stream import JsonDocument
from companion.store.upcast import needs_upcast

__all__ = ["import_file"]


def import_file(store: Store, path: str, name: str | None, limit: int) -> Campaign | None:
    """Import the campaign file ``path`` (at most ``limit`` bytes) as a stream; ``None``
    for a document of an older version (read it whole). One StoreError line on a
    refusal, and nothing written."""
    source = JsonDocument(path, limit, "a campaign file", MAX_DEPTH)
    checker = DocumentChecker(source.envelope, count=source.count, keep=False)
    if source.events_is_list is not True:  # after the format's own checks, as before
        raise StoreError("campaign file: field 'events' is missing or of the wrong type")
    older = False
    for raw in source.events():
        older = needs_upcast(checker.add(raw)) or older
    header = checker.finish()
    verifier = fairplay.LogVerifier(max_entries=MAX_IMPORT_EVENTS)
    try:
        for raw in source.events():
            verifier.add(raw)
        verifier.finish()
    except CompanionError as exc:
        raise StoreError(f"campaign file: its rolls do not verify: {exc}") from None
    if older or not header["campaign"]:
        return None
    new_name = store.check_name(name if name is not None else header["name"])
    if store.find_campaign(new_name) is not None:
        raise NameTakenError(f"a campaign named {new_name!r} already exists: import it "
                             "under another name")
    uid = header["campaign"]
    scratch = Campaign(None, CampaignInfo(0, new_name, tuple(header["rulesets"]),
                                          header["created"], 0, uid))
    info = store.import_campaign(new_name, header["rulesets"], header["created"],
                                 _replayed(scratch, source.events()), uid)
    if info.chain != scratch.chain:  # the store chained exactly what was checked
        store.delete_campaign(new_name)
        raise StoreError("campaign file: the imported log's chain came out different from "
                         "the file's; nothing was imported")
    if info.head:
        store.put_snapshot(info.id, info.head, {**scratch.state(), "chain": scratch.chain})
    return Campaign.open(store, new_name)


def _replayed(scratch: Campaign, raws: Iterator[Any]) -> Iterator[NewEvent]:
    """Each event applied to ``scratch`` and judged (a state passed through must be one
    the rules allow, as a live move's), then handed to the store to write."""
    for raw in raws:
        event = StoredEvent(raw["seq"], raw["at"], raw["who"], raw["role"], raw["kind"],
                            raw["tracker"], raw["move"], raw["seed"], raw["data"],
                            raw["prev"])
        scratch.apply_imported(event)  # the chain, the facts, every step's state
        yield NewEvent(event.kind, event.who, event.role, event.tracker, event.move,
                       event.seed, event.data, event.at)
