"""Command line for Monsters & Magic: ``companion mm ...``.

- ``mm check --modifier N [--dc N] [--advantage|--disadvantage] [--steps N]`` exact odds
  of each result tier (``--roll`` rolls it too, ``--seed`` repeats a roll);
- ``mm group --modifiers 2,0,-1 [--dc N]`` exact odds of a group check's result;
- ``mm step 1d8 --up 2`` / ``--down 1`` a die moved along the size scale, with its odds;
- ``mm stabilize --luck N [--exhaustion N]`` chance that death rolls stabilize;
- ``mm percent N`` a percentage chance rolled on d% (two d10s);
- ``mm travel HEXES [--speed Fast|Normal|Slow] [--mounted] [--vehicle NAME]
  [--reading 'last cell'|literal]`` travel periods, hours, exhaustion and foraging;
- ``mm fall FEET [--roll] [--seed N]`` falling damage dice (and a roll);
- ``mm odd-die SIDES [--roll]`` an odd die's exact odds (and a roll);
- ``mm sight LIGHT`` how the light counts to sight and the concealment modifier.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from companion.cli import fraction_text, print_json
from companion.dice.render import chance_text

__all__ = ["add_commands"]



def add_commands(sub: Any) -> None:
    top = sub.add_parser("mm", help="Monsters & Magic: check tiers, group checks, die steps")
    cmds = top.add_subparsers(dest="mm_command", metavar="ACTION")
    top.set_defaults(func=lambda _args: _usage(top))

    check = cmds.add_parser("check", help="exact odds of each result of an ability check")
    check.add_argument("--modifier", type=int, default=0, help="ability + modifiers")
    check.add_argument("--dc", type=int, default=None, help="difficulty (default 10)")
    edge = check.add_mutually_exclusive_group()
    edge.add_argument("--advantage", action="store_true")
    edge.add_argument("--disadvantage", action="store_true")
    check.add_argument("--steps", type=int, default=0, help="effect steps (+/-)")
    check.add_argument("--roll", action="store_true", help="roll it too")
    check.add_argument("--seed", type=int, default=None)
    check.add_argument("--json", action="store_true")
    check.set_defaults(func=_check)

    group = cmds.add_parser("group", help="exact odds of a group check's result")
    group.add_argument("--modifiers", required=True,
                       help="each member's modifier, comma-separated: 2,0,-1")
    group.add_argument("--dc", type=int, default=None)
    group.add_argument("--roll", action="store_true")
    group.add_argument("--seed", type=int, default=None)
    group.add_argument("--json", action="store_true")
    group.set_defaults(func=_group)

    step = cmds.add_parser("step", help="step a die up or down the size scale")
    step.add_argument("die", help="a die on the scale, e.g. 1d8 or 1d8+2")
    step.add_argument("--up", type=int, default=0)
    step.add_argument("--down", type=int, default=0)
    step.add_argument("--json", action="store_true")
    step.set_defaults(func=_step)

    stab = cmds.add_parser("stabilize", help="chance that death rolls alone stabilize")
    stab.add_argument("--luck", type=int, default=0)
    stab.add_argument("--exhaustion", type=int, default=0, help="exhaustion marked")
    stab.add_argument("--max-exhaustion", type=int, default=None)
    stab.add_argument("--deathsaves", type=int, default=0)
    stab.add_argument("--json", action="store_true")
    stab.set_defaults(func=_stabilize)

    pct = cmds.add_parser("percent", help="a percentage chance on d%% (two d10s)")
    pct.add_argument("chance", type=int, help="the chance in percent, 0-100")
    pct.add_argument("--seed", type=int, default=None)
    pct.add_argument("--json", action="store_true")
    pct.set_defaults(func=_percent)

    travel = cmds.add_parser("travel", help="plan a journey in hexes (overland or by vehicle)")
    travel.add_argument("hexes", type=int, help="hexes to cover (1-10000)")
    travel.add_argument("--speed", default="Normal", help="Fast, Normal or Slow (overland)")
    travel.add_argument("--mounted", action="store_true",
                        help="on a mount or a draft-animal vehicle (+2 hexes)")
    travel.add_argument("--vehicle", default=None, help="a sea or air vehicle, e.g. Galley")
    travel.add_argument("--reading", default="last cell",
                        help="overland table reading: 'last cell' (default) or 'literal'")
    travel.add_argument("--json", action="store_true")
    travel.set_defaults(func=_travel)

    fall = cmds.add_parser("fall", help="falling damage for a height, or distance by turns")
    fall.add_argument("feet", type=int, help="height fallen in feet")
    fall.add_argument("--roll", action="store_true", help="roll the damage")
    fall.add_argument("--seed", type=int, default=None)
    fall.add_argument("--json", action="store_true")
    fall.set_defaults(func=_fall)

    odd = cmds.add_parser("odd-die", help="an odd die (d3, d5...) rolled as the even die halved")
    odd.add_argument("sides", type=int, help="odd number of faces, e.g. 3")
    odd.add_argument("--roll", action="store_true")
    odd.add_argument("--seed", type=int, default=None)
    odd.add_argument("--json", action="store_true")
    odd.set_defaults(func=_odd_die)

    sight = cmds.add_parser("sight", help="what a light level means to sight, and concealment")
    sight.add_argument("light", help="Bright Light, Dim Light, Darkness or Magical Darkness")
    sight.add_argument("--json", action="store_true")
    sight.set_defaults(func=_sight)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 0


def _check(args: argparse.Namespace) -> int:
    from companion.rulesets.monsters_and_magic.ability_checks import AbilityCheck

    check = AbilityCheck(args.modifier, args.dc, args.advantage, args.disadvantage,
                         args.steps)
    odds = check.tier_odds()
    result = check.roll(seed=args.seed) if args.roll else None
    if args.json:
        data: dict[str, Any] = {**check.to_dict(),
                                "odds": {t.label: fraction_text(p) for t, p in odds.items()},
                                "p_hit": fraction_text(check.hit_chance())}
        if result is not None:
            data["roll"] = result.to_dict()
        print_json(data)
        return 0
    out = [f"{check.expression} vs DC {check.effective_dc}"
           + (f", {args.steps:+d} steps" if args.steps else "") + ":"]
    out += [f"  {t.label:<13} {chance_text(p)}" for t, p in reversed(odds.items())]
    out.append(f"  any hit       {chance_text(check.hit_chance())}")
    if result is not None:
        out.append(str(result))
    sys.stdout.write("\n".join(out) + "\n")
    return 0


def _group(args: argparse.Namespace) -> int:
    from companion.rulesets.monsters_and_magic.ability_checks import AbilityCheck
    from companion.rulesets.monsters_and_magic.group_checks import (
        group_odds,
        parse_modifiers,
        roll_group,
    )

    checks = [AbilityCheck(m, args.dc) for m in parse_modifiers(args.modifiers)]
    odds = group_odds(checks)
    result = roll_group(checks, seed=args.seed) if args.roll else None
    if args.json:
        data: dict[str, Any] = {"modifiers": [c.modifier for c in checks],
                                "dc": checks[0].effective_dc,
                                "odds": {t.label: fraction_text(p) for t, p in odds.items()}}
        if result is not None:
            data["roll"] = result.to_dict()
        print_json(data)
        return 0
    out = [f"group of {len(checks)} vs DC {checks[0].effective_dc}:"]
    out += [f"  {t.label:<11} {chance_text(p)}" for t, p in reversed(odds.items())]
    if result is not None:
        out.append(str(result))
    sys.stdout.write("\n".join(out) + "\n")
    return 0


def _step(args: argparse.Namespace) -> int:
    from companion.rulesets.monsters_and_magic.dice_notation import step_die, step_distribution

    steps = args.up - args.down
    stepped = step_die(args.die, steps)
    dist = step_distribution(args.die, steps)
    if args.json:
        print_json({"die": args.die, "steps": steps, "result": stepped,
                    "mean": fraction_text(dist.mean),
                    "odds": {str(v): fraction_text(p) for v, p in dist}})
        return 0
    sys.stdout.write(f"{args.die} {steps:+d} step{'s' if abs(steps) != 1 else ''} → "
                     f"{stepped} (average {float(dist.mean):.2f})\n")
    return 0


def _stabilize(args: argparse.Namespace) -> int:
    from companion.rulesets.monsters_and_magic.death_and_dying import stabilize_chance
    from companion.rulesets.monsters_and_magic.fatigue_and_exhaustion import (
        DEFAULT_MAX_EXHAUSTION,
    )

    top = DEFAULT_MAX_EXHAUSTION if args.max_exhaustion is None else args.max_exhaustion
    p = stabilize_chance(luck=args.luck, exhaustion=args.exhaustion, max_exhaustion=top,
                         deathsaves=args.deathsaves)
    if args.json:
        print_json({"luck": args.luck, "exhaustion": args.exhaustion, "max_exhaustion": top,
                    "deathsaves": args.deathsaves, "p_stabilize": fraction_text(p),
                    "p_die": fraction_text(1 - p)})
        return 0
    sys.stdout.write(f"luck {args.luck:+d}, exhaustion {args.exhaustion}/{top}: stabilizes "
                     f"{chance_text(p)}, dies {chance_text(1 - p)}\n")
    return 0


def _percent(args: argparse.Namespace) -> int:
    from companion.rulesets.monsters_and_magic.dice_notation import (
        percent_chance,
        roll_percentile,
    )

    p = percent_chance(args.chance)
    tens, ones, value = roll_percentile(seed=args.seed)
    success = value <= args.chance
    if args.json:
        print_json({"chance": args.chance, "p": fraction_text(p), "tens": tens, "ones": ones,
                    "value": value, "success": success})
        return 0
    sys.stdout.write(f"{args.chance}% chance ({fraction_text(p)}): d% = {tens}{ones} → "
                     f"{value}: {'success' if success else 'failure'}\n")
    return 0


def _travel(args: argparse.Namespace) -> int:
    from companion.rulesets.monsters_and_magic.travel import plan_journey

    plan = plan_journey(args.hexes, speed=args.speed, mounted=args.mounted,
                        by_vehicle=args.vehicle, reading=args.reading)
    if args.json:
        print_json({"hexes": plan.hexes, "how": plan.how, "per_period": plan.per_period,
                    "periods": plan.periods, "hours": plan.hours,
                    "exhaustion_per_period": plan.exhaustion,
                    "group_check_modifier": plan.group_check_modifier,
                    "can_forage": plan.can_forage, "reading": plan.reading})
        return 0
    sys.stdout.write(plan.describe() + "\n")
    return 0


def _fall(args: argparse.Namespace) -> int:
    from companion.dice import roll
    from companion.rulesets.monsters_and_magic.harm_and_healing import falling_damage_dice

    dice = falling_damage_dice(args.feet)
    rolled = roll(dice, seed=args.seed) if args.roll and dice != "0" else None
    if args.json:
        data: dict[str, Any] = {"feet": args.feet, "dice": dice}
        if rolled is not None:
            data["total"] = rolled.total
        print_json(data)
        return 0
    sys.stdout.write(f"a fall of {args.feet} feet: {dice} damage"
                     + (f" → {rolled}" if rolled is not None else "") + "\n")
    return 0


def _odd_die(args: argparse.Namespace) -> int:
    from companion.rulesets.monsters_and_magic.dice_notation import (
        odd_die_distribution,
        roll_odd_die,
    )

    dist = odd_die_distribution(args.sides)
    rolled = roll_odd_die(args.sides, seed=args.seed) if args.roll else None
    if args.json:
        data: dict[str, Any] = {"sides": args.sides,
                                "odds": {str(v): fraction_text(p) for v, p in dist}}
        if rolled is not None:
            data["even_face"], data["value"] = rolled
        print_json(data)
        return 0
    sys.stdout.write(f"d{args.sides}: roll a d{args.sides * 2}, halve, round up; each face "
                     f"{chance_text(dist.p(1))}\n")
    if rolled is not None:
        sys.stdout.write(f"d{args.sides * 2} shows {rolled[0]} → {rolled[1]}\n")
    return 0


def _sight(args: argparse.Namespace) -> int:
    from companion.rulesets.monsters_and_magic.adventurer import Adventurer
    from companion.rulesets.monsters_and_magic.perception import (
        LIGHT,
        concealment_modifier,
        visibility,
    )

    seen = visibility(args.light)
    modifier = concealment_modifier(seen) if seen != "seen" else 0
    # Whether a sight-based check against it fails outright, as the sheet judges it (a
    # bare sheet: nothing of its own changes that), so the command and the app agree.
    light = next(n for n in LIGHT if n.lower() == " ".join(args.light.split()).lower())
    fails = Adventurer.new("You").build_check("luck", against=light).fails
    if args.json:
        print_json({"light": args.light, "counts_as": seen, "modifier": modifier,
                    "fails": fails})
        return 0
    sys.stdout.write(f"{args.light}: {seen} to ordinary sight"
                     + (f" ({modifier:+d} ongoing to sight-based checks)" if modifier else "")
                     + (f" — {fails} (automatically: no roll)" if fails else "")
                     + "\n")
    return 0
