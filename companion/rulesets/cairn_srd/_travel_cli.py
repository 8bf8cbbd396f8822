"""``companion cairn travel`` and ``companion cairn downtime``: wilderness and downtime.

Every number is bounded before any work; a bad value is one ``error:`` line and exit 2.
"""

from __future__ import annotations

import argparse
from typing import Any

from companion.cli import fraction_text, print_json
from companion.dice.render import percent
from companion.dice.roller import make_rng
from companion.errors import RuleError
from companion.rulesets.cairn_srd import downtime, settlements, wilderness

MAX_EVENTS = 100


def add_commands(csub: Any) -> None:
    """Add ``travel`` and ``downtime`` to the ``cairn`` subcommands."""
    travel = csub.add_parser(
        "travel", help="travel duration of a route (and wilderness event checks)",
        description="Each --leg is PATH,DISTANCE,TERRAIN[,OPEN-SEA WATCHES], e.g. "
                    "--leg trails,medium,forests --leg roads,short,plains.")
    travel.add_argument("--leg", action="append", default=[], metavar="PATH,DISTANCE,TERRAIN",
                        help="a leg of the route (repeat for each leg)")
    travel.add_argument("--night", action="store_true", help="every leg travelled in the dark")
    travel.add_argument("--water", action="store_true", help="travel by water (adds River threats)")
    travel.add_argument("--events", type=int, default=0,
                        help=f"roll this many event checks on the first leg's terrain "
                             f"(0-{MAX_EVENTS})")
    travel.add_argument("--seed", type=int, default=None)
    travel.add_argument("--json", action="store_true")
    travel.set_defaults(func=_travel)

    dt = csub.add_parser("downtime", help="downtime: upkeep, bank fees, petty crime, factions, "
                                          "settlement hazards")
    dsub = dt.add_subparsers(dest="downtime_command", metavar="ACTION")
    up = dsub.add_parser("upkeep", help="upkeep per cycle for each lifestyle")
    up.add_argument("--json", action="store_true")
    up.set_defaults(func=_upkeep)
    fee = dsub.add_parser("fee", help="the fee to withdraw silver from a bank")
    fee.add_argument("amount", type=int)
    fee.add_argument("--where", default="same branch",
                     help="same-branch, other-branch or other-bank")
    fee.add_argument("--json", action="store_true")
    fee.set_defaults(func=_fee)
    crime = dsub.add_parser("crime", help="petty crime: exact odds, and a roll with --seed")
    crime.add_argument("--have", type=int, default=2, help="how many of skill, gear, time (0-3)")
    crime.add_argument("--modifier", type=int, default=0, help="situational bonus or penalty")
    crime.add_argument("--push", action="store_true", help="push your luck on a failure")
    crime.add_argument("--seed", type=int, default=None)
    crime.add_argument("--json", action="store_true")
    crime.set_defaults(func=_crime)
    fac = dsub.add_parser("faction", help="a faction's exact odds of 0, 1 or 2 steps a cycle")
    fac.add_argument("--modifier", type=int, default=0, help="bonuses and penalties (-6 to 6)")
    fac.add_argument("--json", action="store_true")
    fac.set_defaults(func=_faction)
    hz = dsub.add_parser("hazard", help="roll the settlement hazard die")
    hz.add_argument("--condition", action="append", default=[],
                    help="a condition already in force (repeatable)")
    hz.add_argument("--seed", type=int, default=None)
    hz.add_argument("--json", action="store_true")
    hz.set_defaults(func=_hazard)
    dt.set_defaults(func=lambda a: _help(dt))


def _help(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 0


def _bounded(value: int, low: int, high: int, what: str) -> int:
    if not low <= value <= high:
        raise RuleError(f"{what} runs {low} to {high}, not {value}")
    return value


def _parse_leg(text: str, water: bool) -> wilderness.Leg:
    parts = [p.strip() for p in text.split(",")]
    if len(parts) not in (3, 4):
        raise RuleError(f"--leg “{text[:40]}”: write PATH,DISTANCE,TERRAIN[,OPEN-SEA]")
    sea = 0
    if len(parts) == 4:
        if not parts[3].isascii() or not parts[3].isdigit() or len(parts[3]) > 2:
            raise RuleError(f"--leg: the open sea adds 0-{wilderness.OPEN_SEA_MAX} watches, "
                            f"not “{parts[3][:10]}”")
        sea = int(parts[3])
    return wilderness.make_leg(parts[0], parts[1], parts[2], open_sea=sea, by_water=water)


def _travel(args: argparse.Namespace) -> int:
    _bounded(args.events, 0, MAX_EVENTS, "--events")
    if not args.leg:
        raise RuleError("cairn travel: give at least one --leg PATH,DISTANCE,TERRAIN")
    if len(args.leg) > wilderness.MAX_LEGS:
        raise RuleError(f"cairn travel: at most {wilderness.MAX_LEGS} legs")
    legs = [_parse_leg(text, args.water) for text in args.leg]
    plan = wilderness.plan_route(legs, night=args.night)
    events = []
    if args.events:
        r = make_rng(args.seed, None)
        events = [wilderness.roll_event(legs[0], rng=r) for _ in range(args.events)]
    if args.json:
        print_json({
            "legs": [{"path": p.leg.path, "distance": p.leg.distance, "terrain": p.leg.terrain,
                      "difficulty": wilderness.terrains()[p.leg.terrain],
                      "open_sea": p.leg.open_sea, "watches": p.watches,
                      "navigation": p.navigation, "navigation_chance":
                          fraction_text(wilderness.navigation_chance(p.leg.path)),
                      "parts": {what: w for what, w in p.parts}} for p in plan.legs],
            "watches": plan.watches, "days": plan.days, "leagues": plan.leagues,
            "events": [{"roll": e.roll, "kind": e.kind, "text": e.text,
                        "details": list(e.details)} for e in events]})
        return 0
    print(plan)
    for e in events:
        print(e)
    return 0


def _upkeep(args: argparse.Namespace) -> int:
    styles = downtime.lifestyles()
    if args.json:
        print_json({name: {"silver": cost, "tags": tags} for name, (cost, tags) in styles.items()})
        return 0
    for name, (cost, tags) in styles.items():
        print(f"{name:<12} {cost:>4} silver a cycle: {tags}")
    return 0


def _fee(args: argparse.Namespace) -> int:
    where = args.where.replace("-", " ")
    fee = downtime.withdrawal_fee(args.amount, where)
    if args.json:
        print_json({"amount": args.amount, "where": where, "fee": fee,
                    "total": args.amount + fee})
        return 0
    print(f"withdrawing {args.amount} silver ({where}): fee {fee}, "
          f"{args.amount + fee} out of the account")
    return 0


def _crime(args: argparse.Namespace) -> int:
    _bounded(args.have, 0, 3, "--have")
    _bounded(args.modifier, -6, 6, "--modifier")
    odds = downtime.petty_crime_odds(args.have, args.modifier, args.push)
    result = downtime.petty_crime(args.have, args.modifier, push=args.push, seed=args.seed) \
        if args.seed is not None else None
    if args.json:
        out: dict[str, Any] = {"success": fraction_text(odds.success),
                               "failure": fraction_text(odds.failure),
                               "bust": fraction_text(odds.bust)}
        if result is not None:
            out["roll"] = {"dice": list(result.rolls), "outcome": result.outcome,
                           "silver": result.silver}
        print_json(out)
        return 0
    print(f"success {percent(odds.success)} ({fraction_text(odds.success)}), "
          f"failure with a hard choice {percent(odds.failure)}, "
          f"complete failure {percent(odds.bust)}")
    if result is not None:
        print(result)
    return 0


def _faction(args: argparse.Namespace) -> int:
    _bounded(args.modifier, -6, 6, "--modifier")
    odds = downtime.faction_odds(args.modifier)
    if args.json:
        print_json({str(k): fraction_text(v) for k, v in odds.items()})
        return 0
    for steps, p in odds.items():
        print(f"{steps} step{'s' * (steps != 1)}: {percent(p)} ({fraction_text(p)})")
    return 0


def _hazard(args: argparse.Namespace) -> int:
    if len(args.condition) > len(settlements.conditions()):
        raise RuleError("--condition: at most six conditions")
    known = {c.lower(): c for c in settlements.conditions()}
    held = []
    for c in args.condition:
        if c.strip().lower() not in known:
            raise RuleError(f"--condition: one of {', '.join(known.values())}, not “{c[:40]}”")
        if known[c.strip().lower()] not in held:
            held.append(known[c.strip().lower()])
    town = settlements.SettlementState("", held)
    result = settlements.roll_hazard(town, seed=args.seed)
    if args.json:
        print_json({"roll": result.roll, "kind": result.kind, "text": result.text,
                    "details": list(result.details), "conditions": town.conditions,
                    "price_rise": settlements.price_rise_dice(len(town.conditions))})
        return 0
    print(result)
    print("conditions: " + (", ".join(town.conditions) or "none")
          + f"; prices +{settlements.price_rise_dice(len(town.conditions))} %")
    return 0


__all__ = ["add_commands"]
