"""``companion tables`` (list every table) and ``companion table ID`` (rows, odds, a roll)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from companion import tables
from companion.cli import print_json


def add_commands(subparsers: Any) -> None:
    listing = subparsers.add_parser("tables", help="list every random table of every ruleset")
    listing.add_argument("--json", action="store_true", help="print JSON")
    listing.set_defaults(func=_list)

    one = subparsers.add_parser("table", help="show a table's rows with exact odds, or roll it")
    one.add_argument("id", metavar="ID", help="the table's id (see `companion tables`)")
    one.add_argument("--roll", action="store_true", help="roll on the table")
    one.add_argument("--seed", type=int, default=None, help="seed for a repeatable roll")
    one.add_argument("--json", action="store_true", help="print JSON")
    one.set_defaults(func=_table)


def _list(args: argparse.Namespace) -> int:
    found = tables.all_tables()
    if args.json:
        print_json([{"id": t.id, "ruleset": t.ruleset, "title": t.title, "die": t.die}
                    for t in found])
        return 0
    width = max((len(t.id) for t in found), default=2)
    for t in found:
        sys.stdout.write(f"{t.id:<{width}}  {t.ruleset:<18}  {t.die:<6}  {t.title}\n")
    return 0


def _table(args: argparse.Namespace) -> int:
    table = tables.get(args.id)
    if args.roll:
        result = table.roll(seed=args.seed)
        if args.json:
            print_json({"roll": result.to_dict()["roll"], "result": result.text,
                        **{k: v for k, v in result.to_dict().items()
                           if k not in ("roll", "result")}})
        else:
            sys.stdout.write(f"{result}\n")
        return 0
    if args.json:
        data = table.to_dict()
        print_json(data)
        return 0
    sys.stdout.write(f"{table.title} ({table.ruleset}: {table.section})\n\n")
    sys.stdout.write(table.to_markdown())
    return 0
