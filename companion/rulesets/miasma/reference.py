"""Generated reference pages for Miasma: the Dice Monarchs hand table (computed counts beside
the seed's), earthmote feature odds and the psychosis levels, all from the package's data."""

from __future__ import annotations

from fractions import Fraction

from companion.dice.render import chance_text
from companion.rulesets.miasma import earthmotes, psychosis
from companion.rulesets.miasma.dice_monarchs import hands, strength
from companion.rulesets.miasma.dice_monarchs.game import community_dice_text


def hands_page() -> str:
    best = {h.rank: n for h, n in hands.best_hand_counts() if h is not None}
    nothing = next(n for h, n in hands.best_hand_counts() if h is None)
    counted = hands.hand_counts()
    differ = [h for h, n in counted if n != h.printed_count or not hands.percent_matches(h, n)]
    lines = [
        "# Dice Monarchs hands",
        "",
        "Every player rolls five hole dice (d4, d6, d8, d10, d12); the banker reveals the "
        f"community dice in three stages: {community_dice_text()}.",
        "",
        f"All {len(counted)} hands from highest to lowest. *Count* is how many of the "
        f"{hands.OUTCOMES:,} rolls of one d4, d6, d8, d10 and d12 hold the hand's pattern "
        "(some of the dice show exactly those values), computed by the engine; *Seed* is the "
        "count and percentage the seed prints for the hand's group. **⚠** marks a "
        "difference. *Best only* counts each roll once, under its highest hand.",
        "",
        "**Every printed count matches the engine's.**" if not differ else
        f"**{len(differ)} printed figures differ from the engine's (marked ⚠).**",
        "",
        "| Rank | Hand | Pattern | Count | Seed | Chance | Seed % | Best only |",
        "|---:|---|---|---:|---:|---:|---:|---:|",
    ]
    for h, n in counted:
        flag = "" if n == h.printed_count else " ⚠ differs"
        pflag = "" if hands.percent_matches(h, n) else " ⚠ differs"
        lines.append(
            f"| {h.rank + 1} | {h.name} | {','.join(map(str, h.pattern))} | {n} | "
            f"{h.printed_count}{flag} | {chance_text(Fraction(n, hands.OUTCOMES))} | "
            f"{h.printed_percent}%{pflag} | {best[h.rank]} |"
        )
    lines += [
        "",
        f"{nothing:,} rolls ({chance_text(Fraction(nothing, hands.OUTCOMES))}) "
        "hold no hand at all. "
        "At the showdown a player picks, for each size, their own die or the community one "
        "(32 choices), which makes hands far more common than these single-roll odds.",
        "",
        "## Hand strength, a worked example",
        "",
        "Hole dice 1, 2, 3, 4, 6 with community dice 2, 4, 6, 8 after the turn, against two "
        "opponents: " + strength.hand_strength((1, 2, 3, 4, 6), (2, 4, 6, 8), 2).describe()
        + ". (`python -m companion monarchs strength 1,2,3,4,6 --community 2,4,6,8 "
        "--opponents 2`)",
        "",
    ]
    return "\n".join(lines)


def earthmotes_page() -> str:
    lines = [
        "# Earthmote settlements and portals",
        "",
        f"An earthmote is rolled as {earthmotes.dice_text()}.",
        "",
        "The biome table's own odds for 11 and 12 count the first roll only. Counting the "
        "re-rolls too (each 11 or 12 is noted and its die rolled again):",
        "",
        "| Face | Feature | At least one | Expected number |",
        "|---|---|---:|---:|",
    ]
    for row, at_least, expected in earthmotes.feature_odds():
        lines.append(f"| {row.range} | {row.values['Biome']} ({row.values['Encounters']}) | "
                     f"{chance_text(at_least)} | {expected} |")
    lines += [
        "",
        "After the re-rolls each biome die is even on 1-10: a double has chance 1/100 and any "
        "other pair 2/100.",
        "",
        "Roll an earthmote's size:",
        "",
        "```roller",
        "1d6",
        "```",
        "",
    ]
    return "\n".join(lines)


def psychosis_page() -> str:
    lines = [
        "# Psychosis levels",
        "",
        "Effects add up: a creature suffers every effect up to its level, and any level makes "
        "it *poisoned*.",
        "",
        "| Level | Effect | Suffered at this level |",
        "|---:|---|---|",
    ]
    for lv in psychosis.levels():
        upto = ", ".join(str(k) for k in range(1, lv.level + 1))
        lines.append(f"| {lv.level} | {lv.effect} | levels {upto} |")
    lines += [
        "",
        "| Stress points | Levels gained per 24 hours inside the Miasma |",
        "|---|---:|",
        f"| 0-{psychosis.STRESS_ONE_LEVEL - 1} | 0 |",
        f"| {psychosis.STRESS_ONE_LEVEL}-{psychosis.STRESS_TWO_LEVELS - 1} | 1 |",
        f"| {psychosis.STRESS_TWO_LEVELS}+ | 2 |",
        "",
    ]
    return "\n".join(lines)


def reference_pages() -> dict[str, str]:
    """Pages under ``rules/miasma/``: hand table, earthmote features, psychosis levels."""
    return {
        "dice-monarchs-hands.md": hands_page(),
        "earthmote-features.md": earthmotes_page(),
        "psychosis-levels.md": psychosis_page(),
    }
