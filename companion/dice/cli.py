"""``companion roll`` and ``companion odds``.

An expression that starts with ``-`` (``companion roll -1d4``) works as is: an argument that
starts with ``-`` and is not one of the command's options is taken as part of the expression
(argparse would otherwise reject it as an unknown option). ``--`` also works.
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
    _accept_leading_minus(p)

    q = subparsers.add_parser("odds", help="exact odds of a dice expression")
    q.add_argument("expr", nargs="*", help="dice expression (quote it if it has spaces)")
    q.add_argument("--json", action="store_true", help="print the odds as JSON")
    q.add_argument(
        "--at-least", type=int, default=None, metavar="T", help="also print P(total >= T)"
    )
    q.set_defaults(func=_odds, expr_parser=q)
    _accept_leading_minus(q)


_MARK = "\x00"  # hides a leading '-' from argparse; removed again in _expr


def _accept_leading_minus(parser: argparse.ArgumentParser) -> None:
    """Let ``-1d4`` through as (part of) the expression instead of an unknown option."""
    original = parser.parse_known_args

    def parse_known_args(args: Any = None, namespace: Any = None) -> Any:
        if args is not None:
            known = parser._option_string_actions
            marked: list[str] = []
            takes_value = False  # the previous argument was an option that wants a value
            for a in args:
                is_expr_part = (
                    a.startswith("-") and not a.startswith("--")
                    and a.split("=", 1)[0] not in known and not takes_value
                )
                marked.append(_MARK + a if is_expr_part else a)
                action = known.get(a)
                takes_value = action is not None and action.nargs != 0
            args = marked
        return original(args, namespace)

    parser.parse_known_args = parse_known_args  # type: ignore[method-assign]


def _expr(args: argparse.Namespace) -> str:
    from companion.cli import UsageError

    text = " ".join(a.removeprefix(_MARK) for a in args.expr).strip()
    if not text:
        raise UsageError(f"{args.expr_parser.prog}: a dice expression is required, e.g. 2d6+3")
    return text


def expression(args: argparse.Namespace) -> str:
    """The expression a ``roll`` or ``odds`` command was given (for commands that extend
    them, as [companion.cli.fairplay][] extends ``roll``)."""
    return _expr(args)


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
            "outcomes": dist.outcome_texts(),
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
