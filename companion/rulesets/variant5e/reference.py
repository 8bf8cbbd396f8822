"""Generated reference pages for the 5e optional rules: lookup tables and exact odds.

Every figure is computed at build time from the package (its data files and the dice
engine); nothing here is typed in.
"""

from __future__ import annotations

from fractions import Fraction

from companion.rulesets.variant5e import death_and_returning as death
from companion.rulesets.variant5e.contests import Contest, Edge, Side
from companion.rulesets.variant5e.diagonal_moves import distance
from companion.rulesets.variant5e.identify_a_spell import identify_a_spell
from companion.rulesets.variant5e.spell_points import (
    CASTER_KINDS,
    mentality_cost,
    mentality_points,
    mentality_tables,
    table_level,
)

__all__ = ["exact", "reference_pages"]


def exact(p: Fraction) -> str:
    """A chance as the site shows it: percent with 2 decimals, then the exact fraction."""
    from companion.dice.render import percent

    frac = str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"
    return f"{percent(p)} ({frac})"


def _spell_points_page() -> str:
    data = mentality_tables()
    cost, points = data["cost_table"], data["points_table"]
    lines = [
        "# Spell points tables",
        "",
        "The two lookup tables of *Spell Points / Mentality* (they are looked up, not "
        "rolled).",
        "",
        f"## {cost['title']}",
        "",
        f"| {cost['key']} | {cost['value']} |",
        "|---:|---:|",
        "| 0 (cantrip) | 0 |",
    ]
    lines += [f"| {lvl} | {mentality_cost(lvl)} |" for lvl in range(1, 10)]
    lines += ["", f"## {points['title']}", "",
              "Half casters read the row of half their class level, third casters a third "
              "(rounded down); a row of 0 means no points.", "",
              "| Class level | " + " | ".join(
                  f"{kind} caster (row)" for kind in CASTER_KINDS) + " |",
              "|---:|" + "---:|" * len(CASTER_KINDS)]
    for lvl in range(1, 21):
        cells = [f"{mentality_points(lvl, kind)} ({table_level(lvl, kind)})"
                 for kind in CASTER_KINDS]
        lines.append(f"| {lvl} | " + " | ".join(cells) + " |")
    lines += ["", "Classes by kind: " + "; ".join(
        f"**{kind}**: {', '.join(data['casters'][kind]['classes'])}" for kind in CASTER_KINDS)
        + "."]
    return "\n".join(lines) + "\n"


def _fragile_soul_page() -> str:
    lines = [
        "# Fragile Soul odds",
        "",
        "Exact chances of each outcome of one attempt to return a creature: the caster's "
        f"DC {death.FRAGILE_SOUL_DC} check (d20 + spellcasting modifier) and, when it fails, "
        "the d100 on the spell's table.",
        "",
        "```roller",
        "1d20+3",
        "```",
        "",
    ]
    for spell, label in (("revivify", "Revivify / Raise Dead"), ("resurrection", "Resurrection"),
                         ("true resurrection", "True Resurrection")):
        lines += [f"## {label}", "", "| Modifier | Works | Not returned | Destroyed | "
                  "Inhabited |", "|---:|---:|---:|---:|---:|"]
        for modifier in range(-1, 11):
            odds = death.fragile_soul_odds(spell, modifier)
            lines.append(f"| {modifier:+d} | " + " | ".join(
                exact(odds[k]) for k in death.OUTCOMES) + " |")
        lines.append("")
    lines += [
        "## Dying with permanent failures",
        "",
        "Chance that a dying creature that rolls death saves until something happens dies, "
        "becomes stable, or rolls a 20 and gets up, by the failures it starts with "
        "(Permanent Death Failures gives one per earlier return).",
        "",
        "| Failures at the start | Dies | Stable | Up (natural 20) |",
        "|---:|---:|---:|---:|",
    ]
    for failures in range(3):
        fate = death.death_save_odds(failures)
        lines.append(f"| {failures} | {exact(fate['dies'])} | {exact(fate['stable'])} | "
                     f"{exact(fate['up'])} |")
    return "\n".join(lines) + "\n"


def _contests_page() -> str:
    edges = [(Edge.NORMAL, Edge.NORMAL), (Edge.ADVANTAGE, Edge.NORMAL),
             (Edge.DISADVANTAGE, Edge.NORMAL), (Edge.NORMAL, Edge.ADVANTAGE),
             (Edge.NORMAL, Edge.DISADVANTAGE)]
    heads = {Edge.NORMAL: "d20", Edge.ADVANTAGE: "adv", Edge.DISADVANTAGE: "dis"}
    lines = [
        "# Contest odds",
        "",
        "Chance that the creature starting a contest (grappler, shover, tumbler...) wins, "
        "by how much its modifier exceeds the resister's. Ties keep the status quo, so they "
        "count for the resister. Columns give each side's roll: d20, advantage "
        "(`2d20kh1`) or disadvantage (`2d20kl1`).",
        "",
        "```roller",
        "2d20kh1+5",
        "```",
        "",
        "| Modifier difference | " + " | ".join(
            f"{heads[a]} vs {heads[b]}" for a, b in edges) + " |",
        "|---:|" + "---:|" * len(edges),
    ]
    for diff in range(-8, 11):
        cells = [exact(Contest("c", Side("a", "x", diff, a), Side("b", "y", 0, b)).odds()
                       .initiator) for a, b in edges]
        lines.append(f"| {diff:+d} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _identify_page() -> str:
    modifiers = [0, 2, 4, 6, 8, 10]
    lines = [
        "# Identify a spell odds",
        "",
        "Chance of identifying a spell (Intelligence (Arcana) against DC 15 + spell level), "
        "by Arcana modifier; the second figure in each cell is with advantage (the spell "
        "was cast as a class spell of the identifier's own class).",
        "",
        "| Spell level (DC) | " + " | ".join(f"{m:+d}" for m in modifiers) + " |",
        "|---|" + "---:|" * len(modifiers),
    ]
    for level in range(10):
        cells = [f"{exact(identify_a_spell(m, level).chance())}<br>"
                 f"adv {exact(identify_a_spell(m, level, same_class=True).chance())}"
                 for m in modifiers]
        lines.append(f"| {level} ({15 + level}) | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _diagonal_page() -> str:
    size = 7
    lines = [
        "# Diagonal distances",
        "",
        "Feet between two squares under the alternating 5/10-foot diagonal rule, by how "
        "many columns (across) and rows (down) apart they are.",
        "",
        "| rows \\ columns | " + " | ".join(str(dx) for dx in range(size)) + " |",
        "|---:|" + "---:|" * size,
    ]
    for dy in range(size):
        lines.append(f"| {dy} | " + " | ".join(str(distance(dx, dy)) for dx in range(size))
                     + " |")
    return "\n".join(lines) + "\n"


def reference_pages() -> dict[str, str]:
    """Relative path under ``rules/variant5e/`` -> Markdown."""
    return {
        "spell_points_tables.md": _spell_points_page(),
        "fragile_soul_odds.md": _fragile_soul_page(),
        "contest_odds.md": _contests_page(),
        "identify_a_spell_odds.md": _identify_page(),
        "diagonal_distances.md": _diagonal_page(),
    }
