"""``campaign import FILE`` read as a stream (issue 29): a 100 MB export imported without
building a file's worth of objects.

The file is opened once and its bytes copied ([Snapshot][companion.files.Snapshot], issue
49: a file renamed over between two reads was imported unchecked); the copy is read four
times, one event at a time ([JsonDocument][companion.store.stream.JsonDocument]): its
shape (before decoding), then judged exactly as ``verify`` judges an export
([judge_export][companion.store.judge.judge_export]: its events as an import checks them,
its rolls, every rolled move made again), then replayed on a scratch campaign (every
step within the rules, as [import_document][companion.store.campaign.Campaign.import_document]
does) while the store writes them, all in one transaction: a refusal at any step writes
nothing. The scratch campaign's state is stored as the new campaign's snapshot, so opening
it does not replay the whole log either.

A document of an older version (no chain, or moves stored as commands) is refused unless
asked for by name (``--unchained``); then it is converted whole, as before:
[import_file][companion.store.stream_import.import_file] returns ``None`` and the caller
reads the same snapshot the older way.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from companion.files import Snapshot
from companion.store.campaign import Campaign
from companion.store.db import Store
from companion.store.document import MAX_DEPTH, DocumentChecker
from companion.store.judge import Judgement, judge_export
from companion.store.records import CampaignInfo, NameTakenError, NewEvent, StoredEvent, StoreError
from companion.store.stream import JsonDocument

__all__ = ["import_file", "judge_file"]


def judge_file(source: Snapshot, limit: int, *, unchained: bool = False
               ) -> tuple[JsonDocument, Judgement]:
    """The campaign file read into ``source`` (at most ``limit`` bytes), judged as
    ``verify`` judges it ([judge_export][companion.store.judge.judge_export]) before any
    store is touched; one StoreError line on a refusal."""
    document = JsonDocument(source, limit, "a campaign file", MAX_DEPTH)
    DocumentChecker(document.envelope, count=document.count, keep=False)  # its format
    if document.events_is_list is not True:  # after the format's own checks, as before
        raise StoreError("campaign file: field 'events' is missing or of the wrong type")
    return document, judge_export(document.envelope, document.events,
                                  count=document.count, unchained=unchained)


def import_file(store: Store, source: Snapshot, name: str | None, limit: int, *,
                unchained: bool = False,
                judged: tuple[JsonDocument, Judgement] | None = None) -> Campaign | None:
    """Import the campaign file read into ``source`` (at most ``limit`` bytes) as a
    stream, judged first ([judge_file][companion.store.stream_import.judge_file], or
    ``judged``: its answer); ``None`` for a document of an older version (read it whole:
    only with ``unchained``, else refused). One StoreError line on a refusal, and nothing
    written."""
    document, judgement = judged or judge_file(source, limit, unchained=unchained)
    header = judgement.header
    if judgement.older or not header["campaign"]:
        return None
    new_name = store.check_name(name if name is not None else header["name"])
    if store.find_campaign(new_name) is not None:
        raise NameTakenError(f"a campaign named {new_name!r} already exists: import it "
                             "under another name")
    uid = header["campaign"]
    scratch = Campaign(None, CampaignInfo(0, new_name, tuple(header["rulesets"]),
                                          header["created"], 0, uid))
    info = store.import_campaign(new_name, header["rulesets"], header["created"],
                                 _replayed(scratch, document.events()), uid)
    if info.chain != scratch.chain:  # the store chained exactly what was checked
        store.delete_campaign(new_name)
        raise StoreError("campaign file: the imported log's chain came out different from "
                         "the file's; nothing was imported")
    if info.head:
        store.put_snapshot(info.id, info.head, scratch.snapshot())
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
