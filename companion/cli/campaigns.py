"""``companion campaign ...`` and ``companion log NAME``: campaigns on the command line.

The database is the one ``COMPANION_DB`` names (a file path or a ``postgresql://`` URL),
else the default file in the user's data folder. Errors follow the CLI contract: one
``error:`` line, exit status 2.

- ``campaign new NAME --ruleset RULESET`` (``--ruleset`` may be repeated)
- ``campaign list [--json]``
- ``campaign show NAME [--json]``
- ``campaign export NAME`` (the JSON document on standard output)
- ``campaign import FILE [--name NEW] [--unchained]`` (``-`` reads standard input): judged
  as ``verify`` judges an export; a file of an older version (no chain) only with
  ``--unchained``
- ``campaign delete NAME --yes``
- ``campaign seat NAME WHO --role gm|player``, ``campaign seats NAME [--json]``,
  ``campaign unseat NAME WHO`` and ``log NAME --seat SECRET``: seats
  ([companion.cli.seats][])
- ``log NAME [--json | --csv] [--rolls] [--gm | --player WHO]``: who did what, when, with
  which seed; hidden rolls as every player sees them unless ``--gm`` (see
  [companion.cli.fairplay][]); the JSON's roll entries carry a ``roll`` field that
  ``verify`` checks
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import re
import sys
from typing import TYPE_CHECKING, Any

from companion.errors import CompanionError, clipped
from companion.store.document import MAX_IMPORT_BYTES

if TYPE_CHECKING:
    from companion.state import Tracker
    from companion.store.campaign import Member
    from companion.store.db import Store, StoredEvent

__all__ = ["add_commands"]

LOG_COLUMNS = ("seq", "time", "who", "role", "kind", "tracker", "member", "move", "summary",
               "seed")


def add_commands(sub: Any) -> None:
    campaign = sub.add_parser("campaign", help="create, list, show, export and import campaigns")
    csub = campaign.add_subparsers(dest="campaign_command", metavar="ACTION",
                                   parser_class=type(campaign))
    campaign.set_defaults(func=lambda args: _usage(campaign))

    new = csub.add_parser("new", help="create a campaign")
    new.add_argument("name")
    new.add_argument("--ruleset", action="append", required=True,
                     help="ruleset it plays (e.g. cairn_srd); repeat for several")
    new.set_defaults(func=_new)

    lst = csub.add_parser("list", help="list the campaigns")
    lst.add_argument("--json", action="store_true")
    lst.set_defaults(func=_list)

    show = csub.add_parser("show", help="a campaign's rulesets, party and encounters")
    show.add_argument("name")
    show.add_argument("--json", action="store_true")
    show.add_argument("--gm", action="store_true",
                      help="with --json: every game's whole state (hidden dice, table seed)")
    show.set_defaults(func=_show)

    export = csub.add_parser("export", help="the whole campaign as JSON on standard output")
    export.add_argument("name")
    export.set_defaults(func=_export)

    imp = csub.add_parser("import", help="create a campaign from an exported file")
    imp.add_argument("file", help="the exported JSON file ('-': standard input)")
    imp.add_argument("--name", help="a new name for it")
    imp.add_argument("--unchained", action="store_true",
                     help="import a file of an older version (1 or 2), which has no chain: "
                     "its order and completeness cannot be checked")
    imp.set_defaults(func=_import)

    delete = csub.add_parser("delete", help="delete a campaign and its whole log")
    delete.add_argument("name")
    delete.add_argument("--yes", action="store_true", help="really delete it")
    delete.set_defaults(func=_delete)

    log = sub.add_parser("log", help="a campaign's log: who did what, when, with which seed")
    log.add_argument("name")
    form = log.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true")
    form.add_argument("--csv", action="store_true")
    log.add_argument("--rolls", action="store_true",
                     help="only dice rolls and moves that rolled (those with a seed)")
    view = log.add_mutually_exclusive_group()
    view.add_argument("--gm", action="store_true", help="show hidden rolls' dice too (the "
                      "GM's view; by default the log is what every player may see)")
    view.add_argument("--player", metavar="WHO", help="the log as this player sees it")
    log.set_defaults(func=_log)
    from companion.cli.seats import add_seat_commands  # seat, seats, unseat, --seat

    add_seat_commands(csub, log, view)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 0


def _store(*, create: bool = False) -> Store:
    """The store; a command that only reads (``create=False``) never creates it."""
    from companion.store.db import open_store

    return open_store(create=create)


def store_of(name: str) -> Store:
    """The store holding campaign ``name``, for a command that does not create one: where
    there is no database yet, the error is that there is no such campaign (and nothing is
    created)."""
    from companion.store.db import NoDatabaseError, StoreError, open_store

    try:
        return open_store(create=False)
    except NoDatabaseError as exc:
        raise StoreError(f"no campaign named {clipped(name)!r} in {exc.where} (campaigns: "
                         "none yet)") from None


def _new(args: argparse.Namespace) -> int:
    from companion.store.campaign import create

    with _store(create=True) as store:
        campaign = create(store, args.name, args.ruleset)
        sys.stdout.write(f"created campaign {campaign.name} ({', '.join(campaign.rulesets)}) "
                         f"in {store.where}\n")
    return 0


def _list(args: argparse.Namespace) -> int:
    from companion.store.db import NoDatabaseError

    try:
        store = _store()
    except NoDatabaseError as exc:  # nothing there: nothing to list, nothing created
        if args.json:
            _json({"database": exc.where, "campaigns": []})
        else:
            sys.stdout.write(f"no campaigns yet in {exc.where}\n")
        return 0
    with store:
        infos = store.list_campaigns()
        if args.json:
            _json({"database": store.where, "campaigns": [i.to_dict() for i in infos]})
            return 0
        if not infos:
            sys.stdout.write(f"no campaigns yet in {store.where}\n")
        for info in infos:
            sys.stdout.write(f"{info.name}  ({', '.join(info.rulesets)}; {info.head} events; "
                             f"created {info.created[:10]})\n")
    return 0


def _show(args: argparse.Namespace) -> int:
    from companion.store.campaign import Campaign

    with store_of(args.name) as store:
        store.keep_snapshots = False  # a command that only reads changes nothing
        campaign = Campaign.open(store, args.name)
        members = list(campaign)
        if args.json:
            from companion.table.views import visible_save

            # What a seat sees is decided once, by the seat filter every face uses
            # (companion.table.views): whole with --gm (the database's holder), else as a
            # seat holding no character (no hole die, table seed, pending pick or hidden
            # roll's dice).
            who, role = ("", "") if args.gm else ("", "spectator")
            shown = []
            for m in members:
                item = m.to_dict()
                item["state"] = visible_save(m.tracker, who, role)["state"]
                shown.append(item)
            _json({"name": campaign.name, "rulesets": list(campaign.rulesets),
                   "created": campaign.info.created, "events": campaign.head,
                   "chain": campaign.chain, "members": shown})
            return 0
        out = [f"{campaign.name}: {', '.join(campaign.rulesets)}; {campaign.head} events; "
               f"created {campaign.info.created[:10]}", _head_line(campaign.head,
                                                                   campaign.chain)]
        party = {m.name for m in campaign.party}
        for role, title in (("party", "Party"), ("encounter", "Encounters"),
                            ("minigame", "Minigames")):
            chosen = [m for m in members if m.role == role]
            out.append(f"{title}:" if chosen else f"{title}: none")
            for m in chosen:
                out.append(_line(m, "  "))
                if role == "party":  # the member's own records, under them
                    out += [_line(r, "      ") for r in campaign.records(m.name)]
        # Records whose owner is not (or no longer) in the party.
        others = [m for m in members if m.role == "record" and m.owner not in party]
        if others:
            out.append("Records of members not in the party:")
            out += [_line(m, "  ") for m in others]
        sys.stdout.write("\n".join(out) + "\n")
    return 0


def _head_line(head: int, chain: str) -> str:
    """The chain's head as people compare it (see companion.store.chain)."""
    from companion.store.chain import short

    if not head:
        return "Chain head: — (nothing logged yet)"
    return f"Chain head: {short(chain)} (event {head}; a log rewritten since would not end here)"


def _line(member: Member, indent: str) -> str:
    """One tracker in ``campaign show``: its name, what it is, its moves to undo."""
    return (f"{indent}{member.name}  ({_what(member.tracker)}, {len(member.tracker.log)} "
            "moves to undo)")


def _what(tracker: Tracker) -> str:
    """What a player calls a tracker ("plot point session"), never its class name."""
    words: str = getattr(tracker, "what", "") or ""
    return words or re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", type(tracker).__name__).lower()


def _export(args: argparse.Namespace) -> int:
    from companion.store.campaign import Campaign
    from companion.store.export_stream import write_export

    with store_of(args.name) as store:
        store.keep_snapshots = False  # a command that only reads changes nothing
        # Page by page (a 200,000-event campaign built whole took over a gigabyte); the
        # chain is checked through before the first byte is written.
        write_export(store, Campaign.open(store, args.name), sys.stdout)
    return 0


def _import(args: argparse.Namespace) -> int:
    from companion.cli.fairplay import MAX_STREAMED_BYTES
    from companion.files import Snapshot
    from companion.store.judge import UNCHAINED
    from companion.store.records import NameTakenError, StoreError
    from companion.store.stream_import import import_file, judge_file

    # The file (or standard input) is opened once and its bytes copied (issue 49): every
    # pass below reads the copy, so a file swapped mid-import cannot get in. Read as a
    # stream, never whole (issue 29); an older document, asked for, is read whole.
    # Standard input keeps its limit (it used to be read whole).
    limit = MAX_IMPORT_BYTES if args.file == "-" else MAX_STREAMED_BYTES
    def judged() -> Any:
        try:
            return judge_file(source, limit, unchained=args.unchained)
        except StoreError as exc:
            if str(exc) == UNCHAINED:
                raise StoreError(f"{UNCHAINED}; import it anyway with --unchained (it gets "
                                 "a chain, under a new identity)") from None
            raise

    with Snapshot(args.file, limit, "a campaign file") as source:
        # Standard input is judged before any store is opened (nothing made for a refused
        # input, as when it was read whole); a file after (a damaged store said first).
        early = judged() if args.file == "-" else None
        with _store(create=True) as store:
            verdict = early or judged()
            try:
                streamed = import_file(store, source, args.name, limit, judged=verdict)
            except NameTakenError as exc:  # the store's words name no flag: the CLI's do
                raise NameTakenError(f"{exc} (import it with --name NEW)") from None
            return _import_older(args, store, source) if streamed is None else \
                _imported(streamed.name, streamed.head, store.where)


def _imported(name: str, head: int, where: str) -> int:
    sys.stdout.write(f"imported campaign {name} ({head} events) into {where}\n")
    return 0


def _import_older(args: argparse.Namespace, store: Store, source: Any) -> int:
    """A document of an older version, asked for by name (``--unchained``): the same
    snapshot read whole, converted and chained as it is imported."""
    from companion.files import FileError
    from companion.store.campaign import Campaign
    from companion.store.document import MAX_DEPTH
    from companion.store.records import NameTakenError, check_json_input

    if source.size > MAX_IMPORT_BYTES:
        raise FileError(f"{source.shown} is larger than {MAX_IMPORT_BYTES:,} bytes (a "
                        "campaign file of an older version is read whole)")
    data = source.read_all()
    text = check_json_input(data, args.file, "a campaign file", MAX_DEPTH)
    del data  # half the memory back before the objects are built
    try:
        doc = json.loads(text)
    except ValueError as exc:
        line = getattr(exc, "lineno", "?")
        raise CompanionError(f"{args.file} is not a campaign file (not JSON, line {line})"
                             ) from None
    except RecursionError:
        raise CompanionError(f"{args.file} is nested too deeply to be a campaign file"
                             ) from None
    try:
        campaign = Campaign.import_document(store, doc, args.name, unchained=True)
    except NameTakenError as exc:  # the store's words name no flag: the CLI's do
        raise NameTakenError(f"{exc} (import it with --name NEW)") from None
    return _imported(campaign.name, campaign.head, store.where)


def _delete(args: argparse.Namespace) -> int:
    if not args.yes:
        raise CompanionError("deleting a campaign loses its whole log: add --yes to do it")
    with store_of(args.name) as store:
        store.delete_campaign(args.name)
    sys.stdout.write(f"deleted campaign {args.name}\n")
    return 0


def _summary(event: StoredEvent) -> str:
    line = _event_summary(event)
    news = event.data.get("sitting") if isinstance(event.data, dict) else None
    if news is not None:
        from companion.sittings import summary as sitting_summary

        said = sitting_summary(news)
        line = said if event.kind == "sitting" else f"{line} [{said}]"
    return line


def _event_summary(event: StoredEvent) -> str:
    data = event.data
    if event.kind in ("roll", "reveal"):
        from companion.fairplay import summary

        return summary(event.kind, data)
    if event.kind == "add":
        if data.get("role") == "record":
            return f"{data.get('name', event.tracker)} is kept for {data.get('owner', '')}"
        return f"{data.get('name', event.tracker)} joins the campaign ({data.get('role', '')})"
    if event.kind == "undo":
        return f"undo: {data.get('summary', '')}"
    if event.kind == "set":
        return "state set"
    if event.kind == "remove":
        return "leaves the campaign"
    line = str(data.get("summary", event.move or ""))
    trusted = data.get("trusted")
    if isinstance(trusted, str) and trusted:  # a player's entry the GM's trust allowed
        return f"{line} [player's {trusted[:40]}, by the table's trust]"
    return line


def log_rows(events: list[StoredEvent], names: dict[str, str] | None = None
             ) -> list[dict[str, Any]]:
    """The log's rows (the JSON and CSV forms share them); ``member`` is the tracker's name
    (``names``: the trackers' names so far, kept across the pages of a log read a page at
    a time)."""
    names = {} if names is None else names
    rows = []
    for e in events:
        if e.kind == "add" and e.tracker:
            names[e.tracker] = str(e.data.get("name", e.tracker))
        rows.append({"seq": e.seq, "time": e.at, "who": e.who, "role": e.role, "kind": e.kind,
                     "tracker": e.tracker, "member": names.get(e.tracker or "", e.tracker),
                     "move": e.move, "summary": _summary(e), "seed": e.seed})
    return rows


def checked_log(store: Store, name: str) -> tuple[Any, list[Any]]:
    """The campaign ``name``'s info and its whole log, the chain walked first: a log with
    a gap or a broken chain is one line naming the first bad event, never read as if it
    were whole."""
    from companion.store.chain import ChainError, check_chain

    info = store.get_campaign(name)
    store.check_count(info)
    events = store.events_since(info.id, 0)[:info.head]
    try:
        check_chain(info.uid, events, head=(info.head, info.chain))
    except ChainError as exc:
        raise ChainError(f"{store.where} is damaged: campaign {info.name!r}: {exc}"
                         ) from None
    return info, events


def _log(args: argparse.Namespace) -> int:
    if args.json:
        from companion.cli.log_stream import write_log_json

        with store_of(args.name) as store:
            # A page at a time (issue 49: read whole, 919 MB at 200,000 events).
            write_log_json(store, store.get_campaign(args.name), args, sys.stdout)
        return 0
    with store_of(args.name) as store:
        info, events = checked_log(store, args.name)
        head, chain = info.head, info.chain
    from companion.cli.fairplay import log_view

    events = log_view(events, args)
    if args.rolls:
        events = [e for e in events if e.seed is not None
                  or e.kind in ("roll", "reveal", "sitting")]
    rows = log_rows(events)
    if args.csv:
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=LOG_COLUMNS, lineterminator="\r\n")
        writer.writeheader()
        writer.writerows(rows)
        sys.stdout.write(out.getvalue())
    else:
        if not rows:
            sys.stdout.write(f"{info.name}: nothing logged yet\n")
        for r in rows:
            who = f"{r['who']} ({r['role']})" if r["role"] else (r["who"] or "someone")
            seed = f"  [seed {r['seed']}]" if r["seed"] is not None else ""
            member = r["member"] or ""
            on = f"{member}: " if member and r["kind"] in ("move", "undo", "set") \
                and not r["summary"].startswith(member) else ""
            sys.stdout.write(f"{r['seq']:>5}  {r['time'][:19].replace('T', ' ')}  {who}  "
                             f"{on}{r['summary']}{seed}\n")
        if head:
            sys.stdout.write(_head_line(head, chain) + "\n")
    return 0


def _json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
