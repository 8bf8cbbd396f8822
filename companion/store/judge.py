"""One judgement of a campaign export, for ``verify`` and ``campaign import`` alike.

Issue 49: ``verify`` made every rolled move of an export again
([companion.store.recompute][]) while an import only checked the seeds, so a move's
arguments, summary, facts, name or tracker rewritten and re-chained made ``verify`` exit 2
and ``campaign import`` exit 0. Both now call
[judge_export][companion.store.judge.judge_export], and nothing else decides:

1. every event as an import checks it ([DocumentChecker][companion.store.document.DocumentChecker]:
   fields, members, the chain, the head noted at the table if one is given);
2. a document with no chain (version 1 or 2) is refused unless asked for by name
   (``unchained=True``, ``campaign import --unchained``): its order and completeness cannot
   be checked, and a version-3 export "downgraded" to version 2 with events deleted is
   exactly that;
3. every roll, and every rolled move of a chained export made again whole
   ([LogVerifier][companion.fairplay.LogVerifier] with the store's
   [Recomputer][companion.store.recompute.Recomputer]).

The events are read twice (``events`` is called once per pass): give it a document held
whole, or a stream over a [Snapshot][companion.files.Snapshot] of the file (never the
file's name: a file swapped between two passes would be judged in one version and kept in
another).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from companion import fairplay
from companion.errors import CompanionError
from companion.store.chain import short
from companion.store.document import MAX_IMPORT_EVENTS, DocumentChecker
from companion.store.records import StoredEvent, StoreError
from companion.store.upcast import needs_upcast

__all__ = ["UNCHAINED", "Judgement", "judge_export"]

#: The refusal of a document with no chain (the CLI adds how to ask for it by name).
UNCHAINED = ("campaign file: an export of an older version, with no chain: its order and "
             "completeness cannot be checked (export it again with this version)")


@dataclass
class Judgement:
    """What [judge_export][companion.store.judge.judge_export] found: the header (name,
    rulesets, created, campaign: ``""`` for no chain), the rolls checked, the lines the
    answer adds, and whether the log is of an older event format (converted on import)."""

    header: dict[str, Any]
    checked: int
    notes: list[str] = field(default_factory=list)
    older: bool = False
    #: The events as stored (``keep=True`` only: a document held whole).
    events: list[StoredEvent] = field(default_factory=list)


def judge_export(envelope: dict[str, Any], events: Callable[[], Iterable[Any]], *,
                 count: int | None = None, noted: str | None = None,
                 unchained: bool = False, keep: bool = False) -> Judgement:
    """Judge a campaign export (see the module's docstring); one StoreError line,
    beginning ``campaign file:``, naming the first thing that does not hold.

    ``envelope``: the document (with its events), or, with ``count`` given, a stream's
    top-level fields but ``events``; ``events()``: its events, from the first, on each
    call. ``noted``: a chain head noted at the table, which the chain must pass through.
    ``keep``: keep the events as stored (the judgement's ``events``)."""
    checker = DocumentChecker(envelope, count=count, keep=keep)
    found = noted is None
    older = False
    for raw in events():
        older = needs_upcast(checker.add(raw)) or older
        found = found or checker.prev.startswith(noted or "")
    header = checker.finish()
    if not header["campaign"] and not unchained:
        raise StoreError(UNCHAINED)
    if not found:
        raise StoreError(f"campaign file: no entry of this log has the chain head "
                         f"{short(noted or '')} noted at the table: the log was rewritten "
                         "since (or the head is another campaign's)")
    replay = None
    if header["campaign"] and not older:
        from companion.store.recompute import Recomputer

        replay = Recomputer(header["campaign"])
    verifier = fairplay.LogVerifier(max_entries=MAX_IMPORT_EVENTS, replay=replay)
    try:
        for raw in events():
            verifier.add(raw)
        checked = verifier.finish()
    except CompanionError as exc:
        raise StoreError(f"campaign file: its rolls do not verify: {exc}") from None
    return Judgement(header, checked, list(verifier.notes), older, checker.events)
