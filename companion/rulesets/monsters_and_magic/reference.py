"""Generated reference pages for Monsters & Magic (computed when the site is built)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from companion.dice.render import percent
from companion.rulesets.monsters_and_magic._data import section
from companion.rulesets.monsters_and_magic.ability_checks import AbilityCheck, Tier
from companion.rulesets.monsters_and_magic.death_and_dying import stabilize_chance
from companion.rulesets.monsters_and_magic.dice_notation import (
    DIE_SCALE,
    odd_die_distribution,
    step_distribution,
)
from companion.rulesets.monsters_and_magic.fatigue_and_exhaustion import (
    DEFAULT_MAX_EXHAUSTION,
    exhaustion_penalty,
)
from companion.rulesets.monsters_and_magic.group_checks import group_odds
from companion.rulesets.monsters_and_magic.harm_and_healing import (
    falling_distance,
    falling_distance_computed,
    falling_distance_differs,
)
from companion.rulesets.monsters_and_magic.travel import overland_paces

#: Net modifiers shown on the check page (modifier minus how far the DC is above 10).
NET_MODIFIERS = range(-5, 16)
TIERS_BEST_FIRST = tuple(reversed(Tier))


def cell(p: Fraction) -> str:
    """A percentage with 2 decimals and the exact fraction."""
    exact = str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"
    return f"{percent(p)} <small>({exact})</small>"


def tier_table(advantage: bool = False, disadvantage: bool = False) -> str:
    head = "| net modifier | " + " | ".join(t.label for t in TIERS_BEST_FIRST) + " | any hit |"
    lines = [head, "|---:|" + "---:|" * (len(TIERS_BEST_FIRST) + 1)]
    for net in NET_MODIFIERS:
        check = AbilityCheck(net, None, advantage, disadvantage)
        odds = check.tier_odds()
        cells = [cell(odds[t]) for t in TIERS_BEST_FIRST] + [cell(check.hit_chance())]
        lines.append(f"| {net:+d} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def check_odds_page() -> str:
    parts = [
        "# Ability check odds",
        "",
        "Exact chance of each result, computed from the dice when this site was built. A "
        "check's non-critical result depends only on the total minus the DC, and criticals "
        "only on the natural d20, so one table serves every modifier and DC: read the row "
        "of the **net modifier** = modifier − (DC − 10). A +3 check against DC 12 reads "
        "row +1.",
        "",
        "```roller target=\"10\"",
        "1d20",
        "```",
    ]
    for title, adv, dis in (("Normal (1d20)", False, False),
                            ("With advantage (2d20, keep the higher)", True, False),
                            ("With disadvantage (2d20, keep the lower)", False, True)):
        parts += ["", f"## {title}", "", tier_table(adv, dis)]
    parts += ["", "## Effect steps", "",
              "One step up or down the chart; a step never makes a critical unless a rule "
              "says so. A plain 1d20 + 0 against DC 10:", "",
              "| steps | " + " | ".join(t.label for t in TIERS_BEST_FIRST) + " |",
              "|---:|" + "---:|" * len(TIERS_BEST_FIRST)]
    for steps in (-2, -1, 0, 1, 2):
        odds = AbilityCheck(0, steps=steps).tier_odds()
        parts.append(f"| {steps:+d} | " + " | ".join(cell(odds[t]) for t in TIERS_BEST_FIRST)
                     + " |")
    return "\n".join(parts) + "\n"


def group_page() -> str:
    parts = ["# Group check odds", "",
             "Exact chance of each group result when every member has the same modifier "
             "(against DC 10). Criticals count double, each strong hit cancels a miss, the "
             "most common result wins and a tie goes to the lower result.", "",
             "| members | modifier | Strong Hit | Weak Hit | Miss |", "|---:|---:|---:|---:|---:|"]
    for size in (2, 3, 4, 5):
        for modifier in (0, 2, 4, 6):
            odds = group_odds([AbilityCheck(modifier)] * size)
            parts.append(f"| {size} | {modifier:+d} | {cell(odds[Tier.STRONG_HIT])} | "
                         f"{cell(odds[Tier.WEAK_HIT])} | {cell(odds[Tier.MISS])} |")
    return "\n".join(parts) + "\n"


def dice_page() -> str:
    parts = ["# Dice: size steps, percentile and odd dice", "",
             "The die size scale. The seed says one step changes the average by about 1; "
             "the exact change is computed and a step more than a quarter off is flagged.", "",
             "| step | die | average | from the one below | |", "|---:|---|---:|---:|---|"]
    previous: Fraction | None = None
    for i, die in enumerate(DIE_SCALE):
        mean = step_distribution(die, 0).mean
        gap = "" if previous is None else f"{float(mean - previous):+.2f}"
        flag = ("⚠ not about 1" if previous is not None
                and abs(mean - previous - 1) > Fraction(1, 4) else "")
        parts.append(f"| {i} | {die} | {float(mean):.2f} | {gap} | {flag} |")
        previous = mean
    parts += ["", "A d% is two d10s, tens and ones, with 00 read as 100: every value 1-100 "
              "has chance exactly 1/100.", "",
              "```roller", "1d100", "```", "",
              "Odd dice roll the even die with twice the faces, halved and rounded up; each "
              "face is equally likely:", "", "| die | rolled as | each face |", "|---|---|---:|"]
    for sides in (3, 5, 7):
        dist = odd_die_distribution(sides)
        each = {p for _, p in dist}
        parts.append(f"| d{sides} | ⌈d{2 * sides} ÷ 2⌉ | "
                     f"{cell(each.pop()) if len(each) == 1 else 'uneven'} |")
    return "\n".join(parts) + "\n"


def death_page() -> str:
    parts = ["# Death & dying odds", "",
             "Exact chance that death rolls alone stabilize a creature that has just started "
             "dying (no deathsave yet), with "
             f"{DEFAULT_MAX_EXHAUSTION} exhaustion boxes. A death roll is a luck roll "
             "with the exhaustion penalty; a weak hit gains a deathsave (3 stabilize), a miss "
             "marks 1 exhaustion, a critical miss 2. All of this rests on the readings marked "
             "*Interpretation* in the death and exhaustion modules.", "",
             "| luck | " + " | ".join(f"{e} exhaustion" for e in range(DEFAULT_MAX_EXHAUSTION))
             + " |", "|---:|" + "---:|" * DEFAULT_MAX_EXHAUSTION]
    for luck in range(-2, 6):
        cells = [cell(stabilize_chance(luck=luck, exhaustion=e,
                                       max_exhaustion=DEFAULT_MAX_EXHAUSTION))
                 for e in range(DEFAULT_MAX_EXHAUSTION)]
        parts.append(f"| {luck:+d} | " + " | ".join(cells) + " |")
    parts += ["", "Exhaustion penalty to ability checks (Fibonacci):", "",
              "| exhaustion | " + " | ".join(str(n) for n in range(8)) + " |",
              "|---|" + "---:|" * 8,
              "| penalty | " + " | ".join(f"−{exhaustion_penalty(n)}" if exhaustion_penalty(n)
                                        else "0" for n in range(8)) + " |"]
    return "\n".join(parts) + "\n"


def _esc(text: Any) -> str:
    return str(text).replace("|", "\\|")


def _named(block: str) -> list[str]:
    data = section(block)
    lines = [f"*{data['section']}*", ""]
    if "note" in data:
        lines += [data["note"], ""]
    lines += ["| name | effect |", "|---|---|"]
    for name, value in data.items():
        if name in {"section", "note", "detonate_damage"}:
            continue
        effect = value["effect"] if isinstance(value, dict) else value
        lines.append(f"| {_esc(name)} | {_esc(effect)} |")
    return lines


def travel_page() -> str:
    overland = section("overland_travel")
    parts = ["# Travel, combat and exploration reference", "",
             "## Overland travel", "", f"*{overland['section']}* — {overland['note']}", "",
             "The seed's table is printed misaligned. Its cells as printed, beside both "
             "readings. Interpretation (used by default, *last cell*): the last filled cell of "
             "each row is its exhaustion, so Fast costs more exhaustion than Normal. The "
             "*literal* reading (empty or '-' cells are 0, numbers where they stand) makes Fast "
             "better than Normal on every column; apps and `mm travel --reading literal` offer "
             "it as an option.", "",
             "| Speed | Hexes | Modifier (last cell) | Exhaustion (last cell) "
             "| Modifier (literal) | Exhaustion (literal) | printed cells | |",
             "|---|---:|---:|---:|---:|---:|---|---|"]
    for pace, lit in zip(overland_paces(), overland_paces("literal"), strict=True):
        printed = " \\| ".join(c or "(empty)" for c in pace.printed)
        parts.append(f"| {pace.speed} | {pace.hexes} | {pace.group_check_modifier:+d} | "
                     f"{pace.exhaustion} | {lit.group_check_modifier:+d} | {lit.exhaustion} "
                     f"| {printed} | ⚠ misaligned in the seed |")
    sea = section("sea_and_air_travel")
    parts += ["", "## Sea and air travel", "", f"*{sea['section']}* — {sea['note']}", "",
              "| " + " | ".join(sea["columns"]) + " |", "|---|---|---:|---|"]
    parts += ["| " + " | ".join(_esc(c) for c in row) + " |" for row in sea["rows"]]
    techniques = section("basic_techniques")
    parts += ["", "## Basic techniques", "", f"*{techniques['section']}* — "
              f"{techniques['note']}", "", "| Name | Cost | Summary |", "|---|---|---|"]
    parts += ["| " + " | ".join(_esc(c) for c in row) + " |" for row in techniques["rows"]]
    for title, block in (("Conditions", "conditions"), ("Statuses", "statuses"),
                         ("Light", "light"), ("Senses", "senses"),
                         ("Concealment", "concealment"), ("Cover", "cover"),
                         ("Movement", "movement")):
        parts += ["", f"## {title}", "", *_named(block)]
    parts += ["", "## Rests", ""]
    for kind, rest in section("rests").items():
        parts += [f"### {kind.title()} rest ({rest['hours']} hours, choose {rest['choose']})",
                  "", "| activity | effect |", "|---|---|"]
        parts += [f"| {_esc(n)} | {_esc(e)} |" for n, e in rest["activities"].items()]
        parts.append("")
    falling = section("falling")
    parts += ["## Falling", "", f"{falling['damage_per_10_feet']} damage per 10 feet fallen.",
              "", "Feet fallen by the end of each 6-second turn: the seed's figure beside "
              "g·t²/2 with standard gravity (32.174 ft/s², no air resistance); more than 1% "
              "apart is flagged.", "", "| turn | printed | computed | |", "|---:|---:|---:|---|"]
    for turn in range(1, len(falling["printed_feet_by_turn"]) + 1):
        computed = falling_distance_computed(turn)
        flag = "⚠ differs" if falling_distance_differs(turn) else ""
        parts.append(f"| {turn} | {falling_distance(turn):,} | {float(computed):,.1f} | "
                     f"{flag} |")
    return "\n".join(parts) + "\n"


def reference_pages() -> dict[str, str]:
    """Relative path under ``rules/monsters_and_magic/`` -> Markdown."""
    return {
        "check-odds.md": check_odds_page(),
        "group-checks.md": group_page(),
        "dice.md": dice_page(),
        "death-and-dying.md": death_page(),
        "reference.md": travel_page(),
    }
