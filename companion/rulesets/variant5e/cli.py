"""Command line for the 5e optional rules: ``companion 5e ...``.

- ``5e contest OPTION`` exact odds (or a seeded roll) of a contested combat option;
- ``5e spell-points LEVEL [--caster half]`` the pool and the cost of each spell level;
- ``5e fragile-soul SPELL --modifier N`` odds of returning a creature (or ``--roll``);
- ``5e death-saves [--failures N]`` odds of dying, stabilising or getting up;
- ``5e identify LEVEL --arcana N [--same-class]`` chance to identify a spell;
- ``5e distance DX DY`` feet between squares with alternating diagonals;
- ``5e hit-dice LEVEL --die 8 --con N --spend N [--surges] [--slow] [--kit]`` what rests
  give back under the healing variants and the exact hit points N Hit Dice heal
  (``--roll`` spends them on a tracker after a short rest).
"""

from __future__ import annotations

import argparse
import random
from fractions import Fraction
from typing import Any

from companion.cli import fraction_text, print_json
from companion.dice.render import chance_text
from companion.errors import RuleError

__all__ = ["add_commands"]



def add_commands(sub: Any) -> None:
    from companion.rulesets.variant5e.death_and_returning import FRAGILE_SOUL_TABLES
    from companion.rulesets.variant5e.maneuvers import MANEUVERS

    top = sub.add_parser("5e", help="5e optional rules: contests, spell points, death, grid")
    cmds = top.add_subparsers(dest="v5e_command", metavar="ACTION")

    contest = cmds.add_parser("contest", help="odds of a contested combat option")
    contest.add_argument("option", help="one of: " + ", ".join(MANEUVERS))
    for who in ("a", "b"):
        role = "the one acting" if who == "a" else "the one resisting"
        contest.add_argument(f"--{who}-size", default="medium", help=f"size of {role}")
        contest.add_argument(f"--{who}-athletics", type=int, default=0)
        contest.add_argument(f"--{who}-acrobatics", type=int, default=0)
        contest.add_argument(f"--{who}-attack", type=int, default=0, help="attack bonus")
        contest.add_argument(f"--{who}-edge", default="normal",
                             choices=("normal", "advantage", "disadvantage"),
                             help="advantage/disadvantage from outside the rule")
        contest.add_argument(f"--{who}-incapacitated", action="store_true")
    contest.add_argument("--flag", action="store_true",
                         help="the option's circumstance (disarm: two-handed hold)")
    contest.add_argument("--roll", action="store_true", help="roll it instead")
    contest.add_argument("--seed", type=int, default=None)
    contest.add_argument("--json", action="store_true")
    contest.set_defaults(func=_contest)

    points = cmds.add_parser("spell-points", help="mentality pool and spell costs")
    points.add_argument("level", type=int, help="class level (1-20)")
    points.add_argument("--caster", default="full", choices=("full", "half", "third"))
    points.add_argument("--class", dest="class_name", default=None,
                        help="place a class or subclass instead, e.g. 'rogue (arcane "
                             "trickster)'")
    points.add_argument("--json", action="store_true")
    points.set_defaults(func=_spell_points)

    soul = cmds.add_parser("fragile-soul", help="odds of bringing a creature back")
    # Every spell with a Fragile Soul table, reincarnate included (it uses revivify's).
    soul.add_argument("spell", choices=tuple(FRAGILE_SOUL_TABLES))
    soul.add_argument("--modifier", type=int, required=True,
                      help="caster's spellcasting ability modifier")
    soul.add_argument("--roll", action="store_true", help="roll an attempt instead")
    soul.add_argument("--seed", type=int, default=None)
    soul.add_argument("--json", action="store_true")
    soul.set_defaults(func=_fragile_soul)

    saves = cmds.add_parser("death-saves", help="odds of a dying creature's fate")
    saves.add_argument("--failures", type=int, default=0, help="failures already marked")
    saves.add_argument("--json", action="store_true")
    saves.set_defaults(func=_death_saves)

    ident = cmds.add_parser("identify", help="chance to identify a spell")
    ident.add_argument("level", type=int, help="spell level (0-9)")
    ident.add_argument("--arcana", type=int, required=True, help="Intelligence (Arcana) bonus")
    ident.add_argument("--same-class", action="store_true", help="advantage: same class")
    ident.add_argument("--being-cast", action="store_true",
                       help="the spell is being cast now (a reaction), not already in effect")
    ident.add_argument("--json", action="store_true")
    ident.set_defaults(func=_identify)

    dist = cmds.add_parser("distance", help="feet between squares (5/10 diagonals)")
    dist.add_argument("dx", type=int)
    dist.add_argument("dy", type=int)
    dist.add_argument("--json", action="store_true")
    dist.set_defaults(func=_distance)

    drag = cmds.add_parser("grapple-speed", help="speed while moving a grappled creature")
    drag.add_argument("speed", type=int, help="the grappler's speed in feet")
    drag.add_argument("--grappler", default="medium", help="the grappler's size")
    drag.add_argument("--grappled", default="medium", help="the grappled creature's size")
    drag.add_argument("--json", action="store_true")
    drag.set_defaults(func=_grapple_speed)

    hd = cmds.add_parser("hit-dice", help="Hit Dice and the healing variants")
    hd.add_argument("level", type=int, help="character level (1-20)")
    hd.add_argument("--die", type=int, default=8, help="Hit Die size: 6, 8, 10 or 12")
    hd.add_argument("--con", type=int, default=0, help="Constitution modifier (-5 to 10)")
    hd.add_argument("--spend", type=int, default=1, help="Hit Dice to spend (0-20)")
    hd.add_argument("--surges", action="store_true", help="Healing Surges in use")
    hd.add_argument("--slow", action="store_true", help="Slow Natural Healing in use")
    hd.add_argument("--kit", action="store_true", help="Healer's Kit Dependency in use")
    hd.add_argument("--roll", action="store_true", help="roll the Hit Dice after a short rest")
    hd.add_argument("--seed", type=int, default=None)
    hd.add_argument("--json", action="store_true")
    hd.set_defaults(func=_hit_dice)

    def _help(_args: argparse.Namespace) -> int:
        top.print_help()
        return 0

    top.set_defaults(func=_help)


def _combatant(args: argparse.Namespace, who: str, name: str) -> Any:
    from companion.rulesets.variant5e.contests import Combatant, Edge, Size

    return Combatant(
        name=name,
        size=Size.parse(getattr(args, f"{who}_size")),
        athletics=getattr(args, f"{who}_athletics"),
        acrobatics=getattr(args, f"{who}_acrobatics"),
        attack_bonus=getattr(args, f"{who}_attack"),
        edge=Edge(getattr(args, f"{who}_edge")),
        incapacitated=getattr(args, f"{who}_incapacitated"),
    )


def _contest(args: argparse.Namespace) -> int:
    from companion.rulesets.variant5e.maneuvers import maneuver

    option = maneuver(args.option)
    contest = option.build(_combatant(args, "a", option.initiator),
                           _combatant(args, "b", option.resister), args.flag)
    if args.roll:
        result = contest.roll(seed=args.seed)
        if args.json:
            print_json({"option": option.name, "initiator_total": result.initiator_total,
                        "resister_total": result.resister_total,
                        "initiator_wins": result.initiator_wins, "text": str(result)})
        else:
            print(result)
        return 0
    odds = contest.odds()
    if args.json:
        print_json({"option": option.name, "initiator": str(contest.initiator),
                    "resister": str(contest.resister), "automatic": contest.automatic,
                    "initiator_wins": fraction_text(odds.initiator),
                    "tie": fraction_text(odds.tie), "resister_wins": fraction_text(odds.resister)})
        return 0
    print(f"{option.name}: {contest.initiator} vs {contest.resister}")
    if contest.automatic:
        print(f"automatic success: {contest.automatic}")
    print(f"{option.initiator} wins: {chance_text(odds.initiator)}")
    ties = chance_text(odds.tie)
    print(f"{option.resister} wins: {chance_text(odds.resister)} (ties {ties} included)")
    if contest.on_success:
        print(f"on a win: {contest.on_success}")
    return 0


def _spell_points(args: argparse.Namespace) -> int:
    from companion.rulesets.variant5e.spell_points import (
        caster_kind_of,
        max_spell_level,
        mentality_cost,
        mentality_points,
    )

    if args.class_name is not None:
        args.caster = caster_kind_of(args.class_name)
    pool = mentality_points(args.level, args.caster)
    costs = {level: mentality_cost(level) for level in range(10)}
    if args.json:
        print_json({"level": args.level, "caster": args.caster, "points": pool,
                    "max_spell_level": max_spell_level(args.level, args.caster),
                    "costs": {str(k): v for k, v in costs.items()}})
        return 0
    print(f"level {args.level} {args.caster} caster: {pool} mentality points, spells up to "
          f"level {max_spell_level(args.level, args.caster)} (6th and higher once each per "
          "long rest)")
    print("spell level: " + ", ".join(f"{k}={v}" for k, v in costs.items()))
    return 0


def _fragile_soul(args: argparse.Namespace) -> int:
    from companion.rulesets.variant5e.death_and_returning import (
        DeathRecord,
        fragile_soul_odds,
    )

    if args.roll:
        record = DeathRecord()
        record.die()
        attempt = record.roll_return(args.spell, args.modifier, seed=args.seed)
        if args.json:
            print_json({"spell": attempt.spell, "check_roll": attempt.check_roll,
                        "modifier": attempt.caster_modifier, "table_roll": attempt.table_roll,
                        "outcome": attempt.outcome, "text": str(attempt)})
        else:
            print(attempt)
        return 0
    odds = fragile_soul_odds(args.spell, args.modifier)
    if args.json:
        print_json({k: fraction_text(v) for k, v in odds.items()})
        return 0
    for outcome, p in odds.items():
        print(f"{outcome.replace('_', ' '):>13}: {chance_text(p)}")
    return 0


def _death_saves(args: argparse.Namespace) -> int:
    from companion.rulesets.variant5e.death_and_returning import death_save_odds

    odds = death_save_odds(args.failures)
    if args.json:
        print_json({k: fraction_text(v) for k, v in odds.items()})
        return 0
    for outcome, p in odds.items():
        print(f"{outcome:>6}: {chance_text(p)}")
    return 0


def _identify(args: argparse.Namespace) -> int:
    from companion.rulesets.variant5e.identify_a_spell import identify_a_spell, identify_timing

    check = identify_a_spell(args.arcana, args.level, same_class=args.same_class)
    p = check.chance()
    timing = identify_timing(args.being_cast)
    if args.json:
        print_json({"expression": check.expression, "dc": check.target,
                    "chance": fraction_text(p), "takes": timing})
        return 0
    print(f"{check.expression} vs DC {check.target}: {chance_text(p)} (takes your {timing})")
    return 0


def _distance(args: argparse.Namespace) -> int:
    from companion.rulesets.variant5e.diagonal_moves import distance

    if abs(args.dx) > 10_000 or abs(args.dy) > 10_000:
        raise RuleError("Diagonal Moves: keep distances within 10,000 squares")
    feet = distance(args.dx, args.dy)
    if args.json:
        print_json({"dx": args.dx, "dy": args.dy, "feet": feet})
        return 0
    print(f"{feet} ft")
    return 0


def _hit_dice(args: argparse.Namespace) -> int:
    from companion.rulesets.variant5e.healing import HitDice, hit_dice_healing, rest_recovery

    rest = rest_recovery(args.level, healing_surges=args.surges,
                         slow_natural_healing=args.slow)
    if args.spend > args.level:
        raise RuleError(f"Hit Dice: a level {args.level} character has {args.level} Hit "
                        f"Dice, not {args.spend}")
    dist = hit_dice_healing(args.spend, args.die, args.con)
    mean = sum((k * p for k, p in dist.items()), Fraction(0))
    rolled: list[int] = []
    healed = 0
    if args.roll:
        big = args.level * (args.die + max(0, args.con))
        tracker = HitDice(level=args.level, die=args.die, con_modifier=args.con, max_hp=big,
                          hp=0, hit_dice=args.level, healers_kit_dependency=args.kit,
                          healing_surges=args.surges, slow_natural_healing=args.slow)
        tracker.short_rest()
        if tracker.needs_healers_kit:
            tracker.treat_with_healers_kit()
        rng = random.Random(args.seed)
        rolled = [tracker.roll_hit_die(rng=rng) for _ in range(args.spend)]
        healed = tracker.hp
    if args.json:
        data: dict[str, Any] = {**rest, "level": args.level, "die": args.die,
                                "con": args.con, "spend": args.spend,
                                "mean": fraction_text(mean),
                                "odds": {str(k): fraction_text(p) for k, p in dist.items()}}
        if args.roll:
            data["roll"] = {"faces": rolled, "healed": healed}
        print_json(data)
        return 0
    print(f"level {args.level}, d{args.die}{args.con:+d}: short rest +"
          f"{rest['short_rest_hit_dice']} Hit Dice, long rest +{rest['long_rest_hit_dice']}"
          f" Hit Dice, {'full' if rest['long_rest_restores_hp'] else 'no'} hit points"
          + (f"; a surge spends up to {rest['surge_dice']}" if args.surges else "")
          + ("; a healer's kit before spending after a short rest" if args.kit else ""))
    print(f"{args.spend} Hit Dice heal {min(dist)}-{max(dist)}, average "
          f"{float(mean):.2f}")
    if args.roll:
        print(f"rolled {', '.join(map(str, rolled)) or 'nothing'}: +{healed} hit points")
    return 0


def _grapple_speed(args: argparse.Namespace) -> int:
    from companion.rulesets.variant5e.contests import Size
    from companion.rulesets.variant5e.grapple import speed_while_moving_grappled

    if args.speed > 10_000:
        raise RuleError("Moving a Grappled Target: keep the speed within 10,000 feet")
    speed = speed_while_moving_grappled(args.speed, Size.parse(args.grappler),
                                        Size.parse(args.grappled))
    if args.json:
        print_json({"speed": args.speed, "grappler": args.grappler,
                    "grappled": args.grappled, "moving_speed": speed})
        return 0
    print(f"moving the grappled {args.grappled} creature: {speed} ft")
    return 0
