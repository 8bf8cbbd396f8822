"""``companion roll`` and ``companion odds``.

An expression that starts with ``-`` (``-1d4``) works as is: unknown "options" that parse
as a dice expression are taken as the expression.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from companion.dice.odds import odds
from companion.dice.render import distribution_text
from companion.dice.roller import roll


def add_commands(subparsers: Any) -> None:
    """Add ``roll`` and ``odds`` to the ``companion`` CLI."""
    p = subparsers.add_parser("roll", help="roll a dice expression, e.g. 4d6kh3")
    p.add_argument("expr", nargs="*", help="dice expression (quote it if it has spaces)")
    p.add_argument("--seed", type=int, default=None, help="seed for a repeatable roll")
    p.add_argument("--json", action="store_true", help="print the roll as JSON")
    p.set_defaults(func=_roll, expr_parser=p)

    q = subparsers.add_parser("odds", help="exact odds of a dice expression")
    q.add_argument("expr", nargs="*", help="dice expression (quote it if it has spaces)")
    q.add_argument("--json", action="store_true", help="print the odds as JSON")
    q.add_argument(
        "--at-least", type=int, default=None, metavar="T", help="also print P(total >= T)"
    )
    q.set_defaults(func=_odds, expr_parser=q)


def _expr(args: argparse.Namespace) -> str:
    from companion.cli import UsageError

    text = " ".join(args.expr).strip()
    if not text:
        raise UsageError(f"{args.expr_parser.prog}: a dice expression is required, e.g. 2d6+3")
    return text


def _roll(args: argparse.Namespace) -> int:
    from companion.cli import print_json

    result = roll(_expr(args), seed=args.seed)
    if args.json:
        print_json(result.to_dict())
    else:
        sys.stdout.write(str(result) + "\n")
    return 0


def _odds(args: argparse.Namespace) -> int:
    from companion.cli import fraction_text, print_json

    expr = _expr(args)
    dist = odds(expr)
    if args.json:
        obj: dict[str, Any] = {
            "expr": expr,
            "min": dist.min,
            "max": dist.max,
            "mean": fraction_text(dist.mean),
            "outcomes": [[v, fraction_text(p)] for v, p in dist],
        }
        if dist.truncated:
            obj["truncated"] = fraction_text(dist.truncated)
        if args.at_least is not None:
            obj["at_least"] = fraction_text(dist.at_least(args.at_least))
        print_json(obj)
        return 0
    out = f"{expr}\n{distribution_text(dist)}\n"
    if args.at_least is not None:
        from companion.dice.render import percent

        p = dist.at_least(args.at_least)
        out += f"P(total >= {args.at_least}) = {fraction_text(p)} ({percent(p)})\n"
    sys.stdout.write(out)
    return 0
