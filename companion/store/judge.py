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

[verify_document][companion.store.judge.verify_document] is ``verify``'s answer for a file
read whole, a campaign export or a seat's view of the log
([check_view][companion.store.view_chain.check_view]): the command line and the site's
offline verifier (the "Fair dice" page, in Pyodide) both call it, so they refuse the same
files with the same line.

The events are read twice (``events`` is called once per pass): give it a document held
whole, or a stream over a [Snapshot][companion.files.Snapshot] of the file (never the
file's name: a file swapped between two passes would be judged in one version and kept in
another).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion import fairplay
from companion.errors import CompanionError
from companion.store.chain import SHORT, short
from companion.store.document import MAX_IMPORT_EVENTS, DocumentChecker
from companion.store.records import StoredEvent, StoreError
from companion.store.upcast import needs_upcast

__all__ = ["UNCHAINED", "Judgement", "judge_export", "judged_export", "noted_head",
           "verified_line", "verify_document"]

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


def judged_export(name: str, envelope: Any, events: Callable[[], Iterable[Any]],
                  count: int | None = None, noted: str | None = None) -> Judgement:
    """[judge_export][companion.store.judge.judge_export] for ``verify``: its refusal said
    for the file ``name`` (a [CompanionError][companion.errors.CompanionError])."""
    try:
        return judge_export(envelope, events, count=count, noted=noted)
    except StoreError as exc:
        raise CompanionError(f"{name}: {str(exc).removeprefix('campaign file: ')}") from None


def verify_document(doc: Any, name: str, noted: str | None = None) -> str:
    """``verify`` of a file read whole (``doc``, its parsed JSON), its answer line: a
    campaign export judged as an import judges it, a seat's view of the log (``log NAME
    --json``) with each entry's place in the chain checked
    ([check_view][companion.store.view_chain.check_view]), anything else refused.
    ``noted``: a chain head noted at the table
    ([noted_head][companion.store.judge.noted_head]). The first thing that does not hold
    raises one line naming it."""
    from companion.store.recompute import Recomputer
    from companion.store.view_chain import check_view

    if isinstance(doc, dict) and "format" in doc:  # a campaign export: the whole record
        judged = judged_export(name, doc, lambda: doc["events"], None, noted)
        return verified_line(name, judged.checked, str(doc["chain"]), judged.notes)
    if not isinstance(doc, dict) or not isinstance(doc.get("events"), list):
        fairplay.verify(doc)  # its one line: not an exported log
    # Rule rolls recomputed whole from an export's facts (a log view has none: said).
    campaign = doc.get("campaign")
    verifier = fairplay.LogVerifier(replay=Recomputer(campaign if isinstance(campaign, str)
                                                      else ""))
    checked = check_view(doc, doc["events"], verifier, noted)
    return verified_line(name, checked, str(doc.get("chain") or ""), verifier.notes)


def verified_line(name: str, checked: int, chain: str | None,
                  notes: Sequence[str] = ()) -> str:
    """The line ``verify`` answers with, read whole or as a stream (``notes``: what the
    sittings add: one never closed, rolls before provably fair seeds...)."""
    if checked == 0:
        line = f"{name}: no revealed or public roll to check"
    else:
        line = (f"{name}: {checked} roll{'s' if checked != 1 else ''} checked, all hold "
                "(each revealed roll matches its commitment and its seed)")
    if chain:
        line += f"; its chain holds up to head {short(chain)}"
    for note in notes:
        line += f"; {note}"
    return line


def noted_head(text: str | None, label: str = "--head") -> str | None:
    """A chain head noted at the table, as typed (``None``: none given), lower case; one
    line if it is not 16 to 64 hex digits
    ([SHORT][companion.store.chain.SHORT] says why). ``label`` names where it was typed."""
    if text is None:
        return None
    head = text.strip().lower()
    if not re.fullmatch(r"[0-9a-f]{1,64}", head):
        raise CompanionError(f"{label} is not a chain head: give the one noted at the "
                             f"table, {SHORT} to 64 hex digits, as 'campaign show' prints it")
    if len(head) < SHORT:
        # Issue 49: a rewritten log can be ground (a nonce in an inserted event) until
        # some entry's hash starts with a short prefix: 8 digits took minutes.
        raise CompanionError(f"{label} {head}: {len(head)} hex digits are too few to trust "
                             f"(a rewritten log could be ground to match them); give at "
                             f"least {SHORT}, as 'campaign show' prints it")
    return head
