"""Command line for the Cairn-derived SRD: ``companion magic ...`` and ``companion cairn ...``."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from companion.cli import fraction_text, print_json
from companion.dice.render import percent
from companion.errors import RuleError, StateError
from companion.files import write_atomic
from companion.rulesets.cairn_srd import (
    _travel_cli,
    exploration,
    lockpicking,
    mass_combat,
    saves,
    skills,
    social,
    spellcasting,
)


def add_commands(sub: Any) -> None:
    magic = sub.add_parser("magic", help="Cairn spellcasting: magic-dice odds and casting")
    msub = magic.add_subparsers(dest="magic_command", metavar="ACTION")
    table = msub.add_parser("table", help="exact mishap/doom/Fatigue odds per number of dice")
    table.add_argument("--json", action="store_true", help="print JSON")
    table.set_defaults(func=_magic_table)
    cast = msub.add_parser("cast", help="roll magic dice and read them")
    cast.add_argument("dice", type=int)
    cast.add_argument("--seed", type=int, default=None)
    cast.add_argument("--json", action="store_true", help="print JSON")
    cast.set_defaults(func=_magic_cast)
    magic.set_defaults(func=lambda a: _help(magic))

    cairn = sub.add_parser("cairn", help="Cairn SRD: saves, die of fate, locks and the lock "
                                         "book, skill/social/knowledge checks, NPCs, matrix")
    csub = cairn.add_subparsers(dest="cairn_command", metavar="ACTION")
    sv = csub.add_parser("save", help="roll a d20 save (or show its exact chance)")
    sv.add_argument("ability", type=int)
    sv.add_argument("--floor", type=int, default=0, help="difficulty floor (e.g. Armor)")
    sv.add_argument("--seed", type=int, default=None)
    sv.add_argument("--json", action="store_true")
    sv.set_defaults(func=_save)
    fate = csub.add_parser("fate", help="roll the die of fate")
    fate.add_argument("--seed", type=int, default=None)
    fate.set_defaults(func=lambda a: _print(str(saves.die_of_fate(seed=a.seed))))
    lock = csub.add_parser("lock", help="create a lock (3d12), kept in a lock book")
    lock.add_argument("--seed", type=int, default=None)
    lock.add_argument("--book", default=None, metavar="FILE",
                      help="a lock book (JSON): its types keep their sequences; the new "
                           "lock's type is written into it")
    lock.add_argument("--show", action="store_true",
                      help="print the book only, roll no lock")
    lock.add_argument("--json", action="store_true")
    lock.set_defaults(func=_lock)
    skill = csub.add_parser("skill", help="a skill test (skill, time, tools) and its yield")
    skill.add_argument("have", type=int, help="how many of skill, time and tools: 0-3")
    skill.add_argument("--modifier", type=int, default=0,
                       help=f"situational modifier, -{skills.MAX_MODIFIER} to "
                            f"+{skills.MAX_MODIFIER} (+1 makes 5+ a 4+)")
    skill.add_argument("--yield", dest="produces", action="store_true",
                       help="the task produces something: roll its yield die on a success")
    skill.add_argument("--steps-up", type=int, default=0,
                       help=f"yield die steps up (good conditions, tools, help): "
                            f"0-{skills.MAX_STEPS_UP}")
    skill.add_argument("--seed", type=int, default=None)
    skill.add_argument("--json", action="store_true")
    skill.set_defaults(func=_skill)
    soc = csub.add_parser("social", help="a doubtful social tactic (5+ on a d6)")
    soc.add_argument("--modifier", type=int, default=0,
                     help=f"situational modifier, -{skills.MAX_MODIFIER} to "
                          f"+{skills.MAX_MODIFIER}")
    soc.add_argument("--disposition", default=None,
                     help="the NPC's disposition now: a success moves it one level up")
    soc.add_argument("--seed", type=int, default=None)
    soc.add_argument("--json", action="store_true")
    soc.set_defaults(func=_social)
    know = csub.add_parser("knowledge", help="does the character know it?")
    know.add_argument("kind", help="common, specialized or esoteric, e.g. specialized")
    know.add_argument("--seed", type=int, default=None)
    know.add_argument("--json", action="store_true")
    know.set_defaults(func=_knowledge)
    npc = csub.add_parser("npc", help="roll an NPC's want and disposition")
    npc.add_argument("--seed", type=int, default=None)
    npc.set_defaults(func=lambda a: _print(str(social.roll_npc(seed=a.seed))))
    matrix = csub.add_parser("matrix", help="the mass-combat attack matrix")
    matrix.add_argument("--json", action="store_true")
    matrix.set_defaults(func=_matrix)
    clock = csub.add_parser("clock", help="exact encounter odds from a site clock value")
    clock.add_argument("--clock", type=int, default=exploration.START,
                       help=f"the site clock now (default {exploration.START})")
    clock.add_argument("--die", type=int, default=exploration.SITE_DICE[0],
                       help="the site die's sides: 6, 8, 10 or 12 (default 6)")
    clock.add_argument("--turns", type=int, default=1,
                       help="how many turns 'within' looks ahead (default 1)")
    clock.add_argument("--json", action="store_true")
    clock.set_defaults(func=_clock)
    _travel_cli.add_commands(csub)  # cairn travel, cairn downtime
    cairn.set_defaults(func=lambda a: _help(cairn))


def _help(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 0


def _print(text: str) -> int:
    print(text)
    return 0


def _magic_table(args: argparse.Namespace) -> int:
    rows = spellcasting.magic_table()
    if args.json:
        print_json([{"dice": r.dice, "mishap": fraction_text(r.odds.mishap),
                     "doom": fraction_text(r.odds.doom),
                     "fatigue_mean": fraction_text(r.odds.fatigue_mean)} for r in rows])
        return 0
    print(f"{'dice':>4}  {'mishap':>8} {'seed':>5}  {'doom':>8} {'seed':>5}  fatigue")
    for r in rows:
        m = "!" if r.mishap_differs else " "
        d = "!" if r.doom_differs else " "
        print(f"{r.dice:>4}  {percent(r.odds.mishap):>8} {r.printed_mishap:>4}%{m} "
              f"{percent(r.odds.doom):>8} {r.printed_doom:>4}%{d} "
              f"{fraction_text(r.odds.fatigue_mean)}")
    print("! = the seed's printed figure differs from the exact one")
    return 0


def _magic_cast(args: argparse.Namespace) -> int:
    reading = spellcasting.cast(args.dice, seed=args.seed)
    if args.json:
        print_json({"dice": list(reading.dice), "fatigue": reading.fatigue,
                    "mishap": reading.mishap_face, "mishap_text": reading.mishap,
                    "dooms": reading.dooms})
    else:
        print(reading)
    return 0


def _save(args: argparse.Namespace) -> int:
    chance = saves.save_chance(args.ability, args.floor)
    result = saves.save(args.ability, floor=args.floor, seed=args.seed)
    if args.json:
        print_json({"ability": args.ability, "floor": args.floor, "roll": result.roll,
                    "success": result.success, "chance": fraction_text(chance)})
    else:
        print(f"{result} (chance {percent(chance)} = {fraction_text(chance)})")
    return 0


MAX_BOOK_BYTES = 1_000_000
"""The largest lock-book file the CLI reads."""


def _shown(path: Path) -> str:
    name = path.name or str(path)
    return name if len(name) <= 40 else name[:39] + "…"


def _read_book(path: Path) -> lockpicking.LockBook:
    from companion.files import FileError, read_bytes

    try:
        if not os.path.lexists(path):
            return lockpicking.LockBook()
    except ValueError:
        raise StateError("lock book: the file name is not a usable path") from None
    try:
        # Bounded, and only a regular file: never a device or FIFO that never ends.
        name = "./-" if str(path) == "-" else str(path)  # a file named '-', not stdin
        data = read_bytes(name, MAX_BOOK_BYTES, "a lock book")
    except FileError as exc:
        raise StateError(f"lock book: {exc}") from None
    return lockpicking.LockBook.from_json(data)


def _lock(args: argparse.Namespace) -> int:
    path = Path(args.book) if args.book else None
    book = _read_book(path) if path else lockpicking.LockBook()
    if args.show and path is None:
        raise RuleError("cairn lock: --show needs --book FILE")
    lock = None if args.show else book.new_lock(seed=args.seed)
    if path is not None and lock is not None:
        try:
            # Whole or not at all: a full disk never leaves a cut-short book.
            write_atomic(path, book.to_json())
        except (OSError, ValueError) as exc:
            raise StateError(f"lock book {_shown(path)}: cannot write it "
                             f"({getattr(exc, 'strerror', None) or 'unwritable'})"
                             ) from None
    if args.json:
        out: dict[str, Any] = {"book": dict(book.sequences), "solved": list(book.solved)}
        if lock is not None:
            out["lock"] = {"type": lock.lock_type, "dv": lock.dv, "sequence": lock.sequence,
                           "complication": lock.complication}
        print_json(out)
        return 0
    if lock is not None:
        print(lock.log[-1].summary)
        print(f"sequence {lock.sequence}; {lockpicking.complications()[lock.complication]}")
    if path is not None:
        print("lock book: " + ("; ".join(book.lines()) or "empty"))
    return 0


def _skill(args: argparse.Namespace) -> int:
    result = skills.task(args.have, args.modifier, produces=args.produces,
                         steps_up=args.steps_up, seed=args.seed)
    if args.json:
        t = result.test
        print_json({"have": t.have, "modifier": args.modifier, "target": t.target or None,
                    "roll": t.roll, "success": t.success,
                    "chance": fraction_text(result.chance),
                    "yield_die": result.yield_die if result.yield_roll is not None else None,
                    "yield": result.yield_roll})
    else:
        print(f"{result} (chance {percent(result.chance)} = {fraction_text(result.chance)})")
    return 0


def _social(args: argparse.Namespace) -> int:
    skills.check_modifier(args.modifier)
    level = None if args.disposition is None else social.find_disposition(args.disposition)
    result = social.social_check(args.modifier, seed=args.seed)
    chance = skills.skill_chance(2, args.modifier)
    after = None
    if level is not None:
        after = social.shift_disposition(level, 1) if result.success else level
    if args.json:
        out: dict[str, Any] = {"modifier": args.modifier, "target": result.target,
                               "roll": result.roll, "success": result.success,
                               "chance": fraction_text(chance)}
        if after is not None:
            out["disposition"] = after
        print_json(out)
        return 0
    text = f"{result} (chance {percent(chance)} = {fraction_text(chance)})"
    if after is not None:
        text += (f"; disposition now {after}" if result.success
                 else f"; still {after}, and this approach never works on them again")
    print(text)
    return 0


def _knowledge(args: argparse.Namespace) -> int:
    kind = args.kind.strip().lower().replace("specialised", "specialized")[:20]
    answer = social.knowledge_check(kind, seed=args.seed)
    if isinstance(answer, saves.FateResult):
        known: bool | None = answer.favourable
        text, roll = f"{answer}: " + ("known" if known else "not known"), answer.roll
    else:
        known = kind == "common" or None
        text, roll = answer, None
    if args.json:
        print_json({"kind": kind, "known": known, "roll": roll, "text": text})
    else:
        print(text)
    return 0


def _matrix(args: argparse.Namespace) -> int:
    scales = mass_combat.scales()
    grid = {a: {d: mass_combat.attack_effect(a, d) for d in scales} for a in scales}
    if args.json:
        print_json(grid)
        return 0
    print(f"{'attacker / defender':<20}" + "".join(f"{d:<17}" for d in scales))
    for a in scales:
        print(f"{a:<20}" + "".join(f"{grid[a][d]:<17}" for d in scales))
    return 0


def _clock(args: argparse.Namespace) -> int:
    odds = exploration.encounter_odds(args.clock, args.die, args.turns)
    if args.json:
        print_json({"clock": odds.clock, "die": odds.die, "turns": odds.turns,
                    "next": fraction_text(odds.next), "within": fraction_text(odds.within),
                    "expected_turns": fraction_text(odds.expected_turns),
                    "omen_next": fraction_text(odds.omen_next)})
        return 0
    print(f"site clock {odds.clock}, site die d{odds.die}:")
    print(f"  encounter on the next turn: {percent(odds.next)} "
          f"({fraction_text(odds.next)})")
    print(f"  at least one within {odds.turns} turn(s): {percent(odds.within)} "
          f"({fraction_text(odds.within)})")
    print(f"  expected turns until the first (counting its turn): "
          f"{float(odds.expected_turns):.2f} ({fraction_text(odds.expected_turns)})")
    print(f"  clue or omen on the next turn: {percent(odds.omen_next)} "
          f"({fraction_text(odds.omen_next)})")
    return 0


__all__ = ["add_commands"]
