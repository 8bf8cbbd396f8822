"""``companion luck NAME [--session N] [--json]``: the luck report of a campaign's roll log
(see [companion.luck][] for the math and which rolls count).

Without ``--session``, every seat's luck in every play session and over the whole
campaign; with ``--session N``, session ``N`` only (numbered from 1, oldest first), each
roll listed. The report reads the log as every player sees it (a hidden roll counts only
from its reveal), so it is the same whoever runs it and safe to share: no seat option is
needed and none is taken.

The ``--json`` shape (fractions are exact ``"p/q"`` text; ``*_percent`` the same rounded
to one decimal, for display):

```
{"campaign": "Tuesday",
 "session": null,                       # or N when --session N was asked
 "sessions": [{"session": 1, "first": 3, "last": 40, "start": "2026-11-27T19:02:11Z",
               "end": "2026-11-27T22:40:05Z", "rolls": 31}],   # roll entries, any kind
 "seats": [{"who": "Bryn",
            "sessions": [{"session": 1,
                          "dice": SUMMARY or null,       # the companion's dice
                          "own_dice": SUMMARY or null,   # dice entered by hand, apart
                          "not_placed": {"hidden": 1, "rule": 2}}],
            "campaign": {"session": null, "dice": ..., "own_dice": ...,
                         "not_placed": {...}} or null}]}   # null with --session

SUMMARY = {"rolls": 23, "mean_percentile": "p/q", "mean_percent": 61.2,
           "luckier_than": "p/q" (exact) or 0.87 (a float: normal approximation),
           "luckier_than_percent": 87.0, "method": "exact" or "normal",
           "why_approximate": "..." (only when normal),
           "entries": [{"entry": 12, "session": 1, "expr": "1d20+5", "total": 19,
                        "percentile": "29/40", "percent": 72.5, "physical": false,
                        "revealed": null or the reveal's entry}]}   # not in "campaign"
```

``not_placed`` counts the seat's roll entries the report could not place, by reason:
``hidden`` (not yet revealed), ``rule`` (a rule roll: no dice expression), ``costly`` (the
engine refuses the expression's exact odds), ``unreadable``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

__all__ = ["add_commands", "campaign_report"]


def add_commands(sub: Any) -> None:
    """Add ``luck``."""
    luck = sub.add_parser("luck", help="each seat's luck: every roll of the roll log placed "
                          "on its exact odds, per session and over the campaign")
    luck.add_argument("name", help="the campaign")
    luck.add_argument("--session", type=int, metavar="N",
                      help="only play session N (from 1, oldest first), each roll listed")
    luck.add_argument("--json", action="store_true", help="the report as JSON (its shape is on "
                      "the reference site, companion.cli.luck)")
    luck.set_defaults(func=_luck)


def campaign_report(name: str, session: int | None = None) -> Any:
    """The [LuckReport][companion.luck.LuckReport] of campaign ``name`` in the store, read
    as every player sees its log (its chain checked first, as ``log`` does)."""
    from companion.cli.campaigns import store_of
    from companion.cli.log_stream import luck_events
    from companion.luck import luck_report

    with store_of(name) as store:
        info = store.get_campaign(name)
        # Every player's view, read a page at a time and kept in what the report reads
        # (issue 49: the whole log, read whole, was 541 MB at 200,000 events).
        seen = luck_events(store, info)
    return luck_report(seen, info.name, session)


def _luck(args: argparse.Namespace) -> int:
    report = campaign_report(args.name, args.session)
    if args.json:
        sys.stdout.write(json.dumps(report.to_dict(), ensure_ascii=False) + "\n")
        return 0
    sys.stdout.write("\n".join(report.lines()) + "\n")
    return 0
