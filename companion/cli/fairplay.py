"""Fair play on the command line: rolls in a mode, reveals, checking an exported log, and
rolls made with your own dice (see [companion.fairplay][] and
[companion.dice.physical][]).

- ``roll EXPR --campaign NAME [--mode public|gm|blind|self] [--who PLAYER]`` logs the roll
  in the campaign's roll log and prints ``entry N: ...``. A hidden roll is logged as its
  commitment; the dice are printed only to whoever may see them: a ``gm`` roll made by the
  GM (no ``--who``), a ``self`` roll to its roller, a ``blind`` roll never (the GM reads it
  with ``log NAME --gm``).
- ``roll EXPR --physical TOTAL`` or ``--dice 3,5``: a roll made with your own dice, checked
  against the expression (with ``--campaign``: logged, marked physical).
- ``table ID --campaign NAME [--mode MODE] [--who PLAYER]``: roll on a random table for
  the campaign's roll log; the entry records the table, so ``verify`` rolls it again with
  its seed and compares the result.
- ``reveal NAME ENTRY``: reveal a hidden roll (as the GM: the command line is the machine
  owner's, who is the GM).
- ``verify FILE [--head HEX]``: check every revealed roll of ``log NAME --json`` against
  its commitment (and the seed's dice); exit 0 when all hold, else one ``error:`` line
  naming the entry. A ``campaign export`` is checked as an import would check it, its
  whole chain included (an entry deleted, duplicated, reordered, renumbered, changed or
  taken from another campaign is named); ``--head`` names a chain head noted at the table
  (``campaign show``, the end of ``log``), which the export's chain must pass through: at
  least 16 hex digits ([SHORT][companion.store.chain.SHORT] says why). A log view (``log
  NAME --json``, any seat's) carries each entry's place in the chain
  ([companion.store.view_chain][]): one deleted, duplicated, moved or taken from another
  campaign is named too, and ``--head`` applies to it alike.
- ``session close NAME`` (the GM's) closes the open sitting and publishes its server seed
  ([companion.sittings][]); ``session show NAME [--json]`` says the sitting's number,
  whether it is open, its server seed's hash, its client seeds and rolls; ``session seed
  NAME [SEED] [--who PLAYER]`` sets a seat's client seed. ``verify`` then recomputes every
  seed of every closed sitting and names a sitting never closed; its answer says which
  rolls were recomputed whole (dice rolls, table rolls) and which rule rolls had only
  their seed checked.
- ``log NAME`` shows by default what every player may see (no hidden roll's secret before
  its reveal: safe to share); ``--player WHO`` what that player sees (their own ``self``
  rolls too); ``--gm`` everything, secrets included (the GM's view; ``campaign export`` is
  the GM's full backup too). ``verify`` works on any of them.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import TYPE_CHECKING, Any

from companion.errors import CompanionError
from companion.store.chain import SHORT

if TYPE_CHECKING:
    from companion.store.db import StoredEvent

__all__ = ["add_commands", "log_view", "parse_dice", "roll_command"]

#: Largest file ``verify`` reads whole (standard input, an older document).
MAX_VERIFY_BYTES = 100_000_000

#: Largest file ``verify`` and ``campaign import`` read as a stream. Their memory does not
#: grow with the file, and the largest campaign a store keeps (200,000 events,
#: ``MAX_IMPORT_EVENTS``) exports to about 101 MB: a limit of 100 MB refused a campaign's
#: own export. Four times that leaves room for long summaries and names.
MAX_STREAMED_BYTES = 400_000_000

#: Who the command line acts as when no ``--who`` is given: the machine owner, the GM.
GM_NAME = "GM"

#: Longest ``--dice`` text read.
MAX_DICE_TEXT = 1_000_000


#: The options ``roll`` gets from here (any of them sends the roll to
#: [roll_command][companion.cli.fairplay.roll_command]).
FAIRPLAY_OPTIONS = ("campaign", "mode", "who", "physical", "dice")


def add_commands(sub: Any) -> None:
    """Add ``reveal`` and ``verify``, and extend ``roll`` (defined by the dice engine's
    command line) with ``--campaign``, ``--mode``, ``--who``, ``--physical``, ``--dice``."""
    roll = sub.choices.get("roll")
    if roll is not None:
        _extend_roll(roll)
    table = sub.choices.get("table")
    if table is not None:
        _extend_table(table)
    reveal = sub.add_parser("reveal", help="reveal a hidden roll of a campaign's roll log")
    reveal.add_argument("name", help="the campaign")
    reveal.add_argument("entry", type=int, help="the roll's entry number (from roll or log)")
    reveal.set_defaults(func=_reveal)

    verify = sub.add_parser("verify", help="check the revealed rolls of an exported log "
                            "against their commitments")
    verify.add_argument("file", help="the JSON of 'log NAME --json' or of 'campaign export' "
                        "('-': standard input)")
    verify.add_argument("--head", metavar="HEX", help="a chain head noted at the table "
                        f"(at least {SHORT} hex digits, as 'campaign show' prints it: "
                        "fewer could be matched by a rewritten log ground to fit): a "
                        "campaign export's or a log view's chain must pass through it")
    verify.set_defaults(func=_verify)

    sitting = sub.add_parser("session", help="a campaign's sitting (provably fair seeds): "
                             "show it, close it, set a seat's client seed")
    ssub = sitting.add_subparsers(dest="session_command", metavar="ACTION",
                                  parser_class=type(sitting))
    sitting.set_defaults(func=lambda args: _usage(sitting))
    close = ssub.add_parser("close", help="close the open sitting and publish its server "
                            "seed (the GM's): then every roll of it can be checked")
    close.add_argument("name", help="the campaign")
    close.set_defaults(func=_close_sitting)
    show = ssub.add_parser("show", help="the sitting: its number, whether it is open, its "
                           "server seed's hash, the client seeds, how many rolls")
    show.add_argument("name", help="the campaign")
    show.add_argument("--json", action="store_true", help="as JSON")
    show.set_defaults(func=_show_sitting)
    seed = ssub.add_parser("seed", help="set a seat's client seed (a new one from this "
                           "device when none is given); published at once in an open sitting")
    seed.add_argument("name", help="the campaign")
    seed.add_argument("seed", nargs="?", help="1 to 64 visible characters (default: 32 "
                      "random hex digits)")
    seed.add_argument("--who", metavar="PLAYER", help="the seat (default: the GM)")
    seed.set_defaults(func=_client_seed)


def _extend_roll(p: argparse.ArgumentParser) -> None:
    p.add_argument("--campaign", metavar="NAME", help="log the roll in this campaign's "
                   "roll log and print its entry number")
    p.add_argument("--mode", metavar="MODE", help="with --campaign: public (default), gm "
                   "(the GM only), blind (the GM, not the roller) or self (the roller and "
                   "the GM); a hidden roll is logged as a commitment, shown by 'reveal'")
    p.add_argument("--who", metavar="PLAYER", help="with --campaign: the player rolling "
                   "(default: the GM)")
    p.add_argument("--physical", type=int, metavar="TOTAL", help="the total you rolled "
                   "with your own dice (refused if the expression cannot give it)")
    p.add_argument("--dice", metavar="FACES", help="each die you rolled with your own "
                   "dice, in order, e.g. 3,5 (rerolled and exploded dice included; a "
                   "first face below zero: --dice=-1,0,1)")
    plain = p.get_default("func")

    def roll_or_log(args: argparse.Namespace) -> int:
        if any(getattr(args, k, None) is not None for k in FAIRPLAY_OPTIONS):
            from companion.dice.cli import expression

            return roll_command(args, expression(args))
        status: int = plain(args)
        return status

    p.set_defaults(func=roll_or_log)


def _extend_table(p: argparse.ArgumentParser) -> None:
    """``table ID --campaign NAME [--mode MODE] [--who PLAYER]``: roll on the table for
    the campaign's roll log, as a rule roll that records the table (``verify`` rolls it
    again whole: [Session.roll_table][companion.table.session.Session.roll_table])."""
    p.add_argument("--campaign", metavar="NAME", help="roll on the table for this "
                   "campaign's roll log and print its entry number (verify rolls it again)")
    p.add_argument("--mode", metavar="MODE", help="with --campaign: public (default), gm, "
                   "blind or self, as for roll")
    p.add_argument("--who", metavar="PLAYER", help="with --campaign: the player rolling "
                   "(default: the GM)")
    plain = p.get_default("func")

    def table_or_log(args: argparse.Namespace) -> int:
        if args.campaign is not None:
            return _table_roll(args)
        if args.mode is not None or args.who is not None:
            raise CompanionError("--mode and --who need --campaign NAME (the roll is kept in "
                                 "that campaign's roll log)")
        status: int = plain(args)
        return status

    p.set_defaults(func=table_or_log)


def _table_roll(args: argparse.Namespace) -> int:
    """``table ID --campaign NAME``: the roll logged, shown only to whoever may see it."""
    from companion import fairplay, tables
    from companion.cli.campaigns import store_of
    from companion.table.session import Session

    table = tables.get(args.id)  # an unknown table is refused before any store is opened
    mode = fairplay.check_mode("public" if args.mode is None else args.mode)
    who = " ".join((args.who or "").split())[:80]
    role = "player" if who else "gm"
    with store_of(args.campaign) as store:
        session = Session.open(store, args.campaign, who=who or GM_NAME, role=role)
        made = session.roll_table(table.id, mode=mode, chosen_seed=args.seed)
    shown = made.shown and mode != "blind"
    if args.json:
        out: dict[str, Any] = {"entry": made.entry, "mode": mode, "table": table.id,
                               "commitment": made.commitment}
        if shown:
            out.update(result=made.text, seed=made.seed)
        _json(out)
        return 0
    head = f"entry {made.entry}" + (f" ({fairplay.mode_name(mode)})" if mode != "public"
                                    else "")
    if shown:
        line = f"{head}: {fairplay.rule_line(table.title, made.text)}"
    else:
        line = (f"{head}: logged as commitment {made.commitment}; the GM sees it with "
                f"'log {args.campaign} --gm' and reveals it with 'reveal {args.campaign} "
                f"{made.entry}'")
    sys.stdout.write(line + "\n")
    return 0


def parse_dice(text: str) -> list[int]:
    """``"3,5"`` (commas and/or spaces) as ``[3, 5]``; one line naming a bad piece."""
    if len(text) > MAX_DICE_TEXT:
        raise CompanionError(f"--dice is {len(text):,} characters long; at most "
                             f"{MAX_DICE_TEXT:,} are read")
    pieces = [p for p in re.split(r"[,\s]+", text.strip()) if p]
    if not pieces:
        raise CompanionError("--dice needs the face of each die, e.g. 3,5")
    out = []
    for n, piece in enumerate(pieces, start=1):
        if not re.fullmatch(r"[+-]?[0-9]{1,9}", piece):
            from companion.errors import quoted

            what = "too large for a die's face" if re.fullmatch(r"[+-]?[0-9]+", piece) \
                else "not a whole number"
            raise CompanionError(f"--dice: die {n} ({quoted(piece)}) is {what}; give each "
                                 "face, e.g. 3,5")
        out.append(int(piece))
    return out


def roll_command(args: argparse.Namespace, expr: str) -> int:
    """``roll`` with ``--campaign``, ``--mode``, ``--physical``, ``--dice`` or ``--who``."""
    from companion import fairplay

    dice = parse_dice(args.dice) if args.dice is not None else None
    total = args.physical
    physical = dice is not None or total is not None
    if physical and args.seed is not None:
        raise CompanionError("a roll made with your own dice has no --seed")
    if args.campaign is None:
        if args.mode is not None or args.who is not None:
            raise CompanionError("--mode and --who need --campaign NAME (the roll is kept in "
                                 "that campaign's roll log)")
        from companion.dice.physical import enter

        result = enter(expr, total=total, dice=dice)
        if args.json:
            _json({**result.to_dict(), "physical": True})
        else:
            sys.stdout.write(fairplay.roll_text(result) + "\n")
        return 0
    # An empty --mode is refused like any unknown mode, never taken for public.
    mode = fairplay.check_mode("public" if args.mode is None else args.mode)
    who = " ".join((args.who or "").split())[:80]  # as the campaign keeps it
    role = "player" if who else "gm"
    who = who or GM_NAME
    from companion.cli.campaigns import store_of
    from companion.table.session import Session

    with store_of(args.campaign) as store:
        # The table session rolls: it draws the seed (a --seed is the GM's, marked in the
        # log), logs the roll and hands back the roll only when this seat may see it.
        session = Session.open(store, args.campaign, who=who, role=role)
        logged = session.roll(expr, mode=mode, dice=dice, total=total,
                              chosen_seed=args.seed)
    shown = logged.roll is not None and mode != "blind"
    if args.json:
        out: dict[str, Any] = {"entry": logged.entry, "mode": mode,
                               "commitment": logged.commitment, "physical": physical}
        if shown:
            out["roll"] = logged.roll.to_dict()
        _json(out)
        return 0
    head = f"entry {logged.entry}"
    if mode != "public":
        head += f" ({fairplay.mode_name(mode)})"
    if shown:
        line = f"{head}: {fairplay.roll_text(logged.roll)}"
        if logged.commitment:
            line += f" — commitment {logged.commitment}"
    else:
        line = (f"{head}: logged as commitment {logged.commitment}; the GM sees it with "
                f"'log {session.name} --gm' and reveals it with 'reveal {session.name} "
                f"{logged.entry}'")
    sys.stdout.write(line + "\n")
    return 0


def _reveal(args: argparse.Namespace) -> int:
    from companion import fairplay
    from companion.cli.campaigns import store_of
    from companion.table.session import Session

    with store_of(args.name) as store:
        stored = Session.open(store, args.name, who=GM_NAME, role="gm").reveal(args.entry)
    data = stored.data
    what = (f"{data.get('label')}: {data.get('text')}" if data.get("rule") is True
            else data.get("text"))
    sys.stdout.write(f"entry {stored.seq}: revealed entry {args.entry} "
                     f"({fairplay.mode_name(str(data.get('mode')))}): {what}\n")
    return 0


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 0


def _close_sitting(args: argparse.Namespace) -> int:
    from companion.cli.campaigns import store_of
    from companion.table.session import Session

    with store_of(args.name) as store:
        session = Session.open(store, args.name, who=GM_NAME, role="gm")
        if not session.sitting.open:
            # Nothing to close is not a failure (a script closes every evening).
            sys.stdout.write(f"{args.name}: no sitting is open (the next roll opens one): "
                             "nothing to close\n")
            return 0
        stored = session.close_sitting()
        hidden = _unrevealed(session, stored.seq)
    close = stored.data["sitting"]["close"]
    line = (f"entry {stored.seq}: sitting {close['number']} closed after {close['rolls']} "
            f"roll{'s' if close['rolls'] != 1 else ''}; server seed {close['server_seed']} "
            f"(check: 'log {args.name} --json > log.json && verify log.json')")
    if hidden:
        line += (f"; {hidden} hidden roll{'s' if hidden != 1 else ''} not revealed: their "
                 "seeds are now known (their expressions and results are not)")
    sys.stdout.write(line + "\n")
    return 0


def _unrevealed(session: Any, close: int) -> int:
    """Hidden rolls of the sitting just closed that no reveal names."""
    events = session.log(kinds=("roll", "reveal"))
    opened = session.sitting.opened_at
    revealed = {e.data.get("entry") for e in events if e.kind == "reveal"}
    return sum(1 for e in events if e.kind == "roll" and "commitment" in e.data
               and isinstance(e.data.get("fair"), dict) and e.seq not in revealed
               and e.seq < close and e.seq >= opened)


def _show_sitting(args: argparse.Namespace) -> int:
    from companion.cli.campaigns import store_of
    from companion.store.campaign import Campaign

    with store_of(args.name) as store:
        state = Campaign.open(store, args.name).sitting
    out: dict[str, Any] = {"sitting": state.number, "open": state.open,
                           "server_hash": state.hash or None, "clients": state.clients,
                           "rolls": state.rolls}
    # Issue 49: the next sitting's server seed, committed before the seeds set for it.
    coming = {"sitting": state.next_number, "server_hash": state.committed or None,
              "clients": state.pending}
    if state.committed or state.pending:
        out["next"] = coming
    if args.json:
        _json(out)
    elif not state.number:
        sys.stdout.write(f"{args.name}: no sitting yet (the next roll opens one)\n")
    else:
        status = "open" if state.open else "closed (the next roll opens a new one)"
        sys.stdout.write(f"{args.name}: sitting {state.number} is {status}; {state.rolls} "
                         f"roll{'s' if state.rolls != 1 else ''}\n")
        if state.open:
            sys.stdout.write(f"  server seed's SHA-256: {state.hash}\n")
            for seat, seed in sorted(state.clients.items()):
                sys.stdout.write(f"  client seed of {seat}: {seed}\n")
        if state.committed:
            sys.stdout.write(f"  sitting {state.next_number}'s server seed, committed: "
                             f"SHA-256 {state.committed}\n")
        for seat, seed in sorted(state.pending.items()):
            sys.stdout.write(f"  client seed of {seat} for sitting {state.next_number}: "
                             f"{seed}\n")
    return 0


def _client_seed(args: argparse.Namespace) -> int:
    from companion.cli.campaigns import store_of
    from companion.table.session import Session

    who = " ".join((args.who or "").split())[:80]
    role = "player" if who else "gm"
    with store_of(args.name) as store:
        session = Session.open(store, args.name, who=who or GM_NAME, role=role)
        stored = session.set_client_seed(args.seed)
        state = session.sitting
        news: dict[str, Any] = stored.data["sitting"] if stored is not None else {}
        published: dict[str, str] = news.get("next") or news.get("clients") or {}
        seat = who or GM_NAME
        seed = published.get(seat) or state.pending.get(seat) or session.client_seed
    if "next" in news or (stored is None and (state.fixed or not state.open)):
        # Issue 49: a sitting's client seeds are fixed when it opens.
        where = (f"published in entry {stored.seq}" if stored is not None else "already "
                 "set") + " for the next sitting (its client seeds are fixed when it opens)"
    elif stored is not None:
        where = f"published in entry {stored.seq}"
    else:
        where = "already this seat's seed in the open sitting"
    sys.stdout.write(f"client seed of {who or GM_NAME}: {seed} ({where})\n")
    return 0


def _verify(args: argparse.Namespace) -> int:
    from companion import fairplay
    from companion.files import read_bytes
    from companion.store.document import MAX_DEPTH
    from companion.store.judge import noted_head, verify_document
    from companion.store.records import check_json_input

    name = args.file
    noted = noted_head(args.head)
    if name == "-" or regular_file(name):  # read as a stream, never whole (issue 29)
        return _verify_stream(name, noted)
    data = read_bytes(name, MAX_VERIFY_BYTES, "an exported log")
    text = check_json_input(data, name, "an exported log", MAX_DEPTH)
    del data
    # The same judgement as the site's offline verifier (companion.store.judge).
    sys.stdout.write(verify_document(fairplay.parse_log(text, name), name, noted) + "\n")
    return 0


def regular_file(name: str) -> bool:
    """Whether ``name`` is a regular file (anything else gets read_bytes' own line)."""
    import os
    import stat

    try:
        return stat.S_ISREG(os.stat(name).st_mode)
    except (OSError, ValueError):
        return False


def _verify_stream(name: str, noted: str | None) -> int:
    """``verify`` of a file, read as a stream: its shape judged before anything is
    decoded, then its events checked one at a time (an export: as an import judges it,
    [judge_export][companion.store.judge.judge_export]), so a 100 MB export takes little
    more memory than one event. The file is opened once and its bytes copied: every pass
    reads the same bytes (issue 49)."""
    from companion.files import Snapshot

    # Standard input too (copied once, then streamed: read whole, a 20 MB JSON string
    # took 2.4 GB), under the limit it had when it was read whole.
    limit = MAX_VERIFY_BYTES if name == "-" else MAX_STREAMED_BYTES
    with Snapshot(name, limit, "an exported log") as snapshot:
        return _verify_snapshot(snapshot, name, noted)


def _verify_snapshot(snapshot: Any, name: str, noted: str | None) -> int:
    from companion import fairplay
    from companion.store.document import MAX_DEPTH
    from companion.store.judge import judged_export, verified_line
    from companion.store.recompute import Recomputer
    from companion.store.stream import JsonDocument
    from companion.store.view_chain import check_view

    source = JsonDocument(snapshot, MAX_STREAMED_BYTES, "an exported log", MAX_DEPTH)
    if source.events_is_list is not True:
        raise CompanionError(f"{name} is not an exported log (expected the JSON of 'log "
                             "NAME --json')")
    if "format" in source.envelope:  # an export: judged as an import judges it
        judged = judged_export(name, source.envelope, source.events, source.count, noted)
        chain = str(source.envelope["chain"])
        sys.stdout.write(verified_line(name, judged.checked, chain, judged.notes) + "\n")
        return 0
    chain = str(source.envelope.get("chain") or "")
    verifier = fairplay.LogVerifier(replay=Recomputer(""))
    checked = check_view(source.envelope, source.events(), verifier, noted)
    sys.stdout.write(verified_line(name, checked, chain, verifier.notes) + "\n")
    return 0


def log_view(events: list[StoredEvent], args: argparse.Namespace) -> list[StoredEvent]:
    """The events ``log`` prints: every player's view by default, ``--player WHO``'s, or
    with ``--gm`` everything."""
    from companion import fairplay
    from companion.store.db import StoredEvent

    if getattr(args, "gm", False):
        who, role = "", "gm"
    else:
        who, role = " ".join((getattr(args, "player", None) or "").split()), "player"
    from companion.store.registry import tracker_class

    seen = fairplay.visible_to([e.to_dict() for e in events], who, role, tracker_class)
    return [StoredEvent(**e) for e in seen]


def _json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
