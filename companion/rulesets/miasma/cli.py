"""Command line for Miasma: ``companion monarchs ...``, ``companion earthmote``,
``companion psychosis``."""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any

from companion.cli import UsageError, fraction_text, print_json
from companion.dice.render import percent
from companion.errors import quoted
from companion.rulesets.miasma import earthmotes, psychosis
from companion.rulesets.miasma.dice_monarchs import hands, strength


def add_commands(sub: Any) -> None:
    monarchs = sub.add_parser("monarchs", help="Dice Monarchs: hand table, best hand, odds")
    msub = monarchs.add_subparsers(dest="monarchs_command", metavar="ACTION")
    table = msub.add_parser("table", help="every hand, highest first, with exact counts")
    table.add_argument("--json", action="store_true", help="print JSON")
    table.set_defaults(func=_table)
    best = msub.add_parser("best", help="the best hand from hole and community dice")
    best.add_argument("hole", help="hole dice d4,d6,d8,d10,d12, e.g. 4,6,8,10,12")
    best.add_argument("community", help="the five community dice, e.g. 1,2,3,4,5")
    best.add_argument("--json", action="store_true", help="print JSON")
    best.set_defaults(func=_best)
    odds = msub.add_parser("strength", help="chance to win the showdown")
    odds.add_argument("hole", help="hole dice d4,d6,d8,d10,d12")
    odds.add_argument("--community", default="", help="community dice revealed so far")
    odds.add_argument("--opponents", type=int, default=1, help="opponents still in (1-7)")
    odds.add_argument("--simulate", action="store_true", help="simulate even when exact is cheap")
    odds.add_argument("--samples", type=int, default=strength.DEFAULT_SAMPLES)
    odds.add_argument("--seed", type=int, default=None)
    odds.add_argument("--json", action="store_true", help="print JSON")
    odds.set_defaults(func=_strength)
    monarchs.set_defaults(func=lambda a: _help(monarchs))

    mote = sub.add_parser("earthmote", help="generate earthmotes (size and biome)")
    mote.add_argument("--count", type=int, default=1, help="how many (1-100)")
    mote.add_argument("--seed", type=int, default=None)
    mote.add_argument("--json", action="store_true", help="print JSON")
    mote.set_defaults(func=_earthmote)

    psy = sub.add_parser("psychosis", help="the six levels of psychosis and their effects")
    psy.add_argument("--json", action="store_true", help="print JSON")
    psy.set_defaults(func=_psychosis)


def _help(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 0


def parse_dice(text: str, what: str) -> tuple[int, ...]:
    """``"4,6,8"`` -> ``(4, 6, 8)``; a one-line error naming ``what`` otherwise."""
    if not text.strip():
        return ()
    try:
        return tuple(int(part) for part in text.replace(" ", "").split(","))
    except ValueError:
        raise UsageError(f"{what}: expected numbers separated by commas, "
                         f"got {quoted(str(text))}") from None


def _table(args: argparse.Namespace) -> int:
    best = dict((h.rank, n) for h, n in hands.best_hand_counts() if h is not None)
    rows = hands.hand_counts()
    if args.json:
        print_json([
            {"name": h.name, "pattern": list(h.pattern), "count": n, "of": hands.OUTCOMES,
             "printed": h.printed_count, "best_count": best[h.rank]}
            for h, n in rows
        ])
        return 0
    print(f"{'rank':>4}  {'hand':<34} {'count':>6} {'seed':>6}  {'chance':>7}  best-only")
    for h, n in rows:
        flag = " " if n == h.printed_count else "!"
        print(f"{h.rank + 1:>4}  {h.label:<34} {n:>6} {h.printed_count:>5}{flag}  "
              f"{percent(Fraction(n, hands.OUTCOMES)):>7}  {best[h.rank]:>6}")
    print(f"counts are out of {hands.OUTCOMES:,} rolls; ! = differs from the seed's count")
    return 0


def _best(args: argparse.Namespace) -> int:
    shown = hands.best_showdown_hand(parse_dice(args.hole, "hole dice"),
                                     parse_dice(args.community, "community dice"))
    if args.json:
        print_json({"hand": shown.hand.name if shown.hand else None,
                    "pattern": list(shown.hand.pattern) if shown.hand else None,
                    "rank": shown.rank, "dice": list(shown.dice), "sources": list(shown.sources)})
        return 0
    print(shown.describe())
    return 0


def _strength(args: argparse.Namespace) -> int:
    result = strength.hand_strength(
        parse_dice(args.hole, "hole dice"), parse_dice(args.community, "community dice"),
        args.opponents, exact=False if args.simulate else None, samples=args.samples,
        seed=args.seed,
    )
    if args.json:
        def value(p: Any) -> Any:
            return fraction_text(p) if result.exact else p

        print_json({"win": value(result.win), "split": value(result.split),
                    "opponents": result.opponents, "exact": result.exact,
                    "samples": result.samples, "stderr": result.stderr})
        return 0
    print(result.describe())
    return 0


def _earthmote(args: argparse.Namespace) -> int:
    if not 1 <= args.count <= 100:
        raise UsageError(f"earthmote: --count must be 1-100, not {args.count}")
    log = earthmotes.EarthmoteLog.start(seed=args.seed)
    for _ in range(args.count):
        log.generate()
    if args.json:
        print_json([{"size": m.size, "biome": m.biome, "encounters": m.encounters,
                     "biome_roll": m.biome_roll, "size_roll": m.size_roll, "seed": m.seed,
                     "features": [{"face": f.face, "kind": f.kind, "encounters": f.encounters}
                                  for f in m.features]} for m in log.earthmotes])
        return 0
    for m in log.earthmotes:
        print(f"{m.describe()}   ({m.rolls()})")
    return 0


def _psychosis(args: argparse.Namespace) -> int:
    rows = psychosis.levels()
    if args.json:
        print_json([{"level": lv.level, "effect": lv.effect} for lv in rows])
        return 0
    for lv in rows:
        print(f"{lv.level}  {lv.effect}")
    return 0
