"""``companion check``: the exact chance of a plot-points check, and a roll of it;
``companion contest``: the exact odds of a contest between two checks, and a roll of it."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from companion.cli import fraction_text, print_json
from companion.dice.render import percent
from companion.rulesets.plot_points.checks import PlotCheck
from companion.rulesets.plot_points.lookup import ABILITIES


def add_commands(subparsers: Any) -> None:
    check = subparsers.add_parser(
        "check", help="a plot-points check: exact chance of success, or a roll",
        description="Weak/average/strong ability (2d20kl1/1d20/2d20kh1), proficiency bonus, "
                    "net advantage die (negative = disadvantage) against a difficulty.")
    check.add_argument("--ability", required=True, choices=ABILITIES)
    check.add_argument("--bonus", type=int, default=0, help="proficiency bonus (default 0)")
    check.add_argument("--advantage", type=int, default=0,
                       help="net advantages; negative for disadvantage (default 0)")
    check.add_argument("--dc", type=int, required=True, help="the difficulty")
    check.add_argument("--roll", action="store_true", help="roll the check too")
    check.add_argument("--seed", type=int, default=None, help="seed for a repeatable roll")
    check.add_argument("--json", action="store_true", help="print JSON")
    check.set_defaults(func=_check)

    contest = subparsers.add_parser(
        "contest", help="a plot-points contest: exact odds of winning, tying, losing; a roll",
        description="Two checks against each other; the higher result wins, the margin is "
                    "the first side's result minus the second's.")
    contest.add_argument("--ability", required=True, choices=ABILITIES, help="first side")
    contest.add_argument("--bonus", type=int, default=0, help="first side's proficiency")
    contest.add_argument("--advantage", type=int, default=0,
                         help="first side's net advantages (negative for disadvantage)")
    contest.add_argument("--vs-ability", required=True, choices=ABILITIES,
                         help="second side's ability")
    contest.add_argument("--vs-bonus", type=int, default=0, help="second side's proficiency")
    contest.add_argument("--vs-advantage", type=int, default=0,
                         help="second side's net advantages")
    contest.add_argument("--roll", action="store_true", help="roll the contest too")
    contest.add_argument("--seed", type=int, default=None, help="seed for a repeatable roll")
    contest.add_argument("--json", action="store_true", help="print JSON")
    contest.set_defaults(func=_contest)


def _check(args: argparse.Namespace) -> int:
    check = PlotCheck(args.ability, args.bonus, args.advantage, args.dc)
    p = check.chance()
    one, twenty = check.natural_chances()
    result = check.roll(seed=args.seed) if args.roll else None
    if args.json:
        data: dict[str, Any] = {
            **check.to_dict(), "p_success": fraction_text(p),
            "p_natural_1": fraction_text(one), "p_natural_20": fraction_text(twenty),
        }
        if result is not None:
            data["roll"] = result.to_dict()
        print_json(data)
        return 0
    sys.stdout.write(f"{check.expression} vs difficulty {args.dc}: success {fraction_text(p)} "
                     f"({percent(p)}); natural 1 {percent(one)}, natural 20 "
                     f"{percent(twenty)}\n")
    if result is not None:
        sys.stdout.write(f"{result}\n")
    return 0


def _contest(args: argparse.Namespace) -> int:
    mine = PlotCheck(args.ability, args.bonus, args.advantage)
    theirs = PlotCheck(args.vs_ability, args.vs_bonus, args.vs_advantage)
    odds = mine.contest(theirs)
    result = mine.roll_contest(theirs, seed=args.seed) if args.roll else None
    if args.json:
        data: dict[str, Any] = {
            "first": mine.to_dict(), "second": theirs.to_dict(),
            "p_win": fraction_text(odds.win), "p_tie": fraction_text(odds.tie),
            "p_lose": fraction_text(odds.lose)}
        if result is not None:
            data["roll"] = result.to_dict()
        print_json(data)
        return 0
    sys.stdout.write(f"{mine.expression} vs {theirs.expression}: first wins "
                     f"{percent(odds.win)}, tie {percent(odds.tie)}, second wins "
                     f"{percent(odds.lose)}\n")
    if result is not None:
        sys.stdout.write(f"{result}\n")
    return 0
