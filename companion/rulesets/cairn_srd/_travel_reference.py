"""Generated reference pages for wilderness travel and downtime, computed from the rules."""

from __future__ import annotations

from companion.dice.render import chance_text
from companion.rulesets.cairn_srd import downtime, settlements, wilderness


def travel_page() -> str:
    """Travel duration of every path, distance and difficulty, and navigation odds."""
    paths, dists, diffs = wilderness.path_types(), wilderness.distances(), \
        wilderness.difficulties()
    lines = [
        "# Travel duration",
        "",
        "Watches a leg takes, worked out ahead of time: its path type, distance and terrain "
        "difficulty each add watches (the open sea out of sight of land adds up to "
        f"{wilderness.OPEN_SEA_MAX} more, travelling in the dark {wilderness.NIGHT_EXTRA}). "
        "Days assume two travel watches a day and the third in camp.",
        "",
        "| Path type | Watches | Navigation |", "|---|---:|---:|",
    ]
    lines += [f"| {name} | +{w} | {nav:+d} |" for name, (w, nav) in paths.items()]
    lines += ["", "| Distance | Leagues (about) | Watches |", "|---|---:|---:|"]
    lines += [f"| {name} | {lg} | +{w} |" for name, (lg, w) in dists.items()]
    lines += ["", "| Difficulty | Terrain | Watches | Hazards |", "|---|---|---:|---|"]
    lines += [f"| {name} | {terr} | +{w} | {fac} |" for name, (w, terr, fac) in diffs.items()]
    lines += ["", "## Every combination", "",
              "| Path | Distance | " + " | ".join(diffs) + " |",
              "|---|---|" + "---:|" * len(diffs)]
    example = {level: next(t for t, lv in wilderness.terrains().items() if lv == level)
               for level in diffs}
    for path in paths:
        for dist in dists:
            cells = [str(wilderness.plan_leg(wilderness.make_leg(path, dist, example[level]))
                         .watches) for level in diffs]
            lines.append(f"| {path} | {dist} | " + " | ".join(cells) + " |")
    lines += ["", "## Staying on course", "",
              "Exact chance the navigator's skill test keeps the party on course (two of "
              "skill, time and tools; with all three it always succeeds).", "",
              "| Path | no bonus | +1 | +2 |", "|---|---:|---:|---:|"]
    for path in paths:
        lines.append(f"| {path} | " + " | ".join(
            chance_text(wilderness.navigation_chance(path, 2, m)) for m in range(3)) + " |")
    lines += ["", "## Threats by terrain", "",
              "A threat is drawn among the rows that fit the terrain, each alike.", "",
              "| Terrain | Threats that fit | Each |", "|---|---|---:|"]
    for terrain in wilderness.terrains():
        fits = wilderness.threats_for(terrain)
        lines.append(f"| {terrain} | {', '.join(t for _, t in fits)} | "
                     f"{chance_text(wilderness.threat_odds(terrain)[fits[0][1]])} |")
    return "\n".join(lines)


def downtime_page() -> str:
    """Upkeep, bank fees, petty-crime and faction odds, settlement conditions."""
    lines = ["# Downtime odds and costs", "", "| Lifestyle | Silver a cycle | Tags |",
             "|---|---:|---|"]
    lines += [f"| {n} | {c} | {t} |" for n, (c, t) in downtime.lifestyles().items()]
    lines += ["", "## Bank withdrawal fees", "",
              "| Withdrawal | 10 | 100 | 150 | 1,000 | 10,000 |", "|---|---:|---:|---:|---:|---:|"]
    for short, row in downtime.WITHDRAWALS.items():
        lines.append(f"| {row} | " + " | ".join(
            str(downtime.withdrawal_fee(a, short)) for a in (10, 100, 150, 1000, 10000)) + " |")
    lines += ["", "## Petty crime", "",
              "Exact odds with two of skill, gear and time, by situational modifier. "
              "*Pushing* always pushes a failed roll (a second d6; 7+ in all is a complete "
              "failure).", "",
              "| Modifier | Success | Hard choice | Success if pushing | Complete failure if "
              "pushing |", "|---:|---:|---:|---:|---:|"]
    for m in range(-2, 3):
        plain, pushed = downtime.petty_crime_odds(2, m), downtime.petty_crime_odds(2, m, True)
        lines.append(f"| {m:+d} | {chance_text(plain.success)} | {chance_text(plain.failure)} "
                     f"| {chance_text(pushed.success)} | {chance_text(pushed.bust)} |")
    lines += ["", "## Faction turns", "", "| Modifier | No step | 1 step | 2 steps |",
              "|---:|---:|---:|---:|"]
    for m in range(-2, 3):
        odds = downtime.faction_odds(m)
        lines.append(f"| {m:+d} | " + " | ".join(chance_text(odds[k]) for k in range(3)) + " |")
    lines += ["", "## Settlement conditions", "",
              "Chance that one roll of the hazard die inflicts each condition (a 4, then the "
              "upheaval, then one of its conditions, each alike).", "",
              "| Condition | Meaning | Per cycle |", "|---|---|---:|"]
    cond = settlements.condition_odds()
    lines += [f"| {c} | {text} | {chance_text(cond[c])} |"
              for c, text in settlements.conditions().items()]
    return "\n".join(lines)


__all__ = ["downtime_page", "travel_page"]
