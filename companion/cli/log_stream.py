"""``log NAME --json`` and ``luck NAME`` read a campaign's log a page at a time (issue 49).

Read whole, a 200,000-event log was every event as an object, then again as each seat's
view, then as rows (919 MB for ``log --json``, 541 MB for ``luck --json``). Here, as
``campaign export`` does ([companion.store.export_stream][]):

1. the chain is walked first, a page of events at a time, up to the head the campaign
   recorded (a damaged log is refused before a byte is written), noting every reveal
   (a revealed roll's row says where: [reveals][companion.fairplay.reveals]);
2. then each page is made the seat's view
   ([visible_to][companion.fairplay.visible_to], given those reveals and the trackers'
   kinds seen so far) and written (``log``) or kept in the few fields the report reads
   (``luck``: [luck_fields][companion.luck.luck_fields]), each event checked again to
   follow the one before (a log changed between the two walks is said, never mixed).

The text written is byte for byte the one the whole log gave (``json.dumps`` of the
document, ``ensure_ascii=False``); ``tests/store/test_log_stream.py`` compares them.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, TextIO

from companion.store.chain import ChainError, check_chain, event_hash

if TYPE_CHECKING:
    from companion.store.port import Store
    from companion.store.records import CampaignInfo, StoredEvent

__all__ = ["PAGE", "bare", "checked_pages", "luck_events", "walk", "write_log_json"]

#: Events read from the store at a time.
PAGE = 2000
_EVENTS_AT = '"events": []'


def _pages(store: Store, info: CampaignInfo) -> Iterator[list[StoredEvent]]:
    seq = 0
    while seq < info.head:
        page = store.events_since(info.id, seq, limit=min(PAGE, info.head - seq))
        if not page:
            return
        yield page
        seq = page[-1].seq


def walk(store: Store, info: CampaignInfo) -> dict[int, int]:
    """The first walk: every event 1..head there and chained to the recorded head (one
    line naming the first that is not, as ``log`` read whole said); returns the log's
    reveals (roll entry -> its first reveal's entry)."""
    from companion.fairplay import reveals

    store.check_count(info)
    revealed: dict[int, int] = {}

    def noted() -> Iterator[StoredEvent]:
        for page in _pages(store, info):
            reveals([{"kind": e.kind, "seq": e.seq, "data": e.data} for e in page
                     if e.kind == "reveal"], revealed)
            yield from page

    try:
        check_chain(info.uid, noted(), head=(info.head, info.chain))
    except ChainError as exc:
        raise ChainError(f"{store.where} is damaged: campaign {info.name!r}: {exc}"
                         ) from None
    return revealed


def checked_pages(store: Store, info: CampaignInfo
                  ) -> Iterator[list[tuple[StoredEvent, str]]]:
    """The second walk: each page's events with their hashes, each following the one
    before; a log changed since the first walk raises (what was written stays partial)."""
    prev = ""
    for page in _pages(store, info):
        out = []
        for event in page:
            if event.prev != prev:
                raise ChainError(f"{store.where}: campaign {info.name!r} changed while it "
                                 f"was read (event {event.seq}); read it again")
            prev = event_hash(info.uid, event)
            out.append((event, prev))
        yield out
    if prev != info.chain:
        raise ChainError(f"{store.where}: campaign {info.name!r} changed while it was "
                         "read; read it again")


def bare(event: StoredEvent) -> StoredEvent:
    """An entry ``log --rolls --json`` leaves out, kept as a placeholder: its number, who,
    when, kind and tracker, nothing of what it did."""
    from dataclasses import replace

    return replace(event, seed=None, data={})


def _seat(args: argparse.Namespace) -> tuple[str, str]:
    """The seat whose view ``log`` prints (as [log_view][companion.cli.fairplay.log_view])."""
    if getattr(args, "gm", False):
        return "", "gm"
    return " ".join((getattr(args, "player", None) or "").split()), "player"


def write_log_json(store: Store, info: CampaignInfo, args: argparse.Namespace,
                   out: TextIO) -> None:
    """Write ``log NAME --json`` (``args``: its ``--gm``/``--player``, ``--rolls``) of the
    campaign ``info`` to ``out``, a page at a time, then a newline."""
    from companion import fairplay
    from companion.cli.campaigns import log_rows
    from companion.store.records import StoredEvent
    from companion.store.registry import tracker_class
    from companion.store.view_chain import COPIED, view_link

    revealed = walk(store, info)
    who, role = _seat(args)
    kinds: dict[str, str] = {}
    names: dict[str, str] = {}
    header = {"campaign": info.name, "campaign_id": info.uid, "chain": info.chain,
              "events": []}
    before, after = json.dumps(header, ensure_ascii=False).rsplit(_EVENTS_AT, 1)
    out.write(before + '"events": [')
    first = True
    for page in checked_pages(store, info):
        shown = [StoredEvent(**e) for e in fairplay.visible_to(
            [e.to_dict() for e, _ in page], who, role, tracker_class, revealed=revealed,
            kinds=kinds)]
        if args.rolls:  # the rest kept as placeholders: the view's chain stays whole
            shown = [e if e.seed is not None or e.kind in ("roll", "reveal", "sitting")
                     else bare(e) for e in shown]
        pieces = []
        for row, (stored, digest), event in zip(log_rows(shown, names), page, shown,
                                                strict=True):
            # Each entry's place in the chain (issue 47): a seat's view verifies complete.
            row.update(view_link(stored, digest, event))
            if event.kind in ("roll", "reveal"):
                row["roll"] = event.data
            else:
                row.update({k: event.data[k] for k in COPIED if k in event.data})
            pieces.append(("" if first else ", ") + json.dumps(row, ensure_ascii=False))
            first = False
        out.write("".join(pieces))
    out.write("]" + after + "\n")


def luck_events(store: Store, info: CampaignInfo) -> list[dict[str, Any]]:
    """The log as every player sees it, kept in what the luck report reads of it (its
    rolls, reveals and sittings' closes: [luck_fields][companion.luck.luck_fields])."""
    from companion import fairplay
    from companion.luck import LUCK_KINDS, luck_fields
    from companion.store.registry import tracker_class

    revealed = walk(store, info)
    kept: list[dict[str, Any]] = []
    for page in checked_pages(store, info):
        # Every player's view: no hidden roll's secret reaches the report (it reads
        # reveals). The kinds it keeps are judged on their own (no tracker's kind).
        seen = fairplay.visible_to([e.to_dict() for e, _ in page if e.kind in LUCK_KINDS],
                                   "", "player", tracker_class, revealed=revealed)
        kept.extend(luck_fields(e) for e in seen)
    return kept
