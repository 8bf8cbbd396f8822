"""Generated reference pages for the plot-points rules (computed when the site is built)."""

from __future__ import annotations

from fractions import Fraction

from companion.dice.render import percent
from companion.rulesets.plot_points.checks import PlotCheck, advantage_die
from companion.rulesets.plot_points.lookup import (
    ABILITIES,
    ABILITY_DICE,
    ADVANTAGE_DICE,
    TABLES,
    WOUND_TIERS,
)

DIFFICULTIES = range(5, 26)


def _cell(p: Fraction) -> str:
    exact = str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"
    return f"{percent(p)} <small>({exact})</small>"


def success_table(advantage: int, proficiency: int = 0) -> str:
    """Markdown: difficulty 5-25 down, weak/average/strong across, exact chance of success."""
    head = "| difficulty | " + " | ".join(
        f"{a} ({ABILITY_DICE[a]}{advantage_die(advantage).replace('+', ' + ').replace('-', ' - ')})"
        for a in ABILITIES) + " |"
    lines = [head, "|---:|" + "---:|" * len(ABILITIES)]
    for dc in DIFFICULTIES:
        cells = [_cell(PlotCheck(a, proficiency, advantage, dc).chance()) for a in ABILITIES]
        lines.append(f"| {dc} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def success_chances_page() -> str:
    parts = [
        "# Chance of success",
        "",
        "Exact chances that a static check meets the difficulty, computed from the dice when "
        "this site was built (no proficiency bonus; add yours by reading a row that many "
        "lower). Percentages are rounded; the exact fraction follows.",
    ]
    for advantage, title in ((0, "Without advantage"), (1, "With one advantage (+d4)"),
                             (-1, "With one disadvantage (−d4)"),
                             (3, "With three advantages (+d8)")):
        parts += ["", f"## {title}", "", success_table(advantage)]
    parts += ["", "## Natural 1 and natural 20", "",
              "The kept d20 decides (see *Interpretation* in the checks module).", "",
              "| ability | natural 1 | natural 20 |", "|---|---:|---:|"]
    for ability in ABILITIES:
        one, twenty = PlotCheck(ability).natural_chances()
        parts.append(f"| {ability} ({ABILITY_DICE[ability]}) | {_cell(one)} | {_cell(twenty)} |")
    parts += ["", *lookup_tables_markdown()]
    return "\n".join(parts) + "\n"


def lookup_tables_markdown() -> list[str]:
    """The seed's lookup tables (ability dice, advantage dice, wound tiers) from the data."""
    title, section = TABLES.titles["ability_dice"]
    lines = [f"## {title}", "", f"*{section}*", "", "| ability | dice |", "|---|---|"]
    lines += [f"| {a} | `{d}` |" for a, d in ABILITY_DICE.items()]
    title, section = TABLES.titles["advantage_dice"]
    top = max(ADVANTAGE_DICE)
    lines += ["", f"## {title}", "", f"*{section}* — added for advantage, subtracted for "
              "disadvantage.", "", "| net advantages or disadvantages | die |", "|---|---|"]
    lines += [f"| {n}{'+' if n == top else ''} | d{sides} |"
              for n, sides in ADVANTAGE_DICE.items()]
    title, section = TABLES.titles["wound_tiers"]
    lines += ["", f"## {title}", "", f"*{section}*", "",
              "| wounds | condition | effect | strain per check | extra strain on failure |",
              "|---|---|---|---:|---:|"]
    for tier in WOUND_TIERS:
        span = f"{tier.low}-{tier.high}" if tier.low != tier.high else str(tier.low)
        lines.append(f"| {span} | {tier.name} | {tier.effect} | {tier.strain_per_check} | "
                     f"{tier.strain_on_failure} |")
    return lines


def reference_pages() -> dict[str, str]:
    """Relative path under ``rules/plot_points/`` -> Markdown."""
    return {"success-chances.md": success_chances_page()}
